// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5

// Op-driven boundaries: pto.aiv_shard folds into a C->V tpush/tpop pair carrying the pto-isa split CODE
// computed from the full-width operand's lane extents eL = clamp(V - L*S, 0, S) (S = box half, or lane_stride):
// equal lanes -> 1/2, lane0 = lane1 + 1 -> 3/4 (odd), empty lane 1 -> even, split 0 -> 0; a run-time extent
// -> even only when every value is placed by it.
// The AIV pop is typed from the shard result (its shape and valid, implicit vec view); there is no placement
// move after it; lane_stride is carried on both ends when set.  pto.split / pto.split_aiv go to all three
// functions.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // 128 of 128 rows: lanes 64/64 -> TILE_UP_DOWN (1).
  // Both targets keep their pto.target (the target-specific lines of this file):
  // A2A3: pto.target = #pto.target<a2a3>
  // A5: pto.target = #pto.target<a5>
  // CHECK-LABEL: func.func @rows_128_of_128_aic(
  // CHECK-SAME: pto.split = #pto.split<up_down>, pto.split_aiv
  // CHECK: pto.tpush_to_aiv %q {split = 1 : i64} : !pto.tile<128x128xf32, mat>
  // CHECK-NOT: pto.aiv_shard
  // CHECK-LABEL: func.func @rows_128_of_128_aiv(
  // CHECK-SAME: pto.split = #pto.split<up_down>, pto.split_aiv
  // CHECK: %h = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<64x128xf32, vec>
  // CHECK-NEXT: pto.store %h
  // CHECK-LABEL: func.func @rows_128_of_128(
  // CHECK-SAME: pto.kind = #pto.kind<group>, pto.split = #pto.split<up_down>, pto.split_aiv
  func.func @rows_128_of_128(%a: !pto.tensor<128x128xf32>, %o: !pto.tensor<128x128xf32> {pto.out}) -> !pto.tensor<128x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %q = pto.load %a[0, 0] : !pto.tensor<128x128xf32> -> !pto.tile<128x128xf32, mat>
    %h = pto.aiv_shard %q {split = 1 : i64} : !pto.tile<128x128xf32, mat> -> !pto.tile<64x128xf32, vec>
    %o2 = pto.store %h, %o[0, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<128x128xf32>
    func.return %o2 : !pto.tensor<128x128xf32>
  }
  // 127 valid of 128: lanes 64/63 -> TILE_UP_DOWN_ODD (3); the pop keeps the shard result's valid region.
  // CHECK-LABEL: func.func @rows_127_of_128_aic(
  // CHECK: pto.tpush_to_aiv %q {split = 3 : i64} : !pto.tile<128x128xf32, mat, valid = [127, 128]>
  // CHECK-LABEL: func.func @rows_127_of_128_aiv(
  // CHECK: %h = pto.tpop_from_aic {split = 3 : i64} : !pto.tile<64x128xf32, vec, valid = [?, 128]>
  func.func @rows_127_of_128(%a: !pto.tensor<128x128xf32>, %o: !pto.tensor<128x128xf32> {pto.out}) -> !pto.tensor<128x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %q = pto.load %a[0, 0] valid [127, 128] : !pto.tensor<128x128xf32> -> !pto.tile<128x128xf32, mat, valid = [127, 128]>
    %h = pto.aiv_shard %q {split = 1 : i64} : !pto.tile<128x128xf32, mat, valid = [127, 128]> -> !pto.tile<64x128xf32, vec, valid = [?, 128]>
    %o2 = pto.store %h, %o[0, 0] : !pto.tile<64x128xf32, vec, valid = [?, 128]>, !pto.tensor<128x128xf32>
    func.return %o2 : !pto.tensor<128x128xf32>
  }
  // 15 valid columns of 16, left_right: lanes 8/7 -> TILE_LEFT_RIGHT_ODD (4).
  // CHECK-LABEL: func.func @cols_15_of_16_aic(
  // CHECK: pto.tpush_to_aiv %q {split = 4 : i64}
  // CHECK-LABEL: func.func @cols_15_of_16_aiv(
  // CHECK: %h = pto.tpop_from_aic {split = 4 : i64} : !pto.tile<16x8xf32, vec, valid = [16, ?]>
  func.func @cols_15_of_16(%a: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>, pto.split_aiv} {
    %q = pto.load %a[0, 0] valid [16, 15] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat, valid = [16, 15]>
    %h = pto.aiv_shard %q {split = 2 : i64} : !pto.tile<16x16xf32, mat, valid = [16, 15]> -> !pto.tile<16x8xf32, vec, valid = [16, ?]>
    %o2 = pto.store %h, %o[0, 0] : !pto.tile<16x8xf32, vec, valid = [16, ?]>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
  // An odd box of 15 columns (box half 8): lanes 8/7 -> 4.
  // CHECK-LABEL: func.func @cols_box_15_aic(
  // CHECK: pto.tpush_to_aiv %q {split = 4 : i64} : !pto.tile<16x15xf32, mat>
  // CHECK-LABEL: func.func @cols_box_15_aiv(
  // CHECK: pto.tpop_from_aic {split = 4 : i64} : !pto.tile<16x8xf32, vec, valid = [16, ?]>
  func.func @cols_box_15(%a: !pto.tensor<16x15xf32>, %o: !pto.tensor<16x15xf32> {pto.out}) -> !pto.tensor<16x15xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>, pto.split_aiv} {
    %q = pto.load %a[0, 0] : !pto.tensor<16x15xf32> -> !pto.tile<16x15xf32, mat>
    %h = pto.aiv_shard %q {split = 2 : i64} : !pto.tile<16x15xf32, mat> -> !pto.tile<16x8xf32, vec, valid = [16, ?]>
    %o2 = pto.store %h, %o[0, 0] : !pto.tile<16x8xf32, vec, valid = [16, ?]>, !pto.tensor<16x15xf32>
    func.return %o2 : !pto.tensor<16x15xf32>
  }
  // lane_stride 7 on 13 valid of 16: lanes 7/6 -> 3, and lane_stride rides on the push and the pop.
  // CHECK-LABEL: func.func @stride_7_of_13_aic(
  // CHECK: pto.tpush_to_aiv %q {split = 3 : i64, lane_stride = 7 : i64} : !pto.tile<16x128xf32, mat, valid = [13, 128]>
  // CHECK-LABEL: func.func @stride_7_of_13_aiv(
  // CHECK: %h = pto.tpop_from_aic {split = 3 : i64, lane_stride = 7 : i64} : !pto.tile<8x128xf32, vec, valid = [?, 128]>
  func.func @stride_7_of_13(%a: !pto.tensor<16x128xf32>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %q = pto.load %a[0, 0] valid [13, 128] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, mat, valid = [13, 128]>
    %h = pto.aiv_shard %q {split = 1 : i64, lane_stride = 7 : i64} : !pto.tile<16x128xf32, mat, valid = [13, 128]> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
    %o2 = pto.store %h, %o[0, 0] : !pto.tile<8x128xf32, vec, valid = [?, 128]>, !pto.tensor<16x128xf32>
    func.return %o2 : !pto.tensor<16x128xf32>
  }
  // lane_stride 6 on 12 valid of 16: lanes 6/6 -> 1.
  // CHECK-LABEL: func.func @stride_6_of_12_aic(
  // CHECK: pto.tpush_to_aiv %q {split = 1 : i64, lane_stride = 6 : i64}
  // CHECK-LABEL: func.func @stride_6_of_12_aiv(
  // CHECK: pto.tpop_from_aic {split = 1 : i64, lane_stride = 6 : i64}
  func.func @stride_6_of_12(%a: !pto.tensor<16x128xf32>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %q = pto.load %a[0, 0] valid [12, 128] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, mat, valid = [12, 128]>
    %h = pto.aiv_shard %q {split = 1 : i64, lane_stride = 6 : i64} : !pto.tile<16x128xf32, mat, valid = [12, 128]> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
    %o2 = pto.store %h, %o[0, 0] : !pto.tile<8x128xf32, vec, valid = [?, 128]>, !pto.tensor<16x128xf32>
    func.return %o2 : !pto.tensor<16x128xf32>
  }
  // 8 valid of 16: lane 1 is empty -> the even code.
  // CHECK-LABEL: func.func @lane1_empty_aic(
  // CHECK: pto.tpush_to_aiv %q {split = 1 : i64}
  func.func @lane1_empty(%a: !pto.tensor<16x128xf32>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %q = pto.load %a[0, 0] valid [8, 128] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, mat, valid = [8, 128]>
    %h = pto.aiv_shard %q {split = 1 : i64} : !pto.tile<16x128xf32, mat, valid = [8, 128]> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
    %o2 = pto.store %h, %o[0, 0] : !pto.tile<8x128xf32, vec, valid = [?, 128]>, !pto.tensor<16x128xf32>
    func.return %o2 : !pto.tensor<16x128xf32>
  }
  // A valid extent known only at run time keeps the even code when that code places every extent the box
  // allows: a 2-row box (0, 1 or 2 valid rows leave the lanes 0/0, 1/0, 1/1). Larger boxes: reject_split_codes.mlir.
  // CHECK-LABEL: func.func @dynamic_aic(
  // CHECK: pto.tpush_to_aiv %q {split = 1 : i64} : !pto.tile<2x128xf32, mat, valid = [?, 128]>
  // CHECK-LABEL: func.func @dynamic_aiv(
  // CHECK: %h = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<1x128xf32, vec, valid = [?, 128]>
  func.func @dynamic(%a: !pto.tensor<2x128xf32>, %n: index, %o: !pto.tensor<2x128xf32> {pto.out}) -> !pto.tensor<2x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %q = pto.load %a[0, 0] valid [%n, 128] : !pto.tensor<2x128xf32> -> !pto.tile<2x128xf32, mat, valid = [?, 128]>
    %h = pto.aiv_shard %q {split = 1 : i64} : !pto.tile<2x128xf32, mat, valid = [?, 128]> -> !pto.tile<1x128xf32, vec, valid = [?, 128]>
    %lane = pto.get_subblock_idx : index
    %o2 = pto.store %h, %o[%lane, 0] : !pto.tile<1x128xf32, vec, valid = [?, 128]>, !pto.tensor<2x128xf32>
    func.return %o2 : !pto.tensor<2x128xf32>
  }
  // split 0 (task-parallel): code 0.
  // CHECK-LABEL: func.func @no_split_aic(
  // CHECK: pto.tpush_to_aiv %q {split = 0 : i64}
  // CHECK-LABEL: func.func @no_split_aiv(
  // CHECK: pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  func.func @no_split(%a: !pto.tensor<16x128xf32>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<none>, pto.split_aiv} {
    %q = pto.load %a[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, mat>
    %h = pto.aiv_shard %q {split = 0 : i64} : !pto.tile<16x128xf32, mat> -> !pto.tile<16x128xf32, vec>
    %o2 = pto.store %h, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %o2 : !pto.tensor<16x128xf32>
  }
}
