// RUN: pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' '--skew-cross-core-pipeline{distance=2}' %s | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' '--skew-cross-core-pipeline{distance=2}' | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' %s | pypto-run --quiet --check-pipeline 'skew-cross-core-pipeline{distance=2}' -
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' | pypto-run --quiet --check-pipeline 'skew-cross-core-pipeline{distance=2}' -

// Loop-carried tiles in both parts.  The cube carries an accumulator %s_run in its produce part (S accumulates
// over the blocks); the lanes carry l (the row sums of P) in their produce part and O in their consume part.
// Each carried value goes with the part that computes it: the prologue carries the produce part's (the cube's
// %s_run, the lanes' %l_acc), the steady loop both (the produce part's first), the epilogue the consume part's
// (O).  The loop's results come from where their chain ends: %l and the cube's %s_last from the steady loop, %o
// from the epilogue.
// CHECK-LABEL: func.func @att_incore_0_aic(
// CHECK:       %[[S0:.*]] = scf.for %j = %c0 to %c64 step %c32 iter_args(%s_run = %s_init) -> (!pto.tile<32x32xf32, acc>) {
// CHECK:         %s_acc = pto.matmul_acc %s_run, %q_left, %k_right
// CHECK-NEXT:    pto.tpush_to_aiv %s_acc
// CHECK-NEXT:    scf.yield %s_acc
// CHECK:       %s_last = scf.for %j_1 = %c0 to %c192 step %c32 iter_args(%s_run_1 = %[[S0]])
// CHECK:         %s_acc_1 = pto.matmul_acc %s_run_1, %q_left, %k_right_1
// CHECK:         pto.tpush_to_aiv %pv_acc
// CHECK-NEXT:    scf.yield %s_acc_1
// CHECK:       scf.for %j_2 = %c192 to %cend step %c32 {
// CHECK-LABEL: func.func @att_incore_0_aiv(
// CHECK:       %[[L0:.*]] = scf.for %j = %c0 to %c64 step %c32 iter_args(%l_acc = %l_init) -> (!pto.tile<16x1xf32, vec>) {
// CHECK:         %l_next = pto.add %l_acc, %rs
// A2A3:          pto.tpush_to_aic %p_bf
// A5:            pto.tpush_to_aic %p_bf_nz
// CHECK-NEXT:    scf.yield %l_next
// CHECK:       %l, %[[O1:.*]] = scf.for %j_1 = %c0 to %c192 step %c32 iter_args(%l_acc_1 = %[[L0]], %o_acc = %o_init)
// CHECK:         %l_next_1 = pto.add %l_acc_1, %rs_1
// CHECK:         %o_next = pto.add %o_acc, %pv
// CHECK:         scf.yield %l_next_1, %o_next
// CHECK:       %o = scf.for %j_2 = %c192 to %cend step %c32 iter_args(%o_acc_1 = %[[O1]])
// CHECK:         scf.yield %o_next_1
// CHECK:       pto.row_expand_div %o, %l
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @att_incore_0(%q: !pto.tensor<32x64xbf16>, %kt: !pto.tensor<64x256xbf16>,
                          %v: !pto.tensor<256x64xbf16>,
                          %out_0: !pto.tensor<32x64xf32> {pto.out}) -> !pto.tensor<32x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %cend = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %q_mat = pto.load %q[0, 0] : !pto.tensor<32x64xbf16> -> !pto.tile<32x64xbf16, mat>
    %q_left = pto.move %q_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
    %k0_mat = pto.load %kt[0, 0] : !pto.tensor<64x256xbf16> -> !pto.tile<64x32xbf16, mat>
    %k0_right = pto.move %k0_mat : !pto.tile<64x32xbf16, mat> -> !pto.tile<64x32xbf16, right>
    %o_init = pto.full %zero : f32 -> !pto.tile<32x64xf32, vec>
    %l_init = pto.full %zero : f32 -> !pto.tile<32x1xf32, vec>
    %s_init = pto.matmul %q_left, %k0_right : !pto.tile<32x64xbf16, left>, !pto.tile<64x32xbf16, right> -> !pto.tile<32x32xf32, acc>
    %o, %l, %s_last = scf.for %j = %c0 to %cend step %c32 iter_args(%o_acc = %o_init, %l_acc = %l_init, %s_run = %s_init)
        -> (!pto.tile<32x64xf32, vec>, !pto.tile<32x1xf32, vec>, !pto.tile<32x32xf32, acc>) {
      %k_mat = pto.load %kt[0, %j] : !pto.tensor<64x256xbf16> -> !pto.tile<64x32xbf16, mat>
      %k_right = pto.move %k_mat : !pto.tile<64x32xbf16, mat> -> !pto.tile<64x32xbf16, right>
      %s_acc = pto.matmul_acc %s_run, %q_left, %k_right : !pto.tile<32x32xf32, acc>, !pto.tile<32x64xbf16, left>, !pto.tile<64x32xbf16, right> -> !pto.tile<32x32xf32, acc>
      %s = pto.move %s_acc : !pto.tile<32x32xf32, acc> -> !pto.tile<32x32xf32, vec>
      %p = pto.exp %s : !pto.tile<32x32xf32, vec>
      %rs = pto.row_sum %p : !pto.tile<32x32xf32, vec> -> !pto.tile<32x1xf32, vec>
      %l_next = pto.add %l_acc, %rs : !pto.tile<32x1xf32, vec>
      %p_bf = pto.cast %p : !pto.tile<32x32xf32, vec> -> !pto.tile<32x32xbf16, vec>
      %p_left = pto.move %p_bf : !pto.tile<32x32xbf16, vec> -> !pto.tile<32x32xbf16, left>
      %v_mat = pto.load %v[%j, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
      %v_right = pto.move %v_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, right>
      %pv_acc = pto.matmul %p_left, %v_right : !pto.tile<32x32xbf16, left>, !pto.tile<32x64xbf16, right> -> !pto.tile<32x64xf32, acc>
      %pv = pto.move %pv_acc : !pto.tile<32x64xf32, acc> -> !pto.tile<32x64xf32, vec>
      %o_next = pto.add %o_acc, %pv : !pto.tile<32x64xf32, vec>
      scf.yield %o_next, %l_next, %s_acc : !pto.tile<32x64xf32, vec>, !pto.tile<32x1xf32, vec>, !pto.tile<32x32xf32, acc>
    }
    %res = pto.row_expand_div %o, %l : !pto.tile<32x64xf32, vec>, !pto.tile<32x1xf32, vec>
    %out_1 = pto.store %res, %out_0[0, 0] : !pto.tile<32x64xf32, vec>, !pto.tensor<32x64xf32>
    func.return %out_1 : !pto.tensor<32x64xf32>
  }
  func.func @main(%q: !pto.tensor<32x64xbf16>, %kt: !pto.tensor<64x256xbf16>, %v: !pto.tensor<256x64xbf16>)
      -> !pto.tensor<32x64xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %out_0 = pto.create_tensor : !pto.tensor<32x64xf32>
    %r = func.call @att_incore_0(%q, %kt, %v, %out_0) : (!pto.tensor<32x64xbf16>, !pto.tensor<64x256xbf16>, !pto.tensor<256x64xbf16>, !pto.tensor<32x64xf32>) -> !pto.tensor<32x64xf32>
    func.return %r : !pto.tensor<32x64xf32>
  }
}
