// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5

// Non-mixed incore kernels are not split: pure cube -> aic, pure vector or shared-only -> aiv, same name,
// `pto.split` dropped, no tpush/tpop, no Group.  Other kinds pass through.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // Both targets keep their pto.target (the target-specific lines of this file):
  // A2A3: pto.target = #pto.target<a2a3>
  // A5: pto.target = #pto.target<a5>
  // CHECK-LABEL: func.func @cube_only(
  // CHECK-SAME: %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
  // CHECK-SAME: attributes {pto.kind = #pto.kind<aic>} {
  // CHECK-NEXT: pto.load
  // CHECK-NEXT: pto.load
  // CHECK-NEXT: pto.move
  // CHECK-NEXT: pto.move
  // CHECK-NEXT: %z = pto.matmul
  // CHECK-NEXT: %o = pto.store %z, %out[0, 0] : !pto.tile<16x128xf32, acc>
  // CHECK-NEXT: func.return %o
  func.func @cube_only(%x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>,
      %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %y_mat = pto.load %y[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %y_right = pto.move %y_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %z = pto.matmul %x_left, %y_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %o = pto.store %z, %out[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    func.return %o : !pto.tensor<16x128xf32>
  }

  // CHECK-LABEL: func.func @vector_only(
  // CHECK-SAME: attributes {pto.kind = #pto.kind<aiv>
  // CHECK-NEXT: %t = pto.load
  // CHECK-NEXT: %e = pto.exp %t
  // CHECK-NEXT: %o = pto.store %e
  // CHECK-NEXT: func.return %o
  func.func @vector_only(%x: !pto.tensor<16x128xf32>, %out: !pto.tensor<16x128xf32> {pto.inout}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %t = pto.load %x[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %e = pto.exp %t : !pto.tile<16x128xf32, vec>
    %o = pto.store %e, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %o : !pto.tensor<16x128xf32>
  }

  // Shared-only (scalar arithmetic, no tile op): AIV.
  // CHECK-LABEL: func.func @shared_only(
  // CHECK-SAME: attributes {pto.kind = #pto.kind<aiv>
  // CHECK-NEXT: arith.addi
  func.func @shared_only(%a: index) -> index attributes {pto.kind = #pto.kind<incore>} {
    %b = arith.addi %a, %a : index
    func.return %b : index
  }

  // A declaration (no body) is shared-only too: AIV.
  // CHECK-LABEL: func.func private @declared(index) -> index attributes {pto.kind = #pto.kind<aiv>}
  func.func private @declared(index) -> index attributes {pto.kind = #pto.kind<incore>}

  // An orchestration function is not touched; no Group, no _aic/_aiv was made for the kernels above.
  // CHECK-LABEL: func.func @main(
  // CHECK-SAME: attributes {pto.kind = #pto.kind<orchestration>}
  // CHECK: func.call @cube_only(
  // CHECK-NOT: pto.kind<group>
  // CHECK-NOT: _aic
  // CHECK-NOT: _aiv
  // CHECK-NOT: pto.tpush
  func.func @main(%x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<16x128xf32>
    %r = func.call @cube_only(%x, %y, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %r : !pto.tensor<16x128xf32>
  }
}
