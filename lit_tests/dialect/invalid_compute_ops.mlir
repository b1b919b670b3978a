// Verifier errors of the compute ops: generators, the cube matmul family (memory spaces, ranks, K, result
// shape, gemv rows, dtypes, accumulator, bias) and the vector ops (vec-only tiles, one type for elementwise
// ops, scalar operands, cast, reductions, broadcasts): one case per check.

// RUN: pypto-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{full takes a scalar fill value, not a tile}}
  %z = pto.full %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xf32, vec>
  func.return
}

// -----

func.func @f(%n: i32) {
  // expected-error@+1 {{'pto.ci' op result must be in memory space 'vec', but it is in 'acc'}}
  %c = pto.ci %n : i32 -> !pto.tile<16x128xi32, acc>
  func.return
}

// -----

func.func @f(%n: i32) {
  // expected-error@+1 {{'pto.random' op result must be in memory space 'vec', but it is in 'mat'}}
  %c = pto.random %n : i32 -> !pto.tile<16x128xf32, mat>
  func.return
}

// -----

// A generator has no valid operand, so a `?` valid extent of a static dim could never be given its value (the
// interpreter and the hardware would take the whole box): full, create, ci and random reject it, on any dim.
func.func @f(%x: f32) {
  // expected-error@+1 {{'pto.full' op result valid region [?, 128] has a runtime extent on dim 0, but 'pto.full' has no valid operand to bind it: state the valid extents statically, or generate the full box and narrow it with pto.set_validshape}}
  %z = pto.full %x : f32 -> !pto.tile<16x128xf32, vec, valid = [?, 128]>
  func.return
}

// -----

func.func @f() {
  // expected-error@+1 {{'pto.create' op result valid region [16, ?] has a runtime extent on dim 1, but 'pto.create' has no valid operand to bind it}}
  %u = pto.create : !pto.tile<16x128xf32, vec, valid = [16, ?]>
  func.return
}

// -----

func.func @f(%n: i32) {
  // expected-error@+1 {{'pto.ci' op result valid region [?, 128] has a runtime extent on dim 0, but 'pto.ci' has no valid operand to bind it}}
  %c = pto.ci %n : i32 -> !pto.tile<8x128xi32, vec, valid = [?, 128]>
  func.return
}

// -----

func.func @f(%n: i32) {
  // expected-error@+1 {{'pto.random' op result valid region [1, ?] has a runtime extent on dim 1, but 'pto.random' has no valid operand to bind it}}
  %c = pto.random %n : i32 -> !pto.tile<1x33xf32, vec, valid = [1, ?]>
  func.return
}

// -----

// A matmul on a vec tile.
func.func @f(%a: !pto.tile<16x64xbf16, vec>, %r: !pto.tile<64x128xbf16, right>) {
  // expected-error@+1 {{'pto.matmul' op lhs must be in memory space 'left', but it is in 'vec'}}
  %c = pto.matmul %a, %r : !pto.tile<16x64xbf16, vec>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
  func.return
}

// -----

func.func @f(%l: !pto.tile<16x64xbf16, left>, %r: !pto.tile<64x128xbf16, mat>) {
  // expected-error@+1 {{'pto.matmul' op rhs must be in memory space 'right', but it is in 'mat'}}
  %c = pto.matmul %l, %r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, mat> -> !pto.tile<16x128xf32, acc>
  func.return
}

// -----

func.func @f(%l: !pto.tile<16x64xbf16, left>, %r: !pto.tile<64x128xbf16, right>) {
  // expected-error@+1 {{'pto.matmul' op result must be in memory space 'acc', but it is in 'vec'}}
  %c = pto.matmul %l, %r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, vec>
  func.return
}

// -----

func.func @f(%l: !pto.tile<2x16x64xbf16, left>, %r: !pto.tile<64x128xbf16, right>) {
  // expected-error@+1 {{'pto.matmul' op lhs must have rank 2, got 3}}
  %c = pto.matmul %l, %r : !pto.tile<2x16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
  func.return
}

// -----

func.func @f(%l: !pto.tile<16x64xbf16, left>, %r: !pto.tile<64x32xbf16, right>) {
  // expected-error@+1 {{'pto.batch_matmul' op lhs must have rank 3, got 2}}
  %c = pto.batch_matmul %l, %r : !pto.tile<16x64xbf16, left>, !pto.tile<64x32xbf16, right> -> !pto.tile<16x32xf32, acc>
  func.return
}

// -----

// K mismatch.
func.func @f(%l: !pto.tile<16x64xbf16, left>, %r: !pto.tile<32x128xbf16, right>) {
  // expected-error@+1 {{'pto.matmul' op contraction mismatch: lhs [16, 64] has K=64, rhs [32, 128] has K=32}}
  %c = pto.matmul %l, %r : !pto.tile<16x64xbf16, left>, !pto.tile<32x128xbf16, right> -> !pto.tile<16x128xf32, acc>
  func.return
}

// -----

// Wrong result shape.
func.func @f(%l: !pto.tile<16x64xbf16, left>, %r: !pto.tile<64x128xbf16, right>) {
  // expected-error@+1 {{'pto.matmul' op result must have shape [16, 128], got [16, 64]}}
  %c = pto.matmul %l, %r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x64xf32, acc>
  func.return
}

// -----

func.func @f(%l: !pto.tile<2x16x64xbf16, left>, %r: !pto.tile<2x64x32xbf16, right>) {
  // expected-error@+1 {{'pto.batch_matmul' op result must have shape [2, 16, 32], got [4, 16, 32]}}
  %c = pto.batch_matmul %l, %r : !pto.tile<2x16x64xbf16, left>, !pto.tile<2x64x32xbf16, right> -> !pto.tile<4x16x32xf32, acc>
  func.return
}

// -----

func.func @f(%l: !pto.tile<16x64xbf16, left>, %r: !pto.tile<64x128xbf16, right>) {
  // expected-error@+1 {{'pto.gemv' op lhs must have one row, got 16}}
  %c = pto.gemv %l, %r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
  func.return
}

// -----

// Mismatched operand dtypes.
func.func @f(%l: !pto.tile<16x64xbf16, left>, %r: !pto.tile<64x128xf16, right>) {
  // expected-error@+1 {{'pto.matmul' op operands must have the same element type, got bf16 and f16}}
  %c = pto.matmul %l, %r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xf16, right> -> !pto.tile<16x128xf32, acc>
  func.return
}

// -----

func.func @f(%c: !pto.tile<16x128xf16, acc>, %l: !pto.tile<16x64xbf16, left>, %r: !pto.tile<64x128xbf16, right>) {
  // expected-error@+1 {{'pto.matmul_acc' op accumulator type !pto.tile<16x128xf16, acc> must equal the result type !pto.tile<16x128xf32, acc>}}
  %c2 = pto.matmul_acc %c, %l, %r : !pto.tile<16x128xf16, acc>, !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
  func.return
}

// -----

func.func @f(%l: !pto.tile<16x64xbf16, left>, %r: !pto.tile<64x128xbf16, right>, %b: !pto.tile<1x128xf32, vec>) {
  // expected-error@+1 {{'pto.matmul_bias' op bias must be in memory space 'bias', but it is in 'vec'}}
  %c = pto.matmul_bias %l, %r, %b : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right>, !pto.tile<1x128xf32, vec> -> !pto.tile<16x128xf32, acc>
  func.return
}

// -----

func.func @f(%l: !pto.tile<1x64xbf16, left>, %r: !pto.tile<64x128xbf16, right>, %b: !pto.tile<1x64xf32, bias>) {
  // expected-error@+1 {{'pto.gemv_bias' op bias must have shape [1, 128], got [1, 64]}}
  %c = pto.gemv_bias %l, %r, %b : !pto.tile<1x64xbf16, left>, !pto.tile<64x128xbf16, right>, !pto.tile<1x64xf32, bias> -> !pto.tile<1x128xf32, acc>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, acc>, %b: !pto.tile<16x128xf32, acc>) {
  // expected-error@+1 {{'pto.add' op is a vector op; its tiles must be in memory space 'vec', but one is in 'acc'}}
  %s = pto.add %a, %b : !pto.tile<16x128xf32, acc>
  func.return
}

// -----

// Mismatched dtypes in the custom form: the parser reports the operand whose type disagrees.
func.func @f(%a: !pto.tile<16x128xf32, vec>, %b: !pto.tile<16x128xf16, vec>) {
  // expected-error@+1 {{operand is used with type !pto.tile<16x128xf32, vec>, but has been previously used or defined with type !pto.tile<16x128xf16, vec>}}
  %s = pto.sub %a, %b : !pto.tile<16x128xf32, vec>
  func.return
}

// -----

// The same in the generic form: the verifier names the operand.
func.func @f(%a: !pto.tile<16x128xf32, vec>, %b: !pto.tile<16x128xf16, vec>) {
  // expected-error@+1 {{'pto.mul' op operand 'rhs' has type !pto.tile<16x128xf16, vec>, but the operands and result of this op must all have one type, here !pto.tile<16x128xf32, vec>}}
  %s = "pto.mul"(%a, %b) : (!pto.tile<16x128xf32, vec>, !pto.tile<16x128xf16, vec>) -> !pto.tile<16x128xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{'pto.exp' op result 'result' has type !pto.tile<16x64xf32, vec>, but the operands and result of this op must all have one type, here !pto.tile<16x128xf32, vec>}}
  %e = "pto.exp"(%a) : (!pto.tile<16x128xf32, vec>) -> !pto.tile<16x64xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>, %b: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{'pto.muls' op takes a scalar second operand, not a tile}}
  %s = pto.muls %a, %b : !pto.tile<16x128xf32, vec>, !pto.tile<16x128xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, mat>, %f: f32) {
  // expected-error@+1 {{'pto.adds' op is a vector op; its tiles must be in memory space 'vec', but one is in 'mat'}}
  %s = pto.adds %a, %f : !pto.tile<16x128xf32, mat>, f32
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{'pto.cast' op is a vector op; its tiles must be in memory space 'vec', but one is in 'acc'}}
  %h = pto.cast %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xf16, acc>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{cast cannot change the shape}}
  %h = pto.cast %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x64xf16, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<2x16x128xf32, vec>) {
  // expected-error@+1 {{'pto.row_sum' op needs a 2-D tile, got rank 3}}
  %m = pto.row_sum %a : !pto.tile<2x16x128xf32, vec> -> !pto.tile<2x16x1xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{'pto.row_max' op result must have shape [16, 1] (the source [16, 128] reduced along dim 1), got [1, 128]}}
  %m = pto.row_max %a : !pto.tile<16x128xf32, vec> -> !pto.tile<1x128xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{'pto.col_min' op result must have shape [1, 128] (the source [16, 128] reduced along dim 0), got [16, 1]}}
  %m = pto.col_min %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x1xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{'pto.col_sum' op cannot change the element type}}
  %m = pto.col_sum %a : !pto.tile<16x128xf32, vec> -> !pto.tile<1x128xf16, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{'pto.row_min' op is a vector op; its tiles must be in memory space 'vec', but one is in 'acc'}}
  %m = pto.row_min %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x1xf32, acc>
  func.return
}

// -----

func.func @f(%a: !pto.tile<2x16x128xf32, vec>, %m: !pto.tile<2x16x1xf32, vec>) {
  // expected-error@+1 {{'pto.row_expand_add' op needs a 2-D tile, got rank 3}}
  %d = pto.row_expand_add %a, %m : !pto.tile<2x16x128xf32, vec>, !pto.tile<2x16x1xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>, %m: !pto.tile<16x1xf32, vec>) {
  // expected-error@+1 {{'pto.col_expand_mul' op operand must have shape [1, 128], got [16, 1]}}
  %d = pto.col_expand_mul %a, %m : !pto.tile<16x128xf32, vec>, !pto.tile<16x1xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>, %m: !pto.tile<16x1xf16, vec>) {
  // expected-error@+1 {{'pto.row_expand_div' op operands must have the same element type}}
  %d = pto.row_expand_div %a, %m : !pto.tile<16x128xf32, vec>, !pto.tile<16x1xf16, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>, %m: !pto.tile<16x1xf32, acc>) {
  // expected-error@+1 {{'pto.row_expand_sub' op is a vector op; its tiles must be in memory space 'vec', but one is in 'acc'}}
  %d = pto.row_expand_sub %a, %m : !pto.tile<16x128xf32, vec>, !pto.tile<16x1xf32, acc>
  func.return
}

// -----

func.func @f() {
  // expected-error@+1 {{'pto.get_subblock_idx' op result 'result' must be of type index, got i32}}
  %i = "pto.get_subblock_idx"() : () -> i32
  func.return
}
