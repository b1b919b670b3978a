// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s

// `pto.local_slot_num` (a2a3): a smaller on-chip consumer FIFO under the same ring.  Both initializers carry
// the explicit local depth after slot_num; each reserve holds slot_size x local_slot_num bytes.  The AIV pops
// one slot at a time, so a depth of 1 is enough.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @shallow_aic(
  // CHECK-NEXT: %shallow_v2c_slot_buffer = pto.reserve_buffer {name = "shallow_v2c_slot_buffer", size = 4096 : i64, base = -1 : i64} : i32
  // CHECK-NEXT: %shallow_c2v_slot_buffer_import = pto.import_peer_buffer
  // CHECK-NEXT: pto.aic_initialize_pipe %shallow_c2v_slot_buffer_import, %shallow_v2c_slot_buffer {dir_mask = 3 : i64, slot_size = 4096 : i64, slot_num = 4 : i64, local_slot_num = 1 : i64} : i32, i32
  // CHECK-LABEL: func.func @shallow_aiv(
  // CHECK-NEXT: %shallow_v2c_slot_buffer_import = pto.import_peer_buffer
  // CHECK-NEXT: %shallow_c2v_slot_buffer = pto.reserve_buffer {name = "shallow_c2v_slot_buffer", size = 4096 : i64, base = -1 : i64} : i32
  // CHECK-NEXT: pto.aiv_initialize_pipe %shallow_c2v_slot_buffer, %shallow_v2c_slot_buffer_import {dir_mask = 3 : i64, slot_size = 4096 : i64, slot_num = 4 : i64, local_slot_num = 1 : i64} : i32, i32
  func.func @shallow(%x: !pto.tensor<16x64xf32>, %w: !pto.tensor<64x64xbf16>,
                     %out: !pto.tensor<16x64xf32> {pto.out}) -> !pto.tensor<16x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.slot_num = 4 : i64, pto.local_slot_num = 1 : i64} {
    %x_vec = pto.load %x[0, 0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
    %x_bf = pto.cast %x_vec : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xbf16, vec>
    %x_left = pto.move %x_bf : !pto.tile<16x64xbf16, vec> -> !pto.tile<16x64xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<64x64xbf16> -> !pto.tile<64x64xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<64x64xbf16, mat> -> !pto.tile<64x64xbf16, right>
    %y = pto.matmul %x_left, %w_right : !pto.tile<16x64xbf16, left>, !pto.tile<64x64xbf16, right> -> !pto.tile<16x64xf32, acc>
    %y_vec = pto.move %y : !pto.tile<16x64xf32, acc> -> !pto.tile<16x64xf32, vec>
    %out_1 = pto.store %y_vec, %out[0, 0] : !pto.tile<16x64xf32, vec>, !pto.tensor<16x64xf32>
    func.return %out_1 : !pto.tensor<16x64xf32>
  }
}
