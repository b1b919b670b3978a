// vector_prep_matmul after ExpandMixedKernel on a2a3, written by hand: the AIV (dual dispatch, two lanes;
// lane 1 replays the handshakes only) scales and casts X and pushes it (V->C, split = 0); the cube pops it into
// an NZ mat tile, moves it to left and multiplies.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @prep_incore_0_aic(%x: !pto.tensor<64x128xf32>, %w: !pto.tensor<128x64xbf16>,
                               %out_0: !pto.tensor<64x64xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %buf = pto.reserve_buffer {name = "prep_incore_0_v2c_slot_buffer", size = 32768 : i64, base = -1 : i64} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aic_initialize_pipe %c0_i32, %buf {dir_mask = 2 : i64, slot_size = 16384 : i64, slot_num = 2 : i64} : i32, i32
    %x_left_mat = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<64x128xbf16, mat>
    %x_left = pto.move %x_left_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, left>
    pto.tfree_to_aiv %x_left_mat : !pto.tile<64x128xbf16, mat>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x64xbf16> -> !pto.tile<128x64xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x64xbf16, mat> -> !pto.tile<128x64xbf16, right>
    %y = pto.matmul %x_left, %w_right : !pto.tile<64x128xbf16, left>, !pto.tile<128x64xbf16, right> -> !pto.tile<64x64xf32, acc>
    %out_1 = pto.store %y, %out_0[0, 0] : !pto.tile<64x64xf32, acc>, !pto.tensor<64x64xf32>
    func.return
  }
  func.func @prep_incore_0_aiv(%x: !pto.tensor<64x128xf32>, %w: !pto.tensor<128x64xbf16>,
                               %out_0: !pto.tensor<64x64xf32> {pto.out}) -> !pto.tensor<64x64xf32>
      attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
    %imp = pto.import_peer_buffer {name = "prep_incore_0_v2c_slot_buffer", peer_func = @prep_incore_0_aic} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %c0_i32, %imp {dir_mask = 2 : i64, slot_size = 16384 : i64, slot_num = 2 : i64} : i32, i32
    %scale = arith.constant 0.125 : f32
    %x_vec = pto.load %x[0, 0] : !pto.tensor<64x128xf32> -> !pto.tile<64x128xf32, vec>
    %x_scaled = pto.muls %x_vec, %scale : !pto.tile<64x128xf32, vec>, f32
    %x_bf = pto.cast %x_scaled : !pto.tile<64x128xf32, vec> -> !pto.tile<64x128xbf16, vec>
    pto.tpush_to_aic %x_bf {split = 0 : i64} : !pto.tile<64x128xbf16, vec>
    func.return %out_0 : !pto.tensor<64x64xf32>
  }
  func.func @prep_incore_0(%x: !pto.tensor<64x128xf32>, %w: !pto.tensor<128x64xbf16>,
                           %out_0: !pto.tensor<64x64xf32> {pto.out}) -> !pto.tensor<64x64xf32>
      attributes {pto.kind = #pto.kind<group>} {
    func.call @prep_incore_0_aic(%x, %w, %out_0) : (!pto.tensor<64x128xf32>, !pto.tensor<128x64xbf16>, !pto.tensor<64x64xf32>) -> ()
    %0 = func.call @prep_incore_0_aiv(%x, %w, %out_0) : (!pto.tensor<64x128xf32>, !pto.tensor<128x64xbf16>, !pto.tensor<64x64xf32>) -> !pto.tensor<64x64xf32>
    func.return %out_0 : !pto.tensor<64x64xf32>
  }
  func.func @main(%x: !pto.tensor<64x128xf32>, %w: !pto.tensor<128x64xbf16>) -> !pto.tensor<64x64xf32>
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out_0 = pto.create_tensor : !pto.tensor<64x64xf32>
    %r = func.call @prep_incore_0(%x, %w, %out_0) : (!pto.tensor<64x128xf32>, !pto.tensor<128x64xbf16>, !pto.tensor<64x64xf32>) -> !pto.tensor<64x64xf32>
    func.return %r : !pto.tensor<64x64xf32>
  }
}
