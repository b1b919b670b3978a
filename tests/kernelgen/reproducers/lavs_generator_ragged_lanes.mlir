// campaign failure class (fixed): compare: mismatch after the pipeline: output differs (issue 40, class 2)
// reproduce: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel lavs_generator_ragged_lanes.mlir
// A vec pto.create of 16x32 with valid = [8, 17] (f16, through a col_sum) under left_right, from the generator rule
// of issue 40: the lanes hold 16 and 1 of the 17 valid columns, and LowerAutoVectorSplit typed the halved create
// valid = [8, ?] with no valid operand, so lane 1 took its whole 16-column box and wrote columns [17, 32) of the side
// output (was: result#3 differs at [0, 17]). Fixed by GeneratorHalving._halve (a set_validshape to the lane's extent).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @gen_incore_0(%a0: !pto.tensor<16x16xbf16>, %w1: !pto.tensor<16x32xbf16>, %out2: !pto.tensor<16x32xf32> {pto.out}, %bias3: !pto.tensor<1x32xf32>, %side4: !pto.tensor<16x32xf32> {pto.out}, %side5: !pto.tensor<16x32xf32> {pto.out}, %side6: !pto.tensor<1x32xf16> {pto.out}, %in7: !pto.tensor<18x33xf32>) -> !pto.tensor<16x32xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %ld1 = pto.load %a0[0, 0] valid [8, 16] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat, valid = [8, 16]>
    %mv2 = pto.move %ld1 : !pto.tile<16x16xbf16, mat, valid = [8, 16]> -> !pto.tile<16x16xbf16, left, valid = [8, 16]>
    %ld3 = pto.load %w1[0, 0] valid [16, 17] : !pto.tensor<16x32xbf16> -> !pto.tile<16x32xbf16, mat, valid = [16, 17]>
    %mv4 = pto.move %ld3 : !pto.tile<16x32xbf16, mat, valid = [16, 17]> -> !pto.tile<16x32xbf16, right, valid = [16, 17]>
    %ld6 = pto.load %bias3[0, 0] : !pto.tensor<1x32xf32> -> !pto.tile<1x32xf32, bias>
    %mm5 = pto.matmul_bias %mv2, %mv4, %ld6 : !pto.tile<16x16xbf16, left, valid = [8, 16]>, !pto.tile<16x32xbf16, right, valid = [16, 17]>, !pto.tile<1x32xf32, bias> -> !pto.tile<16x32xf32, acc, valid = [8, 17]>
    %c7 = arith.constant 1 : index
    %c8 = arith.constant 1 : index
    %cond9 = arith.cmpi sge, %c7, %c8 : index
    %ifr10 = scf.if %cond9 -> (!pto.tile<16x32xf32, vec, valid = [8, 17]>) {
      %mv11 = pto.move %mm5 : !pto.tile<16x32xf32, acc, valid = [8, 17]> -> !pto.tile<16x32xf32, vec, valid = [8, 17]>
      %v13 = pto.abs %mv11 : !pto.tile<16x32xf32, vec, valid = [8, 17]>
      %f15 = arith.constant 1.0 : f32
      %v14 = pto.adds %v13, %f15 : !pto.tile<16x32xf32, vec, valid = [8, 17]>, f32
      %v12 = pto.rsqrt %v14 : !pto.tile<16x32xf32, vec, valid = [8, 17]>
      scf.yield %v12 : !pto.tile<16x32xf32, vec, valid = [8, 17]>
    } else {
      %mv16 = pto.move %mm5 : !pto.tile<16x32xf32, acc, valid = [8, 17]> -> !pto.tile<16x32xf32, vec, valid = [8, 17]>
      %i18 = arith.constant 27 : i32
      %rnd19 = pto.random %i18 : i32 -> !pto.tile<16x1xf32, vec, valid = [8, 1]>
      %v17 = pto.row_expand_add %mv16, %rnd19 : !pto.tile<16x32xf32, vec, valid = [8, 17]>, !pto.tile<16x1xf32, vec, valid = [8, 1]>
      %sv21 = pto.set_validshape %v17 valid [5, 9] : !pto.tile<16x32xf32, vec, valid = [8, 17]> -> !pto.tile<16x32xf32, vec, valid = [5, 9]>
      %o22 = pto.store %sv21, %side4[0, 0] : !pto.tile<16x32xf32, vec, valid = [5, 9]>, !pto.tensor<16x32xf32>
      %gen24 = pto.create : !pto.tile<16x32xf32, vec, valid = [8, 17]>
      %k26 = arith.constant 1.0 : f32
      %gen25 = pto.adds %gen24, %k26 : !pto.tile<16x32xf32, vec, valid = [8, 17]>, f32
      %o27 = pto.store %gen25, %side5[0, 0] : !pto.tile<16x32xf32, vec, valid = [8, 17]>, !pto.tensor<16x32xf32>
      scf.yield %v17 : !pto.tile<16x32xf32, vec, valid = [8, 17]>
    }
    %gen29 = pto.create : !pto.tile<16x32xf16, vec, valid = [8, 17]>
    %k31 = arith.constant 2.0 : f16
    %gen30 = pto.adds %gen29, %k31 : !pto.tile<16x32xf16, vec, valid = [8, 17]>, f16
    %gen32 = pto.col_sum %gen30 : !pto.tile<16x32xf16, vec, valid = [8, 17]> -> !pto.tile<1x32xf16, vec, valid = [1, 17]>
    %o33 = pto.store %gen32, %side6[0, 0] : !pto.tile<1x32xf16, vec, valid = [1, 17]>, !pto.tensor<1x32xf16>
    %v34 = pto.abs %ifr10 : !pto.tile<16x32xf32, vec, valid = [8, 17]>
    %ld36 = pto.load %in7[0, 0] : !pto.tensor<18x33xf32> -> !pto.tile<18x33xf32, vec>
    %sl37 = pto.slice %ld36[0, 1] valid [8, 17] : !pto.tile<18x33xf32, vec> -> !pto.tile<16x32xf32, vec, valid = [8, 17]>
    %v35 = pto.add %v34, %sl37 : !pto.tile<16x32xf32, vec, valid = [8, 17]>
    %v39 = pto.abs %v35 : !pto.tile<16x32xf32, vec, valid = [8, 17]>
    %f41 = arith.constant 1.0 : f32
    %v40 = pto.adds %v39, %f41 : !pto.tile<16x32xf32, vec, valid = [8, 17]>, f32
    %v38 = pto.rsqrt %v40 : !pto.tile<16x32xf32, vec, valid = [8, 17]>
    %o42 = pto.store %v38, %out2[0, 0] : !pto.tile<16x32xf32, vec, valid = [8, 17]>, !pto.tensor<16x32xf32>
    func.return %o42 : !pto.tensor<16x32xf32>
  }
  func.func @main(%a0: !pto.tensor<16x16xbf16>, %w1: !pto.tensor<16x32xbf16>, %bias3: !pto.tensor<1x32xf32>, %in7: !pto.tensor<18x33xf32>) -> (!pto.tensor<16x32xf32>, !pto.tensor<16x32xf32>, !pto.tensor<16x32xf32>, !pto.tensor<1x32xf16>) attributes {pto.kind = #pto.kind<orchestration>} {
    %out2 = pto.create_tensor : !pto.tensor<16x32xf32>
    %side4 = pto.create_tensor : !pto.tensor<16x32xf32>
    %side5 = pto.create_tensor : !pto.tensor<16x32xf32>
    %side6 = pto.create_tensor : !pto.tensor<1x32xf16>
    %r = func.call @gen_incore_0(%a0, %w1, %out2, %bias3, %side4, %side5, %side6, %in7) : (!pto.tensor<16x16xbf16>, !pto.tensor<16x32xbf16>, !pto.tensor<16x32xf32>, !pto.tensor<1x32xf32>, !pto.tensor<16x32xf32>, !pto.tensor<16x32xf32>, !pto.tensor<1x32xf16>, !pto.tensor<18x33xf32>) -> !pto.tensor<16x32xf32>
    func.return %r, %side4, %side5, %side6 : !pto.tensor<16x32xf32>, !pto.tensor<16x32xf32>, !pto.tensor<16x32xf32>, !pto.tensor<1x32xf16>
  }
}
