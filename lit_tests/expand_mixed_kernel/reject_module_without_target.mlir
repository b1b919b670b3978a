// RUN: pypto-opt %s --verify-diagnostics --expand-mixed-kernel
// RUN: pypto-opt %s --verify-diagnostics --insert-gm-fences
// RUN: pypto-opt %s --verify-diagnostics --split-mixed-kernel
// (These are input checks of the pass: its first phase, --insert-gm-fences, makes them, and --split-mixed-kernel
// makes them too when run alone; the messages are the same.)

// The pass depends on the backend: a module without `pto.target` is rejected at the module.
// expected-error@+1 {{ExpandMixedKernel depends on the backend, but the module has no 'pto.target' attribute}}
builtin.module {
  func.func @k(%a: index) -> index attributes {pto.kind = #pto.kind<incore>} {
    func.return %a : index
  }
}
