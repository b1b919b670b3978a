// Every line of the "Syntax of the ops beyond the contract" block of docs/dialect.md, verbatim, one function per
// line.  Shows that each parses as written, prints back in that form (up to the spacing after the result name),
// and that print -> parse -> print is a fixed point (tests/dialects/test_dialect_roundtrip.py checks it byte for byte).
// tests/dialects/test_dialect_docs.py checks that every line of the docs block appears in this file.

// RUN: pypto-opt %s | filecheck %s
// RUN: pypto-opt %s | pypto-opt | filecheck %s
// RUN: pypto-opt %s --mlir-print-op-generic | pypto-opt | filecheck %s

builtin.module attributes {pto.target = #pto.target<a5>} {
  // CHECK-LABEL: func.func @reinterpret_view_0
  // CHECK: %b = pto.reinterpret_view %a : !pto.tile<16x16xf32, vec> -> !pto.tile<16x32xi16, vec>
  func.func @reinterpret_view_0(%a: !pto.tile<16x16xf32, vec>) {
%b   = pto.reinterpret_view %a : !pto.tile<16x16xf32, vec> -> !pto.tile<16x32xi16, vec>
    func.return
  }
  // CHECK-LABEL: func.func @extract_1
  // CHECK: %e = pto.extract %m[0, %j] : !pto.tile<64x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
  func.func @extract_1(%m: !pto.tile<64x64xbf16, mat>, %j: index) {
%e   = pto.extract %m[0, %j] : !pto.tile<64x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    func.return
  }
  // CHECK-LABEL: func.func @gather_row_2
  // CHECK: %g = pto.gather_row %a, %idx[%k] : !pto.tile<16x16xf32, vec>, !pto.tile<8x1xi32, vec> -> !pto.tile<8x16xf32, vec>
  func.func @gather_row_2(%a: !pto.tile<16x16xf32, vec>, %idx: !pto.tile<8x1xi32, vec>, %k: index) {
%g   = pto.gather_row %a, %idx[%k] : !pto.tile<16x16xf32, vec>, !pto.tile<8x1xi32, vec> -> !pto.tile<8x16xf32, vec>
    func.return
  }
  // CHECK-LABEL: func.func @tensor_cast
  // CHECK: %c = pto.tensor_cast %t : !pto.tensor<16x16xf32> -> !pto.tensor<16x?xf32>
  func.func @tensor_cast(%t: !pto.tensor<16x16xf32>) {
%c   = pto.tensor_cast %t : !pto.tensor<16x16xf32> -> !pto.tensor<16x?xf32>
    func.return
  }
  // CHECK-LABEL: func.func @tile_put_3
  // CHECK: %o2 = pto.tile_put %t, %o[%r, 0] to %peer : !pto.tile<16x128xf32, vec>, !pto.tensor<64x128xf32>
  func.func @tile_put_3(%t: !pto.tile<16x128xf32, vec>, %o: !pto.tensor<64x128xf32>, %r: index, %peer: index) {
%o2  = pto.tile_put %t, %o[%r, 0] to %peer : !pto.tile<16x128xf32, vec>, !pto.tensor<64x128xf32>
    func.return
  }
  // CHECK-LABEL: func.func @tile_get_4
  // CHECK: %t = pto.tile_get %src[%r, 0] from %peer : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec>
  func.func @tile_get_4(%src: !pto.tensor<64x128xf32>, %r: index, %peer: index) {
%t   = pto.tile_get %src[%r, 0] from %peer : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec>
    func.return
  }
  // CHECK-LABEL: func.func @tensor_put_5
  // CHECK: %d2 = pto.tensor_put %src, %dst to %peer : !pto.tensor<64x128xf32>, !pto.tensor<64x128xf32>
  func.func @tensor_put_5(%src: !pto.tensor<64x128xf32>, %dst: !pto.tensor<64x128xf32>, %peer: index) {
%d2  = pto.tensor_put %src, %dst to %peer : !pto.tensor<64x128xf32>, !pto.tensor<64x128xf32>
    func.return
  }
  // CHECK-LABEL: func.func @tensor_get_6
  // CHECK: %d2 = pto.tensor_get %src, %dst from %peer : !pto.tensor<64x128xf32>, !pto.tensor<64x128xf32>
  func.func @tensor_get_6(%src: !pto.tensor<64x128xf32>, %dst: !pto.tensor<64x128xf32>, %peer: i32) {
%d2  = pto.tensor_get %src, %dst from %peer : !pto.tensor<64x128xf32>, !pto.tensor<64x128xf32>
    func.return
  }
  // CHECK-LABEL: func.func @notify_7
  // CHECK: pto.notify %sig[0] to %peer : !pto.tensor<4xi32>
  func.func @notify_7(%sig: !pto.tensor<4xi32>, %peer: index) {
pto.notify %sig[0] to %peer : !pto.tensor<4xi32>
    func.return
  }
  // CHECK-LABEL: func.func @wait_8
  // CHECK: pto.wait %sig[0] {value = 2 : i64} : !pto.tensor<4xi32>
  func.func @wait_8(%sig: !pto.tensor<4xi32>) {
pto.wait %sig[0] {value = 2 : i64} : !pto.tensor<4xi32>
    func.return
  }
  // CHECK-LABEL: func.func @defer_wait_9
  // CHECK: pto.defer_wait %sig[0] : !pto.tensor<4xi32>
  func.func @defer_wait_9(%sig: !pto.tensor<4xi32>) {
pto.defer_wait %sig[0] : !pto.tensor<4xi32>
    func.return
  }
  // CHECK-LABEL: func.func @matmul_mx_10
  // CHECK: %mx = pto.matmul_mx %l, %ls, %r, %rs : !pto.tile<16x64xf8E4M3FN, left>, !pto.tile<16x2xf8E8M0FNU, left_scale>, !pto.tile<64x32xf8E4M3FN, right>, !pto.tile<2x32xf8E8M0FNU, right_scale> -> !pto.tile<16x32xf32, acc>
  func.func @matmul_mx_10(%l: !pto.tile<16x64xf8E4M3FN, left>, %ls: !pto.tile<16x2xf8E8M0FNU, left_scale>, %r: !pto.tile<64x32xf8E4M3FN, right>, %rs: !pto.tile<2x32xf8E8M0FNU, right_scale>) {
%mx  = pto.matmul_mx %l, %ls, %r, %rs : !pto.tile<16x64xf8E4M3FN, left>, !pto.tile<16x2xf8E8M0FNU, left_scale>, !pto.tile<64x32xf8E4M3FN, right>, !pto.tile<2x32xf8E8M0FNU, right_scale> -> !pto.tile<16x32xf32, acc>
    func.return
  }
  // CHECK-LABEL: func.func @lane_workspace_11
  // CHECK: %ws = pto.lane_workspace : !pto.tensor<2x16x1xf32>
  func.func @lane_workspace_11() {
%ws  = pto.lane_workspace : !pto.tensor<2x16x1xf32>
    func.return
  }
  // CHECK-LABEL: func.func @lane_barrier_12
  // CHECK: pto.lane_barrier
  func.func @lane_barrier_12() {
pto.lane_barrier
    func.return
  }
}
