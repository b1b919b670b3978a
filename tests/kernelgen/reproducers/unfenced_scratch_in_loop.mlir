// campaign failure class: after: data race on GM tensor %scratch[..] in Group @f: a load on @f lane N (AIV) and a store on @f (AIC) touch the same cells and no pipe handshak
// reproduce: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel after-data-race-on-gm-tensor-scratch-in-group-f-a-load-on-f-lane-n-aiv-and-a-sto.mlir
// | the program fails after the pipeline:
// | gen.mlir:17:7: error: data race on GM tensor %scratch3[0:8, 0:16] in Group @gen_incore_0: a load on @gen_incore_0_aiv lane 0 (AIV) and a store on @gen_incore_0_aic (AIC) at gen.mlir:16:7 touch the same cells and no pipe handshake or lane barrier orders them (1 racing pair(s))
// | gen.mlir:16:7: note: a store of %scratch3[0:8, 0:16] on @gen_incore_0_aic (AIC)
// features: gm_exchange_in_loop loop:vec_carry mode:c2v scratch_reused_across_iterations split:none target:a2a3 two_stores_to_output
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @gen_incore_0(%a0: !pto.tensor<8x32xbf16>, %w1: !pto.tensor<32x16xbf16>, %out2: !pto.tensor<8x16xf32> {pto.out}, %scratch3: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %f1 = arith.constant 0.0 : f32
    %v2 = pto.full %f1 : f32 -> !pto.tile<8x16xf32, vec>
    %c3 = arith.constant 0 : index
    %c4 = arith.constant 32 : index
    %c5 = arith.constant 16 : index
    %acc6 = scf.for %kk7 = %c3 to %c4 step %c5 iter_args(%s8 = %v2) -> (!pto.tile<8x16xf32, vec>) {
      %ld9 = pto.load %a0[0, %kk7] : !pto.tensor<8x32xbf16> -> !pto.tile<8x16xbf16, mat>
      %mv10 = pto.move %ld9 : !pto.tile<8x16xbf16, mat> -> !pto.tile<8x16xbf16, left>
      %ld11 = pto.load %w1[%kk7, 0] : !pto.tensor<32x16xbf16> -> !pto.tile<16x16xbf16, mat>
      %mv12 = pto.move %ld11 : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, right>
      %mm13 = pto.matmul %mv10, %mv12 : !pto.tile<8x16xbf16, left>, !pto.tile<16x16xbf16, right> -> !pto.tile<8x16xf32, acc>
      %o14 = pto.store %mm13, %scratch3[0, 0] : !pto.tile<8x16xf32, acc>, !pto.tensor<8x16xf32>
      %ld15 = pto.load %o14[0, 0] : !pto.tensor<8x16xf32> -> !pto.tile<8x16xf32, vec>
      %v16 = pto.add %s8, %ld15 : !pto.tile<8x16xf32, vec>
      scf.yield %v16 : !pto.tile<8x16xf32, vec>
    }
    %o17 = pto.store %acc6, %out2[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    %o18 = pto.store %acc6, %o17[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    func.return %o18 : !pto.tensor<8x16xf32>
  }
  func.func @main(%a0: !pto.tensor<8x32xbf16>, %w1: !pto.tensor<32x16xbf16>) -> !pto.tensor<8x16xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %out2 = pto.create_tensor : !pto.tensor<8x16xf32>
    %scratch3 = pto.create_tensor : !pto.tensor<8x16xf32>
    %r = func.call @gen_incore_0(%a0, %w1, %out2, %scratch3) : (!pto.tensor<8x32xbf16>, !pto.tensor<32x16xbf16>, !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>) -> !pto.tensor<8x16xf32>
    func.return %r : !pto.tensor<8x16xf32>
  }
}
