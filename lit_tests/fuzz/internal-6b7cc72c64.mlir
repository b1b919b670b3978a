// fuzz finding: internal at expand-mixed-kernel (seed 303, input 10668), unshrunk
//   pto.slot_num = INT64_MAX made the pipe buffer size overflow i64 when the reserve_buffer was built
//   (now a located error at the function: lower pto.slot_num)
// RUN: not pypto-opt %s --expand-mixed-kernel 2>&1 | filecheck %s --check-prefix=ERR
// Regression test once fixed (the oracle must report nothing):
// RUN: %python -m pypto_mlir.fuzz check %s


// `pto.slot_num = 4` overrides the default ring depth: slot_num 4  both initializers, buffers of 4 slots.
builtin.module attributes {pto.target = #pto.target<a2a3>} {








  func.func @deep(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x64xbf16>, %out: !pto.tensor<16x64xf32> {pto.out}) -> !pto.tensor<16x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.slot_num = 9223372036854775807 : i64} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x64xbf16> -> !pto.tile<128x64xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x64xbf16, mat> -> !pto.tile<128x64xbf16, right>
    %z = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x64xbf16, right> -> !pto.tile<16x64xf32, acc>
    %z_vec = pto.move %z : !pto.tile<16x64xf32, acc> -> !pto.tile<16x64xf32, vec>
    %out_1 = pto.store %z_vec, %out[0, 0] : !pto.tile<16x64xf32, vec>, !pto.tensor<16x64xf32>
    func.return %out_1 : !pto.tensor<16x64xf32>
  }
}
// ERR: error: the pipe buffer of @deep would hold 37778931862957161705472 bytes (4096-byte slots x 9223372036854775807), more than an i64 size can state; lower pto.slot_num
