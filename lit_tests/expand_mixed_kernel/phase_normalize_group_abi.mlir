// RUN: pypto-opt %s --normalize-group-abi | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --normalize-group-abi | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-opt %s --normalize-group-abi --normalize-group-abi | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline normalize-group-abi -

// Phase 5 of expand-mixed-kernel, run alone. Its input: no incore kernel left (what split-mixed-kernel leaves);
// here a hand-written Group @g whose AIC member takes (%x) and whose AIV member takes (%o, %x, %x), the same
// tensor twice. Its output: both members rebuilt onto the Group's parameter list (%x, %o {pto.out}) under their
// own names (each has one caller), both calls forwarding it, pto.no_dep remapped to the canonical index 0; on
// a2a3 the AIV member (no split mode, split code 0) gets pto.dual_aiv_dispatch, on a5 not. Nothing else changes
// (the member bodies, the pipe setup), and a second run changes nothing. The a5 program runs the same before and
// after the phase (group_abi.mlir shows the same through the whole pass).
// CHECK-LABEL: func.func @cube(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out})
// CHECK-SAME:  attributes {pto.kind = #pto.kind<aic>} {
// CHECK-NEXT:  %ib = pto.import_peer_buffer {name = "g_c2v", peer_func = @vec} : i32
// CHECK:       %xm = pto.load %x[0, 0]
// CHECK-LABEL: func.func @vec(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
// A2A3-SAME:   attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
// A5-SAME:     attributes {pto.kind = #pto.kind<aiv>} {
// CHECK:       %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x16xf32, vec>
// CHECK-NEXT:  %t1 = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
// CHECK-NEXT:  %t2 = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
// CHECK:       %o2 = pto.store %s2, %o[0, 0]
// CHECK-LABEL: func.func @g(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out})
// CHECK-NEXT:  func.call @cube(%x, %o) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> ()
// CHECK-NEXT:  %r = func.call @vec(%x, %o) {pto.no_dep = array<i64: 0>} : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
// CHECK-NEXT:  func.return %r : !pto.tensor<16x16xf32>
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @cube(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "g_c2v", peer_func = @vec} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %xm = pto.load %a[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xl = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
    %xr = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, right>
    %z = pto.matmul %xl, %xr : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>
    pto.tpush_to_aiv %z {split = 0 : i64} : !pto.tile<16x16xf32, acc>
    func.return
  }
  func.func @vec(%out: !pto.tensor<16x16xf32> {pto.out}, %a1: !pto.tensor<16x16xf32>, %a2: !pto.tensor<16x16xf32>)
      -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "g_c2v", size = 2048 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x16xf32, vec>
    %t1 = pto.load %a1[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    %t2 = pto.load %a2[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    %s = pto.add %p, %t1 : !pto.tile<16x16xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x16xf32, vec>
    %s2 = pto.add %s, %t2 : !pto.tile<16x16xf32, vec>
    %o2 = pto.store %s2, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
  func.func @g(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<group>} {
    func.call @cube(%x) : (!pto.tensor<16x16xf32>) -> ()
    %r = func.call @vec(%o, %x, %x) {pto.no_dep = array<i64: 2>} : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    func.return %r : !pto.tensor<16x16xf32>
  }
  func.func @main(%x: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %o = pto.create_tensor : !pto.tensor<16x16xf32>
    %r = func.call @g(%x, %o) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    func.return %r : !pto.tensor<16x16xf32>
  }
}
