// RUN: pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' %s | filecheck %s --check-prefix=BEFORE
// RUN: pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' '--skew-cross-core-pipeline{distance=2}' %s | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' '--skew-cross-core-pipeline{distance=2}' | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' %s | pypto-run --quiet --check-pipeline 'skew-cross-core-pipeline{distance=2}' -
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' | pypto-run --quiet --check-pipeline 'skew-cross-core-pipeline{distance=2}' -
// RUN: pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' '--skew-cross-core-pipeline{distance=2}' %s | pypto-run --timing - | filecheck %s --check-prefix=TIMING
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' '--skew-cross-core-pipeline{distance=2}' | pypto-run --timing - | filecheck %s --check-prefix=TIMING

// An attention-like round trip over 8 KV blocks (S = Q K^T on the cube, P = exp(S) on the vector lanes, P V on
// the cube, O += P V on the lanes), skewed by 2.  Before the pass (prefix BEFORE) the expanded loops, one per core; the cube pushes S,
// pops P and pushes P V, all in one iteration, so the C->V ring carries S and P V interleaved.
// BEFORE-LABEL: func.func @att_incore_0_aic(
// BEFORE:       slot_num = 2 : i64
// BEFORE:       scf.for %j = %c0 to %cend step %c32 {
// BEFORE:         pto.tpush_to_aiv %s_acc
// BEFORE:         pto.tpop_from_aiv
// BEFORE:         pto.tpush_to_aiv %pv_acc
// BEFORE-NOT:   scf.for
// BEFORE-LABEL: func.func @att_incore_0_aiv(
// BEFORE:       %o = scf.for %j = %c0 to %cend step %c32 iter_args(%o_acc = %o_init)
// BEFORE:         pto.tpop_from_aic
// BEFORE:         pto.tpush_to_aic
// BEFORE:         pto.tpop_from_aic
// BEFORE-NOT:   scf.for

// After: the cube (the side that pushes first) is cut before its first pop: a prologue of 2 S pushes, a steady
// loop of 6 iterations pushing S for block j + 2 (%j_ahead = %j + 64) then popping P and pushing P V for block
// j, an epilogue of the last 2 P V.  The C->V ring carries S and P V, so the lanes' loop is cut at the same
// point of that ring (after the push of P, which keeps every popped slot freed in its own part and no tile
// crossing the cut): their prologue pops S and pushes P twice, the steady loop does the same for block j + 2
// and then adds P V of block j, the epilogue adds the last two; O is carried by the consume part only.  Both
// cores' rings now hold 3 slots (the reserves 3 x 8192 B): at depth 2 the skewed kernel deadlocks under
// pto-isa's flow control (a push of the third tile waits for the free of the first two).
// CHECK-LABEL: func.func @att_incore_0_aic(
// CHECK:       pto.reserve_buffer {name = "att_incore_0_v2c_slot_buffer", size = 24576 : i64, base = -1 : i64}
// CHECK:       pto.aic_initialize_pipe {{.*}} slot_num = 3 : i64}
// CHECK:       %c64 = arith.constant 64 : index
// CHECK:       %c192 = arith.constant 192 : index
// CHECK:       scf.for %j = %c0 to %c64 step %c32 {
// CHECK-NEXT:    pto.load %kt[0, %j]
// CHECK:         pto.tpush_to_aiv %s_acc
// CHECK-NEXT:  }
// CHECK:       scf.for %j_1 = %c0 to %c192 step %c32 {
// CHECK-NEXT:    %j_ahead = arith.addi %j_1, %c64 : index
// CHECK-NEXT:    pto.load %kt[0, %j_ahead]
// CHECK:         pto.tpush_to_aiv %s_acc_1
// CHECK-NEXT:    %p_left_mat = pto.tpop_from_aiv
// CHECK:         pto.tfree_to_aiv %p_left_mat
// CHECK-NEXT:    pto.load %v[%j_1, 0]
// CHECK:         pto.tpush_to_aiv %pv_acc
// CHECK-NEXT:  }
// CHECK:       scf.for %j_2 = %c192 to %cend step %c32 {
// CHECK-NEXT:    %p_left_mat_1 = pto.tpop_from_aiv
// CHECK:         pto.load %v[%j_2, 0]
// CHECK:         pto.tpush_to_aiv %pv_acc_1
// CHECK-NEXT:  }
// CHECK-NEXT:  func.return
// CHECK-LABEL: func.func @att_incore_0_aiv(
// CHECK:       pto.aiv_initialize_pipe {{.*}} slot_num = 3 : i64}
// CHECK:       scf.for %j = %c0 to %c64 step %c32 {
// CHECK-NEXT:    %s = pto.tpop_from_aic
// CHECK:         pto.tfree_to_aic %s
// A2A3:          pto.tpush_to_aic %p_bf
// A5:            pto.tpush_to_aic %p_bf_nz
// CHECK-NEXT:  }
// CHECK:       %[[O:.*]] = scf.for %j_1 = %c0 to %c192 step %c32 iter_args(%o_acc = %o_init)
// CHECK-NEXT:    %s_1 = pto.tpop_from_aic
// A2A3:          pto.tpush_to_aic %p_bf_1
// A5:            pto.tpush_to_aic %p_bf_nz_1
// CHECK-NEXT:    %pv = pto.tpop_from_aic
// CHECK-NEXT:    %o_next = pto.add %o_acc, %pv
// CHECK-NEXT:    pto.tfree_to_aic %pv
// CHECK-NEXT:    scf.yield %o_next
// CHECK:       %o = scf.for %j_2 = %c192 to %cend step %c32 iter_args(%o_acc_1 = %[[O]])
// CHECK-NEXT:    %pv_1 = pto.tpop_from_aic
// CHECK-NEXT:    %o_next_1 = pto.add %o_acc_1, %pv_1
// CHECK:       pto.store %o, %out
// The timing model (pto-isa's flow control) runs the skewed Group to its end at the depth the pass chose.
// TIMING:      Group @att_incore_0
// TIMING:      c2v ring of pipe 0 (3 slots)
// TIMING-NOT:  deadlock
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
