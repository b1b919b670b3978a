// A ragged C->V split written by hand: the cube pushes a 16x128 mat tile of which 13 rows are valid with
// split = 3 (up_down_odd) and lane_stride = 7, so lane 0 receives rows 0..6 and lane 1 rows 7..12; each lane
// stores its rows at 7 x lane.  @ref computes the same thing on one core.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @rag_aic(%x: !pto.tensor<16x128xf32>, %out_0: !pto.tensor<16x128xf32> {pto.out})
      attributes {pto.kind = #pto.kind<aic>} {
    %imp = pto.import_peer_buffer {name = "rag_c2v_slot_buffer", peer_func = @rag_aiv} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aic_initialize_pipe %imp, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
    %c13 = arith.constant 13 : index
    %x_mat = pto.load %x[0, 0] valid [%c13, 128] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, mat, valid = [?, 128]>
    pto.tpush_to_aiv %x_mat {split = 3 : i64, lane_stride = 7 : i64} : !pto.tile<16x128xf32, mat, valid = [?, 128]>
    func.return
  }
  func.func @rag_aiv(%x: !pto.tensor<16x128xf32>, %out_0: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<aiv>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %subblock_idx = pto.get_subblock_idx : index
    %buf = pto.reserve_buffer {name = "rag_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %buf, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
    %h = pto.tpop_from_aic {split = 3 : i64, lane_stride = 7 : i64} : !pto.tile<8x128xf32, vec, valid = [?, 128]>
    %e = pto.exp %h : !pto.tile<8x128xf32, vec, valid = [?, 128]>
    %c7 = arith.constant 7 : index
    %row = arith.muli %subblock_idx, %c7 : index
    %out_1 = pto.store %e, %out_0[%row, 0] : !pto.tile<8x128xf32, vec, valid = [?, 128]>, !pto.tensor<16x128xf32>
    pto.tfree_to_aic %h : !pto.tile<8x128xf32, vec, valid = [?, 128]>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
  func.func @rag(%x: !pto.tensor<16x128xf32>, %out_0: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<group>} {
    func.call @rag_aic(%x, %out_0) : (!pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> ()
    %0 = func.call @rag_aiv(%x, %out_0) : (!pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %out_0 : !pto.tensor<16x128xf32>
  }
  func.func @ref(%x: !pto.tensor<16x128xf32>, %out_0: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c13 = arith.constant 13 : index
    %x_v = pto.load %x[0, 0] valid [%c13, 128] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec, valid = [?, 128]>
    %e = pto.exp %x_v : !pto.tile<16x128xf32, vec, valid = [?, 128]>
    %out_1 = pto.store %e, %out_0[0, 0] : !pto.tile<16x128xf32, vec, valid = [?, 128]>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
}
