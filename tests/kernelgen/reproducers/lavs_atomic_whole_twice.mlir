// campaign failure class (fixed): compare: mismatch after the pipeline (issue 40, class 1; campaign -n 2000 on main 660d240)
// reproduce: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel lavs_atomic_whole_twice.mlir
// A 1-row tile under up_down is never halved, so both AIV lanes hold it whole; stored with {atomic = 1}, both
// lanes added it and the side output held twice the value.  Now each lane stores its lane part (lane 0 the row,
// lane 1 an empty copy); must pass.
// features: cube_extract gemv gm_exchange gm_once:atomic gm_once:flat matmul_bias mode:both odd_extent_on_split_axis odd_v2c_gather single_matmul split:up_down tail:gm_once tail:unary target:a2a3 two_stores_to_output
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @gen_incore_0(%a0: !pto.tensor<1x16xbf16>, %x1: !pto.tensor<1x16xf32>, %w2: !pto.tensor<16x16xbf16>, %out3: !pto.tensor<1x16xf32> {pto.out}, %bias4: !pto.tensor<1x16xf32>, %scratch5: !pto.tensor<1x16xf32> {pto.out}, %in6: !pto.tensor<1x16xf32>, %side7: !pto.tensor<1x16xf32> {pto.out}) -> !pto.tensor<1x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %ld1 = pto.load %a0[0, 0] : !pto.tensor<1x16xbf16> -> !pto.tile<1x16xbf16, mat>
    %ex2 = pto.extract %ld1[0, 0] : !pto.tile<1x16xbf16, mat> -> !pto.tile<1x16xbf16, left>
    %ld3 = pto.load %w2[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %mv4 = pto.move %ld3 : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, right>
    %ld6 = pto.load %bias4[0, 0] : !pto.tensor<1x16xf32> -> !pto.tile<1x16xf32, bias>
    %mm5 = pto.gemv_bias %ex2, %mv4, %ld6 : !pto.tile<1x16xbf16, left>, !pto.tile<16x16xbf16, right>, !pto.tile<1x16xf32, bias> -> !pto.tile<1x16xf32, acc>
    %o7 = pto.store %mm5, %scratch5[0, 0] : !pto.tile<1x16xf32, acc>, !pto.tensor<1x16xf32>
    %ld8 = pto.load %o7[0, 0] : !pto.tensor<1x16xf32> -> !pto.tile<1x16xf32, vec>
    %o9 = pto.store %ld8, %out3[0, 0] : !pto.tile<1x16xf32, vec>, !pto.tensor<1x16xf32>
    %v10 = pto.relu %ld8 : !pto.tile<1x16xf32, vec>
    %ld12 = pto.load %in6[0, 0] : !pto.tensor<1x16xf32> -> !pto.tile<1x16xf32, vec>
    %flat13 = pto.reshape %ld12 : !pto.tile<1x16xf32, vec> -> !pto.tile<1x16xf32, vec>
    %o14 = pto.store %flat13, %side7[0, 0] {atomic = 1 : i64} : !pto.tile<1x16xf32, vec>, !pto.tensor<1x16xf32>
    %o15 = pto.store %v10, %o9[0, 0] : !pto.tile<1x16xf32, vec>, !pto.tensor<1x16xf32>
    func.return %o15 : !pto.tensor<1x16xf32>
  }
  func.func @main(%a0: !pto.tensor<1x16xbf16>, %x1: !pto.tensor<1x16xf32>, %w2: !pto.tensor<16x16xbf16>, %bias4: !pto.tensor<1x16xf32>, %in6: !pto.tensor<1x16xf32>) -> (!pto.tensor<1x16xf32>, !pto.tensor<1x16xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
    %out3 = pto.create_tensor : !pto.tensor<1x16xf32>
    %scratch5 = pto.create_tensor : !pto.tensor<1x16xf32>
    %side7 = pto.create_tensor : !pto.tensor<1x16xf32>
    %r = func.call @gen_incore_0(%a0, %x1, %w2, %out3, %bias4, %scratch5, %in6, %side7) : (!pto.tensor<1x16xbf16>, !pto.tensor<1x16xf32>, !pto.tensor<16x16xbf16>, !pto.tensor<1x16xf32>, !pto.tensor<1x16xf32>, !pto.tensor<1x16xf32>, !pto.tensor<1x16xf32>, !pto.tensor<1x16xf32>) -> !pto.tensor<1x16xf32>
    func.return %r, %side7 : !pto.tensor<1x16xf32>, !pto.tensor<1x16xf32>
  }
}
