// campaign failure class (fixed): after: reshape of a partially valid tile needs a static valid region (seed 41)
// reproduce: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel lavs_reshape_ragged_lanes.mlir
// A [1,31] -> [1,31] reshape under left_right: the lanes hold 16 and 15 columns, and LowerAutoVectorSplit typed the
// per-lane reshape `valid = [1, ?]`, which a reshape (no valid operand) cannot state. Now each lane reshapes its
// whole box between two set_validshapes, and the verifier rejects a reshape result with a `?` valid extent; must pass.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @gen_incore_0(%a0: !pto.tensor<1x32xbf16>, %w1: !pto.tensor<32x31xbf16>, %out2: !pto.tensor<1x31xf32> {pto.out}, %bias3: !pto.tensor<1x31xf32>, %scratch4: !pto.tensor<1x31xf32> {pto.out}) -> !pto.tensor<1x31xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %ld1 = pto.load %a0[0, 0] : !pto.tensor<1x32xbf16> -> !pto.tile<1x32xbf16, mat>
    %ex2 = pto.extract %ld1[0, 0] : !pto.tile<1x32xbf16, mat> -> !pto.tile<1x16xbf16, left>
    %ld3 = pto.load %w1[0, 0] : !pto.tensor<32x31xbf16> -> !pto.tile<16x31xbf16, mat>
    %mv4 = pto.move %ld3 : !pto.tile<16x31xbf16, mat> -> !pto.tile<16x31xbf16, right>
    %ld6 = pto.load %bias3[0, 0] : !pto.tensor<1x31xf32> -> !pto.tile<1x31xf32, bias>
    %mm5 = pto.gemv_bias %ex2, %mv4, %ld6 : !pto.tile<1x16xbf16, left>, !pto.tile<16x31xbf16, right>, !pto.tile<1x31xf32, bias> -> !pto.tile<1x31xf32, acc>
    %ld7 = pto.load %a0[0, 0] : !pto.tensor<1x32xbf16> -> !pto.tile<1x32xbf16, mat>
    %ex8 = pto.extract %ld7[0, 16] : !pto.tile<1x32xbf16, mat> -> !pto.tile<1x16xbf16, left>
    %ld9 = pto.load %w1[16, 0] : !pto.tensor<32x31xbf16> -> !pto.tile<16x31xbf16, mat>
    %mv10 = pto.move %ld9 : !pto.tile<16x31xbf16, mat> -> !pto.tile<16x31xbf16, right>
    %mm11 = pto.gemv_acc %mm5, %ex8, %mv10 : !pto.tile<1x31xf32, acc>, !pto.tile<1x16xbf16, left>, !pto.tile<16x31xbf16, right> -> !pto.tile<1x31xf32, acc>
    %o12 = pto.store %mm11, %scratch4[0, 0] : !pto.tile<1x31xf32, acc>, !pto.tensor<1x31xf32>
    %ld13 = pto.load %o12[0, 0] : !pto.tensor<1x31xf32> -> !pto.tile<1x31xf32, vec>
    %o14 = pto.store %ld13, %out2[0, 0] : !pto.tile<1x31xf32, vec>, !pto.tensor<1x31xf32>
    %rs16 = pto.reshape %ld13 : !pto.tile<1x31xf32, vec> -> !pto.tile<1x31xf32, vec>
    %f18 = arith.constant 0.5 : f32
    %v17 = pto.muls %rs16, %f18 : !pto.tile<1x31xf32, vec>, f32
    %v15 = pto.reshape %v17 : !pto.tile<1x31xf32, vec> -> !pto.tile<1x31xf32, vec>
    %v19 = pto.add %v15, %ld13 : !pto.tile<1x31xf32, vec>
    %o20 = pto.store %v19, %o14[0, 0] : !pto.tile<1x31xf32, vec>, !pto.tensor<1x31xf32>
    func.return %o20 : !pto.tensor<1x31xf32>
  }
  func.func @main(%a0: !pto.tensor<1x32xbf16>, %w1: !pto.tensor<32x31xbf16>, %bias3: !pto.tensor<1x31xf32>) -> !pto.tensor<1x31xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %out2 = pto.create_tensor : !pto.tensor<1x31xf32>
    %scratch4 = pto.create_tensor : !pto.tensor<1x31xf32>
    %r = func.call @gen_incore_0(%a0, %w1, %out2, %bias3, %scratch4) : (!pto.tensor<1x32xbf16>, !pto.tensor<32x31xbf16>, !pto.tensor<1x31xf32>, !pto.tensor<1x31xf32>, !pto.tensor<1x31xf32>) -> !pto.tensor<1x31xf32>
    func.return %r : !pto.tensor<1x31xf32>
  }
}
