// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s

// Dangling GM tensor references are remapped to the parameter they are the buffer of.
// A GM exchange through an {pto.inout} parameter: the AIC's load of the (pruned) vector store's result reads the
// parameter itself.  (The GM ordering between the two kernels is the pipe protocol's business.)  The AIV's
// return of the (pruned) cube store's result returns the output parameter.
// CHECK-LABEL: func.func @k_aic(
// CHECK-NOT: pto.exp
// CHECK: %m = pto.load %scratch[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
// CHECK-NEXT: %o2 = pto.store %m, %o[0, 0]
// CHECK-LABEL: func.func @k_aiv(
// CHECK: %s1 = pto.store %e, %scratch[0, 0]
// CHECK-NOT: pto.load %s1
// CHECK: func.return %o : !pto.tensor<16x16xf32>
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%x: !pto.tensor<16x16xf32>, %scratch: !pto.tensor<16x16xf32> {pto.inout}, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %v = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    %e = pto.exp %v : !pto.tile<16x16xf32, vec>
    %s1 = pto.store %e, %scratch[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    %m = pto.load %s1[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %o2 = pto.store %m, %o[0, 0] : !pto.tile<16x16xf32, mat>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
}
