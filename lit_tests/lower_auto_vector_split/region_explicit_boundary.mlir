// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: pypto-opt %s --lower-auto-vector-split | pypto-opt | filecheck %s

// Explicit-boundary regions (up_down / left_right with pto.aiv_shard / pto.aic_gather in the body) are already
// per-lane: they are checked (E-MIXED, transpose hazard), their ragged valid extents are repaired, and they are
// spliced without halving or an injected %subblock_idx.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // Even, fully valid split: spliced unchanged; an existing pto.split is kept.
  // CHECK-LABEL: func.func @even
  // CHECK-SAME: pto.split = #pto.split<up_down>, pto.split_aiv, pto.split_aiv_region_validated
  // CHECK:        %acc = pto.matmul
  // CHECK-NEXT:   %aiv_id = pto.get_subblock_idx : index
  // CHECK-NEXT:   %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
  // CHECK-NEXT:   %e = pto.exp %h : !pto.tile<8x128xf32, vec>
  // CHECK-NEXT:   %c8 = arith.constant 8 : index
  // CHECK-NEXT:   %row = arith.muli %aiv_id, %c8 : index
  // CHECK-NEXT:   %o2 = pto.store %e, %o[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
  // CHECK-NEXT:   func.return %o2
  // CHECK-NOT:    pto.get_subblock_idx
  func.func @even(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
      %e = pto.exp %h : !pto.tile<8x128xf32, vec>
      %c8 = arith.constant 8 : index
      %row = arith.muli %aiv_id, %c8 : index
      %o2 = pto.store %e, %o[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }

  // 13 valid rows of 16: lane 0 holds 8, lane 1 holds 5.  The shard and its per-lane consumers get the lane
  // extent min(max(13, lane*8) - lane*8, 8) as a dynamic valid row count; both lanes hold a row, so the store
  // is not guarded.  A full-width operand of a binary op is narrowed with pto.set_validshape.  No split code
  // places lanes of 8 and 5, so the shard is carried whole (a plain move: split code 0) and each lane slices its
  // 8-row window at lane*8, with the same lane type.
  // CHECK-LABEL: func.func @ragged
  // CHECK:        %aiv_id = pto.get_subblock_idx : index
  // CHECK-NEXT:   %lane = pto.get_subblock_idx : index
  // CHECK-NEXT:   %c8 = arith.constant 8 : index
  // CHECK-NEXT:   %[[OFF:.*]] = arith.muli %lane, %c8 : index
  // CHECK:        %[[V:.*]] = arith.minsi %{{.*}}, %c8 : index
  // CHECK-NEXT:   %h_whole = pto.move %acc : !pto.tile<16x128xf32, acc, valid = [13, 128]> -> !pto.tile<16x128xf32, vec, valid = [13, 128]>
  // CHECK-NEXT:   %h = pto.slice %h_whole[%[[OFF]], 0] valid [%[[V]], 128] : !pto.tile<16x128xf32, vec, valid = [13, 128]> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
  // CHECK-NEXT:   %[[C13:c13.*]] = arith.constant 13 : index
  // CHECK-NEXT:   %[[C8:c8.*]] = arith.constant 8 : index
  // CHECK-NEXT:   %h_lane_start = arith.muli %aiv_id, %[[C8]] : index
  // CHECK-NEXT:   %h_lane_end = arith.maxsi %[[C13]], %h_lane_start : index
  // CHECK-NEXT:   %h_lane_rest = arith.subi %h_lane_end, %h_lane_start : index
  // CHECK-NEXT:   %h_lane_valid = arith.minsi %h_lane_rest, %[[C8]] : index
  // CHECK-NEXT:   %e = pto.exp %h : !pto.tile<8x128xf32, vec, valid = [?, 128]>
  // CHECK:        %bias = pto.load %o[%row, 0] : !pto.tensor<16x128xf32> -> !pto.tile<8x128xf32, vec>
  // CHECK-NEXT:   %bias_lane = pto.set_validshape %bias valid [%h_lane_valid, 128] : !pto.tile<8x128xf32, vec> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
  // CHECK-NEXT:   %s = pto.add %e, %bias_lane : !pto.tile<8x128xf32, vec, valid = [?, 128]>
  // CHECK-NEXT:   %m = pto.row_max %s : !pto.tile<8x128xf32, vec, valid = [?, 128]> -> !pto.tile<8x1xf32, vec, valid = [?, 1]>
  // CHECK-NEXT:   %o2 = pto.store %s, %o[%row, 0] : !pto.tile<8x128xf32, vec, valid = [?, 128]>, !pto.tensor<16x128xf32>
  // CHECK-NEXT:   func.return %o2
  func.func @ragged(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat, valid = [13, 64]>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat, valid = [13, 64]> -> !pto.tile<16x64xbf16, left, valid = [13, 64]>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left, valid = [13, 64]>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc, valid = [13, 128]>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc, valid = [13, 128]> -> !pto.tile<8x128xf32, vec, valid = [8, 128]>
      %e = pto.exp %h : !pto.tile<8x128xf32, vec, valid = [8, 128]>
      %c8 = arith.constant 8 : index
      %row = arith.muli %aiv_id, %c8 : index
      %bias = pto.load %o[%row, 0] : !pto.tensor<16x128xf32> -> !pto.tile<8x128xf32, vec, valid = [8, 128]>
      %s = pto.add %e, %bias : !pto.tile<8x128xf32, vec, valid = [8, 128]>
      %m = pto.row_max %s : !pto.tile<8x128xf32, vec, valid = [8, 128]> -> !pto.tile<8x1xf32, vec>
      %o2 = pto.store %s, %o[%row, 0] : !pto.tile<8x128xf32, vec, valid = [8, 128]>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }

  // 8 valid rows of 16: lane 1 is empty, so its store is guarded by scf.if (lane extent > 0); the guard yields
  // the untouched tensor on the empty lane.
  // CHECK-LABEL: func.func @empty_lane
  // CHECK:        %h_lane_valid = arith.minsi
  // CHECK:        %c0 = arith.constant 0 : index
  // CHECK-NEXT:   %lane_nonempty = arith.cmpi sgt, %h_lane_valid, %c0 : index
  // CHECK-NEXT:   %o2 = scf.if %lane_nonempty -> (!pto.tensor<16x128xf32>) {
  // CHECK-NEXT:     %[[S:.+]] = pto.store %h, %o[%row, 0] : !pto.tile<8x128xf32, vec, valid = [?, 128]>, !pto.tensor<16x128xf32>
  // CHECK-NEXT:     scf.yield %[[S]] : !pto.tensor<16x128xf32>
  // CHECK-NEXT:   } else {
  // CHECK-NEXT:     scf.yield %o : !pto.tensor<16x128xf32>
  // CHECK-NEXT:   }
  // CHECK-NEXT:   func.return %o2
  func.func @empty_lane(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat, valid = [8, 64]>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat, valid = [8, 64]> -> !pto.tile<16x64xbf16, left, valid = [8, 64]>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left, valid = [8, 64]>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc, valid = [8, 128]>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc, valid = [8, 128]> -> !pto.tile<8x128xf32, vec>
      %c8 = arith.constant 8 : index
      %row = arith.muli %aiv_id, %c8 : index
      %o2 = pto.store %h, %o[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }

  // 15 columns, left_right: odd, so lane 0 holds 8 columns and lane 1 holds 7.  The gather re-joins the lanes:
  // its valid extent becomes 15 again.
  // CHECK-LABEL: func.func @odd_columns
  // CHECK:        %h = pto.aiv_shard %acc {split = 2 : i64} : !pto.tile<16x15xf32, acc> -> !pto.tile<16x8xf32, vec, valid = [16, ?]>
  // CHECK:        %h_lane_valid = arith.minsi
  // CHECK-NEXT:   %e = pto.exp %h : !pto.tile<16x8xf32, vec, valid = [16, ?]>
  // CHECK-NEXT:   %g = pto.aic_gather %e {split = 2 : i64} : !pto.tile<16x8xf32, vec, valid = [16, ?]> -> !pto.tile<16x16xf32, mat, valid = [16, 15]>
  func.func @odd_columns(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x15xbf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x15xbf16> -> !pto.tile<64x15xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x15xbf16, mat> -> !pto.tile<64x15xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x15xbf16, right> -> !pto.tile<16x15xf32, acc>
    %g_full = pto.split_aiv_scope left_right (%aiv_id) -> (!pto.tile<16x16xf32, mat, valid = [16, 15]>) {
      %h = pto.aiv_shard %acc {split = 2 : i64} : !pto.tile<16x15xf32, acc> -> !pto.tile<16x8xf32, vec>
      %e = pto.exp %h : !pto.tile<16x8xf32, vec>
      %g = pto.aic_gather %e {split = 2 : i64} : !pto.tile<16x8xf32, vec> -> !pto.tile<16x16xf32, mat, valid = [16, 15]>
      pto.yield %g : !pto.tile<16x16xf32, mat, valid = [16, 15]>
    }
    %g_acc = pto.move %g_full : !pto.tile<16x16xf32, mat, valid = [16, 15]> -> !pto.tile<16x16xf32, mat, valid = [16, 15]>
    %o2 = pto.store %g_acc, %o[0, 0] : !pto.tile<16x16xf32, mat, valid = [16, 15]>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
}
