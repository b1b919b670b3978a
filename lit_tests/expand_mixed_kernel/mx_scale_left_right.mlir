// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel | filecheck %s
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s

// MX quant -> matmul_mx on a5, split left_right: the weight and its right scale are quantized per lane.  The right
// scale's halves are MX_B_NN column bands (4x16 col/col); the transpose view turns each into a 16x4 row/row
// carrier, so both sides carry split code 1 (up_down, physically) while the cube's mat pop keeps the full
// logical 4x32 col/col shape.  The weight data itself still crosses in NZ with code 2.
// CHECK-LABEL: func.func @qmm_lr_aic(
// CHECK:      %r_mat = pto.tpop_from_aiv {split = 2 : i64} : !pto.tile<128x32xf8E4M3FN, mat>
// CHECK:      %rs_mat = pto.tpop_from_aiv {split = 1 : i64} : !pto.tile<4x32xf8E8M0FNU, mat, slayout = col_major, fractal = 32>
// CHECK-NEXT: %rs = pto.move %rs_mat : !pto.tile<4x32xf8E8M0FNU, mat, slayout = col_major, fractal = 32> -> !pto.tile<4x32xf8E8M0FNU, right_scale>
// CHECK-LABEL: func.func @qmm_lr_aiv(
// CHECK:      pto.tpush_to_aic %wq_nz {split = 2 : i64}
// CHECK-NEXT: %s8_mx = pto.move %s8 : !pto.tile<4x16xf8E8M0FNU, vec> -> !pto.tile<4x16xf8E8M0FNU, vec, blayout = col_major, slayout = col_major, fractal = 32>
// CHECK-NEXT: %s8_rr = pto.transpose_view %s8_mx : !pto.tile<4x16xf8E8M0FNU, vec, blayout = col_major, slayout = col_major, fractal = 32> -> !pto.tile<16x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
// CHECK-NEXT: pto.tpush_to_aic %s8_rr {split = 1 : i64} : !pto.tile<16x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
// CHECK-NEXT: func.return
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @qmm_lr(%x: !pto.tensor<32x128xf8E4M3FN>, %xs: !pto.tensor<32x4xf8E8M0FNU>, %w: !pto.tensor<128x32xf32>,
                    %sw: !pto.tensor<4x32xf32>, %o: !pto.tensor<32x32xf32> {pto.out}) -> !pto.tensor<32x32xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %wv = pto.load %w[0, 0] : !pto.tensor<128x32xf32> -> !pto.tile<128x32xf32, vec>
    %wq = pto.cast %wv : !pto.tile<128x32xf32, vec> -> !pto.tile<128x32xf8E4M3FN, vec>
    %sv = pto.load %sw[0, 0] : !pto.tensor<4x32xf32> -> !pto.tile<4x32xf32, vec>
    %se = pto.exp %sv : !pto.tile<4x32xf32, vec>
    %s8 = pto.cast %se : !pto.tile<4x32xf32, vec> -> !pto.tile<4x32xf8E8M0FNU, vec>
    %r = pto.move %wq : !pto.tile<128x32xf8E4M3FN, vec> -> !pto.tile<128x32xf8E4M3FN, right>
    %rs = pto.move %s8 : !pto.tile<4x32xf8E8M0FNU, vec> -> !pto.tile<4x32xf8E8M0FNU, right_scale>
    %xm = pto.load %x[0, 0] : !pto.tensor<32x128xf8E4M3FN> -> !pto.tile<32x128xf8E4M3FN, mat>
    %l = pto.move %xm : !pto.tile<32x128xf8E4M3FN, mat> -> !pto.tile<32x128xf8E4M3FN, left>
    %ls = pto.load %xs[0, 0] : !pto.tensor<32x4xf8E8M0FNU> -> !pto.tile<32x4xf8E8M0FNU, left_scale>
    %c = pto.matmul_mx %l, %ls, %r, %rs : !pto.tile<32x128xf8E4M3FN, left>, !pto.tile<32x4xf8E8M0FNU, left_scale>, !pto.tile<128x32xf8E4M3FN, right>, !pto.tile<4x32xf8E8M0FNU, right_scale> -> !pto.tile<32x32xf32, acc>
    %o2 = pto.store %c, %o[0, 0] : !pto.tile<32x32xf32, acc>, !pto.tensor<32x32xf32>
    func.return %o2 : !pto.tensor<32x32xf32>
  }
}
