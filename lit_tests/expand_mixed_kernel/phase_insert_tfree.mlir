// RUN: pypto-opt %s --insert-tfree | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed -e 's/a2a3/a5/' -e 's/, pto.dual_aiv_dispatch//' %s | pypto-opt --insert-tfree | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-opt %s --insert-tfree --insert-tfree | filecheck %s --check-prefixes=CHECK,A2A3

// Phase 3 of expand-mixed-kernel, run alone. Its input is what split-mixed-kernel leaves: the halves @k_aic /
// @k_aiv marked pto.protocol_pending, with tpops not yet freed. Its output: each tpop of a marked half freed
// exactly once, right after the last use of its slot (the fence token %ws_gm_sync at once, %y_vec after the
// add that reads it); nothing else moves and the mark stays (setup-pipes and choose-ring-depth still need it).
// The hand-written AIV kernel @hand carries no mark, so its tpop is left as it is (the MixedKernelExpanded
// verifier judges it). A second run changes nothing. The same on both targets (the a5 input has no dual
// dispatch, as the split leaves it there).
// A2A3: pto.target = #pto.target<a2a3>
// A5: pto.target = #pto.target<a5>
// CHECK-LABEL: func.func @k_aic(
// CHECK-NOT:   pto.tfree
// CHECK:       func.return{{$}}
// CHECK-LABEL: func.func @k_aiv(
// CHECK-SAME:  pto.protocol_pending} {
// CHECK-NEXT:  %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
// CHECK-NEXT:  pto.tfree_to_aic %ws_gm_sync : !pto.tile<16x128xf32, vec>
// CHECK-NEXT:  %v = pto.load %ws[0, 0]
// CHECK-NEXT:  %y_vec = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
// CHECK-NEXT:  %s = pto.add %v, %y_vec
// CHECK-NEXT:  pto.tfree_to_aic %y_vec : !pto.tile<16x128xf32, vec>
// CHECK-NEXT:  %out_1 = pto.store %s, %out[0, 0]
// CHECK-NEXT:  func.return %out_1
// CHECK-LABEL: func.func @hand(
// CHECK-NEXT:  %t = pto.tpop_from_aic
// CHECK-NEXT:  %o_1 = pto.store %t, %o[0, 0]
// CHECK-NEXT:  func.return %o_1
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k_aic(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<16x128xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>, pto.protocol_pending} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %y = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %ws_1 = pto.store %y, %ws[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    pto.tpush_to_aiv %y {split = 0 : i64} : !pto.tile<16x128xf32, acc>
    pto.tpush_to_aiv %y {split = 0 : i64} : !pto.tile<16x128xf32, acc>
    func.return
  }
  func.func @k_aiv(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch, pto.protocol_pending} {
    %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
    %v = pto.load %ws[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %y_vec = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
    %s = pto.add %v, %y_vec : !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %s, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
  func.func @k(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<group>} {
    func.call @k_aic(%x, %w, %ws, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> ()
    %0 = func.call @k_aiv(%x, %w, %ws, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %out : !pto.tensor<16x128xf32>
  }
  func.func @hand(%o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<aiv>} {
    %t = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
    %o_1 = pto.store %t, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %o_1 : !pto.tensor<16x128xf32>
  }
  func.func @main(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<16x128xf32>
    %r = func.call @k(%x, %w, %ws, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %r : !pto.tensor<16x128xf32>
  }
}
