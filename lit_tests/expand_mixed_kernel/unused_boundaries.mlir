// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// The output is a fixed point of the pass (a second run changes nothing, also in the function it does not split):
// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel -o %t.1
// RUN: pypto-opt %t.1 --expand-mixed-kernel -o %t.2
// RUN: diff %t.1 %t.2

// A boundary whose result nobody reads still crosses the cores (issue 14): the producer pushes, the consumer
// pops and frees the slot right after (a tpop is never removed). The boundary patterns run without the greedy
// applier's dead-code elimination, which used to erase the pure `pto.move` / `aiv_shard` / `aic_gather` first.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // Unused C->V move: the matmul and the push stay on the AIC; the AIV pops and frees.
  // CHECK-LABEL: func.func @c2v_aic
  // CHECK:       %c = pto.matmul %a, %b
  // CHECK-NEXT:  pto.tpush_to_aiv %c {split = 0 : i64} : !pto.tile<16x16xf32, acc>
  // CHECK-NEXT:  func.return
  // CHECK-LABEL: func.func @c2v_aiv
  // CHECK:       pto.aiv_initialize_pipe
  // CHECK-NEXT:  %v = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:  pto.tfree_to_aic %v : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:  func.return
  func.func @c2v(%a: !pto.tile<16x16xbf16, left>, %b: !pto.tile<16x16xbf16, right>)
      attributes {pto.kind = #pto.kind<incore>} {
    %c = pto.matmul %a, %b : !pto.tile<16x16xbf16, left>, !pto.tile<16x16xbf16, right> -> !pto.tile<16x16xf32, acc>
    %v = pto.move %c : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    func.return
  }

  // The same in a loop: the AIC loop keeps its matmul and push, the AIV loop its pop and free.
  // CHECK-LABEL: func.func @c2v_loop_aic
  // CHECK:       scf.for
  // CHECK-NEXT:    %c = pto.matmul %a, %b
  // CHECK-NEXT:    pto.tpush_to_aiv %c {split = 0 : i64}
  // CHECK-NEXT:  }
  // CHECK-LABEL: func.func @c2v_loop_aiv
  // CHECK:       scf.for
  // CHECK-NEXT:    %v = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:    pto.tfree_to_aic %v : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:  }
  func.func @c2v_loop(%a: !pto.tile<16x16xbf16, left>, %b: !pto.tile<16x16xbf16, right>)
      attributes {pto.kind = #pto.kind<incore>} {
    %lb = arith.constant 0 : index
    %ub = arith.constant 4 : index
    %st = arith.constant 1 : index
    scf.for %i = %lb to %ub step %st {
      %c = pto.matmul %a, %b : !pto.tile<16x16xbf16, left>, !pto.tile<16x16xbf16, right> -> !pto.tile<16x16xf32, acc>
      %v = pto.move %c : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    }
    func.return
  }

  // Unused aiv_shard (LowerAutoVectorSplit turns the split C->V move into one).
  // CHECK-LABEL: func.func @shard_aic
  // CHECK:       pto.tpush_to_aiv %qk {split = 1 : i64} : !pto.tile<16x128xf32, acc>
  // CHECK-LABEL: func.func @shard_aiv
  // CHECK:       %qs = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<8x128xf32, vec>
  // CHECK-NEXT:  pto.tfree_to_aic %qs : !pto.tile<8x128xf32, vec>
  func.func @shard(%qk: !pto.tile<16x128xf32, acc>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %qs = pto.move %qk : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    func.return
  }

  // Unused aic_gather: the AIC pops and frees; the AIV pushes its half (on a5 through the NZ adapter).
  // CHECK-LABEL: func.func @gather_aic
  // CHECK:       %m_mat = pto.tpop_from_aiv {split = 1 : i64} : !pto.tile<16x16xf32, mat>
  // CHECK-NEXT:  pto.tfree_to_aiv %m_mat : !pto.tile<16x16xf32, mat>
  // CHECK-LABEL: func.func @gather_aiv
  // CHECK:       %a = pto.load %x[%{{.*}}, 0] : !pto.tensor<16x16xf32> -> !pto.tile<8x16xf32, vec>
  // A2A3-NEXT:   pto.tpush_to_aic %a {split = 1 : i64} : !pto.tile<8x16xf32, vec>
  // A5-NEXT:     %a_nz = pto.move %a : !pto.tile<8x16xf32, vec> -> !pto.tile<8x16xf32, vec, blayout = col_major, slayout = row_major>
  // A5-NEXT:     pto.tpush_to_aic %a_nz {split = 1 : i64}
  func.func @gather(%x: !pto.tensor<16x16xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %a = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    %m = pto.move %a : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, mat>
    func.return
  }

  // A function the pass does not split keeps its dead pure ops, all of them, on every run (the pass only prunes
  // the bodies of the kernels it splits, as the reference does).
  // CHECK-LABEL: func.func @helper
  // CHECK-NEXT:  %a = arith.addi %x, %x : i32
  // CHECK-NEXT:  %b = arith.addi %a, %a : i32
  // CHECK-NEXT:  %c = arith.addi %b, %b : i32
  // CHECK-NEXT:  func.return %x : i32
  func.func @helper(%x: i32) -> i32 {
    %a = arith.addi %x, %x : i32
    %b = arith.addi %a, %a : i32
    %c = arith.addi %b, %b : i32
    func.return %x : i32
  }
}
