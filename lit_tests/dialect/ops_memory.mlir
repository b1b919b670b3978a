// Round trip of the GM and data-movement ops: create_tensor, load, store, move, reshape, transpose,
// transpose_view, slice, set_validshape.  Static, dynamic and mixed offsets; optional valid lists; attributes
// that have no keyword syntax (`atomic`, `axes`) print in the attribute dictionary.

// RUN: pypto-opt %s | filecheck %s
// RUN: pypto-opt %s | pypto-opt | filecheck %s
// RUN: pypto-opt %s --mlir-print-op-generic | pypto-opt | filecheck %s
// RUN: pypto-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: pypto-opt %s --mlir-print-op-generic | pypto-opt --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// The exact fixed point (byte-identical reprint, custom and generic) is checked in-process by
// tests/dialects/test_dialect_roundtrip.py, which does not depend on lit's shared temporary files.

builtin.module attributes {pto.target = #pto.target<a5>} {
  // CHECK-LABEL: func.func @gm
  // CHECK:      %gm = pto.create_tensor : !pto.tensor<64x128xf16>
  // CHECK-NEXT: %a = pto.load %gm[0, 0] : !pto.tensor<64x128xf16> -> !pto.tile<16x128xf16, vec>
  // CHECK-NEXT: %b = pto.load %gm[%i, %j] : !pto.tensor<64x128xf16> -> !pto.tile<16x64xf16, vec>
  // CHECK-NEXT: %c = pto.load %gm[%i, 64] valid [%v, %w] : !pto.tensor<64x128xf16> -> !pto.tile<16x64xf16, vec, valid = [?, ?]>
  // CHECK-NEXT: %d = pto.load %gm[16, 0] valid [8, 128] : !pto.tensor<64x128xf16> -> !pto.tile<16x128xf16, mat, valid = [8, 128]>
  // CHECK-NEXT: %row = pto.load %t3[%i, 0, 0] : !pto.tensor<4x16x128xf16> -> !pto.tile<16x128xf16, vec>
  // CHECK-NEXT: %dyn = pto.load %t2[%i, 0] : !pto.tensor<?x128xf16> -> !pto.tile<16x128xf16, vec>
  // CHECK-NEXT: %o1 = pto.store %a, %gm[0, 0] : !pto.tile<16x128xf16, vec>, !pto.tensor<64x128xf16>
  // CHECK-NEXT: %o2 = pto.store %b, %o1[%i, %j] {atomic = 1 : i64} : !pto.tile<16x64xf16, vec>, !pto.tensor<64x128xf16>
  // CHECK-NEXT: %o3 = pto.store %d, %o2[48, 0] : !pto.tile<16x128xf16, mat, valid = [8, 128]>, !pto.tensor<64x128xf16>
  // CHECK-NEXT: func.return %o3 : !pto.tensor<64x128xf16>
  // GENERIC-LABEL: "func.func"() <{sym_name = "gm"
  // GENERIC: %gm = "pto.create_tensor"() : () -> !pto.tensor<64x128xf16>
  // GENERIC: %a = "pto.load"(%gm) {static_offsets = array<i64: 0, 0>, operandSegmentSizes = array<i32: 1, 0, 0>} : (!pto.tensor<64x128xf16>) -> !pto.tile<16x128xf16, vec>
  // GENERIC: %c = "pto.load"(%gm, %i, %v, %w) {static_offsets = array<i64: -9223372036854775808, 64>, static_valid = array<i64: -9223372036854775808, -9223372036854775808>, operandSegmentSizes = array<i32: 1, 1, 2>}
  // GENERIC: %o2 = "pto.store"(%b, %o1, %i, %j) {static_offsets = array<i64: -9223372036854775808, -9223372036854775808>, operandSegmentSizes = array<i32: 1, 1, 2>, atomic = 1 : i64}
  func.func @gm(%t3: !pto.tensor<4x16x128xf16>, %t2: !pto.tensor<?x128xf16>, %i: index, %j: index, %v: index, %w: index) -> !pto.tensor<64x128xf16> {
    %gm = pto.create_tensor : !pto.tensor<64x128xf16>
    %a = pto.load %gm[0, 0] : !pto.tensor<64x128xf16> -> !pto.tile<16x128xf16, vec>
    %b = pto.load %gm[%i, %j] : !pto.tensor<64x128xf16> -> !pto.tile<16x64xf16, vec>
    %c = pto.load %gm[%i, 64] valid [%v, %w] : !pto.tensor<64x128xf16> -> !pto.tile<16x64xf16, vec, valid = [?, ?]>
    %d = pto.load %gm[16, 0] valid [8, 128] : !pto.tensor<64x128xf16> -> !pto.tile<16x128xf16, mat, valid = [8, 128]>
    %row = pto.load %t3[%i, 0, 0] : !pto.tensor<4x16x128xf16> -> !pto.tile<16x128xf16, vec>
    %dyn = pto.load %t2[%i, 0] : !pto.tensor<?x128xf16> -> !pto.tile<16x128xf16, vec>
    %o1 = pto.store %a, %gm[0, 0] : !pto.tile<16x128xf16, vec>, !pto.tensor<64x128xf16>
    %o2 = pto.store %b, %o1[%i, %j] {atomic = 1 : i64} : !pto.tile<16x64xf16, vec>, !pto.tensor<64x128xf16>
    %o3 = pto.store %d, %o2[48, 0] : !pto.tile<16x128xf16, mat, valid = [8, 128]>, !pto.tensor<64x128xf16>
    func.return %o3 : !pto.tensor<64x128xf16>
  }

  // CHECK-LABEL: func.func @store_acc
  // CHECK: %o = pto.store %c, %out[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
  func.func @store_acc(%c: !pto.tile<16x128xf32, acc>, %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> {
    %o = pto.store %c, %out[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    func.return %o : !pto.tensor<16x128xf32>
  }

  // CHECK-LABEL: func.func @views
  // CHECK:      %m = pto.move %a : !pto.tile<16x128xf16, vec> -> !pto.tile<16x128xf16, mat>
  // CHECK-NEXT: %l = pto.move %m : !pto.tile<16x128xf16, mat> -> !pto.tile<16x128xf16, left>
  // CHECK-NEXT: %r = pto.move %m : !pto.tile<16x128xf16, mat> -> !pto.tile<16x128xf16, right>
  // CHECK-NEXT: %rv = pto.move %a : !pto.tile<16x128xf16, vec> -> !pto.tile<16x128xf16, vec, blayout = col_major>
  // CHECK-NEXT: %re = pto.reshape %a : !pto.tile<16x128xf16, vec> -> !pto.tile<32x64xf16, vec>
  // CHECK-NEXT: %t = pto.transpose %a : !pto.tile<16x128xf16, vec> -> !pto.tile<128x16xf16, vec>
  // CHECK-NEXT: %t2 = pto.transpose %a {axes = array<i64: 1, 0>} : !pto.tile<16x128xf16, vec> -> !pto.tile<128x16xf16, vec>
  // CHECK-NEXT: %t3 = pto.transpose %b3 {axes = array<i64: 0, 2, 1>} : !pto.tile<2x16x8xf16, vec> -> !pto.tile<2x8x16xf16, vec>
  // CHECK-NEXT: %tv = pto.transpose_view %a : !pto.tile<16x128xf16, vec> -> !pto.tile<128x16xf16, vec, blayout = col_major>
  // CHECK-NEXT: %s = pto.slice %a[0, %j] : !pto.tile<16x128xf16, vec> -> !pto.tile<16x64xf16, vec>
  // CHECK-NEXT: %s2 = pto.slice %a[8, 0] valid [%v, 32] : !pto.tile<16x128xf16, vec> -> !pto.tile<8x64xf16, vec, valid = [?, 32]>
  // CHECK-NEXT: %sv = pto.set_validshape %a valid [%v, 128] : !pto.tile<16x128xf16, vec> -> !pto.tile<16x128xf16, vec, valid = [?, 128]>
  // CHECK-NEXT: %sv2 = pto.set_validshape %a valid [13, 100] : !pto.tile<16x128xf16, vec> -> !pto.tile<16x128xf16, vec, valid = [13, 100]>
  // GENERIC-LABEL: "func.func"() <{sym_name = "views"
  // GENERIC: %t2 = "pto.transpose"(%a) {axes = array<i64: 1, 0>} : (!pto.tile<16x128xf16, vec>) -> !pto.tile<128x16xf16, vec>
  // GENERIC: %sv = "pto.set_validshape"(%a, %v) {static_valid = array<i64: -9223372036854775808, 128>}
  func.func @views(%a: !pto.tile<16x128xf16, vec>, %b3: !pto.tile<2x16x8xf16, vec>, %j: index, %v: index) {
    %m = pto.move %a : !pto.tile<16x128xf16, vec> -> !pto.tile<16x128xf16, mat>
    %l = pto.move %m : !pto.tile<16x128xf16, mat> -> !pto.tile<16x128xf16, left>
    %r = pto.move %m : !pto.tile<16x128xf16, mat> -> !pto.tile<16x128xf16, right>
    %rv = pto.move %a : !pto.tile<16x128xf16, vec> -> !pto.tile<16x128xf16, vec, blayout = col_major>
    %re = pto.reshape %a : !pto.tile<16x128xf16, vec> -> !pto.tile<32x64xf16, vec>
    %t = pto.transpose %a : !pto.tile<16x128xf16, vec> -> !pto.tile<128x16xf16, vec>
    %t2 = pto.transpose %a {axes = array<i64: 1, 0>} : !pto.tile<16x128xf16, vec> -> !pto.tile<128x16xf16, vec>
    %t3 = pto.transpose %b3 {axes = array<i64: 0, 2, 1>} : !pto.tile<2x16x8xf16, vec> -> !pto.tile<2x8x16xf16, vec>
    %tv = pto.transpose_view %a : !pto.tile<16x128xf16, vec> -> !pto.tile<128x16xf16, vec, blayout = col_major>
    %s = pto.slice %a[0, %j] : !pto.tile<16x128xf16, vec> -> !pto.tile<16x64xf16, vec>
    %s2 = pto.slice %a[8, 0] valid [%v, 32] : !pto.tile<16x128xf16, vec> -> !pto.tile<8x64xf16, vec, valid = [?, 32]>
    %sv = pto.set_validshape %a valid [%v, 128] : !pto.tile<16x128xf16, vec> -> !pto.tile<16x128xf16, vec, valid = [?, 128]>
    %sv2 = pto.set_validshape %a valid [13, 100] : !pto.tile<16x128xf16, vec> -> !pto.tile<16x128xf16, vec, valid = [13, 100]>
    func.return
  }
}
