// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-run --check-pipeline expand-mixed-kernel --entry colnorm %s | filecheck %s --check-prefix=EXEC
// RUN: pypto-run --check-pipeline expand-mixed-kernel --entry cube_barrier %s | filecheck %s --check-prefix=EXEC
// RUN: pypto-run --check-pipeline expand-mixed-kernel --entry unused_workspace %s | filecheck %s --check-prefix=EXEC
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-run --check-pipeline expand-mixed-kernel --entry colnorm %t.a5.mlir | filecheck %s --check-prefix=EXEC
// RUN: pypto-run --check-pipeline expand-mixed-kernel --entry cube_barrier %t.a5.mlir | filecheck %s --check-prefix=EXEC
// RUN: pypto-run --check-pipeline expand-mixed-kernel --entry unused_workspace %t.a5.mlir | filecheck %s --check-prefix=EXEC
// EXEC: check of pipeline 'expand-mixed-kernel' passed

// pto.lane_workspace and pto.lane_barrier are vector ops (issue 43): ExpandMixedKernel keeps them on the AIV side
// only, in the order written, and the AIC kernel holds neither.  A used workspace stays; an unused one is
// removed (its only effect is the allocation); a barrier is never removed, and on its own makes a cube kernel
// mixed (its AIV kernel runs the barrier, a no-op on one lane).  Each kernel computes the same outputs before and
// after (EXEC).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // A split kernel as LowerAutoVectorSplit leaves a task-parallel region: each lane sums its 8 rows, the
  // partials meet in the workspace across the barrier, and each lane divides its rows by the column totals.
  // CHECK-LABEL: func.func @colnorm_aic
  // CHECK-NOT:     pto.lane_
  // CHECK:         pto.tpush_to_aiv %acc {split = 0 : i64}
  // CHECK-NOT:     pto.lane_
  // CHECK:         func.return
  // CHECK-LABEL: func.func @colnorm_aiv
  // A2A3-SAME:     pto.kind = #pto.kind<aiv>, pto.split_aiv, pto.dual_aiv_dispatch
  // A5-SAME:       pto.kind = #pto.kind<aiv>, pto.split_aiv}
  // CHECK:         %v = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK:         %part = pto.col_sum %h
  // CHECK-NEXT:    %ws = pto.lane_workspace : !pto.tensor<2x1x128xf32>
  // CHECK-NEXT:    %ws1 = pto.store %part, %ws[%lane, 0, 0] : !pto.tile<1x128xf32, vec>, !pto.tensor<2x1x128xf32>
  // CHECK-NEXT:    pto.lane_barrier
  // CHECK-NEXT:    %p0 = pto.load %ws1[0, 0, 0]
  // CHECK-NEXT:    %p1 = pto.load %ws1[1, 0, 0]
  // CHECK-LABEL: func.func @colnorm(
  // CHECK-NOT:     pto.lane_
  // CHECK:         func.return
  func.func @colnorm(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %lane = pto.get_subblock_idx : index
    %v = pto.aiv_shard %acc {split = 0 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %c8 = arith.constant 8 : index
    %row = arith.muli %lane, %c8 : index
    %h = pto.slice %v[%row, 0] : !pto.tile<16x128xf32, vec> -> !pto.tile<8x128xf32, vec>
    %part = pto.col_sum %h : !pto.tile<8x128xf32, vec> -> !pto.tile<1x128xf32, vec>
    %ws = pto.lane_workspace : !pto.tensor<2x1x128xf32>
    %ws1 = pto.store %part, %ws[%lane, 0, 0] : !pto.tile<1x128xf32, vec>, !pto.tensor<2x1x128xf32>
    pto.lane_barrier
    %p0 = pto.load %ws1[0, 0, 0] : !pto.tensor<2x1x128xf32> -> !pto.tile<1x128xf32, vec>
    %p1 = pto.load %ws1[1, 0, 0] : !pto.tensor<2x1x128xf32> -> !pto.tile<1x128xf32, vec>
    %tot = pto.add %p0, %p1 : !pto.tile<1x128xf32, vec>
    %n = pto.col_expand_div %h, %tot : !pto.tile<8x128xf32, vec>, !pto.tile<1x128xf32, vec>
    %o2 = pto.store %n, %o[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %o2 : !pto.tensor<16x128xf32>
  }

  // A barrier in a cube kernel is a vector op: the kernel becomes mixed, its AIV kernel holds only the barrier.
  // CHECK-LABEL: func.func @cube_barrier_aic
  // CHECK-NOT:     pto.lane_barrier
  // CHECK:         func.return
  // CHECK-LABEL: func.func @cube_barrier_aiv
  // CHECK-NEXT:    pto.lane_barrier
  // CHECK-NEXT:    func.return
  func.func @cube_barrier(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    pto.lane_barrier
    %o2 = pto.store %acc, %o[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    func.return %o2 : !pto.tensor<16x128xf32>
  }

  // An unused workspace in a mixed kernel is removed with the split halves' dead code (its only effect is the
  // allocation); the barrier stays on the AIV side.
  // CHECK-LABEL: func.func @unused_workspace_aic
  // CHECK-NOT:     pto.lane_
  // CHECK:         func.return
  // CHECK-LABEL: func.func @unused_workspace_aiv
  // CHECK-NOT:     pto.lane_workspace
  // CHECK:         pto.lane_barrier
  // CHECK-NOT:     pto.lane_workspace
  // CHECK:         func.return
  func.func @unused_workspace(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %ws = pto.lane_workspace : !pto.tensor<2x16xf32>
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %v = pto.move %acc : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %e = pto.exp %v : !pto.tile<16x128xf32, vec>
    pto.lane_barrier
    %o2 = pto.store %e, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %o2 : !pto.tensor<16x128xf32>
  }
}
