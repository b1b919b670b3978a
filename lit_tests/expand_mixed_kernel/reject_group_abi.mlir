// RUN: pypto-opt %s --split-input-file --verify-diagnostics --expand-mixed-kernel
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics --expand-mixed-kernel

// Phase 4 rejections (reference §7.2), located at the member call, on both targets.  (A pto.no_dep index
// outside the call is a verifier error: lit_tests/dialect/invalid_group_calls.mlir.)

// A member argument that is neither a Group parameter, a buffer the Group allocates (promoted, see
// group_abi_promote.mlir) nor a member output: a scalar computed in the Group body has no slot in the shared
// payload (a device scalar needs an explicit tensor output).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @c(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aic>} {
    func.return
  }
  func.func @v(%a: !pto.tensor<16x16xf32>, %n: index) attributes {pto.kind = #pto.kind<aiv>} {
    func.return
  }
  func.func @g(%x: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<group>} {
    %n = arith.constant 4 : index
    func.call @c(%x) : (!pto.tensor<16x16xf32>) -> ()
    // expected-error@+1 {{ExpandMixedKernel: Group 'g' passes a value that is not one of its parameters (argument #1 of the call of '@v': a value computed in the Group body by 'arith.constant') to a member; both members share the Group's argument payload}}
    func.call @v(%x, %n) : (!pto.tensor<16x16xf32>, index) -> ()
    func.return
  }
}

// -----

// A member result passed to the other member must be the writeback of one of the producer's parameters (its
// output binding); a buffer the producer allocates itself is visible to no caller.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @c(%a: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<aic>} {
    %t = pto.create_tensor : !pto.tensor<16x16xf32>
    func.return %t : !pto.tensor<16x16xf32>
  }
  func.func @v(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aiv>} {
    func.return
  }
  func.func @g(%x: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<group>} {
    %w = func.call @c(%x) : (!pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    // expected-error@+1 {{ExpandMixedKernel: Group 'g' passes a value that is not one of its parameters (argument #0 of the call of '@v': result #0 of the call of '@c', which is not a writeback of one of its parameters, so no caller-visible buffer carries it) to a member}}
    func.call @v(%w) : (!pto.tensor<16x16xf32>) -> ()
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
