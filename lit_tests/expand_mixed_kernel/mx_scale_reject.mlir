// RUN: pypto-opt %s --split-input-file --verify-diagnostics '--expand-mixed-kernel{ring-depth=fixed}'

// Rejections of MX scale V->C transfers (passes/expand_mixed_kernel/mx_scale.py), each located at the boundary.

// a2a3 (Ascend910) has no MX: a V->C move into a scale space is rejected (a5 only).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @a2a3_move(%s: !pto.tensor<32x4xf8E8M0FNU>, %o: !pto.tensor<32x4xf8E8M0FNU> {pto.out}) -> !pto.tensor<32x4xf8E8M0FNU>
      attributes {pto.kind = #pto.kind<incore>} {
    %v = pto.load %s[0, 0] : !pto.tensor<32x4xf8E8M0FNU> -> !pto.tile<32x4xf8E8M0FNU, vec>
    // expected-error@+1 {{ExpandMixedKernel: this vector -> cube move into 'left_scale' is an MX scale transfer, which exists only on a5 (Ascend950: MX matmuls and their row/row scale carriers); a2a3 has no MX scale path. Compile this kernel for #pto.target<a5>, or keep the scales on the cube side (load them from GM into the scale space)}}
    %ls = pto.move %v : !pto.tile<32x4xf8E8M0FNU, vec> -> !pto.tile<32x4xf8E8M0FNU, left_scale>
    %m = pto.move %ls : !pto.tile<32x4xf8E8M0FNU, left_scale> -> !pto.tile<32x4xf8E8M0FNU, mat>
    %o2 = pto.store %m, %o[0, 0] : !pto.tile<32x4xf8E8M0FNU, mat>, !pto.tensor<32x4xf8E8M0FNU>
    func.return %o2 : !pto.tensor<32x4xf8E8M0FNU>
  }
}

// -----

// a2a3: an explicit gather of a scale is rejected the same way.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @a2a3_gather(%s: !pto.tensor<16x4xf8E8M0FNU>, %o: !pto.tensor<32x4xf8E8M0FNU> {pto.out}) -> !pto.tensor<32x4xf8E8M0FNU>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %v = pto.load %s[0, 0] : !pto.tensor<16x4xf8E8M0FNU> -> !pto.tile<16x4xf8E8M0FNU, vec>
    // expected-error@+1 {{ExpandMixedKernel: this aic_gather of an f8E8M0FNU scale is an MX scale transfer, which exists only on a5}}
    %g = pto.aic_gather %v {split = 1 : i64} : !pto.tile<16x4xf8E8M0FNU, vec> -> !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    %o2 = pto.store %g, %o[0, 0] : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>, !pto.tensor<32x4xf8E8M0FNU>
    func.return %o2 : !pto.tensor<32x4xf8E8M0FNU>
  }
}

// -----

// a5: a scale space holding something other than f8E8M0FNU scales.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @not_e8m0(%s: !pto.tensor<32x4xf16>, %o: !pto.tensor<32x4xf16> {pto.out}) -> !pto.tensor<32x4xf16>
      attributes {pto.kind = #pto.kind<incore>} {
    %v = pto.load %s[0, 0] : !pto.tensor<32x4xf16> -> !pto.tile<32x4xf16, vec>
    // expected-error@+1 {{ExpandMixedKernel: this vector -> cube move lands in 'left_scale', but 'left_scale' holds f8E8M0FNU MX scales, but this tile holds f16}}
    %ls = pto.move %v : !pto.tile<32x4xf16, vec> -> !pto.tile<32x4xf16, left_scale>
    %m = pto.move %ls : !pto.tile<32x4xf16, left_scale> -> !pto.tile<32x4xf16, mat>
    %o2 = pto.store %m, %o[0, 0] : !pto.tile<32x4xf16, mat>, !pto.tensor<32x4xf16>
    func.return %o2 : !pto.tensor<32x4xf16>
  }
}

// -----

// a5: a left scale gathered left_right is cut along its scale-group axis (dim 1).
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @group_axis(%s: !pto.tensor<32x2xf8E8M0FNU>, %o: !pto.tensor<32x4xf8E8M0FNU> {pto.out}) -> !pto.tensor<32x4xf8E8M0FNU>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %v = pto.load %s[0, 0] : !pto.tensor<32x2xf8E8M0FNU> -> !pto.tile<32x2xf8E8M0FNU, vec>
    // expected-error@+1 {{ExpandMixedKernel: this gather splits a row/row MX scale along its scale-group axis (dim 1, split left_right); an MX scale is gathered only as MX_A_ZZ row bands (split up_down), a cut through the groups needs a blocked layout transfer that is not implemented. Split the kernel along the other axis, or move the whole scale (split none)}}
    %g = pto.aic_gather %v {split = 2 : i64} : !pto.tile<32x2xf8E8M0FNU, vec> -> !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    %o2 = pto.store %g, %o[0, 0] : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>, !pto.tensor<32x4xf8E8M0FNU>
    func.return %o2 : !pto.tensor<32x4xf8E8M0FNU>
  }
}

// -----

// a5: a right scale gathered up_down is cut along its scale-group axis (dim 0).
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @group_axis_col(%s: !pto.tensor<2x32xf8E8M0FNU>, %o: !pto.tensor<4x32xf8E8M0FNU> {pto.out}) -> !pto.tensor<4x32xf8E8M0FNU>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %v = pto.load %s[0, 0] : !pto.tensor<2x32xf8E8M0FNU> -> !pto.tile<2x32xf8E8M0FNU, vec>
    // expected-error@+1 {{this gather splits a col/col MX scale along its scale-group axis (dim 0, split up_down); an MX scale is gathered only as MX_B_NN column bands (split left_right)}}
    %g = pto.aic_gather %v {split = 1 : i64} : !pto.tile<2x32xf8E8M0FNU, vec> -> !pto.tile<4x32xf8E8M0FNU, mat, slayout = col_major, fractal = 32>
    %o2 = pto.store %g, %o[0, 0] : !pto.tile<4x32xf8E8M0FNU, mat, slayout = col_major, fractal = 32>, !pto.tensor<4x32xf8E8M0FNU>
    func.return %o2 : !pto.tensor<4x32xf8E8M0FNU>
  }
}

// -----

// a5: a split scale box that is only partially valid.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @partial_split(%s: !pto.tensor<16x4xf8E8M0FNU>, %o: !pto.tensor<32x4xf8E8M0FNU> {pto.out}) -> !pto.tensor<32x4xf8E8M0FNU>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %v = pto.load %s[0, 0] valid [16, 3] : !pto.tensor<16x4xf8E8M0FNU> -> !pto.tile<16x4xf8E8M0FNU, vec, valid = [16, 3]>
    // expected-error@+1 {{ExpandMixedKernel: this gather joins partially valid MX scale boxes (lane box [16, 4] valid [16, 3], gathered valid [32, 3]); the full-physical-box carrier covers a split scale only when every box is fully valid. Pad the scale to full boxes, or move it unsplit}}
    %g = pto.aic_gather %v {split = 1 : i64} : !pto.tile<16x4xf8E8M0FNU, vec, valid = [16, 3]> -> !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32, valid = [32, 3]>
    %o2 = pto.store %g, %o[0, 0] : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32, valid = [32, 3]>, !pto.tensor<32x4xf8E8M0FNU>
    func.return %o2 : !pto.tensor<32x4xf8E8M0FNU>
  }
}

// -----

// a5, the slot_num = 4 rule: all four MX operands are gathered before the matmul reads them, on the default
// ring of 2 slots (ring-depth=fixed, as this file runs): the third pop is rejected at compile time (instead of
// a device hang), naming the rule.  With ring-depth=auto the kernel gets the 4 slots (mx_scale_held.mlir).
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @four_live(%a: !pto.tensor<16x128xf8E4M3FN>, %as: !pto.tensor<16x4xf8E8M0FNU>, %b: !pto.tensor<64x32xf8E4M3FN>,
                       %bs: !pto.tensor<4x16xf8E8M0FNU>, %o: !pto.tensor<32x32xf32> {pto.out}) -> !pto.tensor<32x32xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %av = pto.load %a[0, 0] : !pto.tensor<16x128xf8E4M3FN> -> !pto.tile<16x128xf8E4M3FN, vec>
    %asv = pto.load %as[0, 0] : !pto.tensor<16x4xf8E8M0FNU> -> !pto.tile<16x4xf8E8M0FNU, vec>
    %bv = pto.load %b[0, 0] : !pto.tensor<64x32xf8E4M3FN> -> !pto.tile<64x32xf8E4M3FN, vec>
    %bsv = pto.load %bs[0, 0] : !pto.tensor<4x16xf8E8M0FNU> -> !pto.tile<4x16xf8E8M0FNU, vec>
    %lm = pto.aic_gather %av {split = 1 : i64} : !pto.tile<16x128xf8E4M3FN, vec> -> !pto.tile<32x128xf8E4M3FN, mat>
    %lsm = pto.aic_gather %asv {split = 1 : i64} : !pto.tile<16x4xf8E8M0FNU, vec> -> !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    // expected-error@+1 {{AIC function 'four_live_aic' holds 3 popped V2C slots at once here, but the ring has only 2 slots (the default slot_num, @four_live sets no pto.slot_num): the producer could never push this tile, so both cores would hang; release a slot (use the held tiles) before this pop or raise pto.slot_num; an MX matmul whose four operands (lhs, lhs scale, rhs, rhs scale) all cross before their use holds four slots, so it needs pto.slot_num = 4 even with the scale carriers right; ring-depth=fixed keeps the reference's depth 2 (with ring-depth=auto the pass gives @four_live the 4 slots it needs)}}
    %rm = pto.aic_gather %bv {split = 1 : i64} : !pto.tile<64x32xf8E4M3FN, vec> -> !pto.tile<128x32xf8E4M3FN, mat>
    %rsm = pto.aic_gather %bsv {split = 2 : i64} : !pto.tile<4x16xf8E8M0FNU, vec> -> !pto.tile<4x32xf8E8M0FNU, mat, slayout = col_major, fractal = 32>
    %l = pto.move %lm : !pto.tile<32x128xf8E4M3FN, mat> -> !pto.tile<32x128xf8E4M3FN, left>
    %ls = pto.move %lsm : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32> -> !pto.tile<32x4xf8E8M0FNU, left_scale>
    %r = pto.move %rm : !pto.tile<128x32xf8E4M3FN, mat> -> !pto.tile<128x32xf8E4M3FN, right>
    %rs = pto.move %rsm : !pto.tile<4x32xf8E8M0FNU, mat, slayout = col_major, fractal = 32> -> !pto.tile<4x32xf8E8M0FNU, right_scale>
    %c = pto.matmul_mx %l, %ls, %r, %rs : !pto.tile<32x128xf8E4M3FN, left>, !pto.tile<32x4xf8E8M0FNU, left_scale>, !pto.tile<128x32xf8E4M3FN, right>, !pto.tile<4x32xf8E8M0FNU, right_scale> -> !pto.tile<32x32xf32, acc>
    %o2 = pto.store %c, %o[0, 0] : !pto.tile<32x32xf32, acc>, !pto.tensor<32x32xf32>
    func.return %o2 : !pto.tensor<32x32xf32>
  }
}
