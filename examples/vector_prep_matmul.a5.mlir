// Vector preprocessing feeding a matmul (V->C): the AIV scales and casts X, the cube multiplies it by W.
// No split mode: on a5 the AIV kernel runs on one lane; V->C tiles get an NZ adapter move.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @prep_incore_0(%x: !pto.tensor<64x128xf32>, %w: !pto.tensor<128x64xbf16>,
                           %out_0: !pto.tensor<64x64xf32> {pto.out}) -> !pto.tensor<64x64xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %scale = arith.constant 0.125 : f32
    %x_vec = pto.load %x[0, 0] : !pto.tensor<64x128xf32> -> !pto.tile<64x128xf32, vec>
    %x_scaled = pto.muls %x_vec, %scale : !pto.tile<64x128xf32, vec>, f32
    %x_bf = pto.cast %x_scaled : !pto.tile<64x128xf32, vec> -> !pto.tile<64x128xbf16, vec>
    %x_left = pto.move %x_bf : !pto.tile<64x128xbf16, vec> -> !pto.tile<64x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x64xbf16> -> !pto.tile<128x64xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x64xbf16, mat> -> !pto.tile<128x64xbf16, right>
    %y = pto.matmul %x_left, %w_right : !pto.tile<64x128xbf16, left>, !pto.tile<128x64xbf16, right> -> !pto.tile<64x64xf32, acc>
    %out_1 = pto.store %y, %out_0[0, 0] : !pto.tile<64x64xf32, acc>, !pto.tensor<64x64xf32>
    func.return %out_1 : !pto.tensor<64x64xf32>
  }
  func.func @main(%x: !pto.tensor<64x128xf32>, %w: !pto.tensor<128x64xbf16>) -> !pto.tensor<64x64xf32>
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out_0 = pto.create_tensor : !pto.tensor<64x64xf32>
    %r = func.call @prep_incore_0(%x, %w, %out_0) : (!pto.tensor<64x128xf32>, !pto.tensor<128x64xbf16>, !pto.tensor<64x64xf32>) -> !pto.tensor<64x64xf32>
    func.return %r : !pto.tensor<64x64xf32>
  }
}
