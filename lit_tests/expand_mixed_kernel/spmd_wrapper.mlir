// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5

// A standalone Spmd wrapper calls the mixed kernel: the Spmd function is kept as it is (it still carries the
// launch attributes and still calls @k), and a new Group named @k is created under it.  A Group caller next to
// it is rewritten to call both halves directly.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%a: !pto.tensor<16x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
    %l = pto.move %a_mat : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
    %r = pto.move %a_mat : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
    %c = pto.matmul %l, %r : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
    %v = pto.move %c : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %e = pto.exp %v : !pto.tile<16x16xf32, vec>
    %o2 = pto.store %e, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
  func.func @launch(%a: !pto.tensor<16x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<spmd>, pto.core_num = 4 : i64, pto.sync_start} {
    %r = func.call @k(%a, %o) : (!pto.tensor<16x16xf16>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    func.return %r : !pto.tensor<16x16xf32>
  }
  func.func @cluster(%a: !pto.tensor<16x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<group>} {
    %r = func.call @k(%a, %o) : (!pto.tensor<16x16xf16>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    func.return %r : !pto.tensor<16x16xf32>
  }
}

// Both targets keep their pto.target (the target-specific lines of this file):
// A2A3: pto.target = #pto.target<a2a3>
// A5: pto.target = #pto.target<a5>
// CHECK-LABEL: func.func @k_aic(
// CHECK-LABEL: func.func @k_aiv(
// CHECK-LABEL: func.func @k(
// CHECK-SAME: %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<group>} {
// CHECK-NEXT: func.call @k_aic(%a, %o)
// CHECK-NEXT: func.call @k_aiv(%a, %o)
// CHECK-NEXT: func.return %o
// CHECK-LABEL: func.func @launch(
// CHECK-SAME: attributes {pto.kind = #pto.kind<spmd>, pto.core_num = 4 : i64, pto.sync_start} {
// CHECK-NEXT: %r = func.call @k(%a, %o)
// CHECK-LABEL: func.func @cluster(
// CHECK-NEXT: func.call @k_aic(%a, %o)
// CHECK-NEXT: %r = func.call @k_aiv(%a, %o)
// CHECK-NEXT: func.return %r
