// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s
// RUN: pypto-opt %s --expand-mixed-kernel --split-report=- 2>&1 > /dev/null | filecheck %s --check-prefix=REPORT
// RUN: pypto-run --quiet --check-pipeline expand-mixed-kernel %s

// The slot_num = 4 rule of MX matmuls (a5 only: a2a3 has no MX path, mx_scale_reject.mlir): all four MX
// operands (lhs, lhs scale, rhs, rhs scale) are gathered before the matmul reads them, so the cube holds four
// popped V->C slots at once.  With no pto.slot_num and ring-depth=auto (the default) the ring gets the 4 slots
// (under ring-depth=fixed the third pop is rejected: mx_scale_reject.mlir); the run before and after the pass
// agrees.
// CHECK-LABEL: func.func @four_live_aic
// CHECK:         pto.reserve_buffer {name = "four_live_v2c_slot_buffer", size = 16384 : i64, base = -1 : i64}
// CHECK:         pto.aic_initialize_pipe {{.*}} {dir_mask = 2 : i64, slot_size = 4096 : i64, slot_num = 4 : i64}
// CHECK-LABEL: func.func @four_live_aiv
// CHECK:         pto.aiv_initialize_pipe {{.*}} {dir_mask = 2 : i64, slot_size = 4096 : i64, slot_num = 4 : i64}
// REPORT:      ring depth 4 (the least the kernel runs at, not chosen): each ring carries at most 4 tiles per run, so no push waits for a slot at depth 4 (the 4 slots the kernel holds at once)
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
