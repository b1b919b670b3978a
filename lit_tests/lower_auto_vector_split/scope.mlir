// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s

// Scope (reference §1): only incore functions with pto.split up_down/left_right, not yet pto.split_aiv, whose
// body is mixed are rewritten; everything else passes through unchanged.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // Attributes: pto.split kept, pto.split_aiv set, pto.dual_aiv_dispatch dropped; a lone C->V move makes a
  // function mixed; %subblock_idx is injected even when nothing uses it.
  // CHECK-LABEL: func.func @rewritten
  // CHECK-SAME:  attributes {pto.kind = #pto.kind<incore>, pto.slot_num = 4 : i64, pto.split = #pto.split<left_right>, pto.split_aiv} {
  // CHECK-NEXT:  %subblock_idx = pto.get_subblock_idx : index
  // CHECK-NEXT:  %p = pto.aiv_shard %qk {split = 2 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<16x64xf32, vec>
  // CHECK-NEXT:  func.return
  func.func @rewritten(%qk: !pto.tile<16x128xf32, acc>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>, pto.dual_aiv_dispatch, pto.slot_num = 4 : i64} {
    %p = pto.move %qk : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    func.return
  }

  // Pure-vector split function: no boundary, untouched (no subblock_idx, no split_aiv).
  // CHECK-LABEL: func.func @pure_vector
  // CHECK-SAME:  attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
  // CHECK-NEXT:  %a = pto.load %x[0, 0] : !pto.tensor<128x128xf32> -> !pto.tile<128x128xf32, vec>
  func.func @pure_vector(%x: !pto.tensor<128x128xf32>, %o: !pto.tensor<128x128xf32> {pto.out}) -> !pto.tensor<128x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %a = pto.load %x[0, 0] : !pto.tensor<128x128xf32> -> !pto.tile<128x128xf32, vec>
    %e = pto.exp %a : !pto.tile<128x128xf32, vec>
    %o2 = pto.store %e, %o[0, 0] : !pto.tile<128x128xf32, vec>, !pto.tensor<128x128xf32>
    func.return %o2 : !pto.tensor<128x128xf32>
  }

  // Pure-cube split function: untouched.
  // CHECK-LABEL: func.func @pure_cube
  // CHECK-NOT:   pto.get_subblock_idx
  // CHECK:       %l = pto.move %a : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
  func.func @pure_cube(%a: !pto.tile<16x16xf32, mat>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %l = pto.move %a : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
    func.return
  }

  // Mixed but no split, or split none: untouched.
  // CHECK-LABEL: func.func @no_split
  // CHECK-NEXT:  %p = pto.move %qk : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
  func.func @no_split(%qk: !pto.tile<16x128xf32, acc>) attributes {pto.kind = #pto.kind<incore>} {
    %p = pto.move %qk : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    func.return
  }
  // CHECK-LABEL: func.func @split_none
  // CHECK-NEXT:  %p = pto.move %qk : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
  func.func @split_none(%qk: !pto.tile<16x128xf32, acc>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<none>} {
    %p = pto.move %qk : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    func.return
  }

  // Already split_aiv (hand-written explicit kernel): untouched.
  // CHECK-LABEL: func.func @already_split_aiv
  // CHECK-NEXT:  %p = pto.move %qk : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
  func.func @already_split_aiv(%qk: !pto.tile<16x128xf32, acc>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %p = pto.move %qk : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    func.return
  }

  // Not incore (an aiv kernel with a split): untouched.
  // CHECK-LABEL: func.func @not_incore
  // CHECK-NEXT:  %p = pto.move %qk : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
  func.func @not_incore(%qk: !pto.tile<16x128xf32, acc>)
      attributes {pto.kind = #pto.kind<aiv>, pto.split = #pto.split<up_down>} {
    %p = pto.move %qk : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    func.return
  }
}
