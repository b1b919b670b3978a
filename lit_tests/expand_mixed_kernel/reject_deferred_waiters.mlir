// RUN: pypto-opt %s --split-input-file --verify-diagnostics --expand-mixed-kernel
// RUN: pypto-opt %s --split-input-file --verify-diagnostics --insert-gm-fences
// RUN: pypto-opt %s --split-input-file --verify-diagnostics --split-mixed-kernel
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics --expand-mixed-kernel
// (These are input checks of the pass: its first phase, --insert-gm-fences, makes them, and --split-mixed-kernel
// makes them too when run alone; the messages are the same.)

// The deferred-waiter audit (reference §7.2): every way a pto.defer_wait task breaks the contract, located at
// the wait (both targets).

// A mixed kernel: it would become AIC + AIV.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @mixed(%sig: !pto.tensor<2xi32>, %x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>} {
    // expected-error@+1 {{ExpandMixedKernel: pto.defer_wait in function 'mixed' bypasses the deferred-waiter task contract: '@mixed' must lower to a pure AIV kernel, but it has cube work and would become a mixed AIC/AIV kernel; AIC and mixed AIC/AIV waiters are not supported}}
    pto.defer_wait %sig[0] : !pto.tensor<2xi32>
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xv = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, vec>
    %o2 = pto.store %xv, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return
  }
  func.func @main(%sig: !pto.tensor<2xi32>, %x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
    func.call @mixed(%sig, %x, %o) : (!pto.tensor<2xi32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> ()
    func.return
  }
}

// -----

// A pure cube kernel: it would become an AIC kernel.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @cube(%sig: !pto.tensor<2xi32>, %x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>} {
    // expected-error@+1 {{would become an AIC kernel; AIC and mixed AIC/AIV waiters are not supported}}
    pto.defer_wait %sig[0] : !pto.tensor<2xi32>
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %o2 = pto.store %xm, %o[0, 0] : !pto.tile<16x16xf32, mat>, !pto.tensor<16x16xf32>
    func.return
  }
  func.func @main(%sig: !pto.tensor<2xi32>, %x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
    func.call @cube(%sig, %x, %o) : (!pto.tensor<2xi32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> ()
    func.return
  }
}

// -----

// Not an outlined kernel.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @orch(%sig: !pto.tensor<2xi32>) attributes {pto.kind = #pto.kind<orchestration>} {
    // expected-error@+1 {{pto.defer_wait in function 'orch' bypasses the deferred-waiter task contract: it must be an outlined incore function or its pure-AIV expanded form, but '@orch' is #pto.kind<orchestration>}}
    pto.defer_wait %sig[0] : !pto.tensor<2xi32>
    func.return
  }
}

// -----

// A multi-block task.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @spmd_task(%sig: !pto.tensor<2xi32>) attributes {pto.kind = #pto.kind<incore>, pto.core_num = 4 : i64} {
    // expected-error@+1 {{it must be a single-block task and cannot carry core_num or sync_start ('@spmd_task' has pto.core_num)}}
    pto.defer_wait %sig[0] : !pto.tensor<2xi32>
    func.return
  }
  func.func @main(%sig: !pto.tensor<2xi32>) attributes {pto.kind = #pto.kind<orchestration>} {
    func.call @spmd_task(%sig) : (!pto.tensor<2xi32>) -> ()
    func.return
  }
}

// -----

// No call site.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @orphan(%sig: !pto.tensor<2xi32>) attributes {pto.kind = #pto.kind<aiv>} {
    // expected-error@+1 {{'@orphan' has no task-level Orchestration call site}}
    pto.defer_wait %sig[0] : !pto.tensor<2xi32>
    func.return
  }
}

// -----

// Called from a Group.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @member(%sig: !pto.tensor<2xi32>) attributes {pto.kind = #pto.kind<incore>} {
    // expected-error@+1 {{'@member' must be dispatched directly from an Orchestration function, but it is called from '@grp' (#pto.kind<group>)}}
    pto.defer_wait %sig[0] : !pto.tensor<2xi32>
    func.return
  }
  func.func @grp(%sig: !pto.tensor<2xi32>) attributes {pto.kind = #pto.kind<group>} {
    func.call @member(%sig) : (!pto.tensor<2xi32>) -> ()
    func.return
  }
}

// -----

// Called inside control flow of the orchestration code.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @looped(%sig: !pto.tensor<2xi32>) attributes {pto.kind = #pto.kind<incore>} {
    // expected-error@+1 {{'@looped' must be dispatched directly from an Orchestration function, but it is called inside control flow of '@main'}}
    pto.defer_wait %sig[0] : !pto.tensor<2xi32>
    func.return
  }
  func.func @main(%sig: !pto.tensor<2xi32>, %n: index) attributes {pto.kind = #pto.kind<orchestration>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      func.call @looped(%sig) : (!pto.tensor<2xi32>) -> ()
    }
    func.return
  }
}
