// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split | filecheck %s
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry auto_ws %s | filecheck %s --check-prefix=EXEC
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry region_ws %s | filecheck %s --check-prefix=EXEC
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry auto_ws %t.a5.mlir | filecheck %s --check-prefix=EXEC
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry region_ws %t.a5.mlir | filecheck %s --check-prefix=EXEC
// EXEC: check of pipeline 'lower-auto-vector-split,expand-mixed-kernel' passed

// pto.lane_workspace and pto.lane_barrier run unchanged on both lanes (split rule WHOLE, issue 43; the same on
// a2a3 and a5): the workspace is one buffer of the kernel instance, not halved; the barrier is not guarded onto
// one lane (it is no once-per-kernel effect: both lanes must reach it).  The GM accesses of the workspace follow
// their own rules (a full-width store and load of it are halved like any window).  Each kernel computes the same
// outputs before and after the pipeline, on both targets (EXEC).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // An AUTO split: the lanes store and reload their halves of the workspace across the barrier.
  // CHECK-LABEL: func.func @auto_ws
  // CHECK-SAME:    pto.split = #pto.split<up_down>, pto.split_aiv}
  // CHECK:         %subblock_idx = pto.get_subblock_idx : index
  // CHECK:         %[[ROW:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:         %e = pto.exp %v : !pto.tile<8x128xf32, vec>
  // CHECK-NEXT:    %ws = pto.lane_workspace : !pto.tensor<16x128xf32>
  // CHECK-NEXT:    %ws1 = pto.store %e, %ws[%[[ROW]], 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
  // CHECK-NEXT:    pto.lane_barrier
  // CHECK-NEXT:    %back = pto.load %ws1[%[[ROW]], 0] : !pto.tensor<16x128xf32> -> !pto.tile<8x128xf32, vec>
  // CHECK-NOT:     scf.if
  // CHECK:         func.return
  func.func @auto_ws(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %v = pto.move %acc : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %e = pto.exp %v : !pto.tile<16x128xf32, vec>
    %ws = pto.lane_workspace : !pto.tensor<16x128xf32>
    %ws1 = pto.store %e, %ws[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    pto.lane_barrier
    %back = pto.load %ws1[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %s = pto.add %back, %v : !pto.tile<16x128xf32, vec>
    %o2 = pto.store %s, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %o2 : !pto.tensor<16x128xf32>
  }

  // A task-parallel region that sums over the lanes' rows through the workspace: spliced as written.
  // CHECK-LABEL: func.func @region_ws
  // CHECK-SAME:    pto.split_aiv, pto.split_aiv_region_validated}
  // CHECK:         %lane = pto.get_subblock_idx : index
  // CHECK:         %part = pto.col_sum %h : !pto.tile<8x128xf32, vec> -> !pto.tile<1x128xf32, vec>
  // CHECK-NEXT:    %ws = pto.lane_workspace : !pto.tensor<2x1x128xf32>
  // CHECK-NEXT:    %ws1 = pto.store %part, %ws[%lane, 0, 0] : !pto.tile<1x128xf32, vec>, !pto.tensor<2x1x128xf32>
  // CHECK-NEXT:    pto.lane_barrier
  // CHECK-NEXT:    %p0 = pto.load %ws1[0, 0, 0] : !pto.tensor<2x1x128xf32> -> !pto.tile<1x128xf32, vec>
  // CHECK-NEXT:    %p1 = pto.load %ws1[1, 0, 0] : !pto.tensor<2x1x128xf32> -> !pto.tile<1x128xf32, vec>
  // CHECK-NOT:     pto.split_aiv_scope
  func.func @region_ws(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r = pto.split_aiv_scope none (%lane) -> (!pto.tensor<16x128xf32>) {
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
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}
