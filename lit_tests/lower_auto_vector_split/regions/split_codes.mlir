// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5

// The split-code table, end to end from explicit-boundary region kernels: ExpandMixedKernel folds each
// pto.aiv_shard into a tpush_to_aiv / tpop_from_aic pair carrying the pto-isa split *code* derived from the
// lanes' valid extents (1/2 even, 3/4 odd; lane 1 empty counts as even; a run-time extent is rejected, split_code_errors.mlir), and the
// lane_stride when the shard has one.  The per-lane types state each lane's valid extent (`?` when the lanes
// differ), so every kernel also runs in the interpreter (execution.mlir).  The codes do not depend on the
// backend; the a5 V->C fractal adapter does.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // 128 of 128 rows: even halves -> code 1 (up_down); the slot holds the full 128x128 f32 tile.
  // CHECK-LABEL: func.func @even_128_aic(
  // CHECK:         pto.aic_initialize_pipe {{.*}}slot_size = 65536 : i64
  // CHECK:         pto.tpush_to_aiv %acc {split = 1 : i64}
  // CHECK-LABEL: func.func @even_128_aiv(
  // CHECK:         %h = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<64x128xf32, vec>
  func.func @even_128(%a: !pto.tensor<128x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<128x128xf32> {pto.out}) -> !pto.tensor<128x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<128x64xbf16> -> !pto.tile<128x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<128x64xbf16, mat> -> !pto.tile<128x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<128x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<128x128xf32, acc>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<128x128xf32>) {
      %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<128x128xf32, acc> -> !pto.tile<64x128xf32, vec>
      %e = pto.exp %h : !pto.tile<64x128xf32, vec>
      %step = arith.constant 64 : index
      %lo = arith.muli %aiv_id, %step : index
      %o2 = pto.store %e, %o[%lo, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<128x128xf32>
      pto.yield %o2 : !pto.tensor<128x128xf32>
    }
    func.return %r : !pto.tensor<128x128xf32>
  }

  // 127 valid rows of 128: lanes hold 64 and 63 -> code 3 (up_down_odd).
  // CHECK-LABEL: func.func @odd_127_aic(
  // CHECK:         pto.tpush_to_aiv %acc {split = 3 : i64}
  // CHECK-LABEL: func.func @odd_127_aiv(
  // CHECK:         %h = pto.tpop_from_aic {split = 3 : i64} : !pto.tile<64x128xf32, vec, valid = [?, 128]>
  func.func @odd_127(%a: !pto.tensor<128x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<128x128xf32> {pto.out}) -> !pto.tensor<128x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<128x64xbf16> -> !pto.tile<128x64xbf16, mat, valid = [127, 64]>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<128x64xbf16, mat, valid = [127, 64]> -> !pto.tile<128x64xbf16, left, valid = [127, 64]>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<128x64xbf16, left, valid = [127, 64]>, !pto.tile<64x128xbf16, right> -> !pto.tile<128x128xf32, acc, valid = [127, 128]>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<128x128xf32>) {
      %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<128x128xf32, acc, valid = [127, 128]> -> !pto.tile<64x128xf32, vec, valid = [?, 128]>
      %e = pto.exp %h : !pto.tile<64x128xf32, vec, valid = [?, 128]>
      %step = arith.constant 64 : index
      %lo = arith.muli %aiv_id, %step : index
      %o2 = pto.store %e, %o[%lo, 0] : !pto.tile<64x128xf32, vec, valid = [?, 128]>, !pto.tensor<128x128xf32>
      pto.yield %o2 : !pto.tensor<128x128xf32>
    }
    func.return %r : !pto.tensor<128x128xf32>
  }

  // 15 columns, left_right: lanes hold 8 and 7 columns -> code 4 (left_right_odd).
  // CHECK-LABEL: func.func @cols_15_aic(
  // CHECK:         pto.tpush_to_aiv %acc {split = 4 : i64}
  // CHECK-LABEL: func.func @cols_15_aiv(
  // CHECK:         %h = pto.tpop_from_aic {split = 4 : i64} : !pto.tile<16x8xf32, vec, valid = [16, ?]>
  func.func @cols_15(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x15xbf16>, %o: !pto.tensor<16x15xf32> {pto.out}) -> !pto.tensor<16x15xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x15xbf16> -> !pto.tile<64x15xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x15xbf16, mat> -> !pto.tile<64x15xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x15xbf16, right> -> !pto.tile<16x15xf32, acc>
    %r = pto.split_aiv_scope left_right (%aiv_id) -> (!pto.tensor<16x15xf32>) {
      %h = pto.aiv_shard %acc {split = 2 : i64} : !pto.tile<16x15xf32, acc> -> !pto.tile<16x8xf32, vec, valid = [16, ?]>
      %e = pto.exp %h : !pto.tile<16x8xf32, vec, valid = [16, ?]>
      %step = arith.constant 8 : index
      %lo = arith.muli %aiv_id, %step : index
      %o2 = pto.store %e, %o[0, %lo] : !pto.tile<16x8xf32, vec, valid = [16, ?]>, !pto.tensor<16x15xf32>
      pto.yield %o2 : !pto.tensor<16x15xf32>
    }
    func.return %r : !pto.tensor<16x15xf32>
  }

  // lane_stride 7 on 13 of 16 rows: lanes hold 7 and 6 -> code 3, lane_stride carried onto the transfer.
  // CHECK-LABEL: func.func @stride_7_aic(
  // CHECK:         pto.tpush_to_aiv %acc {split = 3 : i64, lane_stride = 7 : i64}
  // CHECK-LABEL: func.func @stride_7_aiv(
  // CHECK:         %h = pto.tpop_from_aic {split = 3 : i64, lane_stride = 7 : i64} : !pto.tile<8x128xf32, vec, valid = [?, 128]>
  func.func @stride_7(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat, valid = [13, 64]>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat, valid = [13, 64]> -> !pto.tile<16x64xbf16, left, valid = [13, 64]>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left, valid = [13, 64]>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc, valid = [13, 128]>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %h = pto.aiv_shard %acc {split = 1 : i64, lane_stride = 7 : i64} : !pto.tile<16x128xf32, acc, valid = [13, 128]> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
      %e = pto.exp %h : !pto.tile<8x128xf32, vec, valid = [?, 128]>
      %step = arith.constant 7 : index
      %lo = arith.muli %aiv_id, %step : index
      %o2 = pto.store %e, %o[%lo, 0] : !pto.tile<8x128xf32, vec, valid = [?, 128]>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }

  // lane_stride 6 on 12 of 16 rows: lanes hold 6 and 6 -> code 1, lane_stride carried.
  // CHECK-LABEL: func.func @stride_6_aic(
  // CHECK:         pto.tpush_to_aiv %acc {split = 1 : i64, lane_stride = 6 : i64}
  // CHECK-LABEL: func.func @stride_6_aiv(
  // CHECK:         %h = pto.tpop_from_aic {split = 1 : i64, lane_stride = 6 : i64} : !pto.tile<8x128xf32, vec, valid = [6, 128]>
  func.func @stride_6(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat, valid = [12, 64]>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat, valid = [12, 64]> -> !pto.tile<16x64xbf16, left, valid = [12, 64]>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left, valid = [12, 64]>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc, valid = [12, 128]>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %h = pto.aiv_shard %acc {split = 1 : i64, lane_stride = 6 : i64} : !pto.tile<16x128xf32, acc, valid = [12, 128]> -> !pto.tile<8x128xf32, vec, valid = [6, 128]>
      %e = pto.exp %h : !pto.tile<8x128xf32, vec, valid = [6, 128]>
      %step = arith.constant 6 : index
      %lo = arith.muli %aiv_id, %step : index
      %o2 = pto.store %e, %o[%lo, 0] : !pto.tile<8x128xf32, vec, valid = [6, 128]>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }

  // 8 of 16 rows: lane 1 is empty -> even code 1; the AIV store is guarded.
  // CHECK-LABEL: func.func @empty_lane_aic(
  // CHECK:         pto.tpush_to_aiv %acc {split = 1 : i64}
  // CHECK-LABEL: func.func @empty_lane_aiv(
  // CHECK:         %h = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<8x128xf32, vec, valid = [?, 128]>
  // CHECK:         scf.if %lane_nonempty
  func.func @empty_lane(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat, valid = [8, 64]>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat, valid = [8, 64]> -> !pto.tile<16x64xbf16, left, valid = [8, 64]>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left, valid = [8, 64]>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc, valid = [8, 128]>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc, valid = [8, 128]> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
      %e = pto.exp %h : !pto.tile<8x128xf32, vec, valid = [?, 128]>
      %step = arith.constant 8 : index
      %lo = arith.muli %aiv_id, %step : index
      %o2 = pto.store %e, %o[%lo, 0] : !pto.tile<8x128xf32, vec, valid = [?, 128]>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }

  // V->C: a per-lane prologue gathered into the cube -> tpush_to_aic / tpop_from_aiv with code 1 (gathers are
  // even only); the AIC pops the full 16x64 tile into mat (slot = full tile, 2048 bytes).  On a5 the pushed
  // half goes through the NZ fractal adapter %xr_nz first.
  // CHECK-LABEL: func.func @gather_aic(
  // CHECK:         pto.aic_initialize_pipe %c0_i32, %gather_v2c_slot_buffer {dir_mask = 2 : i64, slot_size = 2048 : i64
  // CHECK:         %xg = pto.tpop_from_aiv {split = 1 : i64} : !pto.tile<16x64xbf16, mat>
  // CHECK-NEXT:    %x_l = pto.move %xg : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
  // CHECK-LABEL: func.func @gather_aiv(
  // CHECK:         %xr = pto.relu %xh : !pto.tile<8x64xbf16, vec>
  // A2A3-NEXT:     pto.tpush_to_aic %xr {split = 1 : i64} : !pto.tile<8x64xbf16, vec>
  // A5-NEXT:       %xr_nz = pto.move %xr : !pto.tile<8x64xbf16, vec> -> !pto.tile<8x64xbf16, vec, blayout = col_major, slayout = row_major>
  // A5-NEXT:       pto.tpush_to_aic %xr_nz {split = 1 : i64}
  func.func @gather(%x: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %g = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tile<16x64xbf16, mat>) {
      %c8 = arith.constant 8 : index
      %row = arith.muli %aiv_id, %c8 : index
      %xh = pto.load %x[%row, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<8x64xbf16, vec>
      %xr = pto.relu %xh : !pto.tile<8x64xbf16, vec>
      %xg = pto.aic_gather %xr {split = 1 : i64} : !pto.tile<8x64xbf16, vec> -> !pto.tile<16x64xbf16, mat>
      pto.yield %xg : !pto.tile<16x64xbf16, mat>
    }
    %x_l = pto.move %g : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %acc = pto.matmul %x_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %o2 = pto.store %acc, %o[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    func.return %o2 : !pto.tensor<16x128xf32>
  }

  // Task-parallel (mode none): the split = 0 shard keeps the full tile -> code 0 on both sides.
  // CHECK-LABEL: func.func @task_aic(
  // CHECK:         pto.tpush_to_aiv %acc {split = 0 : i64} : !pto.tile<16x128xf32, acc>
  // CHECK-LABEL: func.func @task_aiv(
  // CHECK:         %v = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK:         %mine = pto.slice %v[%row, 0]
  func.func @task(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r = pto.split_aiv_scope none (%lane) -> (!pto.tensor<16x128xf32>) {
      %v = pto.aiv_shard %acc {split = 0 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
      %c8 = arith.constant 8 : index
      %row = arith.muli %lane, %c8 : index
      %mine = pto.slice %v[%row, 0] : !pto.tile<16x128xf32, vec> -> !pto.tile<8x128xf32, vec>
      %e = pto.exp %mine : !pto.tile<8x128xf32, vec>
      %o2 = pto.store %e, %o[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}
