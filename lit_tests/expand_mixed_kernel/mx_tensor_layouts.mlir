// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel | filecheck %s
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s

// GM scale tensors in the MX layouts (`mx_a_zz` for the [M, K/32] left scale, `mx_b_nn` for the [K/32, N] right
// scale; reference TensorView MX_A_ZZ / MX_B_NN).  The passes keep every tensor type as written, so the AIC, AIV
// and Group signatures still carry the layouts; the loaded vec scales cross V->C through the row/row carriers.
// The interpreter indexes a tensor logically in every layout (docs/interpreter.md).
// CHECK-LABEL: func.func @qmm_aic(
// CHECK-SAME: %sx: !pto.tensor<32x4xf8E8M0FNU, mx_a_zz>
// CHECK-SAME: %ws: !pto.tensor<4x32xf8E8M0FNU, mx_b_nn>
// CHECK-LABEL: func.func @qmm_aiv(
// CHECK-SAME: %sx: !pto.tensor<32x4xf8E8M0FNU, mx_a_zz>
// CHECK-SAME: %ws: !pto.tensor<4x32xf8E8M0FNU, mx_b_nn>
// CHECK:      %s8 = pto.load %sx[0, 0] : !pto.tensor<32x4xf8E8M0FNU, mx_a_zz> -> !pto.tile<32x4xf8E8M0FNU, vec>
// CHECK:      %s8_mx = pto.move %s8
// CHECK:      %w8_rr = pto.transpose_view %w8_mx
// CHECK-LABEL: func.func @qmm(
// CHECK-SAME: %sx: !pto.tensor<32x4xf8E8M0FNU, mx_a_zz>
// CHECK-SAME: attributes {pto.kind = #pto.kind<group>}
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @qmm(%x: !pto.tensor<32x128xf32>, %sx: !pto.tensor<32x4xf8E8M0FNU, mx_a_zz>, %w: !pto.tensor<128x32xf8E4M3FN>,
                 %ws: !pto.tensor<4x32xf8E8M0FNU, mx_b_nn>, %o: !pto.tensor<32x32xf32> {pto.out}) -> !pto.tensor<32x32xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %xv = pto.load %x[0, 0] : !pto.tensor<32x128xf32> -> !pto.tile<32x128xf32, vec>
    %xq = pto.cast %xv : !pto.tile<32x128xf32, vec> -> !pto.tile<32x128xf8E4M3FN, vec>
    %s8 = pto.load %sx[0, 0] : !pto.tensor<32x4xf8E8M0FNU, mx_a_zz> -> !pto.tile<32x4xf8E8M0FNU, vec>
    %w8 = pto.load %ws[0, 0] : !pto.tensor<4x32xf8E8M0FNU, mx_b_nn> -> !pto.tile<4x32xf8E8M0FNU, vec>
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
