// Inputs a fuzzer or a new user writes that xDSL alone turns into an exception: each is a located error at
// the offending token or op (issue 14), never an internal compiler error.
// RUN: pypto-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// RUN: not pypto-opt %s --split-input-file --allow-unregistered-dialect 2>&1 | filecheck %s
// CHECK-NOT: internal compiler error
// CHECK-NOT: Traceback

// A non-ASCII character before the first token (the lexer rejects it while the parser is being built).
// expected-error@+1 {{unexpected character '€' (U+20AC); outside string literals and comments the input must be ASCII MLIR syntax}}
€builtin.module {}

// -----

// An f80 / f128 float where an integer is expected: xDSL can parse the constant but has no format to print it.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // expected-error@+1 {{float constants of type f80 are not supported; use f16, bf16, f32 or f64}}
  func.func @f80_slot_num() attributes {pto.kind = #pto.kind<incore>, pto.local_slot_num = 1.0 : f80} {
    func.return
  }
}

// -----

func.func @f128_constant() {
  // expected-error@+1 {{float constants of type f128 are not supported}}
  %c = arith.constant 2.0 : f128
  func.return
}

// -----

// A negative value for an unsigned-exponent float type.
func.func @negative_e8m0() {
  // expected-error@+1 {{invalid attribute value: f8E8M0FNU does not support signed values}}
  %c = arith.constant -1.0 : f8E8M0FNU
  func.return
}

// -----

// A dense array whose integer width has no binary format.
func.func @huge_int_width() {
  // expected-error@+1 {{element type i99999999 is not supported in a constant array}}
  "test.op"() {a = array<i99999999: 1, 2>} : () -> ()
  func.return
}

// -----

func.func @i128_array() {
  // expected-error@+1 {{element type i128 is not supported in a constant array}}
  "test.op"() {a = array<i128>} : () -> ()
  func.return
}

// -----

// An offset outside i64.
func.func @offset_out_of_range(%x: !pto.tensor<16x16xf32>) {
  // expected-error@+1 {{99999999999999999999 does not fit: a constant entry must lie in [-(2^63 - 1), 2^63 - 1]}}
  %a = pto.load %x[99999999999999999999, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
  func.return
}

// -----

// An offset equal to the sentinel that marks SSA entries: it would silently turn into a missing operand.
func.func @offset_sentinel(%x: !pto.tensor<16x16xf32>) {
  // expected-error@+1 {{-9223372036854775808 does not fit}}
  %a = pto.load %x[0, -9223372036854775808] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
  func.return
}

// -----

// A valid size equal to the sentinel.
func.func @valid_sentinel(%x: !pto.tensor<16x16xf32>, %v: index) {
  // expected-error@+1 {{-9223372036854775808 does not fit}}
  %a = pto.load %x[0, 0] valid [-9223372036854775808, %v] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec, valid = [?, ?]>
  func.return
}

// -----

// A value used before the op that defines it (the parser accepts the forward reference).
func.func @use_before_def() {
  // expected-error@+1 {{'arith.addi' op uses %a before its definition; move the op that defines it above this use}}
  %b = arith.addi %a, %a : i32
  %a = arith.constant 1 : i32
  func.return
}

// -----

// A forward reference that is only ever defined inside a nested region: the value has an owner, but not one
// that encloses the use.
func.func @use_outside_defining_region(%c: i1) {
  // expected-error@+1 {{'arith.addi' op uses %a, which is defined inside a region that does not enclose this op}}
  %b = arith.addi %a, %a : i32
  scf.if %c {
    %a = arith.constant 1 : i32
    scf.yield
  }
  func.return
}

// -----

// A forward reference resolved to one result of a multi-result op defined later.
func.func @forward_multi_result() {
  // expected-error@+1 {{uses %a before its definition}}
  %b = arith.addi %a, %a : i32
  %a:2 = "test.op"() : () -> (i32, i32)
  func.return
}

// -----

// Forward-declared values that never get an owner.
func.func @never_defined() {
  // expected-error@+1 {{use of undefined value %x, %y}}
  "test.op"(%x, %y) : (i32, i32) -> ()
  func.return
}

// -----

// A value defined in a later block of the function, used in the entry block.
func.func @defined_in_other_block() {
  // expected-error@+1 {{'arith.addi' op uses %a, which is defined in a block that does not dominate this one}}
  %b = arith.addi %a, %a : i32
  func.return
^bb1:
  %a = arith.constant 1 : i32
  func.return
}

// -----

// A region written as `{ }` where the op needs a terminator (found by the fuzzer: an `scf.while` with an empty
// `before` region verified and printed as IR that does not parse back).
builtin.module {
  func.func @empty_before(%x: i32) -> i32 {
    // expected-error@+1 {{'scf.while' op has an empty block in a region: expected at least a terminator}}
    %w = scf.while (%t = %x) : (i32) -> i32 {
    } do {
    ^bb0(%t2: i32):
      scf.yield %t2 : i32
    }
    func.return %w : i32
  }
}

// -----

// A block that ends without its terminator.
builtin.module {
  func.func @no_return(%x: i32) {
    // expected-error@+1 {{'func.func' op has a block with no terminator (it ends with 'arith.addi'); end the block with the terminator the op expects}}
    %y = arith.addi %x, %x : i32
  }
}
