// campaign failure class: known [emk-notify-duplicated-after-gm-fence] compare: mismatch after the pipeline: output differs
// reproduce: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel emk_notify_duplicated_after_gm_fence.mlir
// A pto.notify (NoDuplicate: AIV only) in a mixed kernel that also exchanges a tile through GM (cube store, vector
// load): once insert_gm_fences has fenced the exchange, ExpandMixedKernel recomputes the affinity without
// placement=True (pass_.py, ExpandMixedIncoreKernel), so the notify lands on the AIC too and %sig[1] ends at 2, not 1.
// features: comm:notify_wait gm_exchange mode:c2v single_matmul split:none target:a2a3
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%a: !pto.tensor<8x16xbf16>, %w: !pto.tensor<16x16xbf16>, %out: !pto.tensor<8x16xf32> {pto.out},
               %sig: !pto.tensor<2xi32> {pto.inout}, %scratch: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %am = pto.load %a[0, 0] : !pto.tensor<8x16xbf16> -> !pto.tile<8x16xbf16, mat>
    %al = pto.move %am : !pto.tile<8x16xbf16, mat> -> !pto.tile<8x16xbf16, left>
    %wm = pto.load %w[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %wr = pto.move %wm : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, right>
    %c = pto.matmul %al, %wr : !pto.tile<8x16xbf16, left>, !pto.tile<16x16xbf16, right> -> !pto.tile<8x16xf32, acc>
    %s = pto.store %c, %scratch[0, 0] : !pto.tile<8x16xf32, acc>, !pto.tensor<8x16xf32>
    %v = pto.load %s[0, 0] : !pto.tensor<8x16xf32> -> !pto.tile<8x16xf32, vec>
    %o = pto.store %v, %out[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    %peer = arith.constant 0 : index
    pto.notify %sig[1] to %peer : !pto.tensor<2xi32>
    func.return %o : !pto.tensor<8x16xf32>
  }
  func.func @main(%a: !pto.tensor<8x16xbf16>, %w: !pto.tensor<16x16xbf16>)
      -> (!pto.tensor<8x16xf32>, !pto.tensor<2xi32>) attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<8x16xf32>
    %sig = pto.create_tensor : !pto.tensor<2xi32>
    %scratch = pto.create_tensor : !pto.tensor<8x16xf32>
    %r = func.call @k(%a, %w, %out, %sig, %scratch) : (!pto.tensor<8x16xbf16>, !pto.tensor<16x16xbf16>, !pto.tensor<8x16xf32>, !pto.tensor<2xi32>, !pto.tensor<8x16xf32>) -> !pto.tensor<8x16xf32>
    func.return %r, %sig : !pto.tensor<8x16xf32>, !pto.tensor<2xi32>
  }
}
