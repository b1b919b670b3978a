// campaign failure class (fixed): after: duplicated GM effect ... pto.tile_put (issue 40, class 1)
// reproduce: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel lavs_put_whole_twice.mlir
// A tile both AIV lanes hold whole was put to the peer by both lanes: the cells end the same, so only the
// interpreter's duplicated-GM-effect check (OncePerKernel) sees it.  Now the put is split into lane parts or run
// on lane 0; must pass.
// features: gm_exchange gm_once:put gm_once:row matmul_bias mode:both ragged_rows single_matmul split:up_down tail:gm_once tail:unary target:a2a3 two_stores_to_output
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @gen_incore_0(%a0: !pto.tensor<16x16xbf16>, %x1: !pto.tensor<16x16xf32>, %w2: !pto.tensor<16x16xbf16>, %out3: !pto.tensor<16x16xf32> {pto.out}, %bias4: !pto.tensor<1x16xf32>, %scratch5: !pto.tensor<16x16xf32> {pto.out}, %in6: !pto.tensor<1x16xf32>, %side7: !pto.tensor<1x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %ld1 = pto.load %a0[0, 0] valid [8, 16] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat, valid = [8, 16]>
    %mv2 = pto.move %ld1 : !pto.tile<16x16xbf16, mat, valid = [8, 16]> -> !pto.tile<16x16xbf16, left, valid = [8, 16]>
    %ld3 = pto.load %w2[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %mv4 = pto.move %ld3 : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, right>
    %ld6 = pto.load %bias4[0, 0] : !pto.tensor<1x16xf32> -> !pto.tile<1x16xf32, bias>
    %mm5 = pto.matmul_bias %mv2, %mv4, %ld6 : !pto.tile<16x16xbf16, left, valid = [8, 16]>, !pto.tile<16x16xbf16, right>, !pto.tile<1x16xf32, bias> -> !pto.tile<16x16xf32, acc, valid = [8, 16]>
    %o7 = pto.store %mm5, %scratch5[0, 0] : !pto.tile<16x16xf32, acc, valid = [8, 16]>, !pto.tensor<16x16xf32>
    %ld8 = pto.load %o7[0, 0] valid [8, 16] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec, valid = [8, 16]>
    %o9 = pto.store %ld8, %out3[0, 0] : !pto.tile<16x16xf32, vec, valid = [8, 16]>, !pto.tensor<16x16xf32>
    %v10 = pto.relu %ld8 : !pto.tile<16x16xf32, vec, valid = [8, 16]>
    %ld12 = pto.load %in6[0, 0] : !pto.tensor<1x16xf32> -> !pto.tile<1x16xf32, vec>
    %c14 = arith.constant 0 : index
    %o13 = pto.tile_put %ld12, %side7[0, 0] to %c14 : !pto.tile<1x16xf32, vec>, !pto.tensor<1x16xf32>
    %o15 = pto.store %v10, %o9[0, 0] : !pto.tile<16x16xf32, vec, valid = [8, 16]>, !pto.tensor<16x16xf32>
    func.return %o15 : !pto.tensor<16x16xf32>
  }
  func.func @main(%a0: !pto.tensor<16x16xbf16>, %x1: !pto.tensor<16x16xf32>, %w2: !pto.tensor<16x16xbf16>, %bias4: !pto.tensor<1x16xf32>, %in6: !pto.tensor<1x16xf32>) -> (!pto.tensor<16x16xf32>, !pto.tensor<1x16xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
    %out3 = pto.create_tensor : !pto.tensor<16x16xf32>
    %scratch5 = pto.create_tensor : !pto.tensor<16x16xf32>
    %side7 = pto.create_tensor : !pto.tensor<1x16xf32>
    %r = func.call @gen_incore_0(%a0, %x1, %w2, %out3, %bias4, %scratch5, %in6, %side7) : (!pto.tensor<16x16xbf16>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xbf16>, !pto.tensor<16x16xf32>, !pto.tensor<1x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<1x16xf32>, !pto.tensor<1x16xf32>) -> !pto.tensor<16x16xf32>
    func.return %r, %side7 : !pto.tensor<16x16xf32>, !pto.tensor<1x16xf32>
  }
}
