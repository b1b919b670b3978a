// RUN: sed 's/%cend = arith.constant 256/%cend = arith.constant 0/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' '--skew-cross-core-pipeline{distance=2}' | filecheck %s --check-prefix=T0
// RUN: sed 's/%cend = arith.constant 256/%cend = arith.constant 32/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' '--skew-cross-core-pipeline{distance=2}' | filecheck %s --check-prefix=T1
// RUN: sed 's/%cend = arith.constant 256/%cend = arith.constant 64/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' '--skew-cross-core-pipeline{distance=3}' | filecheck %s --check-prefix=T2
// RUN: sed 's/%cend = arith.constant 256/%cend = arith.constant 160/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' '--skew-cross-core-pipeline{distance=2}' | filecheck %s --check-prefixes=T5,T5-A2A3
// RUN: sed -e 's/%cend = arith.constant 256/%cend = arith.constant 160/' -e 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' '--skew-cross-core-pipeline{distance=2}' | filecheck %s --check-prefixes=T5,T5-A5
// RUN: sed 's/%cend = arith.constant 256/%cend = arith.constant 0/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' | pypto-run --quiet --check-pipeline 'skew-cross-core-pipeline{distance=2}' -
// RUN: sed 's/%cend = arith.constant 256/%cend = arith.constant 32/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' | pypto-run --quiet --check-pipeline 'skew-cross-core-pipeline{distance=2}' -
// RUN: sed -e 's/%cend = arith.constant 256/%cend = arith.constant 32/' -e 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' | pypto-run --quiet --check-pipeline 'skew-cross-core-pipeline{distance=2}' -
// RUN: sed 's/%cend = arith.constant 256/%cend = arith.constant 64/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' | pypto-run --quiet --check-pipeline 'skew-cross-core-pipeline{distance=3}' -
// RUN: sed 's/%cend = arith.constant 256/%cend = arith.constant 160/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' | pypto-run --quiet --check-pipeline 'skew-cross-core-pipeline{distance=2}' -
// RUN: sed -e 's/%cend = arith.constant 256/%cend = arith.constant 160/' -e 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' | pypto-run --quiet --check-pipeline 'skew-cross-core-pipeline{distance=2}' -

// The attention-like round trip of attention.mlir with constant trip counts other than 8 (the RUN lines set the
// loop's end): a constant trip count needs no guard, and the distance is at most the trip count, so the
// prologue is shorter when the trip count is below the distance asked.
//
// 0 trips: nothing runs, so the loops are left as they are and the depth stays 2.
// T0-LABEL: func.func @att_incore_0_aic(
// T0:       slot_num = 2 : i64
// T0:       scf.for %j = %c0 to %cend step %c32 {
// T0-NOT:   scf.for
// T0-LABEL: func.func @att_incore_0_aiv(
// T0:       %o = scf.for %j = %c0 to %cend step %c32
// T0-NOT:   scf.for
//
// 1 trip, distance 2: distance 1 (a prologue of one produce, no steady loop, an epilogue of one consume).
// T1-LABEL: func.func @att_incore_0_aic(
// T1:       scf.for %j = %c0 to %cend step %c32 {
// T1:         pto.tpush_to_aiv %s_acc
// T1-NEXT:  }
// T1-NEXT:  scf.for %j_1 = %c0 to %cend step %c32 {
// T1-NEXT:    pto.tpop_from_aiv
// T1-NOT:   scf.for
// T1-LABEL: func.func @att_incore_0_aiv(
// T1:       scf.for %j = %c0 to %cend step %c32 {
// T1:       %o = scf.for %j_1 = %c0 to %cend step %c32 iter_args(%o_acc = %o_init)
// T1-NOT:   scf.for
//
// 2 trips, distance 3: distance 2, both produces before both consumes (no steady loop).
// T2-LABEL: func.func @att_incore_0_aic(
// T2:       scf.for %j = %c0 to %cend step %c32 {
// T2:         pto.tpush_to_aiv %s_acc
// T2-NEXT:  }
// T2-NEXT:  scf.for %j_1 = %c0 to %cend step %c32 {
// T2-NOT:   scf.for
// T2-LABEL: func.func @att_incore_0_aiv(
//
// 5 trips (odd), distance 2: no fallback to distance 1 and no remainder loop: a prologue of 2, a steady loop of
// 3, an epilogue of 2 (the reference would take D = 1, as 2 does not divide 5).  Both targets need 3 slots.
// T5-LABEL: func.func @att_incore_0_aic(
// T5:       slot_num = 3 : i64
// T5:       %c64 = arith.constant 64 : index
// T5-NEXT:  %c96 = arith.constant 96 : index
// T5-NEXT:  scf.for %j = %c0 to %c64 step %c32 {
// T5:       scf.for %j_1 = %c0 to %c96 step %c32 {
// T5-NEXT:    %j_ahead = arith.addi %j_1, %c64 : index
// T5:       scf.for %j_2 = %c96 to %cend step %c32 {
// T5-LABEL: func.func @att_incore_0_aiv(
// T5:       scf.for %j = %c0 to %c64 step %c32 {
// T5-A2A3:    pto.tpush_to_aic %p_bf
// T5-A5:      pto.tpush_to_aic %p_bf_nz
// T5:       %[[O:.*]] = scf.for %j_1 = %c0 to %c96 step %c32 iter_args(%o_acc = %o_init)
// T5:       %o = scf.for %j_2 = %c96 to %cend step %c32 iter_args(%o_acc_1 = %[[O]])
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
    %o_init = pto.full %zero : f32 -> !pto.tile<32x64xf32, vec>
    %o = scf.for %j = %c0 to %cend step %c32 iter_args(%o_acc = %o_init) -> (!pto.tile<32x64xf32, vec>) {
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
      -> !pto.tensor<32x64xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %out_0 = pto.create_tensor : !pto.tensor<32x64xf32>
    %r = func.call @att_incore_0(%q, %kt, %v, %out_0) : (!pto.tensor<32x64xbf16>, !pto.tensor<64x256xbf16>, !pto.tensor<256x64xbf16>, !pto.tensor<32x64xf32>) -> !pto.tensor<32x64xf32>
    func.return %r : !pto.tensor<32x64xf32>
  }
}
