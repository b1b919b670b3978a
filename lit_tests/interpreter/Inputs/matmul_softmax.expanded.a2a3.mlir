// matmul_softmax after both passes on a2a3, written by hand: the cube pushes the full 64x128 scores with
// split = 1 (up_down); each of the two AIV lanes pops its 32 rows, normalises them and stores them at 32 x lane.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @attn_incore_0_aic(%q: !pto.tensor<64x128xbf16>, %k: !pto.tensor<128x128xbf16>,
                               %out_0: !pto.tensor<64x128xf32> {pto.out})
      attributes {pto.kind = #pto.kind<aic>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %imp = pto.import_peer_buffer {name = "attn_incore_0_c2v_slot_buffer", peer_func = @attn_incore_0_aiv} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aic_initialize_pipe %imp, %c0_i32 {dir_mask = 1 : i64, slot_size = 32768 : i64, slot_num = 2 : i64} : i32, i32
    %q_mat = pto.load %q[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %k_mat = pto.load %k[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %q_left = pto.move %q_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, left>
    %k_right = pto.move %k_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %scores = pto.matmul %q_left, %k_right : !pto.tile<64x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<64x128xf32, acc>
    pto.tpush_to_aiv %scores {split = 1 : i64} : !pto.tile<64x128xf32, acc>
    func.return
  }
  func.func @attn_incore_0_aiv(%q: !pto.tensor<64x128xbf16>, %k: !pto.tensor<128x128xbf16>,
                               %out_0: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32>
      attributes {pto.kind = #pto.kind<aiv>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %subblock_idx = pto.get_subblock_idx : index
    %buf = pto.reserve_buffer {name = "attn_incore_0_c2v_slot_buffer", size = 65536 : i64, base = -1 : i64} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %buf, %c0_i32 {dir_mask = 1 : i64, slot_size = 32768 : i64, slot_num = 2 : i64} : i32, i32
    %s = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<32x128xf32, vec>
    %m = pto.row_max %s : !pto.tile<32x128xf32, vec> -> !pto.tile<32x1xf32, vec>
    %d = pto.row_expand_sub %s, %m : !pto.tile<32x128xf32, vec>, !pto.tile<32x1xf32, vec>
    pto.tfree_to_aic %s : !pto.tile<32x128xf32, vec>
    %e = pto.exp %d : !pto.tile<32x128xf32, vec>
    %sum = pto.row_sum %e : !pto.tile<32x128xf32, vec> -> !pto.tile<32x1xf32, vec>
    %p = pto.row_expand_div %e, %sum : !pto.tile<32x128xf32, vec>, !pto.tile<32x1xf32, vec>
    %c32 = arith.constant 32 : index
    %row = arith.muli %subblock_idx, %c32 : index
    %out_1 = pto.store %p, %out_0[%row, 0] : !pto.tile<32x128xf32, vec>, !pto.tensor<64x128xf32>
    func.return %out_1 : !pto.tensor<64x128xf32>
  }
  func.func @attn_incore_0(%q: !pto.tensor<64x128xbf16>, %k: !pto.tensor<128x128xbf16>,
                           %out_0: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32>
      attributes {pto.kind = #pto.kind<group>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    func.call @attn_incore_0_aic(%q, %k, %out_0) : (!pto.tensor<64x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<64x128xf32>) -> ()
    %0 = func.call @attn_incore_0_aiv(%q, %k, %out_0) : (!pto.tensor<64x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<64x128xf32>) -> !pto.tensor<64x128xf32>
    func.return %out_0 : !pto.tensor<64x128xf32>
  }
  func.func @main(%q: !pto.tensor<64x128xbf16>, %k: !pto.tensor<128x128xbf16>) -> !pto.tensor<64x128xf32>
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out_0 = pto.create_tensor : !pto.tensor<64x128xf32>
    %r = func.call @attn_incore_0(%q, %k, %out_0) : (!pto.tensor<64x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<64x128xf32>) -> !pto.tensor<64x128xf32>
    func.return %r : !pto.tensor<64x128xf32>
  }
}
