// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-opt %s --expand-mixed-kernel | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline expand-mixed-kernel -
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel -
// The a2a3 input cannot run as written (its AIV member is unmarked, see group_abi.mlir): its output is compared
// with the a5 input, which has the same semantics.
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %s --expand-mixed-kernel > %t.a2a3.out.mlir
// RUN: pypto-run --quiet %t.a5.mlir --compare-with %t.a2a3.out.mlir

// Phase 4, pypto's Submit/TaskId model in `pto` (docs/dialect.md "Group members"): the Group allocates a
// workspace %ws (pto.create_tensor: an internal output store, pypto's omitted output) that the AIC member
// fills; the AIV member takes the AIC call's result %w, which is bound to %ws by the AIC's output binding (its
// return position writes back its parameter #1).  pto.task_id names the task of each member call and
// pto.no_dep marks the omitted output as not dependency-tracked.  The pass promotes %ws to a new last Group
// parameter {pto.out} that @main now allocates, rebinds %w to it, rebuilds both members onto (%x, %o, %ws),
// keeps the task ids and maps pto.no_dep to the promoted parameter (index 2).  The members still order the
// workspace themselves (the AIC stores before its push, the AIV loads after its pop): no handshake is added.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @cube(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}, %ws: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
  // CHECK-SAME:  attributes {pto.kind = #pto.kind<aic>}
  // CHECK:       %xm = pto.load %x[0, 0]
  // CHECK:       %ws2 = pto.store %z, %ws[0, 0]
  // CHECK:       func.return %ws2
  func.func @cube(%a: !pto.tensor<16x16xf32>, %ws: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "g_c2v", peer_func = @vec} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %xm = pto.load %a[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xl = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
    %xr = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, right>
    %z = pto.matmul %xl, %xr : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>
    %ws2 = pto.store %z, %ws[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
    pto.tpush_to_aiv %z {split = 0 : i64} : !pto.tile<16x16xf32, acc>
    func.return %ws2 : !pto.tensor<16x16xf32>
  }
  // CHECK-LABEL: func.func @vec(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}, %ws: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
  // A2A3-SAME:   attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch}
  // A5-SAME:     attributes {pto.kind = #pto.kind<aiv>}
  // CHECK:       %t1 = pto.load %ws[0, 0]
  // CHECK:       %o2 = pto.store %s, %o[0, 0]
  func.func @vec(%out: !pto.tensor<16x16xf32> {pto.out}, %w: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "g_c2v", size = 2048 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x16xf32, vec>
    %t1 = pto.load %w[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    %s = pto.add %p, %t1 : !pto.tile<16x16xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x16xf32, vec>
    %o2 = pto.store %s, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
  // CHECK-LABEL: func.func @g(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}, %ws: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
  // CHECK-NOT:   pto.create_tensor
  // CHECK:       %w = func.call @cube(%x, %o, %ws) {pto.task_id = 0 : i64, pto.no_dep = array<i64: 2>}
  // CHECK-NEXT:  %r = func.call @vec(%x, %o, %ws) {pto.task_id = 1 : i64}
  // CHECK-NEXT:  func.return %r
  func.func @g(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<group>} {
    %ws = pto.create_tensor : !pto.tensor<16x16xf32>
    %w = func.call @cube(%x, %ws) {pto.task_id = 0 : i64, pto.no_dep = array<i64: 1>} : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    %r = func.call @vec(%o, %w) {pto.task_id = 1 : i64} : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    func.return %r : !pto.tensor<16x16xf32>
  }
  // The caller allocates the promoted output.
  // CHECK-LABEL: func.func @main(
  // CHECK-NEXT:  %o = pto.create_tensor : !pto.tensor<16x16xf32>
  // CHECK-NEXT:  %ws = pto.create_tensor : !pto.tensor<16x16xf32>
  // CHECK-NEXT:  %r = func.call @g(%x, %o, %ws) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
  func.func @main(%x: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %o = pto.create_tensor : !pto.tensor<16x16xf32>
    %r = func.call @g(%x, %o) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    func.return %r : !pto.tensor<16x16xf32>
  }
}
