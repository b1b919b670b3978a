// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s
// RUN: pypto-run --check-pipeline expand-mixed-kernel --entry rotating %s | filecheck %s --check-prefix=EXEC
// RUN: sed 's/a2a3/a5/' %s | pypto-run --check-pipeline expand-mixed-kernel --entry rotating - | filecheck %s --check-prefix=EXEC

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

  // Beyond the reference: the cube stores into a destination chosen by an scf.if between two {pto.inout}
  // scratch tensors that rotate through the loop's iter_args, and the vector side loads the store's result.  No
  // single parameter is its lineage, but the pruned store's result is its destination under a new name: the
  // AIV loads %dst (its own scf.if of the rotating arguments), fenced after the cube's store; the V->C
  // acknowledgement orders the next iteration's store after this load.  (Before, this was rejected: "written
  // only on the AIC (cube) side ... not the buffer of an output parameter".)
  // EXEC: check of pipeline 'expand-mixed-kernel' passed
  // CHECK-LABEL: func.func @rotating_aiv(
  // CHECK:          %dst = scf.if %iseven -> (!pto.tensor<17x128xf32>) {
  // CHECK-NEXT:       scf.yield %p : !pto.tensor<17x128xf32>
  // CHECK-NEXT:     } else {
  // CHECK-NEXT:       scf.yield %q : !pto.tensor<17x128xf32>
  // CHECK-NEXT:     }
  // CHECK-NEXT:     %wa_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<17x128xf32, vec>
  // CHECK-NEXT:     pto.tfree_to_aic %wa_gm_sync : !pto.tile<17x128xf32, vec>
  // CHECK-NEXT:     %v = pto.load %dst[0, 0] : !pto.tensor<17x128xf32> -> !pto.tile<17x128xf32, vec>
  // CHECK:          scf.yield %o2, %q, %p
  func.func @rotating(%x: !pto.tensor<68x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                      %wa: !pto.tensor<17x128xf32> {pto.inout}, %wb: !pto.tensor<17x128xf32> {pto.inout},
                      %out: !pto.tensor<68x128xf32> {pto.out}) -> !pto.tensor<68x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c17 = arith.constant 17 : index
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %res:3 = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %out, %p = %wa, %q = %wb) -> (!pto.tensor<68x128xf32>, !pto.tensor<17x128xf32>, !pto.tensor<17x128xf32>) {
      %r = arith.muli %i, %c17 : index
      %x_mat = pto.load %x[%r, 0] : !pto.tensor<68x128xbf16> -> !pto.tile<17x128xbf16, mat>
      %x_left = pto.move %x_mat : !pto.tile<17x128xbf16, mat> -> !pto.tile<17x128xbf16, left>
      %y = pto.matmul %x_left, %w_right : !pto.tile<17x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<17x128xf32, acc>
      %ev = arith.remui %i, %c2 : index
      %iseven = arith.cmpi eq, %ev, %c0 : index
      %dst = scf.if %iseven -> (!pto.tensor<17x128xf32>) {
        scf.yield %p : !pto.tensor<17x128xf32>
      } else {
        scf.yield %q : !pto.tensor<17x128xf32>
      }
      %d1 = pto.store %y, %dst[0, 0] : !pto.tile<17x128xf32, acc>, !pto.tensor<17x128xf32>
      %v = pto.load %d1[0, 0] : !pto.tensor<17x128xf32> -> !pto.tile<17x128xf32, vec>
      %e = pto.exp %v : !pto.tile<17x128xf32, vec>
      %o2 = pto.store %e, %o[%r, 0] : !pto.tile<17x128xf32, vec>, !pto.tensor<68x128xf32>
      scf.yield %o2, %q, %p : !pto.tensor<68x128xf32>, !pto.tensor<17x128xf32>, !pto.tensor<17x128xf32>
    }
    func.return %res#0 : !pto.tensor<68x128xf32>
  }
}
