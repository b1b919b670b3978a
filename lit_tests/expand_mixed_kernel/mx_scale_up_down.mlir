// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel | filecheck %s
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s

// MX quant -> matmul_mx on a5, split up_down: the activation and its left scale are quantized per lane.
// LowerAutoVectorSplit gathers the left scale into a mat tile that keeps row/row/32 (not NZ); ExpandMixedKernel
// concatenates the MX_A_ZZ row bands: each lane pushes its 16x4 row/row carrier with split code 1 and the cube
// pops the full 32x4 logical scale.  The right operand and its scale are loaded on the cube side.
// CHECK-LABEL: func.func @qmm_ud_aic(
// CHECK:      %ls_mat = pto.tpop_from_aiv {split = 1 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
// CHECK-NEXT: %ls = pto.move %ls_mat : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32> -> !pto.tile<32x4xf8E8M0FNU, left_scale>
// CHECK-LABEL: func.func @qmm_ud_aiv(
// CHECK:      %s8 = pto.cast %se : !pto.tile<16x4xf32, vec> -> !pto.tile<16x4xf8E8M0FNU, vec>
// CHECK:      %s8_mx = pto.move %s8 : !pto.tile<16x4xf8E8M0FNU, vec> -> !pto.tile<16x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
// CHECK-NEXT: pto.tpush_to_aic %s8_mx {split = 1 : i64} : !pto.tile<16x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
// CHECK-NEXT: func.return
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @qmm_ud(%x: !pto.tensor<32x128xf32>, %sx: !pto.tensor<32x4xf32>, %w: !pto.tensor<128x32xf8E4M3FN>,
                    %ws: !pto.tensor<4x32xf8E8M0FNU>, %o: !pto.tensor<32x32xf32> {pto.out}) -> !pto.tensor<32x32xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %xv = pto.load %x[0, 0] : !pto.tensor<32x128xf32> -> !pto.tile<32x128xf32, vec>
    %xq = pto.cast %xv : !pto.tile<32x128xf32, vec> -> !pto.tile<32x128xf8E4M3FN, vec>
    %sv = pto.load %sx[0, 0] : !pto.tensor<32x4xf32> -> !pto.tile<32x4xf32, vec>
    %se = pto.exp %sv : !pto.tile<32x4xf32, vec>
    %s8 = pto.cast %se : !pto.tile<32x4xf32, vec> -> !pto.tile<32x4xf8E8M0FNU, vec>
    %l = pto.move %xq : !pto.tile<32x128xf8E4M3FN, vec> -> !pto.tile<32x128xf8E4M3FN, left>
    %ls = pto.move %s8 : !pto.tile<32x4xf8E8M0FNU, vec> -> !pto.tile<32x4xf8E8M0FNU, left_scale>
    %wm = pto.load %w[0, 0] : !pto.tensor<128x32xf8E4M3FN> -> !pto.tile<128x32xf8E4M3FN, mat>
    %r = pto.move %wm : !pto.tile<128x32xf8E4M3FN, mat> -> !pto.tile<128x32xf8E4M3FN, right>
    %rs = pto.load %ws[0, 0] : !pto.tensor<4x32xf8E8M0FNU> -> !pto.tile<4x32xf8E8M0FNU, right_scale>
    %c = pto.matmul_mx %l, %ls, %r, %rs : !pto.tile<32x128xf8E4M3FN, left>, !pto.tile<32x4xf8E8M0FNU, left_scale>, !pto.tile<128x32xf8E4M3FN, right>, !pto.tile<4x32xf8E8M0FNU, right_scale> -> !pto.tile<32x32xf32, acc>
    %o2 = pto.store %c, %o[0, 0] : !pto.tile<32x32xf32, acc>, !pto.tensor<32x32xf32>
    func.return %o2 : !pto.tensor<32x32xf32>
  }
}
