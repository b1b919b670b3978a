// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s

// Dangling GM tensor references are remapped to the parameter they are the buffer of.
// A GM exchange through an {pto.inout} parameter: the AIC's load of the (pruned) vector store's result reads the
// parameter itself.  The AIV's return of the (pruned) cube store's result returns the output parameter.  The
// V->C exchange through %scratch is fenced (analysis/hazards.py): the AIV pushes after its store, the AIC pops
// before its load.
// CHECK-LABEL: func.func @k_aic(
// CHECK-NOT: pto.exp
// CHECK: %scratch_gm_sync = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x16xf32, mat>
// CHECK-NEXT: pto.tfree_to_aiv %scratch_gm_sync
// CHECK-NEXT: %m = pto.load %scratch[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
// CHECK-NEXT: %o2 = pto.store %m, %o[0, 0]
// CHECK-LABEL: func.func @k_aiv(
// CHECK: %s1 = pto.store %e, %scratch[0, 0]
// CHECK: pto.tpush_to_aic
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

  // A GM tensor carry the AIC keeps (a cube store writes it in the loop) whose init is a vector store result:
  // the init is remapped to the output parameter, never re-materialised (no vector store on the AIC).  On the
  // AIV the carry's cube update is pruned, so it yields itself.  The cube's store into the carried tensor comes
  // after the vector store into its init (WAW through the iter_arg): fenced V->C before the loop.
  // CHECK-LABEL: func.func @carry_aic(
  // CHECK-NOT: pto.store %v
  // CHECK: %o_gm_sync = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x16xf32, mat>
  // CHECK-NEXT: pto.tfree_to_aiv %o_gm_sync
  // CHECK-NEXT: %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%t = %o) -> (!pto.tensor<16x16xf32>) {
  // CHECK: %t2 = pto.store %c, %t[0, 0]
  // CHECK-NEXT: scf.yield %t2
  // CHECK-LABEL: func.func @carry_aiv(
  // CHECK: %o1 = pto.store %v, %o[0, 0]
  // CHECK: pto.tpush_to_aic
  // CHECK-NEXT: %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%t = %o1) -> (!pto.tensor<16x16xf32>) {
  // CHECK-NEXT: scf.yield %t
  // CHECK: func.return %r
  func.func @carry(%x: !pto.tensor<16x16xf32>, %a: !pto.tensor<16x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %v = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    %o1 = pto.store %v, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%t = %o1) -> (!pto.tensor<16x16xf32>) {
      %m = pto.load %a[0, 0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
      %l = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
      %rr = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
      %c = pto.matmul %l, %rr : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
      %t2 = pto.store %c, %t[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
      %w = pto.exp %v : !pto.tile<16x16xf32, vec>
      scf.yield %t2 : !pto.tensor<16x16xf32>
    }
    func.return %r : !pto.tensor<16x16xf32>
  }
}
