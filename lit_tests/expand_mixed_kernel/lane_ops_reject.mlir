// RUN: pypto-opt %s --split-input-file --verify-diagnostics --expand-mixed-kernel
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics --expand-mixed-kernel

// A pto.lane_workspace belongs to the AIV lanes (issue 43): the cube cannot read it back, because the AIC kernel
// ExpandMixedKernel makes has no such buffer.  Located at the cube-side read.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @ws_to_cube(%x: !pto.tensor<16x128xbf16>, %b: !pto.tensor<128x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %ws = pto.lane_workspace : !pto.tensor<16x128xbf16>
    %h = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, vec>
    %ws1 = pto.store %h, %ws[0, 0] : !pto.tile<16x128xbf16, vec>, !pto.tensor<16x128xbf16>
    // expected-error@+1 {{ExpandMixedKernel: the GM tensor %ws1 is written only on the AIV (vector) side of kernel '@ws_to_cube' but read here on the AIC (cube) side, and it is not the buffer of an output parameter the split kernels could share}}
    %a_mat = pto.load %ws1[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %o2 = pto.store %acc, %o[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    func.return %o2 : !pto.tensor<16x128xf32>
  }
}
