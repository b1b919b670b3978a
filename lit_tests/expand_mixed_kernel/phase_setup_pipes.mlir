// RUN: pypto-opt %s --setup-pipes | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed -e 's/a2a3/a5/' -e 's/, pto.dual_aiv_dispatch//' %s | pypto-opt --setup-pipes | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-opt %s --setup-pipes --setup-pipes | filecheck %s --check-prefixes=CHECK,A2A3

// Phase 4 of expand-mixed-kernel, run alone. Its input is what insert-tfree leaves: pairs of halves marked
// pto.protocol_pending whose tpops are freed, without a pipe setup. Its output: each pair starts with its
// setup: the AIC imports the AIV's C->V ring, the AIV reserves it (slot_size x slot_num bytes), an
// `arith.constant 0 : i32` stands for the inactive V->C direction, and both initialize the pipe with dir_mask
// 1, the largest tile as slot_size and the kernel's pto.slot_num (@k3: 3) or the default 2 (@k). The mark
// stays (choose-ring-depth may still deepen @k's ring). A second run adds nothing (the pairs have a setup).
// The same on both targets.
// A2A3: pto.target = #pto.target<a2a3>
// A5: pto.target = #pto.target<a5>
// CHECK-LABEL: func.func @k_aic(
// CHECK-SAME:  pto.protocol_pending} {
// CHECK-NEXT:  %k_c2v_slot_buffer_import = pto.import_peer_buffer {name = "k_c2v_slot_buffer", peer_func = @k_aiv} : i32
// CHECK-NEXT:  %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:  pto.aic_initialize_pipe %k_c2v_slot_buffer_import, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
// CHECK-NEXT:  %x_mat = pto.load
// CHECK-LABEL: func.func @k_aiv(
// CHECK-NEXT:  %k_c2v_slot_buffer = pto.reserve_buffer {name = "k_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
// CHECK-NEXT:  %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:  pto.aiv_initialize_pipe %k_c2v_slot_buffer, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
// CHECK-NEXT:  %ws_gm_sync = pto.tpop_from_aic
// CHECK-LABEL: func.func @k(
// CHECK-NOT:   initialize_pipe
// CHECK-LABEL: func.func @k3_aic(
// CHECK-SAME:  pto.slot_num = 3 : i64, pto.protocol_pending} {
// CHECK:       pto.aic_initialize_pipe %k3_c2v_slot_buffer_import, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 3 : i64}
// CHECK-LABEL: func.func @k3_aiv(
// CHECK-NEXT:  %k3_c2v_slot_buffer = pto.reserve_buffer {name = "k3_c2v_slot_buffer", size = 24576 : i64, base = -1 : i64} : i32
// CHECK:       pto.aiv_initialize_pipe %k3_c2v_slot_buffer, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 3 : i64}
// CHECK-LABEL: func.func @main(
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
  func.func @k3_aic(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<16x128xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>, pto.slot_num = 3 : i64, pto.protocol_pending} {
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
  func.func @k3_aiv(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<aiv>, pto.slot_num = 3 : i64, pto.dual_aiv_dispatch, pto.protocol_pending} {
    %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
    pto.tfree_to_aic %ws_gm_sync : !pto.tile<16x128xf32, vec>
    %v = pto.load %ws[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %y_vec = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
    %s = pto.add %v, %y_vec : !pto.tile<16x128xf32, vec>
    pto.tfree_to_aic %y_vec : !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %s, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
  func.func @k3(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<group>, pto.slot_num = 3 : i64} {
    func.call @k3_aic(%x, %w, %ws, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> ()
    %0 = func.call @k3_aiv(%x, %w, %ws, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %out : !pto.tensor<16x128xf32>
  }
  func.func @main(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<16x128xf32>
    %r = func.call @k(%x, %w, %ws, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    %out3 = pto.create_tensor : !pto.tensor<16x128xf32>
    %r3 = func.call @k3(%x, %w, %ws, %out3) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %r3 : !pto.tensor<16x128xf32>
  }
}
