// RUN: pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' '--skew-cross-core-pipeline{distance=2}' %s | filecheck %s --check-prefixes=CHECK
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' '--skew-cross-core-pipeline{distance=2}' | filecheck %s --check-prefixes=CHECK
// RUN: pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' %s | pypto-run --quiet --entry round_trip_incore --check-pipeline 'skew-cross-core-pipeline{distance=2}' -
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' | pypto-run --quiet --entry round_trip_incore --check-pipeline 'skew-cross-core-pipeline{distance=2}' -

// The round trip of the benchmark (benchmarks/loop_kernels.py, round_trip): per iteration the lanes send X_i to
// the cube (V->C), which multiplies it by W and hands the product back (C->V), added into a carried sum.  The
// lanes push first, so they run ahead: their body is cut before the pop of the product.  Each ring carries one
// tile per iteration, pushed in one part and popped in one part on the other core, so its order does not change
// whichever part of the cube's body holds it: the cube's loop stays as it is (it is never cut when it need not
// be).  Depth 2 suffices on both targets.
// CHECK-LABEL: func.func @round_trip_incore_aic(
// CHECK:       slot_num = 2 : i64
// CHECK:       scf.for %i = %c0 to %cn step %c64 {
// CHECK-NEXT:    pto.tpop_from_aiv
// CHECK-NOT:   scf.for
// CHECK-LABEL: func.func @round_trip_incore_aiv(
// CHECK:       slot_num = 2 : i64
// CHECK:       %c128 = arith.constant 128 : index
// CHECK-NEXT:  %c384 = arith.constant 384 : index
// CHECK-NEXT:  scf.for %i = %c0 to %c128 step %c64 {
// CHECK:         pto.load %x
// CHECK:         pto.tpush_to_aic
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[S:.*]] = scf.for %i_1 = %c0 to %c384 step %c64 iter_args(%sum = %init)
// CHECK-NEXT:    %i_ahead = arith.addi %i_1, %c128 : index
// CHECK:         pto.tpush_to_aic
// CHECK-NEXT:    %term = pto.tpop_from_aic
// CHECK:       %acc = scf.for %i_2 = %c384 to %cn step %c64 iter_args(%sum_1 = %[[S]])
// CHECK-NEXT:    %term_1 = pto.tpop_from_aic
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @round_trip_incore(%x: !pto.tensor<512x128xf32>, %w: !pto.tensor<128x128xbf16>,
      %out_0: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %cn = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %scale = arith.constant 0.5 : f32
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %init = pto.full %zero : f32 -> !pto.tile<64x128xf32, vec>
    %acc = scf.for %i = %c0 to %cn step %c64 iter_args(%sum = %init) -> (!pto.tile<64x128xf32, vec>) {
      %x_vec = pto.load %x[%i, 0] : !pto.tensor<512x128xf32> -> !pto.tile<64x128xf32, vec>
      %x_s = pto.muls %x_vec, %scale : !pto.tile<64x128xf32, vec>, f32
      %x_bf = pto.cast %x_s : !pto.tile<64x128xf32, vec> -> !pto.tile<64x128xbf16, vec>
      %x_left = pto.move %x_bf : !pto.tile<64x128xbf16, vec> -> !pto.tile<64x128xbf16, left>
      %y_acc = pto.matmul %x_left, %w_right : !pto.tile<64x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<64x128xf32, acc>
      %term = pto.move %y_acc : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
      %next = pto.add %sum, %term : !pto.tile<64x128xf32, vec>
      scf.yield %next : !pto.tile<64x128xf32, vec>
    }
    %out_1 = pto.store %acc, %out_0[0, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<64x128xf32>
    func.return %out_1 : !pto.tensor<64x128xf32>
  }
}
