// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5

// Vector -> cube boundaries, one kernel per destination.  The AIC pops into `mat` with the NZ transfer view
// (col_major/row_major, implicit for mat) and, for left/right, places it with a same-side pto.move typed
// exactly as the original destination (`%<dest>_mat` then `%<dest>`); a mat destination is popped as `%<dest>`.
// The AIV pushes the source: on a5 through an NZ adapter `%<src>_nz` (vec, col_major/row_major), on a2a3 as is.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @to_left_aic(
  // CHECK: %a_left_mat = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x32xf16, mat>
  // CHECK-NEXT: %a_left = pto.move %a_left_mat : !pto.tile<16x32xf16, mat> -> !pto.tile<16x32xf16, left>
  // CHECK: pto.matmul %a_left, %b_right
  // CHECK-LABEL: func.func @to_left_aiv(
  // CHECK: %a = pto.load
  // A2A3-NEXT: pto.tpush_to_aic %a {split = 0 : i64} : !pto.tile<16x32xf16, vec>
  // A5-NEXT: %a_nz = pto.move %a : !pto.tile<16x32xf16, vec> -> !pto.tile<16x32xf16, vec, blayout = col_major, slayout = row_major>
  // A5-NEXT: pto.tpush_to_aic %a_nz {split = 0 : i64} : !pto.tile<16x32xf16, vec, blayout = col_major, slayout = row_major>
  // CHECK-NOT: pto.matmul
  // CHECK: func.return
  func.func @to_left(%x: !pto.tensor<16x32xf16>, %w: !pto.tensor<32x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %a = pto.load %x[0, 0] : !pto.tensor<16x32xf16> -> !pto.tile<16x32xf16, vec>
    %a_left = pto.move %a : !pto.tile<16x32xf16, vec> -> !pto.tile<16x32xf16, left>
    %b_mat = pto.load %w[0, 0] : !pto.tensor<32x16xf16> -> !pto.tile<32x16xf16, mat>
    %b_right = pto.move %b_mat : !pto.tile<32x16xf16, mat> -> !pto.tile<32x16xf16, right>
    %c = pto.matmul %a_left, %b_right : !pto.tile<16x32xf16, left>, !pto.tile<32x16xf16, right> -> !pto.tile<16x16xf32, acc>
    %o2 = pto.store %c, %o[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }

  // Right: the transfer is NZ too; the placement move produces the right operand's own ZN layout.
  // CHECK-LABEL: func.func @to_right_aic(
  // CHECK: %b_right_mat = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<32x16xf16, mat>
  // CHECK-NEXT: %b_right = pto.move %b_right_mat : !pto.tile<32x16xf16, mat> -> !pto.tile<32x16xf16, right>
  // CHECK-LABEL: func.func @to_right_aiv(
  // A2A3: pto.tpush_to_aic %b {split = 0 : i64} : !pto.tile<32x16xf16, vec>
  // A5: %b_nz = pto.move %b : !pto.tile<32x16xf16, vec> -> !pto.tile<32x16xf16, vec, blayout = col_major, slayout = row_major>
  // A5-NEXT: pto.tpush_to_aic %b_nz
  func.func @to_right(%x: !pto.tensor<16x32xf16>, %w: !pto.tensor<32x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %a_mat = pto.load %x[0, 0] : !pto.tensor<16x32xf16> -> !pto.tile<16x32xf16, mat>
    %a_left = pto.move %a_mat : !pto.tile<16x32xf16, mat> -> !pto.tile<16x32xf16, left>
    %b = pto.load %w[0, 0] : !pto.tensor<32x16xf16> -> !pto.tile<32x16xf16, vec>
    %b_right = pto.move %b : !pto.tile<32x16xf16, vec> -> !pto.tile<32x16xf16, right>
    %c = pto.matmul %a_left, %b_right : !pto.tile<16x32xf16, left>, !pto.tile<32x16xf16, right> -> !pto.tile<16x16xf32, acc>
    %o2 = pto.store %c, %o[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }

  // Mat: popped under the destination's own name, no placement move; the cube moves it on as before.
  // CHECK-LABEL: func.func @to_mat_aic(
  // CHECK: %a_mat = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x32xf16, mat>
  // CHECK-NEXT: %a_left = pto.move %a_mat : !pto.tile<16x32xf16, mat> -> !pto.tile<16x32xf16, left>
  // CHECK-LABEL: func.func @to_mat_aiv(
  // A2A3: pto.tpush_to_aic %a {split = 0 : i64} : !pto.tile<16x32xf16, vec>
  // A5: %a_nz = pto.move %a
  // A5-NEXT: pto.tpush_to_aic %a_nz
  func.func @to_mat(%x: !pto.tensor<16x32xf16>, %w: !pto.tensor<32x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %a = pto.load %x[0, 0] : !pto.tensor<16x32xf16> -> !pto.tile<16x32xf16, vec>
    %a_mat = pto.move %a : !pto.tile<16x32xf16, vec> -> !pto.tile<16x32xf16, mat>
    %a_left = pto.move %a_mat : !pto.tile<16x32xf16, mat> -> !pto.tile<16x32xf16, left>
    %b_mat = pto.load %w[0, 0] : !pto.tensor<32x16xf16> -> !pto.tile<32x16xf16, mat>
    %b_right = pto.move %b_mat : !pto.tile<32x16xf16, mat> -> !pto.tile<32x16xf16, right>
    %c = pto.matmul %a_left, %b_right : !pto.tile<16x32xf16, left>, !pto.tile<32x16xf16, right> -> !pto.tile<16x16xf32, acc>
    %o2 = pto.store %c, %o[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }

  // Bias: there is no cross-core transfer view into bias, so the author crosses into mat and places the tile
  // in bias on the cube side; that second move (source: the popped tile) is a same-side cube move.
  // CHECK-LABEL: func.func @to_bias_aic(
  // CHECK: %bias_mat = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<1x16xf32, mat>
  // CHECK-NEXT: %bias = pto.move %bias_mat : !pto.tile<1x16xf32, mat> -> !pto.tile<1x16xf32, bias>
  // CHECK: pto.matmul_bias %a_left, %b_right, %bias
  // CHECK-LABEL: func.func @to_bias_aiv(
  // CHECK: %bv = pto.load
  // A2A3-NEXT: pto.tpush_to_aic %bv {split = 0 : i64} : !pto.tile<1x16xf32, vec>
  // A5-NEXT: %bv_nz = pto.move %bv : !pto.tile<1x16xf32, vec> -> !pto.tile<1x16xf32, vec, blayout = col_major, slayout = row_major>
  // A5-NEXT: pto.tpush_to_aic %bv_nz
  // CHECK-NOT: pto.move {{.*}}bias>
  func.func @to_bias(%x: !pto.tensor<16x32xf16>, %w: !pto.tensor<32x16xf16>, %bt: !pto.tensor<1x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %bv = pto.load %bt[0, 0] : !pto.tensor<1x16xf32> -> !pto.tile<1x16xf32, vec>
    %bias_mat = pto.move %bv : !pto.tile<1x16xf32, vec> -> !pto.tile<1x16xf32, mat>
    %bias = pto.move %bias_mat : !pto.tile<1x16xf32, mat> -> !pto.tile<1x16xf32, bias>
    %a_mat = pto.load %x[0, 0] : !pto.tensor<16x32xf16> -> !pto.tile<16x32xf16, mat>
    %a_left = pto.move %a_mat : !pto.tile<16x32xf16, mat> -> !pto.tile<16x32xf16, left>
    %b_mat = pto.load %w[0, 0] : !pto.tensor<32x16xf16> -> !pto.tile<32x16xf16, mat>
    %b_right = pto.move %b_mat : !pto.tile<32x16xf16, mat> -> !pto.tile<32x16xf16, right>
    %c = pto.matmul_bias %a_left, %b_right, %bias : !pto.tile<16x32xf16, left>, !pto.tile<32x16xf16, right>, !pto.tile<1x16xf32, bias> -> !pto.tile<16x16xf32, acc>
    %o2 = pto.store %c, %o[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
}
