// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel --verify-mixed-kernel-expanded | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split --expand-mixed-kernel --verify-mixed-kernel-expanded | filecheck %s --check-prefixes=CHECK,A5

// Kernels written with pto.split_aiv_scope regions go end to end to verified AIC / AIV / Group functions:
// every region is gone, the boundary ops became tpush/tpop pairs with split codes, and pto.split /
// pto.split_aiv / pto.split_aiv_region_validated are carried to all three functions.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // A full-width data-parallel region inside a loop (attention-style row softmax, halved by the pass).
  // CHECK-LABEL: func.func @softmax_aic(
  // CHECK-SAME:    pto.kind = #pto.kind<aic>, pto.split = #pto.split<up_down>, pto.split_aiv, pto.split_aiv_region_validated
  // CHECK:         scf.for
  // CHECK:           %s = pto.matmul
  // CHECK-NEXT:      pto.tpush_to_aiv %s {split = 1 : i64} : !pto.tile<64x128xf32, acc>
  // CHECK-LABEL: func.func @softmax_aiv(
  // CHECK-SAME:    pto.kind = #pto.kind<aiv>, pto.split = #pto.split<up_down>, pto.split_aiv, pto.split_aiv_region_validated
  // CHECK-NOT:     pto.dual_aiv_dispatch
  // CHECK:         scf.for %i = %c0 to %c2 step %c1 iter_args(%o_it = %o) -> (!pto.tensor<128x128xf32>) {
  // CHECK-NEXT:      %base = arith.muli %i, %c64 : index
  // CHECK-NEXT:      %subblock_idx = pto.get_subblock_idx : index
  // CHECK-NEXT:      %c32 = arith.constant 32 : index
  // CHECK-NEXT:      %[[LANE:.+]] = arith.muli %subblock_idx, %c32 : index
  // CHECK-NEXT:      %s_vec = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<32x128xf32, vec>
  // CHECK-NEXT:      %m = pto.row_max %s_vec : !pto.tile<32x128xf32, vec> -> !pto.tile<32x1xf32, vec>
  // CHECK:           pto.tfree_to_aic %s_vec
  // CHECK:           %[[ROW:.+]] = arith.addi %base, %[[LANE]] : index
  // CHECK-NEXT:      %o2 = pto.store %p, %o_it[%[[ROW]], 0] : !pto.tile<32x128xf32, vec>
  // CHECK-LABEL: func.func @softmax(
  // CHECK-SAME:    pto.kind = #pto.kind<group>, pto.split = #pto.split<up_down>, pto.split_aiv, pto.split_aiv_region_validated
  // CHECK-NOT:   pto.split_aiv_scope
  func.func @softmax(%q: !pto.tensor<128x128xbf16>, %k: !pto.tensor<128x128xbf16>, %o: !pto.tensor<128x128xf32> {pto.out}) -> !pto.tensor<128x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %k_mat = pto.load %k[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %k_r = pto.move %k_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %res = scf.for %i = %c0 to %c2 step %c1 iter_args(%o_it = %o) -> (!pto.tensor<128x128xf32>) {
      %base = arith.muli %i, %c64 : index
      %q_mat = pto.load %q[%base, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<64x128xbf16, mat>
      %q_l = pto.move %q_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, left>
      %s = pto.matmul %q_l, %k_r : !pto.tile<64x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<64x128xf32, acc>
      %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<128x128xf32>) {
        %s_vec = pto.move %s : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
        %m = pto.row_max %s_vec : !pto.tile<64x128xf32, vec> -> !pto.tile<64x1xf32, vec>
        %d = pto.row_expand_sub %s_vec, %m : !pto.tile<64x128xf32, vec>, !pto.tile<64x1xf32, vec>
        %e = pto.exp %d : !pto.tile<64x128xf32, vec>
        %sum = pto.row_sum %e : !pto.tile<64x128xf32, vec> -> !pto.tile<64x1xf32, vec>
        %p = pto.row_expand_div %e, %sum : !pto.tile<64x128xf32, vec>, !pto.tile<64x1xf32, vec>
        %o2 = pto.store %p, %o_it[%base, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<128x128xf32>
        pto.yield %o2 : !pto.tensor<128x128xf32>
      }
      scf.yield %r : !pto.tensor<128x128xf32>
    }
    func.return %res : !pto.tensor<128x128xf32>
  }

  // An explicit-boundary region over 8 valid rows of 16: lane 1 is empty, the AIV store is guarded, the pop
  // carries code 1 and the lane-dependent valid extent.
  // CHECK-LABEL: func.func @guarded_aic(
  // CHECK:         pto.tpush_to_aiv %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc, valid = [8, 128]>
  // CHECK-LABEL: func.func @guarded_aiv(
  // CHECK:         %h = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<8x128xf32, vec, valid = [?, 128]>
  // CHECK:         %e = pto.exp %h : !pto.tile<8x128xf32, vec, valid = [?, 128]>
  // CHECK-NEXT:    pto.tfree_to_aic %h
  // CHECK:         %lane_nonempty = arith.cmpi sgt, %h_lane_valid, %c0 : index
  // CHECK-NEXT:    %o2 = scf.if %lane_nonempty -> (!pto.tensor<16x128xf32>) {
  // CHECK-NEXT:      %{{.+}} = pto.store %e, %o[%row, 0]
  func.func @guarded(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat, valid = [8, 64]>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat, valid = [8, 64]> -> !pto.tile<16x64xbf16, left, valid = [8, 64]>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left, valid = [8, 64]>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc, valid = [8, 128]>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc, valid = [8, 128]> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
      %e = pto.exp %h : !pto.tile<8x128xf32, vec, valid = [?, 128]>
      %c8 = arith.constant 8 : index
      %row = arith.muli %aiv_id, %c8 : index
      %o2 = pto.store %e, %o[%row, 0] : !pto.tile<8x128xf32, vec, valid = [?, 128]>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }

  // Sibling regions of three modes in one kernel (no function-level pto.split): the AIC pushes the same
  // accumulator with codes 1, 2 and 0, the AIV pops them in order.  Without a pto.split the a2a3 AIV gets
  // pto.dual_aiv_dispatch (both lanes run it); a5 does not need it.
  // CHECK-LABEL: func.func @multi_mode_aic(
  // CHECK:         pto.tpush_to_aiv %acc {split = 1 : i64}
  // CHECK-NEXT:    pto.tpush_to_aiv %acc {split = 2 : i64}
  // CHECK-NEXT:    pto.tpush_to_aiv %acc {split = 0 : i64}
  // CHECK-LABEL: func.func @multi_mode_aiv(
  // A2A3-SAME:     pto.split_aiv, pto.split_aiv_region_validated, pto.dual_aiv_dispatch}
  // A5-SAME:       pto.split_aiv, pto.split_aiv_region_validated}
  // CHECK:         %rows = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<8x128xf32, vec>
  // CHECK:         %cols = pto.tpop_from_aic {split = 2 : i64} : !pto.tile<16x64xf32, vec>
  // CHECK:         %all = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  func.func @multi_mode(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}, %p: !pto.tensor<16x128xf32> {pto.out}, %q: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r1 = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %rows = pto.move %acc : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
      %o2 = pto.store %rows, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    %r2 = pto.split_aiv_scope left_right (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %cols = pto.aiv_shard %acc {split = 2 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<16x64xf32, vec>
      %c64 = arith.constant 64 : index
      %col = arith.muli %aiv_id, %c64 : index
      %p2 = pto.store %cols, %p[0, %col] : !pto.tile<16x64xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %p2 : !pto.tensor<16x128xf32>
    }
    %r3 = pto.split_aiv_scope none (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %all = pto.aiv_shard %acc {split = 0 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
      %c8 = arith.constant 8 : index
      %row = arith.muli %aiv_id, %c8 : index
      %mine = pto.slice %all[%row, 0] : !pto.tile<16x128xf32, vec> -> !pto.tile<8x128xf32, vec>
      %q2 = pto.store %mine, %q[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %q2 : !pto.tensor<16x128xf32>
    }
    func.return %r3 : !pto.tensor<16x128xf32>
  }
}
