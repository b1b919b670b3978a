// RUN: pypto-opt %s --split-input-file --verify-diagnostics --expand-mixed-kernel
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics --expand-mixed-kernel

// A value one side reads but only the other side computes cannot be split.  A GM tensor written on one side is
// remapped to the parameter it is the buffer of when that parameter is an output; an input parameter is not
// shared that way, so the reader is rejected at the read.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%x: !pto.tensor<16x16xf32>, %scratch: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %v = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    %e = pto.exp %v : !pto.tile<16x16xf32, vec>
    %s1 = pto.store %e, %scratch[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    // expected-error@+1 {{ExpandMixedKernel: the GM tensor %s1 is written only on the AIV (vector) side of kernel '@k' but read here on the AIC (cube) side, and it is not the buffer of an output parameter the split kernels could share; write into a parameter marked {pto.out} or {pto.inout}}}
    %m = pto.load %s1[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %o2 = pto.store %m, %o[0, 0] : !pto.tile<16x16xf32, mat>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
}
