// RUN: pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' '--skew-cross-core-pipeline{distance=2}' %s | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' '--skew-cross-core-pipeline{distance=2}' | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' %s | pypto-run --quiet --check-pipeline 'skew-cross-core-pipeline{distance=2}' -
// RUN: pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' %s | pypto-run --quiet --check-pipeline 'skew-cross-core-pipeline{distance=3}' -
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' | pypto-run --quiet --check-pipeline 'skew-cross-core-pipeline{distance=2}' -
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' | pypto-run --quiet --check-pipeline 'skew-cross-core-pipeline{distance=3}' -

// The round trip of attention.mlir with a trip count known only at run time (the loop ends at the parameter %n;
// @main runs it with 0, 1, 2, 3 and 5 blocks, so each execution check covers trip counts below, at and above
// the distance).  No scf.if guard is needed: the prologue ends at min(lb + D*step, ub) (fewer produces when the
// trip count is below D), the steady loop at ub - D*step (it does not run then) and counts, in %next, where the
// epilogue starts (lb when the steady loop did not run).  The depth needed is the most any trip count up to
// 2D + 2 needs: 3 on both targets.
// CHECK-LABEL: func.func @att_incore_0_aic(
// CHECK:       slot_num = 3 : i64
// CHECK:       %c64 = arith.constant 64 : index
// CHECK-NEXT:  %lb_ahead = arith.addi %c0, %c64 : index
// CHECK-NEXT:  %prologue_end = arith.minsi %lb_ahead, %n : index
// CHECK-NEXT:  %steady_end = arith.subi %n, %c64 : index
// CHECK-NEXT:  scf.for %j = %c0 to %prologue_end step %c32 {
// CHECK:         pto.tpush_to_aiv %s_acc
// CHECK-NEXT:  }
// CHECK-NEXT:  %epilogue_start = scf.for %j_1 = %c0 to %steady_end step %c32 iter_args(%next = %c0) -> (index) {
// CHECK-NEXT:    %j_ahead = arith.addi %j_1, %c64 : index
// CHECK-NEXT:    pto.load %kt[0, %j_ahead]
// CHECK:         pto.load %v[%j_1, 0]
// CHECK:         pto.tpush_to_aiv %pv_acc
// CHECK-NEXT:    %next_1 = arith.addi %j_1, %c32 : index
// CHECK-NEXT:    scf.yield %next_1 : index
// CHECK-NEXT:  }
// CHECK-NEXT:  scf.for %j_2 = %epilogue_start to %n step %c32 {
// CHECK-NEXT:    pto.tpop_from_aiv
// CHECK-LABEL: func.func @att_incore_0_aiv(
// CHECK:       %prologue_end = arith.minsi %lb_ahead, %n : index
// CHECK:       scf.for %j = %c0 to %prologue_end step %c32 {
// A2A3:          pto.tpush_to_aic %p_bf
// A5:            pto.tpush_to_aic %p_bf_nz
// CHECK:       %[[O:.*]], %epilogue_start = scf.for %j_1 = %c0 to %steady_end step %c32 iter_args(%o_acc = %o_init, %next = %c0)
// CHECK:       %o = scf.for %j_2 = %epilogue_start to %n step %c32 iter_args(%o_acc_1 = %[[O]])
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @att_incore_0(%q: !pto.tensor<32x64xbf16>, %kt: !pto.tensor<64x256xbf16>,
                          %v: !pto.tensor<256x64xbf16>, %n: index,
                          %out_0: !pto.tensor<32x64xf32> {pto.out}) -> !pto.tensor<32x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %zero = arith.constant 0.0 : f32
    %q_mat = pto.load %q[0, 0] : !pto.tensor<32x64xbf16> -> !pto.tile<32x64xbf16, mat>
    %q_left = pto.move %q_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
    %o_init = pto.full %zero : f32 -> !pto.tile<32x64xf32, vec>
    %o = scf.for %j = %c0 to %n step %c32 iter_args(%o_acc = %o_init) -> (!pto.tile<32x64xf32, vec>) {
      %k_mat = pto.load %kt[0, %j] : !pto.tensor<64x256xbf16> -> !pto.tile<64x32xbf16, mat>
      %k_right = pto.move %k_mat : !pto.tile<64x32xbf16, mat> -> !pto.tile<64x32xbf16, right>
      %s_acc = pto.matmul %q_left, %k_right : !pto.tile<32x64xbf16, left>, !pto.tile<64x32xbf16, right> -> !pto.tile<32x32xf32, acc>
      %s = pto.move %s_acc : !pto.tile<32x32xf32, acc> -> !pto.tile<32x32xf32, vec>
      %p = pto.exp %s : !pto.tile<32x32xf32, vec>
      %p_bf = pto.cast %p : !pto.tile<32x32xf32, vec> -> !pto.tile<32x32xbf16, vec>
      %p_left = pto.move %p_bf : !pto.tile<32x32xbf16, vec> -> !pto.tile<32x32xbf16, left>
      %v_mat = pto.load %v[%j, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
      %v_right = pto.move %v_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, right>
      %pv_acc = pto.matmul %p_left, %v_right : !pto.tile<32x32xbf16, left>, !pto.tile<32x64xbf16, right> -> !pto.tile<32x64xf32, acc>
      %pv = pto.move %pv_acc : !pto.tile<32x64xf32, acc> -> !pto.tile<32x64xf32, vec>
      %o_next = pto.add %o_acc, %pv : !pto.tile<32x64xf32, vec>
      scf.yield %o_next : !pto.tile<32x64xf32, vec>
    }
    %out_1 = pto.store %o, %out_0[0, 0] : !pto.tile<32x64xf32, vec>, !pto.tensor<32x64xf32>
    func.return %out_1 : !pto.tensor<32x64xf32>
  }
  func.func @main(%q: !pto.tensor<32x64xbf16>, %kt: !pto.tensor<64x256xbf16>, %v: !pto.tensor<256x64xbf16>)
      -> (!pto.tensor<32x64xf32>, !pto.tensor<32x64xf32>, !pto.tensor<32x64xf32>, !pto.tensor<32x64xf32>, !pto.tensor<32x64xf32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %n0 = arith.constant 0 : index
    %o0 = pto.create_tensor : !pto.tensor<32x64xf32>
    %r0 = func.call @att_incore_0(%q, %kt, %v, %n0, %o0) : (!pto.tensor<32x64xbf16>, !pto.tensor<64x256xbf16>, !pto.tensor<256x64xbf16>, index, !pto.tensor<32x64xf32>) -> !pto.tensor<32x64xf32>
    %n1 = arith.constant 32 : index
    %o1 = pto.create_tensor : !pto.tensor<32x64xf32>
    %r1 = func.call @att_incore_0(%q, %kt, %v, %n1, %o1) : (!pto.tensor<32x64xbf16>, !pto.tensor<64x256xbf16>, !pto.tensor<256x64xbf16>, index, !pto.tensor<32x64xf32>) -> !pto.tensor<32x64xf32>
    %n2 = arith.constant 64 : index
    %o2 = pto.create_tensor : !pto.tensor<32x64xf32>
    %r2 = func.call @att_incore_0(%q, %kt, %v, %n2, %o2) : (!pto.tensor<32x64xbf16>, !pto.tensor<64x256xbf16>, !pto.tensor<256x64xbf16>, index, !pto.tensor<32x64xf32>) -> !pto.tensor<32x64xf32>
    %n3 = arith.constant 96 : index
    %o3 = pto.create_tensor : !pto.tensor<32x64xf32>
    %r3 = func.call @att_incore_0(%q, %kt, %v, %n3, %o3) : (!pto.tensor<32x64xbf16>, !pto.tensor<64x256xbf16>, !pto.tensor<256x64xbf16>, index, !pto.tensor<32x64xf32>) -> !pto.tensor<32x64xf32>
    %n4 = arith.constant 160 : index
    %o4 = pto.create_tensor : !pto.tensor<32x64xf32>
    %r4 = func.call @att_incore_0(%q, %kt, %v, %n4, %o4) : (!pto.tensor<32x64xbf16>, !pto.tensor<64x256xbf16>, !pto.tensor<256x64xbf16>, index, !pto.tensor<32x64xf32>) -> !pto.tensor<32x64xf32>
    func.return %r0, %r1, %r2, %r3, %r4 : !pto.tensor<32x64xf32>, !pto.tensor<32x64xf32>, !pto.tensor<32x64xf32>, !pto.tensor<32x64xf32>, !pto.tensor<32x64xf32>
  }
}
