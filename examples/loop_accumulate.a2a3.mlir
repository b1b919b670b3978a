// A K-loop whose body is mixed: each iteration multiplies one K-slice on the cube and the vector side
// accumulates the partial products in a loop-carried vec tile, then applies relu and stores the result.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @kloop_incore_0(%a: !pto.tensor<32x256xbf16>, %b: !pto.tensor<256x64xbf16>,
                            %out_0: !pto.tensor<32x64xf32> {pto.out}) -> !pto.tensor<32x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %init = pto.full %zero : f32 -> !pto.tile<32x64xf32, vec>
    %acc = scf.for %kk = %c0 to %c256 step %c64 iter_args(%sum = %init) -> (!pto.tile<32x64xf32, vec>) {
      %a_mat = pto.load %a[0, %kk] : !pto.tensor<32x256xbf16> -> !pto.tile<32x64xbf16, mat>
      %b_mat = pto.load %b[%kk, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<64x64xbf16, mat>
      %a_left = pto.move %a_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
      %b_right = pto.move %b_mat : !pto.tile<64x64xbf16, mat> -> !pto.tile<64x64xbf16, right>
      %part = pto.matmul %a_left, %b_right : !pto.tile<32x64xbf16, left>, !pto.tile<64x64xbf16, right> -> !pto.tile<32x64xf32, acc>
      %part_vec = pto.move %part : !pto.tile<32x64xf32, acc> -> !pto.tile<32x64xf32, vec>
      %next = pto.add %sum, %part_vec : !pto.tile<32x64xf32, vec>
      scf.yield %next : !pto.tile<32x64xf32, vec>
    }
    %r = pto.relu %acc : !pto.tile<32x64xf32, vec>
    %out_1 = pto.store %r, %out_0[0, 0] : !pto.tile<32x64xf32, vec>, !pto.tensor<32x64xf32>
    func.return %out_1 : !pto.tensor<32x64xf32>
  }
  func.func @main(%a: !pto.tensor<32x256xbf16>, %b: !pto.tensor<256x64xbf16>) -> !pto.tensor<32x64xf32>
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out_0 = pto.create_tensor : !pto.tensor<32x64xf32>
    %r = func.call @kloop_incore_0(%a, %b, %out_0) : (!pto.tensor<32x256xbf16>, !pto.tensor<256x64xbf16>, !pto.tensor<32x64xf32>) -> !pto.tensor<32x64xf32>
    func.return %r : !pto.tensor<32x64xf32>
  }
}
