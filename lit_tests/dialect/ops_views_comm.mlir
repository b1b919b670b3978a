// Round trip of the ops added beyond the contract: reinterpret_view, extract, gather_row (views and
// lane-addressed ops), tensor_cast (a tensor under a compatible type) and tile_put, tile_get, tensor_put, tensor_get, notify, wait, defer_wait (communication).
// Static and dynamic offsets, optional `value`, peer ranks of index and integer type.

// RUN: pypto-opt %s | filecheck %s
// RUN: pypto-opt %s | pypto-opt | filecheck %s
// RUN: pypto-opt %s --mlir-print-op-generic | pypto-opt | filecheck %s
// RUN: pypto-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// The exact fixed point (byte-identical reprint, custom and generic) is checked in-process by
// tests/dialects/test_dialect_roundtrip.py.

builtin.module attributes {pto.target = #pto.target<a5>} {
  // CHECK-LABEL: func.func @tensor_casts
  // CHECK:      %d = pto.tensor_cast %t : !pto.tensor<16x16xf32> -> !pto.tensor<16x?xf32>
  // CHECK-NEXT: %s = pto.tensor_cast %d : !pto.tensor<16x?xf32> -> !pto.tensor<16x16xf32>
  // CHECK-NEXT: %n = pto.tensor_cast %z : !pto.tensor<?x128xbf16, nz> -> !pto.tensor<32x128xbf16, nz>
  // GENERIC: "pto.tensor_cast"(%{{.*}}) : (!pto.tensor<16x16xf32>) -> !pto.tensor<16x?xf32>
  func.func @tensor_casts(%t: !pto.tensor<16x16xf32>, %z: !pto.tensor<?x128xbf16, nz>) {
    %d = pto.tensor_cast %t : !pto.tensor<16x16xf32> -> !pto.tensor<16x?xf32>
    %s = pto.tensor_cast %d : !pto.tensor<16x?xf32> -> !pto.tensor<16x16xf32>
    %n = pto.tensor_cast %z : !pto.tensor<?x128xbf16, nz> -> !pto.tensor<32x128xbf16, nz>
    func.return
  }
  // CHECK-LABEL: func.func @views
  // CHECK:      %b = pto.reinterpret_view %a : !pto.tile<16x16xf32, vec> -> !pto.tile<16x32xi16, vec>
  // CHECK-NEXT: %c = pto.reinterpret_view %a : !pto.tile<16x16xf32, vec> -> !pto.tile<8x32xf32, vec>
  // CHECK-NEXT: %p = pto.reinterpret_view %h : !pto.tile<16x16xf16, vec, valid = [9, 16]> -> !pto.tile<16x8xf32, vec, valid = [9, 8]>
  // A run-time innermost valid extent stays `?` whatever the element widths (it is scaled at run time).
  // CHECK-NEXT: %q = pto.reinterpret_view %d : !pto.tile<16x16xf32, vec, valid = [16, ?]> -> !pto.tile<16x32xi16, vec, valid = [16, ?]>
  // CHECK-NEXT: %e = pto.extract %m[0, %i] : !pto.tile<64x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
  // CHECK-NEXT: %e2 = pto.extract %a[8, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT: %g = pto.gather_row %a, %idx[%i] : !pto.tile<16x16xf32, vec>, !pto.tile<8x1xi32, vec> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT: %g2 = pto.gather_row %a, %idx[4] : !pto.tile<16x16xf32, vec>, !pto.tile<8x1xi32, vec> -> !pto.tile<8x16xf32, vec>
  // GENERIC: "pto.reinterpret_view"(%{{.*}}) : (!pto.tile<16x16xf32, vec>) -> !pto.tile<16x32xi16, vec>
  // GENERIC: "pto.extract"(%{{.*}}, %{{.*}}) {static_offsets = array<i64: 0, -9223372036854775808>, operandSegmentSizes = array<i32: 1, 1>}
  // GENERIC: "pto.gather_row"(%{{.*}}, %{{.*}}) {static_offsets = array<i64: 4>, operandSegmentSizes = array<i32: 1, 1, 0>}
  func.func @views(%a: !pto.tile<16x16xf32, vec>, %h: !pto.tile<16x16xf16, vec, valid = [9, 16]>, %m: !pto.tile<64x64xbf16, mat>,
                   %idx: !pto.tile<8x1xi32, vec>, %i: index, %d: !pto.tile<16x16xf32, vec, valid = [16, ?]>) {
    %b = pto.reinterpret_view %a : !pto.tile<16x16xf32, vec> -> !pto.tile<16x32xi16, vec>
    %c = pto.reinterpret_view %a : !pto.tile<16x16xf32, vec> -> !pto.tile<8x32xf32, vec>
    %p = pto.reinterpret_view %h : !pto.tile<16x16xf16, vec, valid = [9, 16]> -> !pto.tile<16x8xf32, vec, valid = [9, 8]>
    %q = pto.reinterpret_view %d : !pto.tile<16x16xf32, vec, valid = [16, ?]> -> !pto.tile<16x32xi16, vec, valid = [16, ?]>
    %e = pto.extract %m[0, %i] : !pto.tile<64x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %e2 = pto.extract %a[8, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>
    %g = pto.gather_row %a, %idx[%i] : !pto.tile<16x16xf32, vec>, !pto.tile<8x1xi32, vec> -> !pto.tile<8x16xf32, vec>
    %g2 = pto.gather_row %a, %idx[4] : !pto.tile<16x16xf32, vec>, !pto.tile<8x1xi32, vec> -> !pto.tile<8x16xf32, vec>
    func.return
  }

  // CHECK-LABEL: func.func @comm
  // CHECK:      %o2 = pto.tile_put %a, %o[0, %i] to %p : !pto.tile<16x16xf32, vec>, !pto.tensor<64x128xf32>
  // CHECK-NEXT: %t = pto.tile_get %o[%i, 0] from %q : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %o3 = pto.tensor_put %o, %o2 to %p : !pto.tensor<64x128xf32>, !pto.tensor<64x128xf32>
  // CHECK-NEXT: %o4 = pto.tensor_get %o, %o3 from %q : !pto.tensor<64x128xf32>, !pto.tensor<64x128xf32>
  // CHECK-NEXT: pto.notify %sig[1] to %p : !pto.tensor<4xi32>
  // CHECK-NEXT: pto.notify %sig[%i] to %q {value = 2 : i64} : !pto.tensor<4xi32>
  // CHECK-NEXT: pto.wait %sig[1] {value = 2 : i64} : !pto.tensor<4xi32>
  // CHECK-NEXT: pto.wait %sig[%i] : !pto.tensor<4xi32>
  // CHECK-NEXT: pto.defer_wait %sig[0] : !pto.tensor<4xi32>
  // GENERIC: "pto.tile_put"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {static_offsets = array<i64: 0, -9223372036854775808>, operandSegmentSizes = array<i32: 1, 1, 1, 1>}
  // GENERIC: "pto.notify"(%{{.*}}, %{{.*}}) {static_offsets = array<i64: 1>, operandSegmentSizes = array<i32: 1, 1, 0>}
  // GENERIC: "pto.wait"(%{{.*}}) {static_offsets = array<i64: 1>, operandSegmentSizes = array<i32: 1, 0, 0>, value = 2 : i64}
  func.func @comm(%a: !pto.tile<16x16xf32, vec>, %o: !pto.tensor<64x128xf32>, %sig: !pto.tensor<4xi32>, %i: index, %p: index,
                  %q: i32) {
    %o2 = pto.tile_put %a, %o[0, %i] to %p : !pto.tile<16x16xf32, vec>, !pto.tensor<64x128xf32>
    %t = pto.tile_get %o[%i, 0] from %q : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec>
    %o3 = pto.tensor_put %o, %o2 to %p : !pto.tensor<64x128xf32>, !pto.tensor<64x128xf32>
    %o4 = pto.tensor_get %o, %o3 from %q : !pto.tensor<64x128xf32>, !pto.tensor<64x128xf32>
    pto.notify %sig[1] to %p : !pto.tensor<4xi32>
    pto.notify %sig[%i] to %q {value = 2 : i64} : !pto.tensor<4xi32>
    pto.wait %sig[1] {value = 2 : i64} : !pto.tensor<4xi32>
    pto.wait %sig[%i] : !pto.tensor<4xi32>
    pto.defer_wait %sig[0] : !pto.tensor<4xi32>
    func.return
  }
}
