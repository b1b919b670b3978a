// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s
// RUN: pypto-opt %s --expand-mixed-kernel | pypto-opt --expand-mixed-kernel | filecheck %s
// RUN: pypto-run --quiet --check-pipeline expand-mixed-kernel %s
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline expand-mixed-kernel -
// The interpreter names a member by its task id: a slot too small for the pushed tile, reported on the AIC task.
// RUN: sed 's/slot_size = 2048 : i64/slot_size = 1024 : i64/' %s | not pypto-run --quiet - 2>&1 | filecheck %s --check-prefix=TASK
// TASK: error: the pushed tile !pto.tile<32x16xf32, acc> takes 2048 bytes, more than the slot_size of 1024 bytes of the c2v ring of pipe 0 (on @cube (AIC, task 7))

// Phase 4: a buffer the Group allocates (%ws) passed directly to both members (the AIC writes it, the AIV reads
// it after the pop that follows the store) is promoted to a new Group parameter; its direction is the
// strongest the members give it (pto.out from the AIC).  The Group is launched through an Spmd wrapper, which
// launches but does not allocate: the wrapper gets the parameter too, and the orchestration function, inside
// its loop, allocates it once per launch, as the Group did.  The AIV member is per-lane (pto.split_aiv, split-1
// transfers), so no dual dispatch is inferred and the output is the same on both targets.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @cube(%x: !pto.tensor<32x16xf32>, %o: !pto.tensor<32x16xf32> {pto.out}, %ws: !pto.tensor<32x16xf32> {pto.out})
  // CHECK:       pto.store %z, %ws[0, 0]
  func.func @cube(%a: !pto.tensor<32x16xf32>, %w: !pto.tensor<32x16xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "g_c2v", peer_func = @vec} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 2048 : i64, slot_num = 2 : i64} : i32, i32
    %xm = pto.load %a[0, 0] : !pto.tensor<32x16xf32> -> !pto.tile<32x16xf32, mat>
    %xl = pto.move %xm : !pto.tile<32x16xf32, mat> -> !pto.tile<32x16xf32, left>
    %ym = pto.load %a[0, 0] : !pto.tensor<32x16xf32> -> !pto.tile<16x16xf32, mat>
    %yr = pto.move %ym : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, right>
    %z = pto.matmul %xl, %yr : !pto.tile<32x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<32x16xf32, acc>
    %w2 = pto.store %z, %w[0, 0] : !pto.tile<32x16xf32, acc>, !pto.tensor<32x16xf32>
    pto.tpush_to_aiv %z {split = 1 : i64} : !pto.tile<32x16xf32, acc>
    func.return
  }
  // CHECK-LABEL: func.func @vec(%x: !pto.tensor<32x16xf32>, %o: !pto.tensor<32x16xf32> {pto.out}, %ws: !pto.tensor<32x16xf32> {pto.out}) -> !pto.tensor<32x16xf32>
  // CHECK-SAME:  attributes {pto.kind = #pto.kind<aiv>, pto.split = #pto.split<up_down>, pto.split_aiv}
  // CHECK:       pto.load %ws[%row, 0]
  // CHECK:       pto.store %s, %o[%row, 0]
  func.func @vec(%w: !pto.tensor<32x16xf32>, %out: !pto.tensor<32x16xf32> {pto.out}) -> !pto.tensor<32x16xf32>
      attributes {pto.kind = #pto.kind<aiv>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %rb = pto.reserve_buffer {name = "g_c2v", size = 4096 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 2048 : i64, slot_num = 2 : i64} : i32, i32
    %lane = pto.get_subblock_idx : index
    %c16 = arith.constant 16 : index
    %row = arith.muli %lane, %c16 : index
    %p = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<16x16xf32, vec>
    %t = pto.load %w[%row, 0] : !pto.tensor<32x16xf32> -> !pto.tile<16x16xf32, vec>
    %s = pto.add %p, %t : !pto.tile<16x16xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x16xf32, vec>
    %o2 = pto.store %s, %out[%row, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<32x16xf32>
    func.return %o2 : !pto.tensor<32x16xf32>
  }
  // CHECK-LABEL: func.func @g(%x: !pto.tensor<32x16xf32>, %o: !pto.tensor<32x16xf32> {pto.out}, %ws: !pto.tensor<32x16xf32> {pto.out})
  // CHECK-NEXT:  func.call @cube(%x, %o, %ws) {pto.task_id = 7 : i64}
  // CHECK-NEXT:  %r = func.call @vec(%x, %o, %ws) {pto.task_id = 8 : i64}
  func.func @g(%x: !pto.tensor<32x16xf32>, %o: !pto.tensor<32x16xf32> {pto.out}) -> !pto.tensor<32x16xf32>
      attributes {pto.kind = #pto.kind<group>} {
    %ws = pto.create_tensor : !pto.tensor<32x16xf32>
    func.call @cube(%x, %ws) {pto.task_id = 7 : i64} : (!pto.tensor<32x16xf32>, !pto.tensor<32x16xf32>) -> ()
    %r = func.call @vec(%ws, %o) {pto.task_id = 8 : i64} : (!pto.tensor<32x16xf32>, !pto.tensor<32x16xf32>) -> !pto.tensor<32x16xf32>
    func.return %r : !pto.tensor<32x16xf32>
  }
  // CHECK-LABEL: func.func @launch(%x: !pto.tensor<32x16xf32>, %o: !pto.tensor<32x16xf32> {pto.out}, %ws: !pto.tensor<32x16xf32> {pto.out})
  // CHECK-NEXT:  %r = func.call @g(%x, %o, %ws)
  func.func @launch(%x: !pto.tensor<32x16xf32>, %o: !pto.tensor<32x16xf32> {pto.out}) -> !pto.tensor<32x16xf32>
      attributes {pto.kind = #pto.kind<spmd>, pto.core_num = 1 : i64} {
    %r = func.call @g(%x, %o) : (!pto.tensor<32x16xf32>, !pto.tensor<32x16xf32>) -> !pto.tensor<32x16xf32>
    func.return %r : !pto.tensor<32x16xf32>
  }
  // CHECK-LABEL: func.func @main(
  // CHECK:       scf.for
  // CHECK-NEXT:  %ws = pto.create_tensor : !pto.tensor<32x16xf32>
  // CHECK-NEXT:  %r = func.call @launch(%x, %acc, %ws)
  func.func @main(%x: !pto.tensor<32x16xf32>) -> !pto.tensor<32x16xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %o = pto.create_tensor : !pto.tensor<32x16xf32>
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %res = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %o) -> (!pto.tensor<32x16xf32>) {
      %r = func.call @launch(%x, %acc) : (!pto.tensor<32x16xf32>, !pto.tensor<32x16xf32>) -> !pto.tensor<32x16xf32>
      scf.yield %r : !pto.tensor<32x16xf32>
    }
    func.return %res : !pto.tensor<32x16xf32>
  }
}
