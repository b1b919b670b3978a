// campaign failure class (fixed): after: store window [N, N) on dim N lies outside the tensor's extent N (issue 40, class 2)
// reproduce: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel lavs_generator_odd_box_store.mlir
// A vec pto.create of 15x1 with valid = [8, 1] (an odd box; f16, through a row_sum) under up_down, from the generator
// rule of issue 40: the lanes hold 8 and 0 rows, and LowerAutoVectorSplit typed the halved create valid = [?, 1] with
// no valid operand, so lane 1 took its whole 8-row box and stored rows [8, 16) of a 15-row tensor. Fixed by
// GeneratorHalving._halve (a set_validshape to the lane's extent).
// features: comm:tensor_get cube_extract_in_loop generator:create generator:f16 generator:lanes_differ generator:own_box generator:through_reduce gm_exchange_in_loop loop:vec_carry matmul_bias mode:c2v odd_extent_on_split_axis scratch_reused_across_iterations split:up_down tail:binary_self tail:generator tail_in_loop target:a5
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @gen_incore_0(%a0: !pto.tensor<15x96xbf16>, %w1: !pto.tensor<96x32xbf16>, %out2: !pto.tensor<15x32xf32> {pto.out}, %in3: !pto.tensor<15x32xf32>, %side4: !pto.tensor<15x32xf32> {pto.out}, %scratch5: !pto.tensor<15x32xf32> {pto.out}, %bias6: !pto.tensor<1x32xf32>, %side7: !pto.tensor<15x1xf16> {pto.out}) -> !pto.tensor<15x32xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c2 = arith.constant 0 : index
    %d1 = pto.tensor_get %in3, %side4 from %c2 : !pto.tensor<15x32xf32>, !pto.tensor<15x32xf32>
    %f3 = arith.constant 0.0 : f32
    %v4 = pto.full %f3 : f32 -> !pto.tile<15x32xf32, vec>
    %c5 = arith.constant 0 : index
    %c6 = arith.constant 96 : index
    %c7 = arith.constant 32 : index
    %acc8 = scf.for %kk9 = %c5 to %c6 step %c7 iter_args(%s10 = %v4) -> (!pto.tile<15x32xf32, vec>) {
      %ld11 = pto.load %a0[0, 0] : !pto.tensor<15x96xbf16> -> !pto.tile<15x96xbf16, mat>
      %ex12 = pto.extract %ld11[0, %kk9] : !pto.tile<15x96xbf16, mat> -> !pto.tile<15x32xbf16, left>
      %ld13 = pto.load %w1[%kk9, 0] : !pto.tensor<96x32xbf16> -> !pto.tile<32x32xbf16, mat>
      %mv14 = pto.move %ld13 : !pto.tile<32x32xbf16, mat> -> !pto.tile<32x32xbf16, right>
      %ld16 = pto.load %bias6[0, 0] : !pto.tensor<1x32xf32> -> !pto.tile<1x32xf32, bias>
      %mm15 = pto.matmul_bias %ex12, %mv14, %ld16 : !pto.tile<15x32xbf16, left>, !pto.tile<32x32xbf16, right>, !pto.tile<1x32xf32, bias> -> !pto.tile<15x32xf32, acc>
      %o17 = pto.store %mm15, %scratch5[0, 0] : !pto.tile<15x32xf32, acc>, !pto.tensor<15x32xf32>
      %ld18 = pto.load %o17[0, 0] : !pto.tensor<15x32xf32> -> !pto.tile<15x32xf32, vec>
      %v19 = pto.add %s10, %ld18 : !pto.tile<15x32xf32, vec>
      scf.yield %v19 : !pto.tile<15x32xf32, vec>
    }
    %v20 = pto.add %acc8, %acc8 : !pto.tile<15x32xf32, vec>
    %gen22 = pto.create : !pto.tile<15x1xf16, vec, valid = [8, 1]>
    %k24 = arith.constant 7.0 : f16
    %gen23 = pto.adds %gen22, %k24 : !pto.tile<15x1xf16, vec, valid = [8, 1]>, f16
    %gen25 = pto.row_sum %gen23 : !pto.tile<15x1xf16, vec, valid = [8, 1]> -> !pto.tile<15x1xf16, vec, valid = [8, 1]>
    %o26 = pto.store %gen25, %side7[0, 0] : !pto.tile<15x1xf16, vec, valid = [8, 1]>, !pto.tensor<15x1xf16>
    %o27 = pto.store %v20, %out2[0, 0] : !pto.tile<15x32xf32, vec>, !pto.tensor<15x32xf32>
    func.return %o27 : !pto.tensor<15x32xf32>
  }
  func.func @main(%a0: !pto.tensor<15x96xbf16>, %w1: !pto.tensor<96x32xbf16>, %in3: !pto.tensor<15x32xf32>, %bias6: !pto.tensor<1x32xf32>) -> (!pto.tensor<15x32xf32>, !pto.tensor<15x32xf32>, !pto.tensor<15x1xf16>) attributes {pto.kind = #pto.kind<orchestration>} {
    %out2 = pto.create_tensor : !pto.tensor<15x32xf32>
    %side4 = pto.create_tensor : !pto.tensor<15x32xf32>
    %scratch5 = pto.create_tensor : !pto.tensor<15x32xf32>
    %side7 = pto.create_tensor : !pto.tensor<15x1xf16>
    %r = func.call @gen_incore_0(%a0, %w1, %out2, %in3, %side4, %scratch5, %bias6, %side7) : (!pto.tensor<15x96xbf16>, !pto.tensor<96x32xbf16>, !pto.tensor<15x32xf32>, !pto.tensor<15x32xf32>, !pto.tensor<15x32xf32>, !pto.tensor<15x32xf32>, !pto.tensor<1x32xf32>, !pto.tensor<15x1xf16>) -> !pto.tensor<15x32xf32>
    func.return %r, %side4, %side7 : !pto.tensor<15x32xf32>, !pto.tensor<15x32xf32>, !pto.tensor<15x1xf16>
  }
}
