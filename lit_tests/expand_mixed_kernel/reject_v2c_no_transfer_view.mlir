// RUN: pypto-opt %s --split-input-file --verify-diagnostics --expand-mixed-kernel
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics --expand-mixed-kernel

// A vector -> cube move straight into bias or acc has no cross-core transfer view (only vec, mat, left, right
// do): rejected at the move, with the fix (cross into mat, then place on the cube side).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @to_bias(%x: !pto.tensor<16x32xf16>, %w: !pto.tensor<32x16xf16>, %bt: !pto.tensor<1x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %bv = pto.load %bt[0, 0] : !pto.tensor<1x16xf32> -> !pto.tile<1x16xf32, vec>
    // expected-error@+1 {{cross-core move destination must be Vec, Mat, Left, or Right, but this vector -> cube move lands in 'bias', which has no cross-core transfer view; move the tile to 'mat' first and then, on the cube side, from 'mat' to 'bias'}}
    %bias = pto.move %bv : !pto.tile<1x16xf32, vec> -> !pto.tile<1x16xf32, bias>
    %a_mat = pto.load %x[0, 0] : !pto.tensor<16x32xf16> -> !pto.tile<16x32xf16, mat>
    %a_left = pto.move %a_mat : !pto.tile<16x32xf16, mat> -> !pto.tile<16x32xf16, left>
    %b_mat = pto.load %w[0, 0] : !pto.tensor<32x16xf16> -> !pto.tile<32x16xf16, mat>
    %b_right = pto.move %b_mat : !pto.tile<32x16xf16, mat> -> !pto.tile<32x16xf16, right>
    %c = pto.matmul_bias %a_left, %b_right, %bias : !pto.tile<16x32xf16, left>, !pto.tile<32x16xf16, right>, !pto.tile<1x16xf32, bias> -> !pto.tile<16x16xf32, acc>
    %o2 = pto.store %c, %o[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
}

// -----

builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @to_acc(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %v = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    // expected-error@+1 {{ExpandMixedKernel: cross-core move destination must be Vec, Mat, Left, or Right, but this vector -> cube move lands in 'acc'}}
    %acc = pto.move %v : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, acc>
    %o2 = pto.store %acc, %o[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
}
