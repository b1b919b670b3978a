// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s
// RUN: pypto-opt %s --expand-mixed-kernel | pypto-opt --expand-mixed-kernel | filecheck %s
// RUN: pypto-run --quiet --check-pipeline expand-mixed-kernel %s
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: sed 's/a5/a2a3/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefix=A2A3
// RUN: sed 's/a5/a2a3/' %s | pypto-opt --expand-mixed-kernel > %t.a2a3.out.mlir
// RUN: pypto-run --quiet %s --compare-with %t.a2a3.out.mlir
// (The a2a3 input, with an unmarked AIV member, cannot run as written: its output is compared with this input.)

// Phase 4, the three bindings at once: the AIV member's `?` parameter receives, through a pto.tensor_cast, the
// AIC call's result %w, whose output binding is the workspace %ws the Group allocates.  The workspace is
// promoted to a Group parameter, the AIV member is rebuilt onto it with the Group's static type, and the cast
// goes.  The interpreter runs the input with both members started together: the cast of the pending result
// %w is bound to the workspace too, so the AIV member does not wait for the AIC member to finish.
builtin.module attributes {pto.target = #pto.target<a5>} {
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
  // A2A3-LABEL:  func.func @vec(
  // A2A3-SAME:   pto.dual_aiv_dispatch
  // CHECK:       %t1 = pto.load %ws[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
  func.func @vec(%out: !pto.tensor<16x16xf32> {pto.out}, %w: !pto.tensor<16x?xf32>) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "g_c2v", size = 2048 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x16xf32, vec>
    %t1 = pto.load %w[0, 0] : !pto.tensor<16x?xf32> -> !pto.tile<16x16xf32, vec>
    %s = pto.add %p, %t1 : !pto.tile<16x16xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x16xf32, vec>
    %o2 = pto.store %s, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
  // CHECK-LABEL: func.func @g(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}, %ws: !pto.tensor<16x16xf32> {pto.out})
  // CHECK-NEXT:  %w = func.call @cube(%x, %o, %ws)
  // CHECK-NEXT:  %r = func.call @vec(%x, %o, %ws)
  // CHECK-NEXT:  func.return %r
  // CHECK-LABEL: func.func @main(
  // CHECK:       %ws = pto.create_tensor : !pto.tensor<16x16xf32>
  // CHECK-NEXT:  %r = func.call @g(%x, %o, %ws)
  func.func @g(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<group>} {
    %ws = pto.create_tensor : !pto.tensor<16x16xf32>
    %w = func.call @cube(%x, %ws) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    %wd = pto.tensor_cast %w : !pto.tensor<16x16xf32> -> !pto.tensor<16x?xf32>
    %r = func.call @vec(%o, %wd) : (!pto.tensor<16x16xf32>, !pto.tensor<16x?xf32>) -> !pto.tensor<16x16xf32>
    func.return %r : !pto.tensor<16x16xf32>
  }
  func.func @main(%x: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %o = pto.create_tensor : !pto.tensor<16x16xf32>
    %r = func.call @g(%x, %o) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    func.return %r : !pto.tensor<16x16xf32>
  }
}
