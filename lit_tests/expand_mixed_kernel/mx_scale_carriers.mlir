// RUN: pypto-opt %s --split-input-file --expand-mixed-kernel | filecheck %s

// MX scale carriers on a5, the forms beyond the three quant kernels (mx_scale_none/up_down/left_right.mlir).

// A partially valid left scale (30 of 32 rows): the vector side sends the full physical box -- the private Vec
// carrier `%s8_mx` gets its valid region widened by `%s8_box = pto.set_validshape` (the logical %s8 keeps
// valid [30, 4]); the cube's pop keeps the consumer's valid = [30, 4].  tests/passes/expand_mixed_kernel/test_emk_mx_scale.py runs this
// kernel and shows that a push without the widening is refused by the interpreter.
// CHECK-LABEL: func.func @qmm_partial_aic(
// CHECK:      %ls_mat = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32, valid = [30, 4]>
// CHECK-NEXT: %ls = pto.move %ls_mat : {{.*}} -> !pto.tile<32x4xf8E8M0FNU, left_scale, valid = [30, 4]>
// CHECK-LABEL: func.func @qmm_partial_aiv(
// CHECK:      %s8 = pto.cast %se : !pto.tile<32x4xf32, vec, valid = [30, 4]> -> !pto.tile<32x4xf8E8M0FNU, vec, valid = [30, 4]>
// CHECK:      %s8_mx = pto.move %s8 : !pto.tile<32x4xf8E8M0FNU, vec, valid = [30, 4]> -> !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32, valid = [30, 4]>
// CHECK-NEXT: %s8_box = pto.set_validshape %s8_mx valid [32, 4] : !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32, valid = [30, 4]> -> !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
// CHECK-NEXT: pto.tpush_to_aic %s8_box {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @qmm_partial(%x: !pto.tensor<32x128xf32>, %sx: !pto.tensor<32x4xf32>, %w: !pto.tensor<128x32xf8E4M3FN>,
                 %ws: !pto.tensor<4x32xf32>, %o: !pto.tensor<32x32xf32> {pto.out}) -> !pto.tensor<32x32xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %xv = pto.load %x[0, 0] : !pto.tensor<32x128xf32> -> !pto.tile<32x128xf32, vec>
    %xq = pto.cast %xv : !pto.tile<32x128xf32, vec> -> !pto.tile<32x128xf8E4M3FN, vec>
    %sv = pto.load %sx[0, 0] valid [30, 4] : !pto.tensor<32x4xf32> -> !pto.tile<32x4xf32, vec, valid = [30, 4]>
    %se = pto.exp %sv : !pto.tile<32x4xf32, vec, valid = [30, 4]>
    %s8 = pto.cast %se : !pto.tile<32x4xf32, vec, valid = [30, 4]> -> !pto.tile<32x4xf8E8M0FNU, vec, valid = [30, 4]>
    %wv = pto.load %ws[0, 0] : !pto.tensor<4x32xf32> -> !pto.tile<4x32xf32, vec>
    %we = pto.exp %wv : !pto.tile<4x32xf32, vec>
    %w8 = pto.cast %we : !pto.tile<4x32xf32, vec> -> !pto.tile<4x32xf8E8M0FNU, vec>
    %l = pto.move %xq : !pto.tile<32x128xf8E4M3FN, vec> -> !pto.tile<32x128xf8E4M3FN, left>
    %ls = pto.move %s8 : !pto.tile<32x4xf8E8M0FNU, vec, valid = [30, 4]> -> !pto.tile<32x4xf8E8M0FNU, left_scale, valid = [30, 4]>
    %rs = pto.move %w8 : !pto.tile<4x32xf8E8M0FNU, vec> -> !pto.tile<4x32xf8E8M0FNU, right_scale>
    %wm = pto.load %w[0, 0] : !pto.tensor<128x32xf8E4M3FN> -> !pto.tile<128x32xf8E4M3FN, mat>
    %r = pto.move %wm : !pto.tile<128x32xf8E4M3FN, mat> -> !pto.tile<128x32xf8E4M3FN, right>
    %c = pto.matmul_mx %l, %ls, %r, %rs : !pto.tile<32x128xf8E4M3FN, left>, !pto.tile<32x4xf8E8M0FNU, left_scale, valid = [30, 4]>, !pto.tile<128x32xf8E4M3FN, right>, !pto.tile<4x32xf8E8M0FNU, right_scale> -> !pto.tile<32x32xf32, acc>
    %o2 = pto.store %c, %o[0, 0] : !pto.tile<32x32xf32, acc>, !pto.tensor<32x32xf32>
    func.return %o2 : !pto.tensor<32x32xf32>
  }
}

// -----

// Explicit pto.aic_gather takes the same carrier path.  The gathered mat types keep the scale layouts
// (row/row/32, col/col/32); a producer already in the consumer layout is pushed with no move: the left scale
// directly, the right scale through the transpose view only.  Left scale up_down: row bands, code 1; right
// scale left_right: column bands, code 1 after the transpose view, the pop keeping the full 4x32 col/col shape.
// CHECK-LABEL: func.func @gathers_aic(
// CHECK:      %ls_mat = pto.tpop_from_aiv {split = 1 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
// CHECK-NEXT: %ls = pto.move %ls_mat
// CHECK:      %rs_mat = pto.tpop_from_aiv {split = 1 : i64} : !pto.tile<4x32xf8E8M0FNU, mat, slayout = col_major, fractal = 32>
// CHECK-NEXT: %rs = pto.move %rs_mat
// CHECK-LABEL: func.func @gathers_aiv(
// CHECK:      %a = pto.load %as[0, 0] : !pto.tensor<16x4xf8E8M0FNU> -> !pto.tile<16x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
// CHECK-NEXT: pto.tpush_to_aic %a {split = 1 : i64} : !pto.tile<16x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
// CHECK-NEXT: %b = pto.load %bs[0, 0]
// CHECK-NEXT: %b_rr = pto.transpose_view %b : !pto.tile<4x16xf8E8M0FNU, vec, blayout = col_major, slayout = col_major, fractal = 32> -> !pto.tile<16x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
// CHECK-NEXT: pto.tpush_to_aic %b_rr {split = 1 : i64} : !pto.tile<16x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @gathers(%as: !pto.tensor<16x4xf8E8M0FNU>, %bs: !pto.tensor<4x16xf8E8M0FNU>, %l: !pto.tensor<32x128xf8E4M3FN>,
                     %r: !pto.tensor<128x32xf8E4M3FN>, %o: !pto.tensor<32x32xf32> {pto.out}) -> !pto.tensor<32x32xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a = pto.load %as[0, 0] : !pto.tensor<16x4xf8E8M0FNU> -> !pto.tile<16x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
    %ls_mat = pto.aic_gather %a {split = 1 : i64} : !pto.tile<16x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32> -> !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    %ls = pto.move %ls_mat : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32> -> !pto.tile<32x4xf8E8M0FNU, left_scale>
    %b = pto.load %bs[0, 0] : !pto.tensor<4x16xf8E8M0FNU> -> !pto.tile<4x16xf8E8M0FNU, vec, blayout = col_major, slayout = col_major, fractal = 32>
    %rs_mat = pto.aic_gather %b {split = 2 : i64} : !pto.tile<4x16xf8E8M0FNU, vec, blayout = col_major, slayout = col_major, fractal = 32> -> !pto.tile<4x32xf8E8M0FNU, mat, slayout = col_major, fractal = 32>
    %rs = pto.move %rs_mat : !pto.tile<4x32xf8E8M0FNU, mat, slayout = col_major, fractal = 32> -> !pto.tile<4x32xf8E8M0FNU, right_scale>
    %lm = pto.load %l[0, 0] : !pto.tensor<32x128xf8E4M3FN> -> !pto.tile<32x128xf8E4M3FN, mat>
    %lt = pto.move %lm : !pto.tile<32x128xf8E4M3FN, mat> -> !pto.tile<32x128xf8E4M3FN, left>
    %rm = pto.load %r[0, 0] : !pto.tensor<128x32xf8E4M3FN> -> !pto.tile<128x32xf8E4M3FN, mat>
    %rt = pto.move %rm : !pto.tile<128x32xf8E4M3FN, mat> -> !pto.tile<128x32xf8E4M3FN, right>
    %c = pto.matmul_mx %lt, %ls, %rt, %rs : !pto.tile<32x128xf8E4M3FN, left>, !pto.tile<32x4xf8E8M0FNU, left_scale>, !pto.tile<128x32xf8E4M3FN, right>, !pto.tile<4x32xf8E8M0FNU, right_scale> -> !pto.tile<32x32xf32, acc>
    %o2 = pto.store %c, %o[0, 0] : !pto.tile<32x32xf32, acc>, !pto.tensor<32x32xf32>
    func.return %o2 : !pto.tensor<32x32xf32>
  }
}
