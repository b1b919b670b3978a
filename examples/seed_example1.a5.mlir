// Seed example 1 of ExpandMixedKernel: an orchestration function calls a mixed incore kernel directly,
// so the pass creates a Group named like the kernel and the call site does not change.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @compute_incore_0(%x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>,
      %out_0: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %y_mat = pto.load %y[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %y_right = pto.move %y_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %z_tile = pto.matmul %x_left, %y_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %z_vec = pto.move %z_tile : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %z_vec, %out_0[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
  func.func @main(%x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out_0 = pto.create_tensor : !pto.tensor<16x128xf32>
    %r = func.call @compute_incore_0(%x, %y, %out_0) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %r : !pto.tensor<16x128xf32>
  }
}
