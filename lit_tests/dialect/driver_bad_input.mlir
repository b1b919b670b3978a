// Bad input reaches the user as `file:line:col: error: message` and exit status 1, never as a Python
// traceback: unknown ops and attributes, a matmul on a vec tile, mismatched shapes and dtypes, an unknown
// target or memory space, malformed types and IR.  With --split-input-file every chunk is reported.

// RUN: not pypto-opt %s --split-input-file 2>&1 | filecheck %s
// RUN: not pypto-opt %s --split-input-file -o %t.out
// CHECK-NOT: Traceback
// CHECK-NOT: internal compiler error

// Unknown op.
func.func @unknown_op(%a: !pto.tile<16x128xf32, vec>) {
  // CHECK: driver_bad_input.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: unknown operation 'pto.frobnicate'; the pto ops are listed in docs/dialect.md (--allow-unregistered-dialect keeps ops of other dialects)
  %b = pto.frobnicate %a : !pto.tile<16x128xf32, vec>
  func.return
}

// -----

// Unknown pto attribute.
func.func @unknown_attr() {
  // CHECK: driver_bad_input.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: 'pto.layout' is not registered
  %c = arith.constant {tag = #pto.layout<nz>} 0 : i32
  func.return
}

// -----

// Unknown pto function attribute.
// CHECK: driver_bad_input.mlir:[[# @LINE + 1]]:1: error: unknown function attribute 'pto.mixed' on @unknown_func_attr
func.func @unknown_func_attr() attributes {pto.mixed} {
  func.return
}

// -----

// A matmul on a vec tile.
func.func @matmul_on_vec(%a: !pto.tile<16x64xbf16, vec>, %r: !pto.tile<64x128xbf16, right>) {
  // CHECK: driver_bad_input.mlir:[[# @LINE + 1]]:3: error: 'pto.matmul' op lhs must be in memory space 'left', but it is in 'vec'
  %c = pto.matmul %a, %r : !pto.tile<16x64xbf16, vec>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
  func.return
}

// -----

// Mismatched shapes.
func.func @shape_mismatch(%l: !pto.tile<16x64xbf16, left>, %r: !pto.tile<32x128xbf16, right>) {
  // CHECK: driver_bad_input.mlir:[[# @LINE + 1]]:3: error: 'pto.matmul' op contraction mismatch: lhs [16, 64] has K=64, rhs [32, 128] has K=32
  %c = pto.matmul %l, %r : !pto.tile<16x64xbf16, left>, !pto.tile<32x128xbf16, right> -> !pto.tile<16x128xf32, acc>
  func.return
}

// -----

// Mismatched dtypes.
func.func @dtype_mismatch(%t: !pto.tensor<16x128xf32>) {
  // CHECK: driver_bad_input.mlir:[[# @LINE + 1]]:3: error: 'pto.load' op load result element type bf16 differs from the tensor's f32
  %a = pto.load %t[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xbf16, vec>
  func.return
}

// -----

// Unknown target.
// CHECK: driver_bad_input.mlir:[[# @LINE + 1]]:53: error: unknown pto.target value 'a3', expected one of: a2a3, a5
builtin.module attributes {pto.target = #pto.target<a3>} {
}

// -----

// Unknown memory space.
// CHECK: driver_bad_input.mlir:[[# @LINE + 1]]:52: error: unknown memory space 'l1', expected one of: vec, mat, left, right, acc, bias, left_scale, right_scale
func.func @unknown_space(%a: !pto.tile<16x128xf32, l1>) {
  func.return
}

// -----

// Malformed type.
// CHECK: driver_bad_input.mlir:[[# @LINE + 1]]:52: error: expected ', <memory space>' after the element type
func.func @malformed_type(%a: !pto.tile<16x128xf32 vec>) {
  func.return
}

// -----

// Malformed IR: a use of an undefined value.
func.func @undefined_value() {
  // CHECK: driver_bad_input.mlir:[[# @LINE + 1]]:20: error: use of undefined value %nope; define it (as an op result or a block argument) before using it
  pto.tfree_to_aic %nope : !pto.tile<16x128xf32, vec>
  func.return
}

// -----

// A use of an undefined value in an op with a custom parser.
func.func @undefined_source() {
  // CHECK: driver_bad_input.mlir:[[# @LINE + 1]]:17: error: use of undefined value %nope; define it (as an op result or a block argument) before using it
  %a = pto.load %nope[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
  func.return
}

// -----

// Malformed IR: unbalanced braces.
func.func @unbalanced() {
  func.return
// CHECK: driver_bad_input.mlir:[[# @LINE + 1]]:1: error: unexpected end of input; is a closing '}' missing?
