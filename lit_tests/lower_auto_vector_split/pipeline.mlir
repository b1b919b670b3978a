// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel | filecheck %s
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split %s

// The AUTO output feeds ExpandMixedKernel: the shard becomes a C->V tpush/tpop with split code 1 and the
// per-lane [32, 128] type, the gather a V->C pair with the full [64, 64] type; the program computes the same
// outputs before and after (reference interpreter, two AIV lanes).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @attn_incore_0_aic
  // CHECK:       pto.tpush_to_aiv %scores {split = 1 : i64} : !pto.tile<64x128xf32, acc>
  // CHECK:       %p_mat = pto.tpop_from_aiv {split = 1 : i64} : !pto.tile<64x128xf32, mat>
  // CHECK-LABEL: func.func @attn_incore_0_aiv
  // CHECK:       %s = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<32x128xf32, vec>
  // CHECK:       pto.tpush_to_aic %pb {split = 1 : i64} : !pto.tile<32x128xf32, vec>
  func.func @attn_incore_0(%q: !pto.tensor<64x128xf32>, %k: !pto.tensor<128x128xf32>, %v: !pto.tensor<128x64xf32>,
                           %out_0: !pto.tensor<64x64xf32> {pto.out}) -> !pto.tensor<64x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %q_mat = pto.load %q[0, 0] : !pto.tensor<64x128xf32> -> !pto.tile<64x128xf32, mat>
    %k_mat = pto.load %k[0, 0] : !pto.tensor<128x128xf32> -> !pto.tile<128x128xf32, mat>
    %q_left = pto.move %q_mat : !pto.tile<64x128xf32, mat> -> !pto.tile<64x128xf32, left>
    %k_right = pto.move %k_mat : !pto.tile<128x128xf32, mat> -> !pto.tile<128x128xf32, right>
    %scores = pto.matmul %q_left, %k_right : !pto.tile<64x128xf32, left>, !pto.tile<128x128xf32, right> -> !pto.tile<64x128xf32, acc>
    %s = pto.move %scores : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
    %m = pto.row_max %s : !pto.tile<64x128xf32, vec> -> !pto.tile<64x1xf32, vec>
    %d = pto.row_expand_sub %s, %m : !pto.tile<64x128xf32, vec>, !pto.tile<64x1xf32, vec>
    %e = pto.exp %d : !pto.tile<64x128xf32, vec>
    %sum = pto.row_sum %e : !pto.tile<64x128xf32, vec> -> !pto.tile<64x1xf32, vec>
    %pb = pto.row_expand_div %e, %sum : !pto.tile<64x128xf32, vec>, !pto.tile<64x1xf32, vec>
    %p = pto.move %pb : !pto.tile<64x128xf32, vec> -> !pto.tile<64x128xf32, mat>
    %p_left = pto.move %p : !pto.tile<64x128xf32, mat> -> !pto.tile<64x128xf32, left>
    %v_mat = pto.load %v[0, 0] : !pto.tensor<128x64xf32> -> !pto.tile<128x64xf32, mat>
    %v_right = pto.move %v_mat : !pto.tile<128x64xf32, mat> -> !pto.tile<128x64xf32, right>
    %o = pto.matmul %p_left, %v_right : !pto.tile<64x128xf32, left>, !pto.tile<128x64xf32, right> -> !pto.tile<64x64xf32, acc>
    %out_1 = pto.store %o, %out_0[0, 0] : !pto.tile<64x64xf32, acc>, !pto.tensor<64x64xf32>
    func.return %out_1 : !pto.tensor<64x64xf32>
  }
  func.func @main(%q: !pto.tensor<64x128xf32>, %k: !pto.tensor<128x128xf32>, %v: !pto.tensor<128x64xf32>) -> !pto.tensor<64x64xf32>
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out_0 = pto.create_tensor : !pto.tensor<64x64xf32>
    %r = func.call @attn_incore_0(%q, %k, %v, %out_0) : (!pto.tensor<64x128xf32>, !pto.tensor<128x128xf32>, !pto.tensor<128x64xf32>, !pto.tensor<64x64xf32>) -> !pto.tensor<64x64xf32>
    func.return %r : !pto.tensor<64x64xf32>
  }
}
