// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5

// pto.aic_gather folds into a V->C tpush/tpop pair with the even split code of the full-width result (a gather
// has no odd form).  The AIC pops into mat under the gather's name (implicit mat view = NZ, the result's
// valid region), with no placement move of its own: the author's following move to left stays a same-side move.
// The AIV pushes the half tile; on a5 through an NZ adapter `%<src>_nz` keyed off the half tile's own view.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @gather_up_down_aic(
  // CHECK-SAME: pto.split = #pto.split<up_down>, pto.split_aiv
  // CHECK-NOT: pto.aic_gather
  // CHECK: %g_mat = pto.tpop_from_aiv {split = 1 : i64} : !pto.tile<128x128xf16, mat>
  // CHECK-NEXT: %g = pto.move %g_mat : !pto.tile<128x128xf16, mat> -> !pto.tile<128x128xf16, left>
  // CHECK: pto.matmul %g, %wr
  // CHECK-LABEL: func.func @gather_up_down_aiv(
  // CHECK: %h = pto.load %x[0, 0]
  // A2A3-NEXT: pto.tpush_to_aic %h {split = 1 : i64} : !pto.tile<64x128xf16, vec>
  // A5-NEXT: %h_nz = pto.move %h : !pto.tile<64x128xf16, vec> -> !pto.tile<64x128xf16, vec, blayout = col_major, slayout = row_major>
  // A5-NEXT: pto.tpush_to_aic %h_nz {split = 1 : i64} : !pto.tile<64x128xf16, vec, blayout = col_major, slayout = row_major>
  // CHECK-NOT: pto.matmul
  // CHECK: func.return %o
  func.func @gather_up_down(%x: !pto.tensor<64x128xf16>, %w: !pto.tensor<128x128xf16>, %o: !pto.tensor<128x128xf32> {pto.out}) -> !pto.tensor<128x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %h = pto.load %x[0, 0] : !pto.tensor<64x128xf16> -> !pto.tile<64x128xf16, vec>
    %g_mat = pto.aic_gather %h {split = 1 : i64} : !pto.tile<64x128xf16, vec> -> !pto.tile<128x128xf16, mat>
    %g = pto.move %g_mat : !pto.tile<128x128xf16, mat> -> !pto.tile<128x128xf16, left>
    %wm = pto.load %w[0, 0] : !pto.tensor<128x128xf16> -> !pto.tile<128x128xf16, mat>
    %wr = pto.move %wm : !pto.tile<128x128xf16, mat> -> !pto.tile<128x128xf16, right>
    %c = pto.matmul %g, %wr : !pto.tile<128x128xf16, left>, !pto.tile<128x128xf16, right> -> !pto.tile<128x128xf32, acc>
    %o2 = pto.store %c, %o[0, 0] : !pto.tile<128x128xf32, acc>, !pto.tensor<128x128xf32>
    func.return %o2 : !pto.tensor<128x128xf32>
  }

  // left_right gather -> code 2; a gathered result whose valid region leaves lane 1 empty keeps the even code.
  // CHECK-LABEL: func.func @gather_left_right_aic(
  // CHECK: %g_mat = pto.tpop_from_aiv {split = 2 : i64} : !pto.tile<16x32xf16, mat>
  // CHECK-LABEL: func.func @gather_left_right_aiv(
  // A2A3: pto.tpush_to_aic %h {split = 2 : i64}
  // A5: pto.tpush_to_aic %h_nz {split = 2 : i64}
  func.func @gather_left_right(%x: !pto.tensor<16x16xf16>, %w: !pto.tensor<32x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>, pto.split_aiv} {
    %h = pto.load %x[0, 0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, vec>
    %g_mat = pto.aic_gather %h {split = 2 : i64} : !pto.tile<16x16xf16, vec> -> !pto.tile<16x32xf16, mat>
    %g = pto.move %g_mat : !pto.tile<16x32xf16, mat> -> !pto.tile<16x32xf16, left>
    %wm = pto.load %w[0, 0] : !pto.tensor<32x16xf16> -> !pto.tile<32x16xf16, mat>
    %wr = pto.move %wm : !pto.tile<32x16xf16, mat> -> !pto.tile<32x16xf16, right>
    %c = pto.matmul %g, %wr : !pto.tile<16x32xf16, left>, !pto.tile<32x16xf16, right> -> !pto.tile<16x16xf32, acc>
    %o2 = pto.store %c, %o[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }

  // CHECK-LABEL: func.func @gather_lane1_empty_aic(
  // CHECK: %g_mat = pto.tpop_from_aiv {split = 1 : i64} : !pto.tile<32x16xf16, mat, valid = [16, 16]>
  func.func @gather_lane1_empty(%x: !pto.tensor<16x16xf16>, %o: !pto.tensor<32x16xf16> {pto.out}) -> !pto.tensor<32x16xf16>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %h = pto.load %x[0, 0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, vec>
    %g_mat = pto.aic_gather %h {split = 1 : i64} : !pto.tile<16x16xf16, vec> -> !pto.tile<32x16xf16, mat, valid = [16, 16]>
    %o2 = pto.store %g_mat, %o[0, 0] : !pto.tile<32x16xf16, mat, valid = [16, 16]>, !pto.tensor<32x16xf16>
    func.return %o2 : !pto.tensor<32x16xf16>
  }
}
