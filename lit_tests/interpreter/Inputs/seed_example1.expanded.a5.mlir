// Seed example 1 after ExpandMixedKernel on a5, written by hand from docs/dialect.md: an AIC kernel pushes the
// matmul result, the AIV kernel pops it, stores it and frees the slot; the Group runs both.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @compute_incore_0_aic(%x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>,
      %out_0: !pto.tensor<16x128xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %imp = pto.import_peer_buffer {name = "compute_incore_0_c2v_slot_buffer", peer_func = @compute_incore_0_aiv} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aic_initialize_pipe %imp, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %y_mat = pto.load %y[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %y_right = pto.move %y_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %z_tile = pto.matmul %x_left, %y_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    pto.tpush_to_aiv %z_tile {split = 0 : i64} : !pto.tile<16x128xf32, acc>
    func.return
  }
  func.func @compute_incore_0_aiv(%x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>,
      %out_0: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<aiv>} {
    %buf = pto.reserve_buffer {name = "compute_incore_0_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %buf, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
    %z_vec = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %z_vec, %out_0[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    pto.tfree_to_aic %z_vec : !pto.tile<16x128xf32, vec>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
  func.func @compute_incore_0(%x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>,
      %out_0: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<group>} {
    func.call @compute_incore_0_aic(%x, %y, %out_0) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>) -> ()
    %0 = func.call @compute_incore_0_aiv(%x, %y, %out_0) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %out_0 : !pto.tensor<16x128xf32>
  }
  func.func @main(%x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out_0 = pto.create_tensor : !pto.tensor<16x128xf32>
    %r = func.call @compute_incore_0(%x, %y, %out_0) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %r : !pto.tensor<16x128xf32>
  }
}
