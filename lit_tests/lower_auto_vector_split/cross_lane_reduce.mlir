// RUN: pypto-opt %s '--lower-auto-vector-split{fallback=error}' | filecheck %s
// RUN: pypto-opt %s '--lower-auto-vector-split{fallback=error}' --expand-mixed-kernel | filecheck %s --check-prefixes=EMK,A2A3
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir '--lower-auto-vector-split{fallback=error}' --expand-mixed-kernel | filecheck %s --check-prefixes=EMK,A5
// RUN: pypto-run --quiet --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --check-pipeline 'lower-auto-vector-split{fallback=error}' %s
// RUN: pypto-run --quiet --check-pipeline 'lower-auto-vector-split{fallback=error}' %t.a5.mlir

// Reductions over the split axis (issue 43, part 1): a col_* under up_down or a row_* under left_right is split.
// Each lane reduces its half; the partial goes to the lane's row (%subblock_idx) of a pto.lane_workspace made
// once at the kernel entry (one per reduction, [2, result shape]); a pto.lane_barrier; both lanes load both rows
// (lane 0's first) and combine them with the reduction's own combine (sum: pto.add, max: pto.max, min: pto.min).
// The result is whole on both lanes, so a *_expand_* broadcasts it over the lane's half.  Inside a loop a second
// barrier comes before the store (the next iteration's store must not overwrite a row the other lane is still
// loading); where a lane's half may hold no valid cell, the row is filled with the combine's identity first.
// ExpandMixedKernel keeps the workspace and the barriers on the AIV side.  Every kernel runs before and after on
// a2a3 and a5, with random (non-uniform) data; cross_lane_reduce_mutations.mlir shows the checks fail when the
// barrier, the combine or the rows are wrong.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // LEFT_RIGHT softmax: the row max and the row sum reduce the split (column) axis.
  // CHECK-LABEL: func.func @softmax_rows
  // CHECK-NEXT:  %subblock_idx = pto.get_subblock_idx : index
  // CHECK-NEXT:  %m_ws = pto.lane_workspace : !pto.tensor<2x16x1xf32>
  // CHECK-NEXT:  %z_ws = pto.lane_workspace : !pto.tensor<2x16x1xf32>
  // CHECK:       %s = pto.aiv_shard %qk {split = 2 : i64} : !pto.tile<16x32xf32, acc> -> !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:  %m_part = pto.row_max %s : !pto.tile<16x16xf32, vec> -> !pto.tile<16x1xf32, vec>
  // CHECK-NEXT:  %m_row = pto.store %m_part, %m_ws[%subblock_idx, 0, 0] : !pto.tile<16x1xf32, vec>, !pto.tensor<2x16x1xf32>
  // CHECK-NEXT:  pto.lane_barrier
  // CHECK-NEXT:  %m_lo = pto.load %m_row[0, 0, 0] : !pto.tensor<2x16x1xf32> -> !pto.tile<16x1xf32, vec>
  // CHECK-NEXT:  %m_hi = pto.load %m_row[1, 0, 0] : !pto.tensor<2x16x1xf32> -> !pto.tile<16x1xf32, vec>
  // CHECK-NEXT:  %m = pto.max %m_lo, %m_hi : !pto.tile<16x1xf32, vec>
  // CHECK-NEXT:  %d = pto.row_expand_sub %s, %m : !pto.tile<16x16xf32, vec>, !pto.tile<16x1xf32, vec>
  // CHECK-NEXT:  %e = pto.exp %d : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:  %z_part = pto.row_sum %e : !pto.tile<16x16xf32, vec> -> !pto.tile<16x1xf32, vec>
  // CHECK-NEXT:  %z_row = pto.store %z_part, %z_ws[%subblock_idx, 0, 0]
  // CHECK-NEXT:  pto.lane_barrier
  // CHECK-NEXT:  %z_lo = pto.load %z_row[0, 0, 0]
  // CHECK-NEXT:  %z_hi = pto.load %z_row[1, 0, 0]
  // CHECK-NEXT:  %z = pto.add %z_lo, %z_hi : !pto.tile<16x1xf32, vec>
  // CHECK-NEXT:  %p = pto.row_expand_div %e, %z : !pto.tile<16x16xf32, vec>, !pto.tile<16x1xf32, vec>
  // CHECK-NEXT:  %o = pto.store %p, %out[0, %{{.*}}] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x32xf32>
  // EMK-LABEL:   func.func @softmax_rows_aic
  // EMK-NOT:     pto.lane_
  // EMK-LABEL:   func.func @softmax_rows_aiv
  // A2A3-NOT:    pto.dual_aiv_dispatch
  // A5-NOT:      pto.dual_aiv_dispatch
  // EMK:         %m_ws = pto.lane_workspace : !pto.tensor<2x16x1xf32>
  // EMK:         %s = pto.tpop_from_aic {split = 2 : i64} : !pto.tile<16x16xf32, vec>
  // EMK:         pto.lane_barrier
  // EMK:         pto.lane_barrier
  // EMK-LABEL:   func.func @softmax_rows(
  func.func @softmax_rows(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<16x32xf32> {pto.out})
      -> !pto.tensor<16x32xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %m = pto.row_max %s : !pto.tile<16x32xf32, vec> -> !pto.tile<16x1xf32, vec>
    %d = pto.row_expand_sub %s, %m : !pto.tile<16x32xf32, vec>, !pto.tile<16x1xf32, vec>
    %e = pto.exp %d : !pto.tile<16x32xf32, vec>
    %z = pto.row_sum %e : !pto.tile<16x32xf32, vec> -> !pto.tile<16x1xf32, vec>
    %p = pto.row_expand_div %e, %z : !pto.tile<16x32xf32, vec>, !pto.tile<16x1xf32, vec>
    %o = pto.store %p, %out[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>
    func.return %o : !pto.tensor<16x32xf32>
  }

  // UP_DOWN column minimum, also stored as an output: the whole value is stored by both lanes (the same cells,
  // the same values; nothing else writes %mins).
  // CHECK-LABEL: func.func @col_stats
  // CHECK:       %m_part = pto.col_min %s : !pto.tile<8x32xf32, vec> -> !pto.tile<1x32xf32, vec>
  // CHECK-NEXT:  %m_row = pto.store %m_part, %m_ws[%subblock_idx, 0, 0] : !pto.tile<1x32xf32, vec>, !pto.tensor<2x1x32xf32>
  // CHECK-NEXT:  pto.lane_barrier
  // CHECK-NEXT:  %m_lo = pto.load %m_row[0, 0, 0] : !pto.tensor<2x1x32xf32> -> !pto.tile<1x32xf32, vec>
  // CHECK-NEXT:  %m_hi = pto.load %m_row[1, 0, 0] : !pto.tensor<2x1x32xf32> -> !pto.tile<1x32xf32, vec>
  // CHECK-NEXT:  %m = pto.min %m_lo, %m_hi : !pto.tile<1x32xf32, vec>
  // CHECK-NEXT:  %d = pto.col_expand_sub %s, %m : !pto.tile<8x32xf32, vec>, !pto.tile<1x32xf32, vec>
  // CHECK-NEXT:  %o = pto.store %d, %out[%{{.*}}, 0] : !pto.tile<8x32xf32, vec>, !pto.tensor<16x32xf32>
  // CHECK-NEXT:  %o2 = pto.store %m, %mins[0, 0] : !pto.tile<1x32xf32, vec>, !pto.tensor<1x32xf32>
  func.func @col_stats(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<16x32xf32> {pto.out},
                       %mins: !pto.tensor<1x32xf32> {pto.out})
      -> (!pto.tensor<16x32xf32>, !pto.tensor<1x32xf32>) attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %m = pto.col_min %s : !pto.tile<16x32xf32, vec> -> !pto.tile<1x32xf32, vec>
    %d = pto.col_expand_sub %s, %m : !pto.tile<16x32xf32, vec>, !pto.tile<1x32xf32, vec>
    %o = pto.store %d, %out[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>
    %o2 = pto.store %m, %mins[0, 0] : !pto.tile<1x32xf32, vec>, !pto.tensor<1x32xf32>
    func.return %o, %o2 : !pto.tensor<16x32xf32>, !pto.tensor<1x32xf32>
  }

  // A run-time row count (%n rows valid; @main passes 5, so lane 1's half holds none): each lane's row is filled
  // with max's identity (-inf, 0xff800000) before its partial is stored over it.
  // CHECK-LABEL: func.func @ragged
  // CHECK:       %m_part = pto.col_max %r : !pto.tile<8x32xf32, vec, valid = [?, 32]> -> !pto.tile<1x32xf32, vec>
  // CHECK-NEXT:  %max_identity = arith.constant 0xff800000 : f32
  // CHECK-NEXT:  %m_identity = pto.full %max_identity : f32 -> !pto.tile<1x32xf32, vec>
  // CHECK-NEXT:  %m_filled = pto.store %m_identity, %m_ws[%subblock_idx, 0, 0]
  // CHECK-NEXT:  %m_row = pto.store %m_part, %m_filled[%subblock_idx, 0, 0]
  // CHECK-NEXT:  pto.lane_barrier
  // CHECK-NEXT:  %m_lo = pto.load %m_row[0, 0, 0]
  // CHECK-NEXT:  %m_hi = pto.load %m_row[1, 0, 0]
  // CHECK-NEXT:  %m = pto.max %m_lo, %m_hi : !pto.tile<1x32xf32, vec>
  func.func @ragged(%qk: !pto.tile<16x32xf32, acc>, %n: index, %out: !pto.tensor<16x32xf32> {pto.out})
      -> !pto.tensor<16x32xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %r = pto.set_validshape %s valid [%n, 32] : !pto.tile<16x32xf32, vec> -> !pto.tile<16x32xf32, vec, valid = [?, 32]>
    %m = pto.col_max %r : !pto.tile<16x32xf32, vec, valid = [?, 32]> -> !pto.tile<1x32xf32, vec>
    %d = pto.col_expand_sub %s, %m : !pto.tile<16x32xf32, vec>, !pto.tile<1x32xf32, vec>
    %o = pto.store %d, %out[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>
    func.return %o : !pto.tensor<16x32xf32>
  }

  // An odd split axis (15 rows: lanes of 8 and 7) with a statically known extent: both halves hold cells, so no
  // identity fill.
  // CHECK-LABEL: func.func @odd_rows
  // CHECK:       %z_part = pto.col_sum %s : !pto.tile<8x32xf32, vec, valid = [?, 32]> -> !pto.tile<1x32xf32, vec>
  // CHECK-NEXT:  %z_row = pto.store %z_part, %z_ws[%subblock_idx, 0, 0]
  // CHECK-NEXT:  pto.lane_barrier
  func.func @odd_rows(%qk: !pto.tile<15x32xf32, acc>, %out: !pto.tensor<15x32xf32> {pto.out})
      -> !pto.tensor<15x32xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<15x32xf32, acc> -> !pto.tile<15x32xf32, vec>
    %z = pto.col_sum %s : !pto.tile<15x32xf32, vec> -> !pto.tile<1x32xf32, vec>
    %d = pto.col_expand_mul %s, %z : !pto.tile<15x32xf32, vec>, !pto.tile<1x32xf32, vec>
    %o = pto.store %d, %out[0, 0] : !pto.tile<15x32xf32, vec>, !pto.tensor<15x32xf32>
    func.return %o : !pto.tensor<15x32xf32>
  }

  // In a loop the workspace is reused by the next iteration: a write-after-read barrier before the store.
  // CHECK-LABEL: func.func @in_loop
  // CHECK:       scf.for
  // CHECK-NEXT:  %z_part = pto.row_max %x : !pto.tile<16x16xf32, vec> -> !pto.tile<16x1xf32, vec>
  // CHECK-NEXT:  pto.lane_barrier
  // CHECK-NEXT:  %z_row = pto.store %z_part, %z_ws[%subblock_idx, 0, 0]
  // CHECK-NEXT:  pto.lane_barrier
  // CHECK-NEXT:  %z_lo = pto.load %z_row[0, 0, 0]
  // CHECK-NEXT:  %z_hi = pto.load %z_row[1, 0, 0]
  // CHECK-NEXT:  %z = pto.max %z_lo, %z_hi : !pto.tile<16x1xf32, vec>
  // CHECK-NEXT:  %w = pto.row_expand_sub %x, %z
  func.func @in_loop(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<16x32xf32> {pto.out})
      -> !pto.tensor<16x32xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %half = arith.constant 0.5 : f32
    %acc = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %s) -> (!pto.tile<16x32xf32, vec>) {
      %z = pto.row_max %x : !pto.tile<16x32xf32, vec> -> !pto.tile<16x1xf32, vec>
      %w = pto.row_expand_sub %x, %z : !pto.tile<16x32xf32, vec>, !pto.tile<16x1xf32, vec>
      %y = pto.adds %w, %half : !pto.tile<16x32xf32, vec>, f32
      scf.yield %y : !pto.tile<16x32xf32, vec>
    }
    %o = pto.store %acc, %out[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>
    func.return %o : !pto.tensor<16x32xf32>
  }

  // After a transpose the split axis is dim 1 (up_down), so a row sum reduces it.  Its whole [32, 1] result is
  // stored by each lane on its rows (its lane part on the function's axis), beside the per-lane data.
  // CHECK-LABEL: func.func @transposed
  // CHECK:       %t = pto.transpose %s : !pto.tile<8x32xf32, vec> -> !pto.tile<32x8xf32, vec>
  // CHECK-NEXT:  %z_part = pto.row_sum %t : !pto.tile<32x8xf32, vec> -> !pto.tile<32x1xf32, vec>
  // CHECK:       %z = pto.add %z_lo, %z_hi : !pto.tile<32x1xf32, vec>
  // CHECK-NEXT:  %[[PART:.*]] = pto.slice %z[%{{.*}}, 0] : !pto.tile<32x1xf32, vec> -> !pto.tile<16x1xf32, vec>
  // CHECK-NEXT:  %d = pto.row_expand_sub %t, %z : !pto.tile<32x8xf32, vec>, !pto.tile<32x1xf32, vec>
  // CHECK:       pto.store %[[PART]], %sums[%{{.*}}, 0] : !pto.tile<16x1xf32, vec>, !pto.tensor<32x1xf32>
  func.func @transposed(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<32x16xf32> {pto.out},
                        %sums: !pto.tensor<32x1xf32> {pto.out})
      -> (!pto.tensor<32x16xf32>, !pto.tensor<32x1xf32>) attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %t = pto.transpose %s : !pto.tile<16x32xf32, vec> -> !pto.tile<32x16xf32, vec>
    %z = pto.row_sum %t : !pto.tile<32x16xf32, vec> -> !pto.tile<32x1xf32, vec>
    %d = pto.row_expand_sub %t, %z : !pto.tile<32x16xf32, vec>, !pto.tile<32x1xf32, vec>
    %o = pto.store %d, %out[0, 0] : !pto.tile<32x16xf32, vec>, !pto.tensor<32x16xf32>
    %o2 = pto.store %z, %sums[0, 0] : !pto.tile<32x1xf32, vec>, !pto.tensor<32x1xf32>
    func.return %o, %o2 : !pto.tensor<32x16xf32>, !pto.tensor<32x1xf32>
  }

  // CHECK-LABEL: func.func @main
  func.func @main(%a: !pto.tile<16x32xf32, acc>, %b: !pto.tile<15x32xf32, acc>)
      -> (!pto.tensor<16x32xf32>, !pto.tensor<16x32xf32>, !pto.tensor<1x32xf32>, !pto.tensor<16x32xf32>,
          !pto.tensor<15x32xf32>, !pto.tensor<16x32xf32>, !pto.tensor<32x16xf32>, !pto.tensor<32x1xf32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %n = arith.constant 5 : index
    %o1 = pto.create_tensor : !pto.tensor<16x32xf32>
    %o2 = pto.create_tensor : !pto.tensor<16x32xf32>
    %o3 = pto.create_tensor : !pto.tensor<1x32xf32>
    %o4 = pto.create_tensor : !pto.tensor<16x32xf32>
    %o5 = pto.create_tensor : !pto.tensor<15x32xf32>
    %o6 = pto.create_tensor : !pto.tensor<16x32xf32>
    %o7 = pto.create_tensor : !pto.tensor<32x16xf32>
    %o8 = pto.create_tensor : !pto.tensor<32x1xf32>
    %r1 = func.call @softmax_rows(%a, %o1) : (!pto.tile<16x32xf32, acc>, !pto.tensor<16x32xf32>) -> !pto.tensor<16x32xf32>
    %r2, %r3 = func.call @col_stats(%a, %o2, %o3) : (!pto.tile<16x32xf32, acc>, !pto.tensor<16x32xf32>, !pto.tensor<1x32xf32>) -> (!pto.tensor<16x32xf32>, !pto.tensor<1x32xf32>)
    %r4 = func.call @ragged(%a, %n, %o4) : (!pto.tile<16x32xf32, acc>, index, !pto.tensor<16x32xf32>) -> !pto.tensor<16x32xf32>
    %r5 = func.call @odd_rows(%b, %o5) : (!pto.tile<15x32xf32, acc>, !pto.tensor<15x32xf32>) -> !pto.tensor<15x32xf32>
    %r6 = func.call @in_loop(%a, %o6) : (!pto.tile<16x32xf32, acc>, !pto.tensor<16x32xf32>) -> !pto.tensor<16x32xf32>
    %r7, %r8 = func.call @transposed(%a, %o7, %o8) : (!pto.tile<16x32xf32, acc>, !pto.tensor<32x16xf32>, !pto.tensor<32x1xf32>) -> (!pto.tensor<32x16xf32>, !pto.tensor<32x1xf32>)
    func.return %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8 : !pto.tensor<16x32xf32>, !pto.tensor<16x32xf32>, !pto.tensor<1x32xf32>, !pto.tensor<16x32xf32>, !pto.tensor<15x32xf32>, !pto.tensor<16x32xf32>, !pto.tensor<32x16xf32>, !pto.tensor<32x1xf32>
  }
}
