// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split | filecheck %s
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel -
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry rv_full_width %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry extracts -
// RUN: %python -c "import numpy as np; np.save('%t.idx.npy', ((np.arange(16) * 7) % 32).astype(np.int32).reshape(16, 1))"
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry gather_rows --input i=%t.idx.npy %s

// Halving of the ops added beyond the contract (docs/lower-auto-vector-split.md, "Views and lane-addressed
// ops"): pto.reinterpret_view, pto.extract, pto.gather_row.  The halving does not depend on the target; both
// targets are run, and every kernel is executed before and after both passes (one orchestration per kernel).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // A per-lane source: the view follows the split (UP_DOWN, rows: 8 of 16 rows, 32 i16 columns).
  // CHECK-LABEL: func.func @rv_rows
  // CHECK:       %xv = pto.aiv_shard %xm {split = 1 : i64} : !pto.tile<16x16xf32, mat> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %bits = pto.reinterpret_view %xv : !pto.tile<8x16xf32, vec> -> !pto.tile<8x32xi16, vec>
  // CHECK-NEXT:  %o = pto.store %bits, %out[%{{.*}}, 0] : !pto.tile<8x32xi16, vec>, !pto.tensor<16x32xi16>
  func.func @rv_rows(%x: !pto.tensor<16x16xf32>, %out: !pto.tensor<16x32xi16> {pto.out}) -> !pto.tensor<16x32xi16>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xv = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, vec>
    %bits = pto.reinterpret_view %xv : !pto.tile<16x16xf32, vec> -> !pto.tile<16x32xi16, vec>
    %o = pto.store %bits, %out[0, 0] : !pto.tile<16x32xi16, vec>, !pto.tensor<16x32xi16>
    func.return %o : !pto.tensor<16x32xi16>
  }

  // LEFT_RIGHT changes the element width along the split axis: each lane's 8 f32 columns are 16 i16 columns,
  // and the store moves by subblock_idx * 16.
  // CHECK-LABEL: func.func @rv_cols
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c16 : index
  // CHECK:       %xv = pto.aiv_shard %xm {split = 2 : i64} : !pto.tile<16x16xf32, mat> -> !pto.tile<16x8xf32, vec>
  // CHECK-NEXT:  %bits = pto.reinterpret_view %xv : !pto.tile<16x8xf32, vec> -> !pto.tile<16x16xi16, vec>
  // CHECK-NEXT:  %o = pto.store %bits, %out[0, %[[L]]] : !pto.tile<16x16xi16, vec>, !pto.tensor<16x32xi16>
  func.func @rv_cols(%x: !pto.tensor<16x16xf32>, %out: !pto.tensor<16x32xi16> {pto.out}) -> !pto.tensor<16x32xi16>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xv = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, vec>
    %bits = pto.reinterpret_view %xv : !pto.tile<16x16xf32, vec> -> !pto.tile<16x32xi16, vec>
    %o = pto.store %bits, %out[0, 0] : !pto.tile<16x32xi16, vec>, !pto.tensor<16x32xi16>
    func.return %o : !pto.tensor<16x32xi16>
  }

  // A full-width source (a vec parameter is never halved): the view is kept at full width and each lane
  // slices its half out of it (reference: the untracked-input rule shared with pto.reshape).
  // CHECK-LABEL: func.func @rv_full_width
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:       %bits = pto.reinterpret_view %v : !pto.tile<16x16xf32, vec> -> !pto.tile<16x32xi16, vec>
  // CHECK-NEXT:  %bits_1 = pto.slice %bits[%[[L]], 0] : !pto.tile<16x32xi16, vec> -> !pto.tile<8x32xi16, vec>
  // CHECK-NEXT:  %o = pto.store %bits_1, %out[%[[L]], 0] : !pto.tile<8x32xi16, vec>, !pto.tensor<16x32xi16>
  func.func @rv_full_width(%v: !pto.tile<16x16xf32, vec>, %x: !pto.tensor<16x16xf32>, %out: !pto.tensor<16x32xi16> {pto.out},
                           %out2: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x32xi16>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xv = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, vec>
    %o2 = pto.store %xv, %out2[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    %bits = pto.reinterpret_view %v : !pto.tile<16x16xf32, vec> -> !pto.tile<16x32xi16, vec>
    %o = pto.store %bits, %out[0, 0] : !pto.tile<16x32xi16, vec>, !pto.tensor<16x32xi16>
    func.return %o : !pto.tensor<16x32xi16>
  }

  // pto.extract of a per-lane tile along the other axis: the offsets are kept, the window halved with it; of a
  // full-width tile (LEFT_RIGHT here, a vec parameter): the column offset moves by subblock_idx * 8.
  // CHECK-LABEL: func.func @extracts
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:       %a = pto.extract %xv[4, 0] : !pto.tile<16x8xf32, vec> -> !pto.tile<8x8xf32, vec>
  // CHECK-NEXT:  %b = pto.extract %v[0, %[[L]]] : !pto.tile<8x32xf32, vec> -> !pto.tile<8x8xf32, vec>
  // CHECK-NEXT:  %s = pto.add %a, %b : !pto.tile<8x8xf32, vec>
  // CHECK-NEXT:  %o = pto.store %s, %out[0, %[[L]]] : !pto.tile<8x8xf32, vec>, !pto.tensor<8x16xf32>
  func.func @extracts(%v: !pto.tile<8x32xf32, vec>, %x: !pto.tensor<16x16xf32>, %out: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xv = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, vec>
    %a = pto.extract %xv[4, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>
    %b = pto.extract %v[0, 0] : !pto.tile<8x32xf32, vec> -> !pto.tile<8x16xf32, vec>
    %s = pto.add %a, %b : !pto.tile<8x16xf32, vec>
    %o = pto.store %s, %out[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    func.return %o : !pto.tensor<8x16xf32>
  }

  // pto.gather_row: LEFT_RIGHT halves the source's columns, the [8, 1] index column stays full width (its split
  // dim is a singleton), so each lane gathers the same rows of its own columns.
  // CHECK-LABEL: func.func @gather_cols
  // CHECK:       %xv = pto.aiv_shard %xm {split = 2 : i64} : !pto.tile<16x16xf32, mat> -> !pto.tile<16x8xf32, vec>
  // CHECK-NEXT:  %c0_i32 = arith.constant 0 : i32
  // CHECK-NEXT:  %idx = pto.ci %c0_i32 : i32 -> !pto.tile<8x1xi32, vec>
  // CHECK-NEXT:  %g = pto.gather_row %xv, %idx[4] : !pto.tile<16x8xf32, vec>, !pto.tile<8x1xi32, vec> -> !pto.tile<8x8xf32, vec>
  // CHECK-NEXT:  %o = pto.store %g, %out[0, %{{.*}}] : !pto.tile<8x8xf32, vec>, !pto.tensor<8x16xf32>
  func.func @gather_cols(%x: !pto.tensor<16x16xf32>, %out: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xv = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, vec>
    %c0_i32 = arith.constant 0 : i32
    %idx = pto.ci %c0_i32 : i32 -> !pto.tile<8x1xi32, vec>
    %g = pto.gather_row %xv, %idx[4] : !pto.tile<16x16xf32, vec>, !pto.tile<8x1xi32, vec> -> !pto.tile<8x16xf32, vec>
    %o = pto.store %g, %out[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    func.return %o : !pto.tensor<8x16xf32>
  }

  // UP_DOWN: a per-lane index tile (loaded, so halved on its rows) and a full-width source: each lane gathers
  // its own result rows from the whole source.
  // CHECK-LABEL: func.func @gather_rows
  // CHECK:       %idx = pto.load %i[%{{.*}}, 0] : !pto.tensor<16x1xi32> -> !pto.tile<8x1xi32, vec>
  // CHECK-NEXT:  %g = pto.gather_row %src, %idx[0] : !pto.tile<32x16xf32, vec>, !pto.tile<8x1xi32, vec> -> !pto.tile<8x16xf32, vec>
  func.func @gather_rows(%src: !pto.tile<32x16xf32, vec>, %i: !pto.tensor<16x1xi32>, %x: !pto.tensor<16x16xf32>,
                         %out: !pto.tensor<16x16xf32> {pto.out}, %out2: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xv = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, vec>
    %o2 = pto.store %xv, %out2[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    %idx = pto.load %i[0, 0] : !pto.tensor<16x1xi32> -> !pto.tile<16x1xi32, vec>
    %g = pto.gather_row %src, %idx[0] : !pto.tile<32x16xf32, vec>, !pto.tile<16x1xi32, vec> -> !pto.tile<16x16xf32, vec>
    %o = pto.store %g, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }

  // One orchestration runs the kernels that take only tensors.
  func.func @main(%x: !pto.tensor<16x16xf32>) -> (!pto.tensor<16x32xi16>, !pto.tensor<16x32xi16>, !pto.tensor<8x16xf32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %o1 = pto.create_tensor : !pto.tensor<16x32xi16>
    %o2 = pto.create_tensor : !pto.tensor<16x32xi16>
    %o3 = pto.create_tensor : !pto.tensor<8x16xf32>
    %r1 = func.call @rv_rows(%x, %o1) : (!pto.tensor<16x16xf32>, !pto.tensor<16x32xi16>) -> !pto.tensor<16x32xi16>
    %r2 = func.call @rv_cols(%x, %o2) : (!pto.tensor<16x16xf32>, !pto.tensor<16x32xi16>) -> !pto.tensor<16x32xi16>
    %r3 = func.call @gather_cols(%x, %o3) : (!pto.tensor<16x16xf32>, !pto.tensor<8x16xf32>) -> !pto.tensor<8x16xf32>
    func.return %r1, %r2, %r3 : !pto.tensor<16x32xi16>, !pto.tensor<16x32xi16>, !pto.tensor<8x16xf32>
  }
}
