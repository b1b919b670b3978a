// A hand-written AIC/AIV/Group expansion of ../execute_region.mlir that keeps scf.execute_region on both sides:
// the AIC matmul and tpush in a result-less one, the AIV tpop, loop, store and tfree in one that yields the tensor.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k_aic(%q: !pto.tensor<64x128xf32>, %kt: !pto.tensor<128x128xf32>, %d: !pto.tensor<64x128xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %k_c2v_slot_buffer_import = pto.import_peer_buffer {name = "k_c2v_slot_buffer", peer_func = @k_aiv} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aic_initialize_pipe %k_c2v_slot_buffer_import, %c0_i32 {dir_mask = 1 : i64, slot_size = 32768 : i64, slot_num = 2 : i64} : i32, i32
    %q_mat = pto.load %q[0, 0] : !pto.tensor<64x128xf32> -> !pto.tile<64x128xf32, mat>
    %k_mat = pto.load %kt[0, 0] : !pto.tensor<128x128xf32> -> !pto.tile<128x128xf32, mat>
    scf.execute_region {
      %q_left = pto.move %q_mat : !pto.tile<64x128xf32, mat> -> !pto.tile<64x128xf32, left>
      %k_right = pto.move %k_mat : !pto.tile<128x128xf32, mat> -> !pto.tile<128x128xf32, right>
      %mm = pto.matmul %q_left, %k_right : !pto.tile<64x128xf32, left>, !pto.tile<128x128xf32, right> -> !pto.tile<64x128xf32, acc>
      pto.tpush_to_aiv %mm {split = 0 : i64} : !pto.tile<64x128xf32, acc>
    }
    func.return
  }
  func.func @k_aiv(%q: !pto.tensor<64x128xf32>, %kt: !pto.tensor<128x128xf32>, %d: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32> attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
    %k_c2v_slot_buffer = pto.reserve_buffer {name = "k_c2v_slot_buffer", size = 65536 : i64, base = -1 : i64} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %k_c2v_slot_buffer, %c0_i32 {dir_mask = 1 : i64, slot_size = 32768 : i64, slot_num = 2 : i64} : i32, i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %res = scf.execute_region -> (!pto.tensor<64x128xf32>) {
      %mv = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<64x128xf32, vec>
      %acc = scf.for %i = %c0 to %c2 step %c1 iter_args(%s = %mv) -> (!pto.tile<64x128xf32, vec>) {
        %ex = pto.relu %s : !pto.tile<64x128xf32, vec>
        %ld = pto.load %q[0, 0] : !pto.tensor<64x128xf32> -> !pto.tile<64x128xf32, vec>
        %n = pto.sub %ex, %ld : !pto.tile<64x128xf32, vec>
        scf.yield %n : !pto.tile<64x128xf32, vec>
      }
      %d_1 = pto.store %acc, %d[0, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<64x128xf32>
      pto.tfree_to_aic %mv : !pto.tile<64x128xf32, vec>
      scf.yield %d_1 : !pto.tensor<64x128xf32>
    }
    func.return %res : !pto.tensor<64x128xf32>
  }
  func.func @k(%q: !pto.tensor<64x128xf32>, %kt: !pto.tensor<128x128xf32>, %d: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32> attributes {pto.kind = #pto.kind<group>} {
    func.call @k_aic(%q, %kt, %d) : (!pto.tensor<64x128xf32>, !pto.tensor<128x128xf32>, !pto.tensor<64x128xf32>) -> ()
    %0 = func.call @k_aiv(%q, %kt, %d) : (!pto.tensor<64x128xf32>, !pto.tensor<128x128xf32>, !pto.tensor<64x128xf32>) -> !pto.tensor<64x128xf32>
    func.return %d : !pto.tensor<64x128xf32>
  }
  func.func @main(%q: !pto.tensor<64x128xf32>, %kt: !pto.tensor<128x128xf32>) -> !pto.tensor<64x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %d = pto.create_tensor : !pto.tensor<64x128xf32>
    %r = func.call @k(%q, %kt, %d) : (!pto.tensor<64x128xf32>, !pto.tensor<128x128xf32>, !pto.tensor<64x128xf32>) -> !pto.tensor<64x128xf32>
    func.return %r : !pto.tensor<64x128xf32>
  }
}
