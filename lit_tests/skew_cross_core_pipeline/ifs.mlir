// RUN: pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' '--skew-cross-core-pipeline{distance=2}' %s | filecheck %s --check-prefixes=CHECK
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' '--skew-cross-core-pipeline{distance=2}' | filecheck %s --check-prefixes=CHECK
// RUN: pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' %s | pypto-run --quiet --check-pipeline 'skew-cross-core-pipeline{distance=2}' -
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' | pypto-run --quiet --check-pipeline 'skew-cross-core-pipeline{distance=2}' -

// scf.if in the body.  S is computed in one of two branches (%early: the first 4 blocks), so after the split
// the cube pushes S in both branches of an scf.if and the lanes pop it in both branches of theirs; P is exp(S) or
// S / 2 by a branch with no transfer (%odd).  An scf.if whose branches do the same transfers in the same order
// moves as one op with the part that holds it: the traffic does not depend on the branch taken.  In the steady
// loop the produce part's conditions read the block ahead (%j_ahead), the consume part's the block j.
// CHECK-LABEL: func.func @att_incore_0_aic(
// CHECK:       scf.for %j = %c0 to %c64 step %c32 {
// CHECK:         %early = arith.cmpi ult, %j, %c128 : index
// CHECK-NEXT:    scf.if %early {
// CHECK:           pto.tpush_to_aiv %s_acc
// CHECK:         } else {
// CHECK:           pto.tpush_to_aiv %s_acc2
// CHECK:       scf.for %j_1 = %c0 to %c192 step %c32 {
// CHECK-NEXT:    %j_ahead = arith.addi %j_1, %c64 : index
// CHECK:         %early_1 = arith.cmpi ult, %j_ahead, %c128 : index
// CHECK-NEXT:    scf.if %early_1 {
// CHECK:         %p_left_mat = pto.tpop_from_aiv
// CHECK:         pto.load %v[%j_1, 0]
// CHECK:       scf.for %j_2 = %c192 to %cend step %c32 {
// CHECK-LABEL: func.func @att_incore_0_aiv(
// CHECK:       scf.for %j = %c0 to %c64_1 step %c32 {
// CHECK:         %s = scf.if %early -> (!pto.tile<16x32xf32, vec>) {
// CHECK-NEXT:      %s_early = pto.tpop_from_aic
// CHECK:         } else {
// CHECK-NEXT:      %s_late = pto.tpop_from_aic
// CHECK:         %odd = arith.cmpi ugt, %j, %c64 : index
// CHECK:       scf.for %j_1 = %c0 to %c192 step %c32 iter_args(%o_acc = %o_init)
// CHECK-NEXT:    %j_ahead = arith.addi %j_1, %c64_1 : index
// CHECK-NEXT:    %early_1 = arith.cmpi ult, %j_ahead, %c128 : index
// CHECK:         %odd_1 = arith.cmpi ugt, %j_ahead, %c64 : index
// CHECK:         %pv = pto.tpop_from_aic
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @att_incore_0(%q: !pto.tensor<32x64xbf16>, %kt: !pto.tensor<64x256xbf16>,
                          %v: !pto.tensor<256x64xbf16>,
                          %out_0: !pto.tensor<32x64xf32> {pto.out}) -> !pto.tensor<32x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %cend = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %half = arith.constant 0.5 : f32
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %q_mat = pto.load %q[0, 0] : !pto.tensor<32x64xbf16> -> !pto.tile<32x64xbf16, mat>
    %q_left = pto.move %q_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
    %o_init = pto.full %zero : f32 -> !pto.tile<32x64xf32, vec>
    %o = scf.for %j = %c0 to %cend step %c32 iter_args(%o_acc = %o_init) -> (!pto.tile<32x64xf32, vec>) {
      %k_mat = pto.load %kt[0, %j] : !pto.tensor<64x256xbf16> -> !pto.tile<64x32xbf16, mat>
      %k_right = pto.move %k_mat : !pto.tile<64x32xbf16, mat> -> !pto.tile<64x32xbf16, right>
      %early = arith.cmpi ult, %j, %c128 : index
      %s = scf.if %early -> (!pto.tile<32x32xf32, vec>) {
        %s_acc = pto.matmul %q_left, %k_right : !pto.tile<32x64xbf16, left>, !pto.tile<64x32xbf16, right> -> !pto.tile<32x32xf32, acc>
        %s_early = pto.move %s_acc : !pto.tile<32x32xf32, acc> -> !pto.tile<32x32xf32, vec>
        scf.yield %s_early : !pto.tile<32x32xf32, vec>
      } else {
        %s_acc2 = pto.matmul %q_left, %k_right : !pto.tile<32x64xbf16, left>, !pto.tile<64x32xbf16, right> -> !pto.tile<32x32xf32, acc>
        %s_late = pto.move %s_acc2 : !pto.tile<32x32xf32, acc> -> !pto.tile<32x32xf32, vec>
        scf.yield %s_late : !pto.tile<32x32xf32, vec>
      }
      %odd = arith.cmpi ugt, %j, %c64 : index
      %p = scf.if %odd -> (!pto.tile<32x32xf32, vec>) {
        %p_exp = pto.exp %s : !pto.tile<32x32xf32, vec>
        scf.yield %p_exp : !pto.tile<32x32xf32, vec>
      } else {
        %p_half = pto.muls %s, %half : !pto.tile<32x32xf32, vec>, f32
        scf.yield %p_half : !pto.tile<32x32xf32, vec>
      }
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
      -> !pto.tensor<32x64xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %out_0 = pto.create_tensor : !pto.tensor<32x64xf32>
    %r = func.call @att_incore_0(%q, %kt, %v, %out_0) : (!pto.tensor<32x64xbf16>, !pto.tensor<64x256xbf16>, !pto.tensor<256x64xbf16>, !pto.tensor<32x64xf32>) -> !pto.tensor<32x64xf32>
    func.return %r : !pto.tensor<32x64xf32>
  }
}
