// RUN: pypto-opt %s --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}' | filecheck %s --check-prefix=CHECK
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}' | filecheck %s --check-prefix=CHECK
// RUN: %python -c "import numpy as np; np.save('%t.idx.npy', ((np.arange(16) * 7) % 32).astype(np.int32).reshape(16, 1))"
// RUN: sed '/^\/\/ -----/,$d' %s | pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel --input idx=%t.idx.npy -
// RUN: sed -e 's/a2a3/a5/' -e '/^\/\/ -----/,$d' %s | pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel --input idx=%t.idx.npy -

// Reference compiler PR #2585 (after the version ../shared/spec/lower-auto-vector-split.reference.md describes),
// checked against this pass (docs/lower-auto-vector-split.md, "Reference rules after the described version"):
// (a) a full-width operand meeting a halved one is checked first and the error names the full-width operand;
// (b) a reshape of a full-width source with a dynamic split extent is refused (not halved into an ill-typed op);
// (c) a slice with dropped dims maps the axis back before halving - NOT APPLICABLE: pto.slice keeps the rank
//     (docs/dialect.md: "one offset per dimension, same rank"), it cannot drop dims;
// (d) a select's mask is halved with its data - NOT APPLICABLE: the dialect has no select op; a gather's table
//     stays whole: pto.gather_row's source (the table its indices address) is kept whole on both lanes while the
//     index tile and the result are halved.
// The first module (up to the first split marker) is executed before and after both passes on both targets.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // (d) UP_DOWN: the table is loaded inside the split kernel. It stays whole (full width, both lanes load all
  // 32 rows) because its rows are addressed by index; the index tile is halved (each lane its 8 indices), so is
  // the gathered result, which meets the per-lane shard and is stored at the lane offset.
  // CHECK-LABEL: func.func @gather_table
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:       %xv = pto.aiv_shard %xm {split = 1 : i64} : !pto.tile<16x16xf32, mat> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %table = pto.load %t[0, 0] : !pto.tensor<32x16xf32> -> !pto.tile<32x16xf32, vec>
  // CHECK-NEXT:  %ix = pto.load %i[%[[L]], 0] : !pto.tensor<16x1xi32> -> !pto.tile<8x1xi32, vec>
  // CHECK-NEXT:  %g = pto.gather_row %table, %ix[0] : !pto.tile<32x16xf32, vec>, !pto.tile<8x1xi32, vec> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %s = pto.add %g, %xv : !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %o = pto.store %s, %out[%[[L]], 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<16x16xf32>
  func.func @gather_table(%t: !pto.tensor<32x16xf32>, %i: !pto.tensor<16x1xi32>, %x: !pto.tensor<16x16xf32>,
                          %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xv = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, vec>
    %table = pto.load %t[0, 0] : !pto.tensor<32x16xf32> -> !pto.tile<32x16xf32, vec>
    %ix = pto.load %i[0, 0] : !pto.tensor<16x1xi32> -> !pto.tile<16x1xi32, vec>
    %g = pto.gather_row %table, %ix[0] : !pto.tile<32x16xf32, vec>, !pto.tile<16x1xi32, vec> -> !pto.tile<16x16xf32, vec>
    %s = pto.add %g, %xv : !pto.tile<16x16xf32, vec>
    %o = pto.store %s, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }

  // (d) LEFT_RIGHT: the split is on the table's columns, which the indices do not address: the table is halved
  // (each lane loads its 8 columns), the [16, 1] index tile has a singleton split axis and stays whole, and the
  // result follows the table's split.
  // CHECK-LABEL: func.func @gather_table_cols
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:       %table = pto.load %t[0, %[[L]]] : !pto.tensor<32x16xf32> -> !pto.tile<32x8xf32, vec>
  // CHECK-NEXT:  %ix = pto.load %i[0, 0] : !pto.tensor<16x1xi32> -> !pto.tile<16x1xi32, vec>
  // CHECK-NEXT:  %g = pto.gather_row %table, %ix[0] : !pto.tile<32x8xf32, vec>, !pto.tile<16x1xi32, vec> -> !pto.tile<16x8xf32, vec>
  // CHECK-NEXT:  %s = pto.add %g, %xv : !pto.tile<16x8xf32, vec>
  // CHECK-NEXT:  %o = pto.store %s, %out[0, %[[L]]] : !pto.tile<16x8xf32, vec>, !pto.tensor<16x16xf32>
  func.func @gather_table_cols(%t: !pto.tensor<32x16xf32>, %i: !pto.tensor<16x1xi32>, %x: !pto.tensor<16x16xf32>,
                               %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xv = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, vec>
    %table = pto.load %t[0, 0] : !pto.tensor<32x16xf32> -> !pto.tile<32x16xf32, vec>
    %ix = pto.load %i[0, 0] : !pto.tensor<16x1xi32> -> !pto.tile<16x1xi32, vec>
    %g = pto.gather_row %table, %ix[0] : !pto.tile<32x16xf32, vec>, !pto.tile<16x1xi32, vec> -> !pto.tile<16x16xf32, vec>
    %s = pto.add %g, %xv : !pto.tile<16x16xf32, vec>
    %o = pto.store %s, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }

  // (d) the table is a C->V crossing: kept whole, it becomes a plain move (ExpandMixedKernel sends it with split
  // code 0, the whole tile to each lane) instead of a shard of half its rows.
  // CHECK-LABEL: func.func @gather_table_crossing
  // CHECK:       %tv = pto.move %tm : !pto.tile<32x16xf32, mat> -> !pto.tile<32x16xf32, vec>
  // CHECK-NEXT:  %ix = pto.load %i[%{{.*}}, 0] : !pto.tensor<16x1xi32> -> !pto.tile<8x1xi32, vec>
  // CHECK-NEXT:  %g = pto.gather_row %tv, %ix[0] : !pto.tile<32x16xf32, vec>, !pto.tile<8x1xi32, vec> -> !pto.tile<8x16xf32, vec>
  func.func @gather_table_crossing(%t: !pto.tensor<32x16xf32>, %i: !pto.tensor<16x1xi32>,
                                   %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %tm = pto.load %t[0, 0] : !pto.tensor<32x16xf32> -> !pto.tile<32x16xf32, mat>
    %tv = pto.move %tm : !pto.tile<32x16xf32, mat> -> !pto.tile<32x16xf32, vec>
    %ix = pto.load %i[0, 0] : !pto.tensor<16x1xi32> -> !pto.tile<16x1xi32, vec>
    %g = pto.gather_row %tv, %ix[0] : !pto.tile<32x16xf32, vec>, !pto.tile<16x1xi32, vec> -> !pto.tile<16x16xf32, vec>
    %o = pto.store %g, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }

  // CHECK-LABEL: func.func @main
  func.func @main(%t: !pto.tensor<32x16xf32>, %idx: !pto.tensor<16x1xi32>, %x: !pto.tensor<16x16xf32>)
      -> (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
    %o3 = pto.create_tensor : !pto.tensor<16x16xf32>
    %o1 = pto.create_tensor : !pto.tensor<16x16xf32>
    %o2 = pto.create_tensor : !pto.tensor<16x16xf32>
    %r1 = func.call @gather_table(%t, %idx, %x, %o1) : (!pto.tensor<32x16xf32>, !pto.tensor<16x1xi32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    %r2 = func.call @gather_table_cols(%t, %idx, %x, %o2) : (!pto.tensor<32x16xf32>, !pto.tensor<16x1xi32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    %r3 = func.call @gather_table_crossing(%t, %idx, %o3) : (!pto.tensor<32x16xf32>, !pto.tensor<16x1xi32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    func.return %r1, %r2, %r3 : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
  }
}

// -----

// (b) accepted form: a reshape of a full-width source (a rank-1 load, never halved) to a dynamic split extent
// is not halved (the reference's generic rule would give it an ill-typed floordiv half): it runs whole on both
// lanes and both lanes store the same cells to a tensor nothing else writes. The kernel is not executed: the
// interpreter needs static tile shapes.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @reshape_dynamic_whole
  // CHECK:       %l = pto.load %x[0] : !pto.tensor<256xf32> -> !pto.tile<256xf32, vec>
  // CHECK-NEXT:  %r = pto.reshape %l : !pto.tile<256xf32, vec> -> !pto.tile<?x16xf32, vec>
  // CHECK-NEXT:  %o2 = pto.store %r, %out2[0, 0] : !pto.tile<?x16xf32, vec>, !pto.tensor<16x16xf32>
  // CHECK-NEXT:  %o = pto.store %s, %out[%{{.*}}, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<16x16xf32>
  func.func @reshape_dynamic_whole(%qk: !pto.tile<16x16xf32, acc>, %x: !pto.tensor<256xf32>,
                                   %out: !pto.tensor<16x16xf32> {pto.out}, %out2: !pto.tensor<16x16xf32> {pto.out})
      -> (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %l = pto.load %x[0] : !pto.tensor<256xf32> -> !pto.tile<256xf32, vec>
    %r = pto.reshape %l : !pto.tile<256xf32, vec> -> !pto.tile<?x16xf32, vec>
    %o2 = pto.store %r, %out2[0, 0] : !pto.tile<?x16xf32, vec>, !pto.tensor<16x16xf32>
    %o = pto.store %s, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o, %o2 : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
  }
}

// -----

// (a) a full-width operand (a vec parameter: never halved, no lane slice of it is taken) meeting a halved one:
// the error names the full-width operand, whichever operand position it is in.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @full_width_first(%qk: !pto.tile<16x16xf32, acc>, %p: !pto.tile<16x16xf32, vec>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    // expected-error@+1 {{LowerAutoVectorSplit: 'pto.add' cannot be halved along the split axis: its operand(s) 's' are per-lane halves but 'p' stay full width}}
    %a = pto.add %p, %s : !pto.tile<16x16xf32, vec>
    func.return
  }
}

// -----

builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @full_width_broadcast(%qk: !pto.tile<16x16xf32, acc>, %p: !pto.tile<16x16xf32, vec>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %m = pto.row_max %s : !pto.tile<16x16xf32, vec> -> !pto.tile<16x1xf32, vec>
    // expected-error@+1 {{'pto.row_expand_sub' cannot be halved along the split axis: its operand(s) 'm' are per-lane halves but 'p' stay full width}}
    %a = pto.row_expand_sub %p, %m : !pto.tile<16x16xf32, vec>, !pto.tile<16x1xf32, vec>
    func.return
  }
}

// -----

// (d) a table that cannot be kept whole (it is carried by an scf.while, which a full-width chain does not
// follow) is split on its rows and refused: the indices address the whole table.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @gather_table_while(%t: !pto.tensor<32x16xf32>, %i: !pto.tensor<16x1xi32>, %n: index,
                                %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %tm = pto.load %t[0, 0] : !pto.tensor<32x16xf32> -> !pto.tile<32x16xf32, mat>
    %tv = pto.move %tm : !pto.tile<32x16xf32, mat> -> !pto.tile<32x16xf32, vec>
    %w:2 = scf.while (%a = %tv, %k = %c0) : (!pto.tile<32x16xf32, vec>, index) -> (!pto.tile<32x16xf32, vec>, index) {
      %cond = arith.cmpi slt, %k, %n : index
      scf.condition(%cond) %a, %k : !pto.tile<32x16xf32, vec>, index
    } do {
    ^bb0(%a2: !pto.tile<32x16xf32, vec>, %k2: index):
      %a3 = pto.exp %a2 : !pto.tile<32x16xf32, vec>
      %k3 = arith.addi %k2, %c1 : index
      scf.yield %a3, %k3 : !pto.tile<32x16xf32, vec>, index
    }
    %ix = pto.load %i[0, 0] : !pto.tensor<16x1xi32> -> !pto.tile<16x1xi32, vec>
    // expected-error@+1 {{LowerAutoVectorSplit: pto.gather_row reads rows of 'w' by index, but that tile is split on its rows (UP_DOWN)}}
    %g = pto.gather_row %w#0, %ix[0] : !pto.tile<32x16xf32, vec>, !pto.tile<16x1xi32, vec> -> !pto.tile<16x16xf32, vec>
    %o = pto.store %g, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }
}
