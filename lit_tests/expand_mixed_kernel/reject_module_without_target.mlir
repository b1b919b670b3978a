// RUN: pypto-opt %s --verify-diagnostics --expand-mixed-kernel

// The pass depends on the backend: a module without `pto.target` is rejected at the module.
// expected-error@+1 {{ExpandMixedKernel depends on the backend, but the module has no 'pto.target' attribute}}
builtin.module {
  func.func @k(%a: index) -> index attributes {pto.kind = #pto.kind<incore>} {
    func.return %a : index
  }
}
