// RUN: pypto-opt %s --verify-diagnostics --setup-pipes
// RUN: sed -e 's/a2a3/a5/' -e 's/, pto.dual_aiv_dispatch//' %s | pypto-opt --verify-diagnostics --setup-pipes
// RUN: pypto-opt %s --insert-tfree --setup-pipes | filecheck %s

// setup-pipes run alone on what split-mixed-kernel leaves (halves marked pto.protocol_pending whose tpops are not
// freed yet): the ring-depth check of the setup counts the slots a side holds at once, which needs the tfrees,
// so the phase stops at the first unfreed tpop and names the pass to run first. With insert-tfree first (third
// RUN line) the pair gets its setup. The same on both targets.
// CHECK-LABEL: func.func @k_aic(
// CHECK-NEXT:  pto.import_peer_buffer {name = "k_c2v_slot_buffer", peer_func = @k_aiv}
// CHECK-LABEL: func.func @k_aiv(
// CHECK-NEXT:  pto.reserve_buffer {name = "k_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64}
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
    // expected-error@+1 {{setup-pipes: this tpop of '@k_aiv' has no tfree, but this phase expects every tpop of the kernels split-mixed-kernel made freed; run --insert-tfree before --setup-pipes}}
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
  func.func @main(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<16x128xf32>
    %r = func.call @k(%x, %w, %ws, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %r : !pto.tensor<16x128xf32>
  }
}
