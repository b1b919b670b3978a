// RUN: pypto-opt %s --split-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-opt %s --split-mixed-kernel --split-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3

// Phase 2 of expand-mixed-kernel, run alone. Its input is what insert-gm-fences leaves: mixed incore kernels
// whose cross-core GM dependences are fenced (here @k: the fence of %ws is already in the body). Its output:
// @k_aic (cube ops, the fence's push, the push of the boundary %y_vec) and @k_aiv (the fence's pop, the pop
// of %y_vec as a vec tile), both marked pto.protocol_pending: their tpops are not freed and they have no pipe
// setup yet (insert-tfree and setup-pipes add them). The Group @k keeps the name its orchestration caller uses.
// The pure vector kernel @v becomes an aiv kernel, with no mark (it has no pipe). On a2a3 the AIV half of the
// unsplit kernel is dual-dispatched (pto.dual_aiv_dispatch), on a5 not. A second run changes nothing.
// CHECK-LABEL: func.func @k_aic(
// CHECK-SAME:  attributes {pto.kind = #pto.kind<aic>, pto.protocol_pending} {
// CHECK-NOT:   pto.aic_initialize_pipe
// CHECK:       %y = pto.matmul
// CHECK-NEXT:  %ws_1 = pto.store %y, %ws[0, 0]
// CHECK-NEXT:  pto.tpush_to_aiv %y {split = 0 : i64} : !pto.tile<16x128xf32, acc>
// CHECK-NEXT:  pto.tpush_to_aiv %y {split = 0 : i64} : !pto.tile<16x128xf32, acc>
// CHECK-NEXT:  func.return{{$}}
// CHECK-LABEL: func.func @k_aiv(
// A2A3-SAME:   attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch, pto.protocol_pending} {
// A5-SAME:     attributes {pto.kind = #pto.kind<aiv>, pto.protocol_pending} {
// CHECK-NEXT:  %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
// CHECK-NEXT:  %v = pto.load %ws[0, 0]
// CHECK-NEXT:  %y_vec = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
// CHECK-NEXT:  %s = pto.add %v, %y_vec
// CHECK-NEXT:  %out_1 = pto.store %s, %out[0, 0]
// CHECK-NEXT:  func.return %out_1
// CHECK-LABEL: func.func @k(
// CHECK-SAME:  attributes {pto.kind = #pto.kind<group>} {
// CHECK-NEXT:  func.call @k_aic(%x, %w, %ws, %out)
// CHECK-NEXT:  func.call @k_aiv(%x, %w, %ws, %out)
// CHECK-LABEL: func.func @v(
// CHECK-SAME:  attributes {pto.kind = #pto.kind<aiv>} {
// CHECK-LABEL: func.func @main(
// CHECK:       func.call @k(
// CHECK:       func.call @v(
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %y = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %ws_1 = pto.store %y, %ws[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    pto.tpush_to_aiv %y {split = 0 : i64} : !pto.tile<16x128xf32, acc>
    %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
    %v = pto.load %ws_1[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %y_vec = pto.move %y : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %s = pto.add %v, %y_vec : !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %s, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
  func.func @v(%a: !pto.tensor<16x128xf32>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<incore>} {
    %t = pto.load %a[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %e = pto.exp %t : !pto.tile<16x128xf32, vec>
    %o_1 = pto.store %e, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %o_1 : !pto.tensor<16x128xf32>
  }
  func.func @main(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<16x128xf32>
    %r = func.call @k(%x, %w, %ws, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    %o = pto.create_tensor : !pto.tensor<16x128xf32>
    %r2 = func.call @v(%r, %o) : (!pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %r2 : !pto.tensor<16x128xf32>
  }
}
