// The module and function attributes checked by the module verifier (python/pypto_mlir/verify.py): unknown
// pto.* attributes, pto.target / pto.kind / pto.split of the wrong kind, unit and integer attributes, argument
// direction attributes.  One case per check; each is located at the module or function.

// RUN: pypto-opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{unknown module attribute 'pto.targets' (known: pto.target)}}
builtin.module attributes {pto.targets = #pto.target<a5>} {}

// -----

// expected-error@+1 {{'pto.target' must be #pto.target<a2a3|a5>, got "a5"}}
builtin.module attributes {pto.target = "a5"} {}

// -----

// expected-error@+1 {{unknown function attribute 'pto.foo' on @f (known: pto.kind, pto.split, pto.split_aiv, pto.split_aiv_region_validated, pto.dual_aiv_dispatch, pto.sync_start, pto.slot_num, pto.local_slot_num, pto.core_num)}}
func.func @f() attributes {pto.foo} {
  func.return
}

// -----

// expected-error@+1 {{'pto.kind' must be #pto.kind<K> with K one of: opaque, orchestration, incore, aic, aiv, group, spmd, inline; got "aic"}}
func.func @f() attributes {pto.kind = "aic"} {
  func.return
}

// -----

// expected-error@+1 {{'pto.split' must be #pto.split<none|up_down|left_right>, got 1 : i64}}
func.func @f() attributes {pto.split = 1 : i64} {
  func.return
}

// -----

// expected-error@+1 {{'pto.sync_start' is a unit attribute (write it without a value), got 1 : i64}}
func.func @f() attributes {pto.sync_start = 1 : i64} {
  func.return
}

// -----

// expected-error@+1 {{'pto.split_aiv' is a unit attribute (write it without a value), got true}}
func.func @f() attributes {pto.split_aiv = true} {
  func.return
}

// -----

// expected-error@+1 {{'pto.slot_num' must be a positive integer, got 0 : i64}}
func.func @f() attributes {pto.slot_num = 0 : i64} {
  func.return
}

// -----

// expected-error@+1 {{'pto.core_num' must be a positive integer, got "24"}}
func.func @f() attributes {pto.core_num = "24"} {
  func.return
}

// -----

// expected-error@+1 {{unknown argument attribute 'pto.outt' on argument 1 of @f (known: pto.out, pto.inout)}}
func.func @f(%a: !pto.tensor<16xf32>, %b: !pto.tensor<16xf32> {pto.outt}) {
  func.return
}

// -----

// expected-error@+1 {{'pto.out' is a unit attribute (write {pto.out} without a value), got 1 : i64}}
func.func @f(%a: !pto.tensor<16xf32> {pto.out = 1 : i64}) {
  func.return
}

// -----

// An argument has one direction: pto.out and pto.inout together are refused (they would read as different
// directions to different readers).
// expected-error@+1 {{argument 0 of @f is marked both 'pto.out' and 'pto.inout'; an argument has one direction: keep 'pto.inout' if the kernel reads the tensor before writing it, else 'pto.out'}}
func.func @f(%a: !pto.tensor<16xf32> {pto.out, pto.inout}) {
  func.return
}

// -----

// Attributes outside the pto namespace are left alone.
func.func @f(%a: !pto.tensor<16xf32> {other.attr = 1 : i64}) attributes {other.flag} {
  func.return
}
