// campaign failure class (fixed): lavs-reshape-left-right, compare: mismatch after the pipeline: output differs
// reproduce: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel lavs_reshape_left_right.mlir
// A row-major reshape round trip [8,16] -> [1,128] -> [8,16] under left_right: LowerAutoVectorSplit used to halve
// it as [8,8] -> [1,64] -> [4,16], so each lane's column half came back as rows and landed in the wrong cells.
// Now the first reshape (no per-lane form) runs at full width on both lanes and is lane-sliced; must pass.
// features: mode:c2v single_matmul split:left_right tail:reshape target:a2a3
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @gen_incore_0(%a0: !pto.tensor<8x16xbf16>, %w1: !pto.tensor<16x16xbf16>, %out2: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %ld1 = pto.load %a0[0, 0] : !pto.tensor<8x16xbf16> -> !pto.tile<8x16xbf16, mat>
    %mv2 = pto.move %ld1 : !pto.tile<8x16xbf16, mat> -> !pto.tile<8x16xbf16, left>
    %ld3 = pto.load %w1[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %mv4 = pto.move %ld3 : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, right>
    %mm5 = pto.matmul %mv2, %mv4 : !pto.tile<8x16xbf16, left>, !pto.tile<16x16xbf16, right> -> !pto.tile<8x16xf32, acc>
    %mv6 = pto.move %mm5 : !pto.tile<8x16xf32, acc> -> !pto.tile<8x16xf32, vec>
    %rs7 = pto.reshape %mv6 : !pto.tile<8x16xf32, vec> -> !pto.tile<1x128xf32, vec>
    %f8 = arith.constant 0.5 : f32
    %v9 = pto.muls %rs7, %f8 : !pto.tile<1x128xf32, vec>, f32
    %v10 = pto.reshape %v9 : !pto.tile<1x128xf32, vec> -> !pto.tile<8x16xf32, vec>
    %o11 = pto.store %v10, %out2[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    func.return %o11 : !pto.tensor<8x16xf32>
  }
  func.func @main(%a0: !pto.tensor<8x16xbf16>, %w1: !pto.tensor<16x16xbf16>) -> !pto.tensor<8x16xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %out2 = pto.create_tensor : !pto.tensor<8x16xf32>
    %r = func.call @gen_incore_0(%a0, %w1, %out2) : (!pto.tensor<8x16xbf16>, !pto.tensor<16x16xbf16>, !pto.tensor<8x16xf32>) -> !pto.tensor<8x16xf32>
    func.return %r : !pto.tensor<8x16xf32>
  }
}
