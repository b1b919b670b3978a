// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-opt %s --expand-mixed-kernel --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: pypto-opt %s --expand-mixed-kernel | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3

// Seed example 1: an Orchestration function calls a mixed incore kernel directly.  The kernel becomes
// @compute_incore_0_aic (cube ops + tpush of the Acc tile, no results) and @compute_incore_0_aiv (tpop typed as
// the Vec destination + the store, original results), and a Group keeps the name @compute_incore_0, forwarding
// every parameter and returning the written-back parameter.  The Orchestration call site does not change.
// Running the pass again (in the same pipeline or on the printed output) changes nothing.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @compute_incore_0(%x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>,
      %out_0: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %y_mat = pto.load %y[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %y_right = pto.move %y_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %z_tile = pto.matmul %x_left, %y_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %z_vec = pto.move %z_tile : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %z_vec, %out_0[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
  func.func @main(%x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out_0 = pto.create_tensor : !pto.tensor<16x128xf32>
    %r = func.call @compute_incore_0(%x, %y, %out_0) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// Both targets keep their pto.target (the target-specific lines of this file):
// A2A3: pto.target = #pto.target<a2a3>
// A5: pto.target = #pto.target<a5>
// CHECK-LABEL: func.func @compute_incore_0_aic(
// CHECK-SAME: %x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>, %out: !pto.tensor<16x128xf32> {pto.out})
// CHECK-SAME: attributes {pto.kind = #pto.kind<aic>} {
// CHECK: %x_mat = pto.load %x[0, 0]
// CHECK: %y_mat = pto.load %y[0, 0]
// CHECK: %x_left = pto.move %x_mat
// CHECK: %y_right = pto.move %y_mat
// CHECK: %z_tile = pto.matmul %x_left, %y_right
// CHECK-NEXT: pto.tpush_to_aiv %z_tile {split = 0 : i64} : !pto.tile<16x128xf32, acc>
// CHECK-NOT: pto.store
// CHECK-NOT: pto.tpop
// CHECK: func.return{{$}}
// CHECK-NEXT: }

// CHECK-LABEL: func.func @compute_incore_0_aiv(
// CHECK-SAME: %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
// CHECK-SAME: attributes {pto.kind = #pto.kind<aiv>
// CHECK-NOT: pto.matmul
// CHECK-NOT: pto.load
// CHECK: %z_vec = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
// CHECK-NEXT: %out_1 = pto.store %z_vec, %out[0, 0] : !pto.tile<16x128xf32, vec>
// CHECK: func.return %out_1 : !pto.tensor<16x128xf32>

// CHECK-LABEL: func.func @compute_incore_0(
// CHECK-SAME: %x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>, %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
// CHECK-SAME: attributes {pto.kind = #pto.kind<group>} {
// CHECK-NEXT: func.call @compute_incore_0_aic(%x, %y, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>) -> ()
// CHECK-NEXT: func.call @compute_incore_0_aiv(%x, %y, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
// CHECK-NEXT: func.return %out : !pto.tensor<16x128xf32>

// CHECK-LABEL: func.func @main(
// CHECK: %r = func.call @compute_incore_0(%x, %y, %out)
// CHECK-NOT: pto.kind<incore>
