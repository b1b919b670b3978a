// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel | filecheck %s
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s

// MX quant -> matmul_mx on a5, split none: both scales cross V->C without NZ.  The cube pops each scale in mat
// with the consumer's logical shape and scale layout (row/row/32 for left_scale, col/col/32 for right_scale) and
// places it; the vector side moves the plain vec scale to the consumer layout (`%<src>_mx`, a real Vec->Vec move)
// and pushes it as a row/row carrier -- the left scale directly, the right scale through the zero-copy
// transpose view `%<src>_rr` (shape 32x4, the same bytes as the col/col 4x32).  The quantized data still takes
// the NZ adapter.  The execution check runs the kernel before and after: a wrong carrier gives wrong data or an
// interpreter error.
// CHECK-LABEL: func.func @qmm_aic(
// CHECK:      %l_mat = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<32x128xf8E4M3FN, mat>
// CHECK:      %ls_mat = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
// CHECK-NEXT: %ls = pto.move %ls_mat : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32> -> !pto.tile<32x4xf8E8M0FNU, left_scale>
// CHECK-NEXT: pto.tfree_to_aiv %ls_mat
// CHECK-NEXT: %rs_mat = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<4x32xf8E8M0FNU, mat, slayout = col_major, fractal = 32>
// CHECK-NEXT: %rs = pto.move %rs_mat : !pto.tile<4x32xf8E8M0FNU, mat, slayout = col_major, fractal = 32> -> !pto.tile<4x32xf8E8M0FNU, right_scale>
// CHECK:      pto.matmul_mx %l, %ls, %r, %rs
// CHECK-LABEL: func.func @qmm_aiv(
// CHECK:      %xq_nz = pto.move %xq
// CHECK-NEXT: pto.tpush_to_aic %xq_nz {split = 0 : i64}
// CHECK-NEXT: %s8_mx = pto.move %s8 : !pto.tile<32x4xf8E8M0FNU, vec> -> !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
// CHECK-NEXT: pto.tpush_to_aic %s8_mx {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
// CHECK-NEXT: %w8_mx = pto.move %w8 : !pto.tile<4x32xf8E8M0FNU, vec> -> !pto.tile<4x32xf8E8M0FNU, vec, blayout = col_major, slayout = col_major, fractal = 32>
// CHECK-NEXT: %w8_rr = pto.transpose_view %w8_mx : !pto.tile<4x32xf8E8M0FNU, vec, blayout = col_major, slayout = col_major, fractal = 32> -> !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
// CHECK-NEXT: pto.tpush_to_aic %w8_rr {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
// CHECK-NOT:  _nz
// CHECK:      func.return
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @qmm(%x: !pto.tensor<32x128xf32>, %sx: !pto.tensor<32x4xf32>, %w: !pto.tensor<128x32xf8E4M3FN>,
                 %ws: !pto.tensor<4x32xf32>, %o: !pto.tensor<32x32xf32> {pto.out}) -> !pto.tensor<32x32xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %xv = pto.load %x[0, 0] : !pto.tensor<32x128xf32> -> !pto.tile<32x128xf32, vec>
    %xq = pto.cast %xv : !pto.tile<32x128xf32, vec> -> !pto.tile<32x128xf8E4M3FN, vec>
    %sv = pto.load %sx[0, 0] : !pto.tensor<32x4xf32> -> !pto.tile<32x4xf32, vec>
    %se = pto.exp %sv : !pto.tile<32x4xf32, vec>
    %s8 = pto.cast %se : !pto.tile<32x4xf32, vec> -> !pto.tile<32x4xf8E8M0FNU, vec>
    %wv = pto.load %ws[0, 0] : !pto.tensor<4x32xf32> -> !pto.tile<4x32xf32, vec>
    %we = pto.exp %wv : !pto.tile<4x32xf32, vec>
    %w8 = pto.cast %we : !pto.tile<4x32xf32, vec> -> !pto.tile<4x32xf8E8M0FNU, vec>
    %l = pto.move %xq : !pto.tile<32x128xf8E4M3FN, vec> -> !pto.tile<32x128xf8E4M3FN, left>
    %ls = pto.move %s8 : !pto.tile<32x4xf8E8M0FNU, vec> -> !pto.tile<32x4xf8E8M0FNU, left_scale>
    %rs = pto.move %w8 : !pto.tile<4x32xf8E8M0FNU, vec> -> !pto.tile<4x32xf8E8M0FNU, right_scale>
    %wm = pto.load %w[0, 0] : !pto.tensor<128x32xf8E4M3FN> -> !pto.tile<128x32xf8E4M3FN, mat>
    %r = pto.move %wm : !pto.tile<128x32xf8E4M3FN, mat> -> !pto.tile<128x32xf8E4M3FN, right>
    %c = pto.matmul_mx %l, %ls, %r, %rs : !pto.tile<32x128xf8E4M3FN, left>, !pto.tile<32x4xf8E8M0FNU, left_scale>, !pto.tile<128x32xf8E4M3FN, right>, !pto.tile<4x32xf8E8M0FNU, right_scale> -> !pto.tile<32x32xf32, acc>
    %o2 = pto.store %c, %o[0, 0] : !pto.tile<32x32xf32, acc>, !pto.tensor<32x32xf32>
    func.return %o2 : !pto.tensor<32x32xf32>
  }
}
