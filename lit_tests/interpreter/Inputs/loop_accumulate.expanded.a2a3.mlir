// loop_accumulate after both passes on a2a3, written by hand: four matmuls pushed through a 2-slot ring with
// split = 1; each AIV lane pops its 16 rows per iteration, accumulates them and frees the slot.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @kloop_incore_0_aic(%a: !pto.tensor<32x256xbf16>, %b: !pto.tensor<256x64xbf16>,
                                %out_0: !pto.tensor<32x64xf32> {pto.out})
      attributes {pto.kind = #pto.kind<aic>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %imp = pto.import_peer_buffer {name = "kloop_incore_0_c2v_slot_buffer", peer_func = @kloop_incore_0_aiv} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aic_initialize_pipe %imp, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    scf.for %kk = %c0 to %c256 step %c64 {
      %a_mat = pto.load %a[0, %kk] : !pto.tensor<32x256xbf16> -> !pto.tile<32x64xbf16, mat>
      %b_mat = pto.load %b[%kk, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<64x64xbf16, mat>
      %a_left = pto.move %a_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
      %b_right = pto.move %b_mat : !pto.tile<64x64xbf16, mat> -> !pto.tile<64x64xbf16, right>
      %part = pto.matmul %a_left, %b_right : !pto.tile<32x64xbf16, left>, !pto.tile<64x64xbf16, right> -> !pto.tile<32x64xf32, acc>
      pto.tpush_to_aiv %part {split = 1 : i64} : !pto.tile<32x64xf32, acc>
    }
    func.return
  }
  func.func @kloop_incore_0_aiv(%a: !pto.tensor<32x256xbf16>, %b: !pto.tensor<256x64xbf16>,
                                %out_0: !pto.tensor<32x64xf32> {pto.out}) -> !pto.tensor<32x64xf32>
      attributes {pto.kind = #pto.kind<aiv>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %subblock_idx = pto.get_subblock_idx : index
    %buf = pto.reserve_buffer {name = "kloop_incore_0_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %buf, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %init = pto.full %zero : f32 -> !pto.tile<16x64xf32, vec>
    %acc = scf.for %kk = %c0 to %c256 step %c64 iter_args(%sum = %init) -> (!pto.tile<16x64xf32, vec>) {
      %part_vec = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<16x64xf32, vec>
      %next = pto.add %sum, %part_vec : !pto.tile<16x64xf32, vec>
      pto.tfree_to_aic %part_vec : !pto.tile<16x64xf32, vec>
      scf.yield %next : !pto.tile<16x64xf32, vec>
    }
    %r = pto.relu %acc : !pto.tile<16x64xf32, vec>
    %row = arith.muli %subblock_idx, %c16 : index
    %out_1 = pto.store %r, %out_0[%row, 0] : !pto.tile<16x64xf32, vec>, !pto.tensor<32x64xf32>
    func.return %out_1 : !pto.tensor<32x64xf32>
  }
  func.func @kloop_incore_0(%a: !pto.tensor<32x256xbf16>, %b: !pto.tensor<256x64xbf16>,
                            %out_0: !pto.tensor<32x64xf32> {pto.out}) -> !pto.tensor<32x64xf32>
      attributes {pto.kind = #pto.kind<group>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    func.call @kloop_incore_0_aic(%a, %b, %out_0) : (!pto.tensor<32x256xbf16>, !pto.tensor<256x64xbf16>, !pto.tensor<32x64xf32>) -> ()
    %0 = func.call @kloop_incore_0_aiv(%a, %b, %out_0) : (!pto.tensor<32x256xbf16>, !pto.tensor<256x64xbf16>, !pto.tensor<32x64xf32>) -> !pto.tensor<32x64xf32>
    func.return %out_0 : !pto.tensor<32x64xf32>
  }
  func.func @main(%a: !pto.tensor<32x256xbf16>, %b: !pto.tensor<256x64xbf16>) -> !pto.tensor<32x64xf32>
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out_0 = pto.create_tensor : !pto.tensor<32x64xf32>
    %r = func.call @kloop_incore_0(%a, %b, %out_0) : (!pto.tensor<32x256xbf16>, !pto.tensor<256x64xbf16>, !pto.tensor<32x64xf32>) -> !pto.tensor<32x64xf32>
    func.return %r : !pto.tensor<32x64xf32>
  }
}
