// --verify-diagnostics: annotations that match pass (exit 0, the other chunks still print); a wrong message,
// an unexpected error and an expected error that is not produced each fail with a located report (exit 1).
// Annotation forms: `expected-error {{..}}` (same line), `@+N`, `@-N`, `@above`, `@below`.

// RUN: pypto-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: not pypto-opt %S/Inputs/two_errors.mlir --split-input-file --verify-diagnostics 2>&1 | filecheck %s --check-prefix=FAIL

// FAIL: two_errors.mlir:5:3: error: unexpected error: 'pto.tpush_to_aiv' op attribute 'split' must be in [0, 4], got 9
// FAIL: two_errors.mlir:5:1: error: expected error "split must be small" was not produced
// FAIL: two_errors.mlir:12:3: error: unexpected error: 'pto.tpush_to_aiv' op attribute 'split' must be in [0, 4], got 9
// FAIL: two_errors.mlir:20:1: error: expected error "anything" was not produced
// FAIL-NOT: error

// CHECK-LABEL: func.func @ok
func.func @ok(%a: !pto.tile<16x128xf32, acc>) {
  pto.tpush_to_aiv %a {split = 0 : i64} : !pto.tile<16x128xf32, acc>
  func.return
}

// -----

func.func @same_line(%a: !pto.tile<16x128xf32, acc>) {
  pto.tpush_to_aiv %a {split = 9 : i64} : !pto.tile<16x128xf32, acc> // expected-error {{must be in [0, 4], got 9}}
  func.return
}

// -----

func.func @minus(%a: !pto.tile<16x128xf32, acc>) {
  pto.tpush_to_aiv %a {split = 9 : i64} : !pto.tile<16x128xf32, acc>
  // expected-error@-1 {{must be in [0, 4], got 9}}
  func.return
}

// -----

func.func @above(%a: !pto.tile<16x128xf32, acc>) {
  pto.tpush_to_aiv %a {split = 9 : i64} : !pto.tile<16x128xf32, acc>
  // expected-error@above {{must be in [0, 4], got 9}}
  func.return
}

// -----

func.func @below(%a: !pto.tile<16x128xf32, acc>) {
  // expected-error@below {{must be in [0, 4], got 9}}
  pto.tpush_to_aiv %a {split = 9 : i64} : !pto.tile<16x128xf32, acc>
  func.return
}

// -----

// CHECK-LABEL: func.func @also_printed
func.func @also_printed() {
  func.return
}
