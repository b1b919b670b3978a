// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefixes=EMK,EMK-A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefixes=EMK,EMK-A5
// Semantics preserved (the interpreter runs the input and the output and compares):
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry auto %s | filecheck %s --check-prefix=EXEC
// EXEC: check of pipeline 'lower-auto-vector-split,expand-mixed-kernel' passed: 2 output(s) match

// A C->V boundary whose tile goes straight back to the cube (vec -> mat, no vector op between), issue 14. The
// C->V move becomes an aiv_shard; the vec -> mat move is a V->C boundary of its own and gets an aic_gather plus
// the placement move, as in the reference (`is_boundary_move` alone skips it, as its operand now comes from a
// shard, and the pass used to stop with "Internal error: ... halved a CUBE-affinity op").
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // AUTO mode.
  // CHECK-LABEL: func.func @auto
  // CHECK:       %v = pto.aiv_shard %qk {split = 1 : i64} : !pto.tile<16x16xf32, acc> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %m_mat = pto.aic_gather %v {split = 1 : i64} : !pto.tile<8x16xf32, vec> -> !pto.tile<16x16xf32, mat>
  // CHECK-NEXT:  %m = pto.move %m_mat : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, mat>
  // CHECK-NEXT:  %l = pto.move %m : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
  // After ExpandMixedKernel: the AIC pushes the accumulator and pops the gathered tile; the AIV pops its half
  // and pushes it straight back (on a5 through the NZ adapter).
  // EMK-LABEL: func.func @auto_aic
  // EMK:         pto.tpush_to_aiv %qk {split = 1 : i64} : !pto.tile<16x16xf32, acc>
  // EMK-NEXT:    %m_mat = pto.tpop_from_aiv {split = 1 : i64} : !pto.tile<16x16xf32, mat>
  // EMK-LABEL: func.func @auto_aiv
  // EMK:         %v = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<8x16xf32, vec>
  // EMK-A2A3-NEXT: pto.tpush_to_aic %v {split = 1 : i64} : !pto.tile<8x16xf32, vec>
  // EMK-A5-NEXT:   %v_nz = pto.move %v
  // EMK-A5-NEXT:   pto.tfree_to_aic %v
  // EMK-A5-NEXT:   pto.tpush_to_aic %v_nz {split = 1 : i64}
  func.func @auto(%qk: !pto.tile<16x16xf32, acc>, %w: !pto.tile<16x16xf32, right>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %m = pto.move %v : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, mat>
    %l = pto.move %m : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
    %r = pto.matmul %l, %w : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>
    %o2 = pto.store %r, %o[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }

  // In a data-parallel split_aiv_scope region.
  // CHECK-LABEL: func.func @region
  // CHECK:       %s = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x16xf32, acc> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %m_mat = pto.aic_gather %s {split = 1 : i64} : !pto.tile<8x16xf32, vec> -> !pto.tile<16x16xf32, mat>
  // CHECK-NEXT:  %m = pto.move %m_mat : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, mat>
  // EMK-LABEL: func.func @region_aic
  // EMK:         pto.tpush_to_aiv %acc {split = 1 : i64}
  // EMK-NEXT:    %m_mat = pto.tpop_from_aiv {split = 1 : i64} : !pto.tile<16x16xf32, mat>
  func.func @region(%acc: !pto.tile<16x16xf32, acc>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x16xf32>) {
      %s = pto.move %acc : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
      %m = pto.move %s : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, mat>
      pto.yield %o : !pto.tensor<16x16xf32>
    }
    func.return %r : !pto.tensor<16x16xf32>
  }
}
