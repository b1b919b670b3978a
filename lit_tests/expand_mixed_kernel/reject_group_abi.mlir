// RUN: pypto-opt %s --split-input-file --verify-diagnostics --expand-mixed-kernel
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics --expand-mixed-kernel

// Phase 4 rejections (reference §7.2), located at the member call, on both targets.

// A member argument that is not a Group parameter has no slot in the shared payload.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @c(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aic>} {
    func.return
  }
  func.func @v(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aiv>} {
    func.return
  }
  func.func @g(%x: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<group>} {
    %t = pto.create_tensor : !pto.tensor<16x16xf32>
    func.call @c(%x) : (!pto.tensor<16x16xf32>) -> ()
    // expected-error@+1 {{ExpandMixedKernel: Group 'g' passes a value that is not one of its parameters (argument #0 of the call of '@v') to a member; both members share the Group's argument payload}}
    func.call @v(%t) : (!pto.tensor<16x16xf32>) -> ()
    func.return
  }
}

// -----

// An external member (no body) cannot be rebuilt.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func private @c(!pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aic>}
  func.func @v(%a: !pto.tensor<16x16xf32>, %b: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aiv>} {
    func.return
  }
  func.func @g(%x: !pto.tensor<16x16xf32>, %y: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<group>} {
    // expected-error@+1 {{ExpandMixedKernel: Mixed Group 'g' has AIC/AIV members with different argument layouts. External members cannot be adapted ('@c' has no body); declare both members with the Group's signature}}
    func.call @c(%x) : (!pto.tensor<16x16xf32>) -> ()
    func.call @v(%x, %y) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> ()
    func.return
  }
}

// -----

// A pto.no_dep index outside the call's arguments.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @c(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aic>} {
    func.return
  }
  func.func @v(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aiv>} {
    func.return
  }
  func.func @g(%x: !pto.tensor<16x16xf32>, %y: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<group>} {
    func.call @c(%x) : (!pto.tensor<16x16xf32>) -> ()
    // expected-error@+1 {{ExpandMixedKernel: Cannot map the pto.no_dep argument #3 of this call to a canonical Group parameter: the call has 1 arguments}}
    func.call @v(%y) {pto.no_dep = array<i64: 3>} : (!pto.tensor<16x16xf32>) -> ()
    func.return
  }
}
