// RUN: pypto-opt %s --verify-mixed-kernel-expanded | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed -e 's/a2a3/a5/' -e 's/, pto.dual_aiv_dispatch//' %s | pypto-opt --verify-mixed-kernel-expanded | filecheck %s --check-prefixes=CHECK,A5
// RUN: sed -e '/pto.tfree_to_aic %y_vec/d' %s | not pypto-opt --verify-mixed-kernel-expanded 2>&1 | filecheck %s --check-prefix=UNFREED

// Phase 7 of expand-mixed-kernel (also a check of its own), run alone. Its input is what adapt-manual-pushes
// leaves: the halves of the split with their tfrees and pipe setup, still marked pto.protocol_pending (the
// ring depth is chosen after the check). It checks the MixedKernelExpanded contract (verifier.py) and changes
// nothing: the module prints as it was read, marks included. The same on both targets. Without the tfree of
// %y_vec (third RUN line) the contract fails at the tpop.
// A2A3: pto.target = #pto.target<a2a3>
// A5: pto.target = #pto.target<a5>
// CHECK-LABEL: func.func @k_aic(
// CHECK-SAME:  pto.protocol_pending} {
// CHECK-NEXT:  %k_c2v_slot_buffer_import = pto.import_peer_buffer
// CHECK-LABEL: func.func @k_aiv(
// CHECK-SAME:  pto.protocol_pending} {
// CHECK:       %y_vec = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
// CHECK-NEXT:  %s = pto.add %v, %y_vec
// CHECK-NEXT:  pto.tfree_to_aic %y_vec : !pto.tile<16x128xf32, vec>
// CHECK-LABEL: func.func @k(
// CHECK-LABEL: func.func @main(
// UNFREED: <stdin>:{{[0-9]+}}:5: error: AIV function 'k_aiv' uses pto.tpop_from_aic but has no matching 'pto.tfree_to_aic' call
// UNFREED-NEXT: %y_vec = pto.tpop_from_aic
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k_aic(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<16x128xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>, pto.protocol_pending} {
    %k_c2v_slot_buffer_import = pto.import_peer_buffer {name = "k_c2v_slot_buffer", peer_func = @k_aiv} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aic_initialize_pipe %k_c2v_slot_buffer_import, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
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
    %k_c2v_slot_buffer = pto.reserve_buffer {name = "k_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %k_c2v_slot_buffer, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
    %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
    pto.tfree_to_aic %ws_gm_sync : !pto.tile<16x128xf32, vec>
    %v = pto.load %ws[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %y_vec = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
    %s = pto.add %v, %y_vec : !pto.tile<16x128xf32, vec>
    pto.tfree_to_aic %y_vec : !pto.tile<16x128xf32, vec>
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
