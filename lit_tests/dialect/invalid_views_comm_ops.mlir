// Verifier errors of the ops added beyond the contract (views, lane-addressed, communication, MX matmuls): one
// case per check, reported at the op.

// RUN: pypto-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: !pto.tile<16x16xf32, vec>) {
  // expected-error@+1 {{reinterpret_view cannot change the memory space ('vec' -> 'mat'); use pto.move}}
  %b = pto.reinterpret_view %a : !pto.tile<16x16xf32, vec> -> !pto.tile<16x32xi16, mat>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x16xf32, vec, valid = [9, 16]>) {
  // expected-error@+1 {{reinterpret_view result must have valid [9, 32]}}
  %b = pto.reinterpret_view %a : !pto.tile<16x16xf32, vec, valid = [9, 16]> -> !pto.tile<16x32xi16, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x16xf32, vec>) {
  // expected-error@+1 {{reinterpret_view must keep the byte size}}
  %b = pto.reinterpret_view %a : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xi16, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x16xf32, vec, valid = [9, 16]>) {
  // expected-error@+1 {{reinterpret_view with an explicit shape needs fully valid tiles}}
  %b = pto.reinterpret_view %a : !pto.tile<16x16xf32, vec, valid = [9, 16]> -> !pto.tile<8x32xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x16xf32, vec>) {
  // expected-error@+1 {{extract stays on one core: 'vec' -> 'left' crosses between cube and vector; use pto.move}}
  %b = pto.extract %a[0, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, left>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x16xf32, vec>) {
  // expected-error@+1 {{extract window [12, 20) on dim 0 lies outside the source extent 16}}
  %b = pto.extract %a[12, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x16xf32, vec>) {
  // expected-error@+1 {{extract takes a (row, col) offset, got 1 offsets}}
  %b = pto.extract %a[0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x16xf32, vec>) {
  // expected-error@+1 {{extract cannot change the element type}}
  %b = pto.extract %a[0, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf16, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x16xf32, vec>, %i: !pto.tile<8x1xf32, vec>) {
  // expected-error@+1 {{gather_row indices must be i32, got f32}}
  %g = pto.gather_row %a, %i[0] : !pto.tile<16x16xf32, vec>, !pto.tile<8x1xf32, vec> -> !pto.tile<8x16xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x16xf32, vec>, %i: !pto.tile<4x1xi32, vec>) {
  // expected-error@+1 {{gather_row indices must have shape [8, 1] (one row index per result row), got [4, 1]}}
  %g = pto.gather_row %a, %i[0] : !pto.tile<16x16xf32, vec>, !pto.tile<4x1xi32, vec> -> !pto.tile<8x16xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x16xf32, vec>, %i: !pto.tile<8x1xi32, vec>) {
  // expected-error@+1 {{gather_row result rows must be as wide as the source's}}
  %g = pto.gather_row %a, %i[0] : !pto.tile<16x16xf32, vec>, !pto.tile<8x1xi32, vec> -> !pto.tile<8x8xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x16xf32, mat>, %i: !pto.tile<8x1xi32, vec>) {
  // expected-error@+1 {{gather_row source must be in memory space 'vec', but it is in 'mat'}}
  %g = pto.gather_row %a, %i[0] : !pto.tile<16x16xf32, mat>, !pto.tile<8x1xi32, vec> -> !pto.tile<8x16xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x16xf32, mat>, %o: !pto.tensor<64x64xf32>, %p: index) {
  // expected-error@+1 {{tile_put operand (TPUT stages it through the vector side) must be in memory space 'vec', but it is in 'mat'}}
  %o2 = pto.tile_put %a, %o[0, 0] to %p : !pto.tile<16x16xf32, mat>, !pto.tensor<64x64xf32>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x16xf32, vec>, %o: !pto.tensor<64x64xf32>, %p: f32) {
  // expected-error@+1 {{tile_put peer rank must be an index or integer value, got f32}}
  %o2 = pto.tile_put %a, %o[0, 0] to %p : !pto.tile<16x16xf32, vec>, !pto.tensor<64x64xf32>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x16xf32, vec>, %o: !pto.tensor<64x64xf32>, %p: index) {
  // expected-error@+1 {{tile_put window [56, 72) on dim 0 lies outside the tensor's extent 64}}
  %o2 = pto.tile_put %a, %o[56, 0] to %p : !pto.tile<16x16xf32, vec>, !pto.tensor<64x64xf32>
  func.return
}

// -----

func.func @f(%o: !pto.tensor<64x64xf32>, %p: index) {
  // expected-error@+1 {{tile_get result (TGET stages it through the vector side) must be in memory space 'vec', but it is in 'acc'}}
  %t = pto.tile_get %o[0, 0] from %p : !pto.tensor<64x64xf32> -> !pto.tile<16x16xf32, acc>
  func.return
}

// -----

func.func @f(%o: !pto.tensor<64x64xf32>, %p: index) {
  // expected-error@+1 {{tile_get result element type f16 differs from the tensor's f32}}
  %t = pto.tile_get %o[0, 0] from %p : !pto.tensor<64x64xf32> -> !pto.tile<16x16xf16, vec>
  func.return
}

// -----

func.func @f(%o: !pto.tensor<64x64xf32>, %d: !pto.tensor<64x32xf32>, %p: index) {
  // expected-error@+1 {{'pto.tensor_put' op copies a whole tensor: shapes [64, 64] and [64, 32] differ}}
  %d2 = pto.tensor_put %o, %d to %p : !pto.tensor<64x64xf32>, !pto.tensor<64x32xf32>
  func.return
}

// -----

func.func @f(%o: !pto.tensor<64x64xf32>, %d: !pto.tensor<64x64xf16>, %p: index) {
  // expected-error@+1 {{'pto.tensor_get' op cannot change the element type (f32 -> f16)}}
  %d2 = pto.tensor_get %o, %d from %p : !pto.tensor<64x64xf32>, !pto.tensor<64x64xf16>
  func.return
}

// -----

func.func @f(%s: !pto.tensor<4xf32>, %p: index) {
  // expected-error@+1 {{'pto.notify' op signal tensor must hold i32 elements, got f32}}
  pto.notify %s[0] to %p : !pto.tensor<4xf32>
  func.return
}

// -----

func.func @f(%s: !pto.tensor<4xi32>, %p: index) {
  // expected-error@+1 {{'pto.notify' op signal window [4, 5) on dim 0 lies outside the tensor's extent 4}}
  pto.notify %s[4] to %p : !pto.tensor<4xi32>
  func.return
}

// -----

func.func @f(%s: !pto.tensor<4xi32>) {
  // expected-error@+1 {{attribute 'value' must be in [0, 2147483647], got -1}}
  pto.wait %s[0] {value = -1 : i64} : !pto.tensor<4xi32>
  func.return
}

// -----

func.func @f(%s: !pto.tensor<4x4xi32>) {
  // expected-error@+1 {{'pto.defer_wait' op has 1 offsets but the signal tensor has rank 2}}
  pto.defer_wait %s[0] : !pto.tensor<4x4xi32>
  func.return
}

// -----

func.func @f(%l: !pto.tile<16x48xf8E4M3FN, left>, %ls: !pto.tile<16x2xf8E8M0FNU, left_scale>, %r: !pto.tile<48x32xf8E4M3FN, right>, %rs: !pto.tile<2x32xf8E8M0FNU, right_scale>) {
  // expected-error@+1 {{'pto.matmul_mx' op K (48) must be a multiple of the scale group 32}}
  %c = pto.matmul_mx %l, %ls, %r, %rs : !pto.tile<16x48xf8E4M3FN, left>, !pto.tile<16x2xf8E8M0FNU, left_scale>, !pto.tile<48x32xf8E4M3FN, right>, !pto.tile<2x32xf8E8M0FNU, right_scale> -> !pto.tile<16x32xf32, acc>
  func.return
}

// -----

func.func @f(%l: !pto.tile<16x64xf8E4M3FN, left>, %ls: !pto.tile<16x2xf8E4M3FN, left_scale>, %r: !pto.tile<64x32xf8E4M3FN, right>, %rs: !pto.tile<2x32xf8E8M0FNU, right_scale>) {
  // expected-error@+1 {{'pto.matmul_mx' op lhs scale must hold f8E8M0FNU scales, got f8E4M3FN}}
  %c = pto.matmul_mx %l, %ls, %r, %rs : !pto.tile<16x64xf8E4M3FN, left>, !pto.tile<16x2xf8E4M3FN, left_scale>, !pto.tile<64x32xf8E4M3FN, right>, !pto.tile<2x32xf8E8M0FNU, right_scale> -> !pto.tile<16x32xf32, acc>
  func.return
}

// -----

func.func @f(%l: !pto.tile<16x64xf8E4M3FN, left>, %ls: !pto.tile<16x2xf8E8M0FNU, left_scale>, %r: !pto.tile<64x32xf8E4M3FN, right>, %rs: !pto.tile<4x32xf8E8M0FNU, right_scale>) {
  // expected-error@+1 {{'pto.matmul_mx' op rhs scale must have shape [2, 32] (one scale per 32 elements along K), got [4, 32]}}
  %c = pto.matmul_mx %l, %ls, %r, %rs : !pto.tile<16x64xf8E4M3FN, left>, !pto.tile<16x2xf8E8M0FNU, left_scale>, !pto.tile<64x32xf8E4M3FN, right>, !pto.tile<4x32xf8E8M0FNU, right_scale> -> !pto.tile<16x32xf32, acc>
  func.return
}

// -----

func.func @f(%l: !pto.tile<16x64xf8E4M3FN, left>, %ls: !pto.tile<16x2xf8E8M0FNU, vec>, %r: !pto.tile<64x32xf8E4M3FN, right>, %rs: !pto.tile<2x32xf8E8M0FNU, right_scale>) {
  // expected-error@+1 {{'pto.matmul_mx' op lhs scale must be in memory space 'left_scale', but it is in 'vec'}}
  %c = pto.matmul_mx %l, %ls, %r, %rs : !pto.tile<16x64xf8E4M3FN, left>, !pto.tile<16x2xf8E8M0FNU, vec>, !pto.tile<64x32xf8E4M3FN, right>, !pto.tile<2x32xf8E8M0FNU, right_scale> -> !pto.tile<16x32xf32, acc>
  func.return
}

// -----

// pto.tensor_cast: a static dimension may only become ? (or a ? one static), not another extent.
func.func @f(%t: !pto.tensor<16x16xf32>) {
  // expected-error@+1 {{tensor_cast needs compatible types (the same rank, element type and layout; each dimension equal or ? on one side), got !pto.tensor<16x16xf32> -> !pto.tensor<8x?xf32>}}
  %c = pto.tensor_cast %t : !pto.tensor<16x16xf32> -> !pto.tensor<8x?xf32>
  func.return
}

// -----

// pto.tensor_cast keeps the element type (a reinterpretation is not a cast).
func.func @f(%t: !pto.tensor<16x16xf32>) {
  // expected-error@+1 {{tensor_cast needs compatible types (the same rank, element type and layout; each dimension equal or ? on one side), got !pto.tensor<16x16xf32> -> !pto.tensor<16x?xf16>}}
  %c = pto.tensor_cast %t : !pto.tensor<16x16xf32> -> !pto.tensor<16x?xf16>
  func.return
}
