// campaign failure class (fixed): after: data race on GM tensor %out[..]: two AIV lanes store the same cells (seed 41)
// reproduce: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel lavs_whole_store_chain.mlir
// A 1-row tile under up_down is never halved, so both lanes hold it whole; it was stored twice to %out2 (a store,
// then a relu stored to the chained tensor) by both lanes, and lane 1's first store could land after lane 0's
// second. Now each lane stores its lane part (lane 0 the row, lane 1 an empty copy); must pass.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @gen_incore_0(%a0: !pto.tensor<1x16xbf16>, %w1: !pto.tensor<16x16xbf16>, %out2: !pto.tensor<1x16xf32> {pto.out}, %bias3: !pto.tensor<1x16xf32>, %scratch4: !pto.tensor<1x16xf32> {pto.out}) -> !pto.tensor<1x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %ld1 = pto.load %a0[0, 0] : !pto.tensor<1x16xbf16> -> !pto.tile<1x16xbf16, mat>
    %ex2 = pto.extract %ld1[0, 0] : !pto.tile<1x16xbf16, mat> -> !pto.tile<1x16xbf16, left>
    %ld3 = pto.load %w1[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %mv4 = pto.move %ld3 : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, right>
    %ld6 = pto.load %bias3[0, 0] : !pto.tensor<1x16xf32> -> !pto.tile<1x16xf32, bias>
    %mm5 = pto.gemv_bias %ex2, %mv4, %ld6 : !pto.tile<1x16xbf16, left>, !pto.tile<16x16xbf16, right>, !pto.tile<1x16xf32, bias> -> !pto.tile<1x16xf32, acc>
    %o7 = pto.store %mm5, %scratch4[0, 0] : !pto.tile<1x16xf32, acc>, !pto.tensor<1x16xf32>
    %ld8 = pto.load %o7[0, 0] : !pto.tensor<1x16xf32> -> !pto.tile<1x16xf32, vec>
    %o9 = pto.store %ld8, %out2[0, 0] : !pto.tile<1x16xf32, vec>, !pto.tensor<1x16xf32>
    %v10 = pto.relu %ld8 : !pto.tile<1x16xf32, vec>
    %o11 = pto.store %v10, %o9[0, 0] : !pto.tile<1x16xf32, vec>, !pto.tensor<1x16xf32>
    func.return %o11 : !pto.tensor<1x16xf32>
  }
  func.func @main(%a0: !pto.tensor<1x16xbf16>, %w1: !pto.tensor<16x16xbf16>, %bias3: !pto.tensor<1x16xf32>) -> !pto.tensor<1x16xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %out2 = pto.create_tensor : !pto.tensor<1x16xf32>
    %scratch4 = pto.create_tensor : !pto.tensor<1x16xf32>
    %r = func.call @gen_incore_0(%a0, %w1, %out2, %bias3, %scratch4) : (!pto.tensor<1x16xbf16>, !pto.tensor<16x16xbf16>, !pto.tensor<1x16xf32>, !pto.tensor<1x16xf32>, !pto.tensor<1x16xf32>) -> !pto.tensor<1x16xf32>
    func.return %r : !pto.tensor<1x16xf32>
  }
}
