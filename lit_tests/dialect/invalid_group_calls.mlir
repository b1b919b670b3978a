// RUN: pypto-opt %s --split-input-file --verify-diagnostics
// A kernel that sets up a pipe to its peer (pto.reserve_buffer / pto.import_peer_buffer) runs only as a member
// of a Group, which starts both kernels together; called from anywhere else it runs alone and its first
// tpush/tpop waits forever. Upstream `mlir-opt --inline` produces exactly this (it inlines the Group's body
// into the orchestration function), so the verifier rejects it, at the call (lit_tests/mlir/round_trip_run.mlir
// runs the upstream case).

// The Group @compute_incore_0 inlined into @main: both kernels called from the orchestration function.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @compute_incore_0_aic(%x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>, %out: !pto.tensor<16x128xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %compute_incore_0_c2v_slot_buffer_import = pto.import_peer_buffer {name = "compute_incore_0_c2v_slot_buffer", peer_func = @compute_incore_0_aiv} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aic_initialize_pipe %compute_incore_0_c2v_slot_buffer_import, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %y_mat = pto.load %y[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %y_right = pto.move %y_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %z_tile = pto.matmul %x_left, %y_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    pto.tpush_to_aiv %z_tile {split = 0 : i64} : !pto.tile<16x128xf32, acc>
    func.return
  }
  func.func @compute_incore_0_aiv(%x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>, %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
    %compute_incore_0_c2v_slot_buffer = pto.reserve_buffer {name = "compute_incore_0_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %compute_incore_0_c2v_slot_buffer, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
    %z_vec = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %z_vec, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    pto.tfree_to_aic %z_vec : !pto.tile<16x128xf32, vec>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
  func.func @compute_incore_0(%x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>, %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<group>} {
    func.call @compute_incore_0_aic(%x, %y, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>) -> ()
    %0 = func.call @compute_incore_0_aiv(%x, %y, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %out : !pto.tensor<16x128xf32>
  }
  func.func @main(%x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<16x128xf32>
    // expected-error@+1 {{'func.call' op calls @compute_incore_0_aic from @main (pto.kind = orchestration), but @compute_incore_0_aic sets up a pipe to its peer kernel and runs only as a member of a Group}}
    func.call @compute_incore_0_aic(%x, %y, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>) -> ()
    %r = func.call @compute_incore_0_aiv(%x, %y, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// A kernel without pipes (a pure vector kernel) may be called from anywhere.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @vec(%t: !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<aiv>} {
    %a = pto.load %t[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %e = pto.exp %a : !pto.tile<16x128xf32, vec>
    %o = pto.store %e, %t[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %o : !pto.tensor<16x128xf32>
  }
  func.func @main(%t: !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %r = func.call @vec(%t) : (!pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// pto.no_dep lists argument indices of the call (pypto pl.no_dep): one past the last argument is an error.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @c(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aic>} {
    func.return
  }
  func.func @v(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aiv>} {
    func.return
  }
  func.func @g(%x: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<group>} {
    func.call @c(%x) : (!pto.tensor<16x16xf32>) -> ()
    // expected-error@+1 {{'func.call' op 'pto.no_dep' lists argument #3, but the call has 1 arguments}}
    func.call @v(%x) {pto.no_dep = array<i64: 3>} : (!pto.tensor<16x16xf32>) -> ()
    func.return
  }
}

// -----

// pto.no_dep lists each argument once.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @c(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aic>} {
    func.return
  }
  func.func @v(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aiv>} {
    func.return
  }
  func.func @g(%x: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<group>} {
    func.call @c(%x) : (!pto.tensor<16x16xf32>) -> ()
    // expected-error@+1 {{'func.call' op 'pto.no_dep' lists an argument twice: [0, 0]}}
    func.call @v(%x) {pto.no_dep = array<i64: 0, 0>} : (!pto.tensor<16x16xf32>) -> ()
    func.return
  }
}

// -----

// pto.no_dep is an array<i64>.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @c(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aic>} {
    func.return
  }
  func.func @v(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aiv>} {
    func.return
  }
  func.func @g(%x: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<group>} {
    func.call @c(%x) : (!pto.tensor<16x16xf32>) -> ()
    // expected-error@+1 {{'func.call' op 'pto.no_dep' must be an array<i64: ...> of argument indices, got array<i32: 0>}}
    func.call @v(%x) {pto.no_dep = array<i32: 0>} : (!pto.tensor<16x16xf32>) -> ()
    func.return
  }
}

// -----

// pto.task_id (the task a Group member call is submitted as, pypto's Submit TaskId) is an integer...
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @c(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aic>} {
    func.return
  }
  func.func @v(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aiv>} {
    func.return
  }
  func.func @g(%x: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<group>} {
    func.call @c(%x) : (!pto.tensor<16x16xf32>) -> ()
    // expected-error@+1 {{'func.call' op 'pto.task_id' must be an integer (e.g. 0 : i64), got "t"}}
    func.call @v(%x) {pto.task_id = "t"} : (!pto.tensor<16x16xf32>) -> ()
    func.return
  }
}

// -----

// ... that is not negative.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @c(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aic>} {
    func.return
  }
  func.func @v(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aiv>} {
    func.return
  }
  func.func @g(%x: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<group>} {
    func.call @c(%x) : (!pto.tensor<16x16xf32>) -> ()
    // expected-error@+1 {{'func.call' op 'pto.task_id' must be non-negative, got -1}}
    func.call @v(%x) {pto.task_id = -1 : i64} : (!pto.tensor<16x16xf32>) -> ()
    func.return
  }
}

// -----

// A task has one AIV subslot: two AIV calls of one Group cannot share a task id (an AIC and an AIV call may:
// the two subslots of one mixed task, see group_member_calls.mlir).
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @c(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aic>} {
    func.return
  }
  func.func @v(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aiv>} {
    func.return
  }
  func.func @g(%x: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<group>} {
    func.call @c(%x) {pto.task_id = 3 : i64} : (!pto.tensor<16x16xf32>) -> ()
    func.call @v(%x) {pto.task_id = 3 : i64} : (!pto.tensor<16x16xf32>) -> ()
    // expected-error@+1 {{'func.call' op has pto.task_id = 3, whose AIV subslot another call of Group @g already fills; a task has one AIC and one AIV member call}}
    func.call @v(%x) {pto.task_id = 3 : i64} : (!pto.tensor<16x16xf32>) -> ()
    func.return
  }
}

// -----

// A task id belongs on a member call in a Group, not on a call from other code.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @c(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aic>} {
    func.return
  }
  func.func @v(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aiv>} {
    func.return
  }
  func.func @g(%x: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
    func.call @c(%x) : (!pto.tensor<16x16xf32>) -> ()
    // expected-error@+1 {{'func.call' op has 'pto.task_id', which names the runtime task of a Group member: it belongs on a call of an AIC, AIV or InCore kernel directly in the body of a Group}}
    func.call @v(%x) {pto.task_id = 0 : i64} : (!pto.tensor<16x16xf32>) -> ()
    func.return
  }
}

// -----

// The pto.* attributes of a call are pto.no_dep and pto.task_id.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @c(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aic>} {
    func.return
  }
  func.func @v(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aiv>} {
    func.return
  }
  func.func @g(%x: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<group>} {
    func.call @c(%x) : (!pto.tensor<16x16xf32>) -> ()
    // expected-error@+1 {{'func.call' op has an unknown attribute 'pto.task' (known on calls: pto.no_dep, pto.task_id)}}
    func.call @v(%x) {pto.task = 0 : i64} : (!pto.tensor<16x16xf32>) -> ()
    func.return
  }
}
