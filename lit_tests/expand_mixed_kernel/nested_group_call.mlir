// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s

// Only top-level calls of a Group are rewritten to the two halves; a call nested in control flow keeps calling
// @k, so a Group named @k is created for it (otherwise the nested call would name a function that no longer
// exists).  The Group's top-level call is still rewritten.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%a: !pto.tensor<16x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %m = pto.load %a[0, 0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
    %l = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
    %r = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
    %c = pto.matmul %l, %r : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
    %v = pto.move %c : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %o2 = pto.store %v, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
  func.func @cluster(%a: !pto.tensor<16x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}, %again: i1) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<group>} {
    %r = func.call @k(%a, %o) : (!pto.tensor<16x16xf16>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    %r2 = scf.if %again -> (!pto.tensor<16x16xf32>) {
      %r3 = func.call @k(%a, %r) : (!pto.tensor<16x16xf16>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
      scf.yield %r3 : !pto.tensor<16x16xf32>
    } else {
      scf.yield %r : !pto.tensor<16x16xf32>
    }
    func.return %r2 : !pto.tensor<16x16xf32>
  }
}

// The Group @cluster has one more parameter (%again) than the halves it now calls at its top level, so phase 4
// gives it its own copies on its full parameter list (the halves are also called by the Group @k).
// CHECK-LABEL: func.func @cluster_aic_adapter(%a: !pto.tensor<16x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}, %again: i1)
// CHECK:       pto.import_peer_buffer {name = "k_c2v_slot_buffer", peer_func = @cluster_aiv_adapter}
// CHECK-LABEL: func.func @cluster_aiv_adapter(%a: !pto.tensor<16x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}, %again: i1)
// CHECK-LABEL: func.func @k_aic(
// CHECK:       pto.import_peer_buffer {name = "k_c2v_slot_buffer", peer_func = @k_aiv}
// CHECK-LABEL: func.func @k_aiv(
// CHECK-LABEL: func.func @k(
// CHECK-SAME: pto.kind = #pto.kind<group>
// CHECK-LABEL: func.func @cluster(
// CHECK-NEXT: func.call @cluster_aic_adapter(%a, %o, %again)
// CHECK-NEXT: %r = func.call @cluster_aiv_adapter(%a, %o, %again)
// CHECK: %r3 = func.call @k(%a, %r)
