// The input of the contract's example "ExpandMixedKernel on a5 (seed example 1)", verbatim: it parses, verifies
// and round-trips (the pass output is tested under lit_tests/expand_mixed_kernel/).  xDSL prints a name hint
// without a trailing `_<digits>`, so `%out_0` prints as `%out` (and the store's `%out_1` keeps its suffix
// only to stay distinct); the printed form is a fixed point.

// RUN: pypto-opt %s | filecheck %s
// RUN: pypto-opt %s | pypto-opt | filecheck %s
// RUN: pypto-opt %s --mlir-print-op-generic | pypto-opt | filecheck %s
// The exact fixed point (byte-identical reprint, custom and generic) is checked in-process by
// tests/dialects/test_dialect_roundtrip.py, which does not depend on lit's shared temporary files.

// CHECK:      builtin.module attributes {pto.target = #pto.target<a5>} {
// CHECK-NEXT:   func.func @compute_incore_0(%x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>, %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<incore>} {
// CHECK-NEXT:     %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
// CHECK-NEXT:     %y_mat = pto.load %y[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
// CHECK-NEXT:     %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
// CHECK-NEXT:     %y_right = pto.move %y_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
// CHECK-NEXT:     %z_tile = pto.matmul %x_left, %y_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
// CHECK-NEXT:     %z_vec = pto.move %z_tile : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
// CHECK-NEXT:     %out_1 = pto.store %z_vec, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
// CHECK-NEXT:     func.return %out_1 : !pto.tensor<16x128xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @main(%x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
// CHECK-NEXT:     %out = pto.create_tensor : !pto.tensor<16x128xf32>
// CHECK-NEXT:     %r = func.call @compute_incore_0(%x, %y, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
// CHECK-NEXT:     func.return %r : !pto.tensor<16x128xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

builtin.module attributes {pto.target = #pto.target<a5>} {
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
