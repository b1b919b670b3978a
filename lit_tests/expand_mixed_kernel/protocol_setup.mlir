// RUN: pypto-opt %s --split-input-file --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5

// Automatic pipe setup (reference §4.1) on both targets.  Shown: the prefix order per side, the buffer names,
// `base = -1`, the `%c0_i32` placeholder of an inactive direction, slot_size = the largest tile of either
// side and direction, slot_num 2 (or `pto.slot_num`), buffer size = slot_size x slot_num, the AIV prefix after
// a leading get_subblock_idx, and `pto.dual_aiv_dispatch` on the AIV of a no-split kernel on a2a3 only.

// C2V only (16x128xf32 = 8192 bytes).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @c2v_aic(
  // CHECK-SAME: attributes {pto.kind = #pto.kind<aic>} {
  // CHECK-NEXT: %c2v_c2v_slot_buffer_import = pto.import_peer_buffer {name = "c2v_c2v_slot_buffer", peer_func = @c2v_aiv} : i32
  // CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
  // CHECK-NEXT: pto.aic_initialize_pipe %c2v_c2v_slot_buffer_import, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
  // CHECK-NEXT: pto.load
  // CHECK:      pto.tpush_to_aiv %z {split = 0 : i64} : !pto.tile<16x128xf32, acc>
  // CHECK-LABEL: func.func @c2v_aiv(
  // A2A3-SAME:  attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
  // A5-SAME:    attributes {pto.kind = #pto.kind<aiv>} {
  // CHECK-NEXT: %c2v_c2v_slot_buffer = pto.reserve_buffer {name = "c2v_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
  // CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
  // CHECK-NEXT: pto.aiv_initialize_pipe %c2v_c2v_slot_buffer, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
  // CHECK-NEXT: %z_vec = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK-LABEL: func.func @c2v(
  // CHECK-SAME: pto.kind = #pto.kind<group>
  // CHECK-NOT:  pto.dual_aiv_dispatch
  func.func @c2v(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                 %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %z = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %z_vec = pto.move %z : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %z_vec, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
}

// -----

// V2C only (64x128xbf16 = 16384 bytes): the cube stores the product itself.  a5 adds the NZ adapter move.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @v2c_aic(
  // CHECK-NEXT: %v2c_v2c_slot_buffer = pto.reserve_buffer {name = "v2c_v2c_slot_buffer", size = 32768 : i64, base = -1 : i64} : i32
  // CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
  // CHECK-NEXT: pto.aic_initialize_pipe %c0_i32, %v2c_v2c_slot_buffer {dir_mask = 2 : i64, slot_size = 16384 : i64, slot_num = 2 : i64} : i32, i32
  // CHECK-NEXT: %x_left_mat = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<64x128xbf16, mat>
  // CHECK-NEXT: %x_left = pto.move %x_left_mat
  // CHECK-NEXT: pto.tfree_to_aiv %x_left_mat : !pto.tile<64x128xbf16, mat>
  // CHECK-LABEL: func.func @v2c_aiv(
  // CHECK-NEXT: %v2c_v2c_slot_buffer_import = pto.import_peer_buffer {name = "v2c_v2c_slot_buffer", peer_func = @v2c_aic} : i32
  // CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
  // CHECK-NEXT: pto.aiv_initialize_pipe %c0_i32, %v2c_v2c_slot_buffer_import {dir_mask = 2 : i64, slot_size = 16384 : i64, slot_num = 2 : i64} : i32, i32
  // A2A3:      pto.tpush_to_aic %x_bf {split = 0 : i64} : !pto.tile<64x128xbf16, vec>
  // A5:        %x_bf_nz = pto.move %x_bf
  // A5-NEXT:   pto.tpush_to_aic %x_bf_nz {split = 0 : i64} : !pto.tile<64x128xbf16, vec, blayout = col_major, slayout = row_major>
  func.func @v2c(%x: !pto.tensor<64x128xf32>, %w: !pto.tensor<128x64xbf16>,
                 %out: !pto.tensor<64x64xf32> {pto.out}) -> !pto.tensor<64x64xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x_vec = pto.load %x[0, 0] : !pto.tensor<64x128xf32> -> !pto.tile<64x128xf32, vec>
    %x_bf = pto.cast %x_vec : !pto.tile<64x128xf32, vec> -> !pto.tile<64x128xbf16, vec>
    %x_left = pto.move %x_bf : !pto.tile<64x128xbf16, vec> -> !pto.tile<64x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x64xbf16> -> !pto.tile<128x64xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x64xbf16, mat> -> !pto.tile<128x64xbf16, right>
    %y = pto.matmul %x_left, %w_right : !pto.tile<64x128xbf16, left>, !pto.tile<128x64xbf16, right> -> !pto.tile<64x64xf32, acc>
    %out_1 = pto.store %y, %out[0, 0] : !pto.tile<64x64xf32, acc>, !pto.tensor<64x64xf32>
    func.return %out_1 : !pto.tensor<64x64xf32>
  }
}

// -----

// Both directions with different tiles: V2C 16x128xbf16 (4096 bytes), C2V 16x128xf32 (8192 bytes) -> one
// slot_size of 8192; no placeholder constant.  An up_down split (in the per-lane form, pto.split_aiv, as
// LowerAutoVectorSplit leaves it): no dual dispatch on either target.  The AIV prefix goes after the leading
// get_subblock_idx.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @bidir_aic(
  // CHECK-NEXT: %bidir_v2c_slot_buffer = pto.reserve_buffer {name = "bidir_v2c_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
  // CHECK-NEXT: %bidir_c2v_slot_buffer_import = pto.import_peer_buffer {name = "bidir_c2v_slot_buffer", peer_func = @bidir_aiv} : i32
  // CHECK-NEXT: pto.aic_initialize_pipe %bidir_c2v_slot_buffer_import, %bidir_v2c_slot_buffer {dir_mask = 3 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
  // CHECK-LABEL: func.func @bidir_aiv(
  // CHECK-SAME: attributes {pto.kind = #pto.kind<aiv>, pto.split = #pto.split<up_down>, pto.split_aiv} {
  // CHECK-NEXT: %lane = pto.get_subblock_idx : index
  // CHECK-NEXT: %bidir_v2c_slot_buffer_import = pto.import_peer_buffer {name = "bidir_v2c_slot_buffer", peer_func = @bidir_aic} : i32
  // CHECK-NEXT: %bidir_c2v_slot_buffer = pto.reserve_buffer {name = "bidir_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
  // CHECK-NEXT: pto.aiv_initialize_pipe %bidir_c2v_slot_buffer, %bidir_v2c_slot_buffer_import {dir_mask = 3 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
  // CHECK-NOT:  arith.constant 0 : i32
  // CHECK-LABEL: func.func @bidir(
  func.func @bidir(%x: !pto.tensor<32x128xf32>, %w: !pto.tensor<128x128xbf16>,
                   %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %lane = pto.get_subblock_idx : index
    %x_vec = pto.load %x[%lane, 0] : !pto.tensor<32x128xf32> -> !pto.tile<16x128xf32, vec>
    %x_bf = pto.cast %x_vec : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xbf16, vec>
    %x_left = pto.move %x_bf : !pto.tile<16x128xbf16, vec> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %y = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %y_vec = pto.move %y : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %e = pto.exp %y_vec : !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %e, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
}

// -----

// `pto.slot_num = 4` overrides the default ring depth: slot_num 4 on both initializers, buffers of 4 slots.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @deep_aic(
  // CHECK-NEXT: pto.import_peer_buffer
  // CHECK-NEXT: arith.constant 0 : i32
  // CHECK-NEXT: pto.aic_initialize_pipe {{.*}} {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 4 : i64} : i32, i32
  // CHECK-LABEL: func.func @deep_aiv(
  // CHECK-NEXT: %deep_c2v_slot_buffer = pto.reserve_buffer {name = "deep_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
  // CHECK-NEXT: arith.constant 0 : i32
  // CHECK-NEXT: pto.aiv_initialize_pipe {{.*}} {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 4 : i64} : i32, i32
  func.func @deep(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x64xbf16>, %out: !pto.tensor<16x64xf32> {pto.out}) -> !pto.tensor<16x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.slot_num = 4 : i64} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x64xbf16> -> !pto.tile<128x64xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x64xbf16, mat> -> !pto.tile<128x64xbf16, right>
    %z = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x64xbf16, right> -> !pto.tile<16x64xf32, acc>
    %z_vec = pto.move %z : !pto.tile<16x64xf32, acc> -> !pto.tile<16x64xf32, vec>
    %out_1 = pto.store %z_vec, %out[0, 0] : !pto.tile<16x64xf32, vec>, !pto.tensor<16x64xf32>
    func.return %out_1 : !pto.tensor<16x64xf32>
  }
}
