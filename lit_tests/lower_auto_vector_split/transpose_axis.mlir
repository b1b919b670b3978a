// RUN: pypto-opt %s '--lower-auto-vector-split{fallback=error}' | filecheck %s
// RUN: pypto-opt %s '--lower-auto-vector-split{fallback=error}' --expand-mixed-kernel | filecheck %s --check-prefixes=EMK,A2A3
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir '--lower-auto-vector-split{fallback=error}' --expand-mixed-kernel | filecheck %s --check-prefixes=EMK,A5
// RUN: pypto-run --quiet --entry single --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry single --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry with_ci --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry with_ci --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry col_stats --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry col_stats --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry back_to_cube --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry back_to_cube --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry in_loop --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry in_loop --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir

// Transposes that swap the split axis (issue 43, part 2): the split axis of each value is tracked, and a
// pto.transpose of a per-lane tile moves it with the permutation, so the transposed value is split on the other
// axis (each lane holds a column band of what was its row band).  Its store, gather and loop carry follow that
// axis; a generator combined with it is halved on it too (auto/generator_axes.py); and ExpandMixedKernel no
// longer reports the transpose hazard for a kernel this pass lowered (pto.split_aiv).  Where values split on
// different axes meet, the pass refuses: transpose_axis_errors.mlir.  Every kernel is checked by execution on
// a2a3 and a5.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // UP_DOWN: lane l holds rows [8l, 8l+8) of %s; transposed, it holds columns [8l, 8l+8): the store moves its
  // column offset.  ExpandMixedKernel expands it (no transpose hazard), on both targets.
  // CHECK-LABEL: func.func @single
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:       %s = pto.aiv_shard %qk {split = 1 : i64} : !pto.tile<16x16xf32, acc> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %t = pto.transpose %s : !pto.tile<8x16xf32, vec> -> !pto.tile<16x8xf32, vec>
  // CHECK-NEXT:  %o = pto.store %t, %out[0, %[[L]]] : !pto.tile<16x8xf32, vec>, !pto.tensor<16x16xf32>
  // EMK-LABEL:   func.func @single_aiv
  // EMK:         %s = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<8x16xf32, vec>
  // EMK-NEXT:    %t = pto.transpose %s : !pto.tile<8x16xf32, vec> -> !pto.tile<16x8xf32, vec>
  // A2A3-NOT:    pto.dual_aiv_dispatch
  // A5-NOT:      pto.dual_aiv_dispatch
  func.func @single(%qk: !pto.tile<16x16xf32, acc>, %out: !pto.tensor<16x16xf32> {pto.out})
      -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %t = pto.transpose %s : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>
    %o = pto.store %t, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }
  // LEFT_RIGHT: the transposed value is split on dim 0, so the pto.ci added to it is generated at the lane's
  // rows (seeded at the lane's first cell, 16 rows x 16 = 256 cells per lane), not halved on the columns.
  // CHECK-LABEL: func.func @with_ci
  // CHECK:       %[[C:.*]] = arith.muli %subblock_idx, %c256 : index
  // CHECK:       %[[R:.*]] = arith.muli %subblock_idx, %c16 : index
  // CHECK:       %t = pto.transpose %s : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>
  // CHECK:       %ci = pto.ci %{{.*}} : i32 -> !pto.tile<16x16xi32, vec>
  // CHECK-NEXT:  %cf = pto.cast %ci : !pto.tile<16x16xi32, vec> -> !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:  %y = pto.add %t, %cf : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:  %o = pto.store %y, %out[%[[R]], 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<32x16xf32>
  func.func @with_ci(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<32x16xf32> {pto.out})
      -> !pto.tensor<32x16xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %t = pto.transpose %s : !pto.tile<16x32xf32, vec> -> !pto.tile<32x16xf32, vec>
    %c5 = arith.constant 5 : i32
    %ci = pto.ci %c5 : i32 -> !pto.tile<32x16xi32, vec>
    %cf = pto.cast %ci : !pto.tile<32x16xi32, vec> -> !pto.tile<32x16xf32, vec>
    %y = pto.add %t, %cf : !pto.tile<32x16xf32, vec>
    %o = pto.store %y, %out[0, 0] : !pto.tile<32x16xf32, vec>, !pto.tensor<32x16xf32>
    func.return %o : !pto.tensor<32x16xf32>
  }
  // UP_DOWN column statistics of a transposed tile: after the transpose the split axis is dim 1, so a col_max
  // (over dim 0) is lane-local, and so is its col_expand_sub.
  // CHECK-LABEL: func.func @col_stats
  // CHECK:       %t = pto.transpose %s : !pto.tile<8x32xf32, vec> -> !pto.tile<32x8xf32, vec>
  // CHECK-NEXT:  %m = pto.col_max %t : !pto.tile<32x8xf32, vec> -> !pto.tile<1x8xf32, vec>
  // CHECK-NEXT:  %y = pto.col_expand_sub %t, %m : !pto.tile<32x8xf32, vec>, !pto.tile<1x8xf32, vec>
  func.func @col_stats(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<32x16xf32> {pto.out})
      -> !pto.tensor<32x16xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %t = pto.transpose %s : !pto.tile<16x32xf32, vec> -> !pto.tile<32x16xf32, vec>
    %m = pto.col_max %t : !pto.tile<32x16xf32, vec> -> !pto.tile<1x16xf32, vec>
    %y = pto.col_expand_sub %t, %m : !pto.tile<32x16xf32, vec>, !pto.tile<1x16xf32, vec>
    %o = pto.store %y, %out[0, 0] : !pto.tile<32x16xf32, vec>, !pto.tensor<32x16xf32>
    func.return %o : !pto.tensor<32x16xf32>
  }
  // Back to the cube: the V->C gather joins the lanes on the value's own axis (dim 1: split = 2), not the
  // function's.
  // CHECK-LABEL: func.func @back_to_cube
  // CHECK:       %r = pto.relu %t : !pto.tile<16x8xf32, vec>
  // CHECK-NEXT:  %m_mat = pto.aic_gather %r {split = 2 : i64} : !pto.tile<16x8xf32, vec> -> !pto.tile<16x16xf32, mat>
  // EMK-LABEL:   func.func @back_to_cube_aic
  // EMK:         pto.tpop_from_aiv {split = 2 : i64}
  func.func @back_to_cube(%qk: !pto.tile<16x16xf32, acc>, %w: !pto.tile<16x16xf32, right>, %out: !pto.tensor<16x16xf32> {pto.out})
      -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %t = pto.transpose %s : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>
    %r = pto.relu %t : !pto.tile<16x16xf32, vec>
    %m = pto.move %r : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, mat>
    %l = pto.move %m : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
    %z = pto.matmul %l, %w : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>
    %zv = pto.move %z : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %o = pto.store %zv, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }
  // A transposed value carried by an scf.for: the carried tile keeps the axis of its initial value (dim 0).
  // CHECK-LABEL: func.func @in_loop
  // CHECK:       scf.for %k = %c0 to %c3 step %c1 iter_args(%a = %t) -> (!pto.tile<8x16xf32, vec>)
  // CHECK:       pto.store %acc, %out[%{{.*}}, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<16x16xf32>
  func.func @in_loop(%qk: !pto.tile<16x16xf32, acc>, %out: !pto.tensor<16x16xf32> {pto.out})
      -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %t = pto.transpose %s : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %acc = scf.for %k = %c0 to %c3 step %c1 iter_args(%a = %t) -> (!pto.tile<16x16xf32, vec>) {
      %n = pto.add %a, %t : !pto.tile<16x16xf32, vec>
      scf.yield %n : !pto.tile<16x16xf32, vec>
    }
    %o = pto.store %acc, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }
}
