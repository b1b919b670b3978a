// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-opt %s --expand-mixed-kernel | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline expand-mixed-kernel -
// The a2a3 input itself cannot run (an unmarked AIV Group member would run its transfers on both lanes, which
// is why the dual dispatch is inferred): its output is compared with the a5 input, which has the same semantics.
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %s --expand-mixed-kernel > %t.a2a3.out.mlir
// RUN: pypto-run --quiet %t.a5.mlir --compare-with %t.a2a3.out.mlir
// RUN: not pypto-run --quiet %s 2>&1 | filecheck %s --check-prefix=UNMARKED
// UNMARKED: error: on a2a3 the hardware runs an AIV kernel of a Group on both AIV lanes, but @vec has neither pto.split_aiv

// Phase 4, hand-written Groups (reference §5): the AIC member takes (%x), the AIV member (%o, %x, %x) - the same
// tensor twice (aliased arguments).  Both are rebuilt onto the Group's parameter list (%x, %o {pto.out}); member
// parameter i becomes the Group parameter the call passes at position i, so both aliased parameters become %x.
// Each member has one caller, so the names are kept.  On a2a3 the AIV member (no split mode, transfers with split
// code 0) gets pto.dual_aiv_dispatch (inferred dual dispatch); on a5 it does not.  The program runs before and
// after the pass on both targets.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @cube(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out})
  // CHECK-SAME:  attributes {pto.kind = #pto.kind<aic>}
  // CHECK:       pto.import_peer_buffer {name = "g_c2v", peer_func = @vec} : i32
  // CHECK:       %xm = pto.load %x[0, 0]
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
  // CHECK-LABEL: func.func @vec(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
  // A2A3-SAME:   attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch}
  // A5-SAME:     attributes {pto.kind = #pto.kind<aiv>}
  // CHECK:       %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:  %t1 = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:  %t2 = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
  // CHECK:       %o2 = pto.store %s2, %o[0, 0]
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
  // Both calls forward the full parameter list; the AIV call's result still feeds the Group's result (its output
  // binding), and pto.no_dep (argument #2 of the old call, i.e. %x) is remapped to the canonical index 0.
  // CHECK-LABEL: func.func @g(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out})
  // CHECK-NEXT:  func.call @cube(%x, %o) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> ()
  // CHECK-NEXT:  %r = func.call @vec(%x, %o) {pto.no_dep = array<i64: 0>} : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
  // CHECK-NEXT:  func.return %r : !pto.tensor<16x16xf32>
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
