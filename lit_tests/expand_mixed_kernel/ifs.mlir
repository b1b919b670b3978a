// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5

// scf.if holding mixed work is copied to both sides and pruned; dangling branch yields and results repaired.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // The if's only result is vector data: on the AIC both branch yields dangle, so the result is dropped and
  // the if keeps only the cube work + push; the AIV keeps the result (pop on one branch, fill on the other).
  // Both targets keep their pto.target (the target-specific lines of this file):
  // A2A3: pto.target = #pto.target<a2a3>
  // A5: pto.target = #pto.target<a5>
  // CHECK-LABEL: func.func @if_result_aic(
  // CHECK: scf.if %flag {
  // CHECK: %c = pto.matmul
  // CHECK-NEXT: pto.tpush_to_aiv %c {split = 0 : i64}
  // CHECK-NEXT: } else {
  // CHECK-NEXT: }
  // CHECK-NEXT: func.return{{$}}
  // CHECK-LABEL: func.func @if_result_aiv(
  // CHECK: %t = scf.if %flag -> (!pto.tile<16x16xf32, vec>) {
  // CHECK-NEXT: %v = pto.tpop_from_aic {split = 0 : i64}
  // CHECK: scf.yield %v
  // CHECK: } else {
  // CHECK-NEXT: %z = pto.full %zero
  // CHECK-NEXT: scf.yield %z
  // CHECK: pto.store %t, %o[0, 0]
  func.func @if_result(%a: !pto.tensor<16x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}, %flag: i1) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %zero = arith.constant 0.0 : f32
    %t = scf.if %flag -> (!pto.tile<16x16xf32, vec>) {
      %m = pto.load %a[0, 0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
      %l = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
      %r = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
      %c = pto.matmul %l, %r : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
      %v = pto.move %c : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
      scf.yield %v : !pto.tile<16x16xf32, vec>
    } else {
      %z = pto.full %zero : f32 -> !pto.tile<16x16xf32, vec>
      scf.yield %z : !pto.tile<16x16xf32, vec>
    }
    %o2 = pto.store %t, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }

  // An acc result and a GM tensor result: on the AIC the then-branch's tensor (a vector store) dangles and
  // takes what the else-branch yields (the parameter), so both results survive; on the AIV the acc result is
  // dropped and the returned cube store result is remapped to the output parameter it writes.
  // CHECK-LABEL: func.func @if_mixed_results_aic(
  // CHECK: %acc, %ot = scf.if %flag -> (!pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>) {
  // CHECK: pto.tpush_to_aiv %c1
  // CHECK-NEXT: scf.yield %c1, %o
  // CHECK: } else {
  // CHECK-NEXT: scf.yield %c0, %o
  // CHECK: %o3 = pto.store %acc, %ot[0, 0]
  // CHECK-LABEL: func.func @if_mixed_results_aiv(
  // CHECK: %ot = scf.if %flag -> (!pto.tensor<16x16xf32>) {
  // CHECK: %o1 = pto.store %v, %o[0, 0]
  // CHECK: scf.yield %o1
  // CHECK: } else {
  // CHECK-NEXT: scf.yield %o
  // CHECK-NOT: unrealized_conversion_cast
  // CHECK: func.return %o : !pto.tensor<16x16xf32>
  func.func @if_mixed_results(%a: !pto.tensor<16x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}, %flag: i1) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %m = pto.load %a[0, 0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
    %l = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
    %r = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
    %c0 = pto.matmul %l, %r : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
    %acc, %ot = scf.if %flag -> (!pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>) {
      %c1 = pto.matmul_acc %c0, %l, %r : !pto.tile<16x16xf32, acc>, !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
      %v = pto.move %c1 : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
      %o1 = pto.store %v, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
      scf.yield %c1, %o1 : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
    } else {
      scf.yield %c0, %o : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
    }
    %o3 = pto.store %acc, %ot[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
    func.return %o3 : !pto.tensor<16x16xf32>
  }
}
