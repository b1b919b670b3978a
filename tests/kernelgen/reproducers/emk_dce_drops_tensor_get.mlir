// campaign failure class: known [emk-dce-drops-tensor-get] compare: mismatch after the pipeline: output differs
// reproduce: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel emk_dce_drops_tensor_get.mlir
// A pto.tensor_get whose result is unused: ExpandMixedKernel's DCE (repair.py, _removable) erases it although it writes
// %side, so @main's second result stays all zeros after the pipeline.
// features: comm:tensor_get mode:c2v single_matmul split:none target:a2a3
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%a: !pto.tensor<8x16xbf16>, %w: !pto.tensor<16x16xbf16>, %out: !pto.tensor<8x16xf32> {pto.out},
               %in: !pto.tensor<8x16xf32>, %side: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %peer = arith.constant 0 : index
    %d = pto.tensor_get %in, %side from %peer : !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>
    %am = pto.load %a[0, 0] : !pto.tensor<8x16xbf16> -> !pto.tile<8x16xbf16, mat>
    %al = pto.move %am : !pto.tile<8x16xbf16, mat> -> !pto.tile<8x16xbf16, left>
    %wm = pto.load %w[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %wr = pto.move %wm : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, right>
    %c = pto.matmul %al, %wr : !pto.tile<8x16xbf16, left>, !pto.tile<16x16xbf16, right> -> !pto.tile<8x16xf32, acc>
    %v = pto.move %c : !pto.tile<8x16xf32, acc> -> !pto.tile<8x16xf32, vec>
    %o = pto.store %v, %out[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    func.return %o : !pto.tensor<8x16xf32>
  }
  func.func @main(%a: !pto.tensor<8x16xbf16>, %w: !pto.tensor<16x16xbf16>, %in: !pto.tensor<8x16xf32>)
      -> (!pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<8x16xf32>
    %side = pto.create_tensor : !pto.tensor<8x16xf32>
    %r = func.call @k(%a, %w, %out, %in, %side) : (!pto.tensor<8x16xbf16>, !pto.tensor<16x16xbf16>, !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>) -> !pto.tensor<8x16xf32>
    func.return %r, %side : !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>
  }
}
