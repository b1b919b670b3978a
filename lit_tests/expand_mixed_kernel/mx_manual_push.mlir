// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5

// Hand-written MX scale pushes (AdaptManualVtoCPush, the MX half; seed "MX scale 的 V2C 传输"). On a5 a
// `tpush_to_aic` of an f8E8M0FNU tile is paired, by V2C pipe id and order, with the `tpop_from_aiv` of the AIC
// that its import names (@qmm_aiv's import -> @qmm_aic's reserve), and gets the carrier that pop's contract asks
// for -- the same ops as the boundary path: `%s8_mx` (Vec->Vec move to row/row/32) for the left scale,
// `%w8_mx` + the zero-copy `%w8_rr` transpose view for the col/col right scale.  The quantized data push pairs
// with an ordinary mat pop and keeps today's NZ adapter.  Every push keeps its attributes (id = 3, note); a
// second run changes nothing (third RUN line: a push already at its carrier is not rewritten again).  a2a3 has
// no adapter (and no MX): the pushes are kept as written.  tests/passes/expand_mixed_kernel/test_emk_mx_scale.py runs this kernel.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @qmm_aic(
  // CHECK:      %ls_mat = pto.tpop_from_aiv {split = 0 : i64, id = 3 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
  func.func @qmm_aic(%x: !pto.tensor<32x128xf32>, %sx: !pto.tensor<32x4xf32>, %w: !pto.tensor<128x32xf8E4M3FN>, %ws: !pto.tensor<4x32xf32>, %o: !pto.tensor<32x32xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %rb = pto.reserve_buffer {name = "qmm_v2c", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %c0, %rb {dir_mask = 2 : i64, slot_size = 4096 : i64, slot_num = 2 : i64, id = 3 : i64} : i32, i32
    %l_mat = pto.tpop_from_aiv {split = 0 : i64, id = 3 : i64} : !pto.tile<32x128xf8E4M3FN, mat>
    %l = pto.move %l_mat : !pto.tile<32x128xf8E4M3FN, mat> -> !pto.tile<32x128xf8E4M3FN, left>
    pto.tfree_to_aiv %l_mat {id = 3 : i64} : !pto.tile<32x128xf8E4M3FN, mat>
    %ls_mat = pto.tpop_from_aiv {split = 0 : i64, id = 3 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    %ls = pto.move %ls_mat : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32> -> !pto.tile<32x4xf8E8M0FNU, left_scale>
    pto.tfree_to_aiv %ls_mat {id = 3 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    %rs_mat = pto.tpop_from_aiv {split = 0 : i64, id = 3 : i64} : !pto.tile<4x32xf8E8M0FNU, mat, slayout = col_major, fractal = 32>
    %rs = pto.move %rs_mat : !pto.tile<4x32xf8E8M0FNU, mat, slayout = col_major, fractal = 32> -> !pto.tile<4x32xf8E8M0FNU, right_scale>
    pto.tfree_to_aiv %rs_mat {id = 3 : i64} : !pto.tile<4x32xf8E8M0FNU, mat, slayout = col_major, fractal = 32>
    %wm = pto.load %w[0, 0] : !pto.tensor<128x32xf8E4M3FN> -> !pto.tile<128x32xf8E4M3FN, mat>
    %r = pto.move %wm : !pto.tile<128x32xf8E4M3FN, mat> -> !pto.tile<128x32xf8E4M3FN, right>
    %c = pto.matmul_mx %l, %ls, %r, %rs : !pto.tile<32x128xf8E4M3FN, left>, !pto.tile<32x4xf8E8M0FNU, left_scale>, !pto.tile<128x32xf8E4M3FN, right>, !pto.tile<4x32xf8E8M0FNU, right_scale> -> !pto.tile<32x32xf32, acc>
    %o2 = pto.store %c, %o[0, 0] : !pto.tile<32x32xf32, acc>, !pto.tensor<32x32xf32>
    func.return
  }

  // CHECK-LABEL: func.func @qmm_aiv(
  // A2A3:       pto.tpush_to_aic %xq {split = 0 : i64, id = 3 : i64} : !pto.tile<32x128xf8E4M3FN, vec>
  // A2A3-NEXT:  pto.tpush_to_aic %s8 {split = 0 : i64, id = 3 : i64, note = "kept"} : !pto.tile<32x4xf8E8M0FNU, vec>
  // A2A3-NEXT:  pto.tpush_to_aic %w8 {split = 0 : i64, id = 3 : i64} : !pto.tile<4x32xf8E8M0FNU, vec>
  // A5:         %xq_nz = pto.move %xq : !pto.tile<32x128xf8E4M3FN, vec> -> !pto.tile<32x128xf8E4M3FN, vec, blayout = col_major, slayout = row_major>
  // A5-NEXT:    pto.tpush_to_aic %xq_nz {split = 0 : i64, id = 3 : i64} : !pto.tile<32x128xf8E4M3FN, vec, blayout = col_major, slayout = row_major>
  // A5-NEXT:    %s8_mx = pto.move %s8 : !pto.tile<32x4xf8E8M0FNU, vec> -> !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
  // A5-NEXT:    pto.tpush_to_aic %s8_mx {split = 0 : i64, id = 3 : i64, note = "kept"} : !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
  // A5-NEXT:    %w8_mx = pto.move %w8 : !pto.tile<4x32xf8E8M0FNU, vec> -> !pto.tile<4x32xf8E8M0FNU, vec, blayout = col_major, slayout = col_major, fractal = 32>
  // A5-NEXT:    %w8_rr = pto.transpose_view %w8_mx : !pto.tile<4x32xf8E8M0FNU, vec, blayout = col_major, slayout = col_major, fractal = 32> -> !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
  // A5-NEXT:    pto.tpush_to_aic %w8_rr {split = 0 : i64, id = 3 : i64} : !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
  // CHECK-NOT:  _mx
  // CHECK:      func.return
  func.func @qmm_aiv(%x: !pto.tensor<32x128xf32>, %sx: !pto.tensor<32x4xf32>, %w: !pto.tensor<128x32xf8E4M3FN>, %ws: !pto.tensor<4x32xf32>, %o: !pto.tensor<32x32xf32> {pto.out}) -> !pto.tensor<32x32xf32> attributes {pto.kind = #pto.kind<aiv>} {
    %ib = pto.import_peer_buffer {name = "qmm_v2c", peer_func = @qmm_aic} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %c0, %ib {dir_mask = 2 : i64, slot_size = 4096 : i64, slot_num = 2 : i64, id = 3 : i64} : i32, i32
    %xv = pto.load %x[0, 0] : !pto.tensor<32x128xf32> -> !pto.tile<32x128xf32, vec>
    %xq = pto.cast %xv : !pto.tile<32x128xf32, vec> -> !pto.tile<32x128xf8E4M3FN, vec>
    %sv = pto.load %sx[0, 0] : !pto.tensor<32x4xf32> -> !pto.tile<32x4xf32, vec>
    %se = pto.exp %sv : !pto.tile<32x4xf32, vec>
    %s8 = pto.cast %se : !pto.tile<32x4xf32, vec> -> !pto.tile<32x4xf8E8M0FNU, vec>
    %wv = pto.load %ws[0, 0] : !pto.tensor<4x32xf32> -> !pto.tile<4x32xf32, vec>
    %we = pto.exp %wv : !pto.tile<4x32xf32, vec>
    %w8 = pto.cast %we : !pto.tile<4x32xf32, vec> -> !pto.tile<4x32xf8E8M0FNU, vec>
    pto.tpush_to_aic %xq {split = 0 : i64, id = 3 : i64} : !pto.tile<32x128xf8E4M3FN, vec>
    pto.tpush_to_aic %s8 {split = 0 : i64, id = 3 : i64, note = "kept"} : !pto.tile<32x4xf8E8M0FNU, vec>
    pto.tpush_to_aic %w8 {split = 0 : i64, id = 3 : i64} : !pto.tile<4x32xf8E8M0FNU, vec>
    func.return %o : !pto.tensor<32x32xf32>
  }

  // CHECK-LABEL: func.func @qmm(
  func.func @qmm(%x: !pto.tensor<32x128xf32>, %sx: !pto.tensor<32x4xf32>, %w: !pto.tensor<128x32xf8E4M3FN>, %ws: !pto.tensor<4x32xf32>, %o: !pto.tensor<32x32xf32> {pto.out}) -> !pto.tensor<32x32xf32> attributes {pto.kind = #pto.kind<group>} {
    func.call @qmm_aic(%x, %sx, %w, %ws, %o) : (!pto.tensor<32x128xf32>, !pto.tensor<32x4xf32>, !pto.tensor<128x32xf8E4M3FN>, !pto.tensor<4x32xf32>, !pto.tensor<32x32xf32>) -> ()
    %0 = func.call @qmm_aiv(%x, %sx, %w, %ws, %o) : (!pto.tensor<32x128xf32>, !pto.tensor<32x4xf32>, !pto.tensor<128x32xf8E4M3FN>, !pto.tensor<4x32xf32>, !pto.tensor<32x32xf32>) -> !pto.tensor<32x32xf32>
    func.return %o : !pto.tensor<32x32xf32>
  }
  // Split and partial transfers, planned from the pops: a left scale pushed as MX_A_ZZ row bands (each lane a
  // 16x4 box of the 32x4 pop, split = 1 on both ends); a right scale as MX_B_NN column bands (each lane a 4x16
  // box of the 4x32 col/col pop; its carrier is the 16x4 transpose view, still split = 1, the code the FIFO
  // carries); a partially valid left scale (valid 30 of 32 rows) sends the full box through a private carrier
  // whose valid region `%p8_box` widens, while the pop keeps valid = [30, 4].  The last push is already a
  // carrier and is left alone.
  // CHECK-LABEL: func.func @sp_aiv(
  // A5:         %a8_mx = pto.move %a8 : !pto.tile<16x4xf8E8M0FNU, vec> -> !pto.tile<16x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
  // A5-NEXT:    pto.tpush_to_aic %a8_mx {split = 1 : i64} : !pto.tile<16x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
  // A5-NEXT:    %b8_mx = pto.move %b8 : !pto.tile<4x16xf8E8M0FNU, vec> -> !pto.tile<4x16xf8E8M0FNU, vec, blayout = col_major, slayout = col_major, fractal = 32>
  // A5-NEXT:    %b8_rr = pto.transpose_view %b8_mx : !pto.tile<4x16xf8E8M0FNU, vec, blayout = col_major, slayout = col_major, fractal = 32> -> !pto.tile<16x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
  // A5-NEXT:    pto.tpush_to_aic %b8_rr {split = 1 : i64} : !pto.tile<16x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
  // A5-NEXT:    %p8_mx = pto.move %p8 : !pto.tile<32x4xf8E8M0FNU, vec, valid = [30, 4]> -> !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32, valid = [30, 4]>
  // A5-NEXT:    %p8_box = pto.set_validshape %p8_mx valid [32, 4] : !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32, valid = [30, 4]> -> !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
  // A5-NEXT:    pto.tpush_to_aic %p8_box {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
  // A5-NEXT:    pto.tpush_to_aic %c8 {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
  // A2A3:       pto.tpush_to_aic %a8 {split = 1 : i64} : !pto.tile<16x4xf8E8M0FNU, vec>
  // A2A3-NEXT:  pto.tpush_to_aic %b8 {split = 1 : i64} : !pto.tile<4x16xf8E8M0FNU, vec>
  // A2A3-NEXT:  pto.tpush_to_aic %p8 {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, vec, valid = [30, 4]>
  // A2A3-NEXT:  pto.tpush_to_aic %c8
  // CHECK:      func.return
  func.func @sp_aiv(%a8: !pto.tile<16x4xf8E8M0FNU, vec>, %b8: !pto.tile<4x16xf8E8M0FNU, vec>, %p8: !pto.tile<32x4xf8E8M0FNU, vec, valid = [30, 4]>, %c8: !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>) attributes {pto.kind = #pto.kind<aiv>} {
    %ib = pto.import_peer_buffer {name = "sp_v2c", peer_func = @sp_aic} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %c0, %ib {dir_mask = 2 : i64, slot_size = 128 : i64, slot_num = 2 : i64} : i32, i32
    pto.tpush_to_aic %a8 {split = 1 : i64} : !pto.tile<16x4xf8E8M0FNU, vec>
    pto.tpush_to_aic %b8 {split = 1 : i64} : !pto.tile<4x16xf8E8M0FNU, vec>
    pto.tpush_to_aic %p8 {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, vec, valid = [30, 4]>
    pto.tpush_to_aic %c8 {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
    func.return
  }

  // CHECK-LABEL: func.func @sp_aic(
  // CHECK:      %pa = pto.tpop_from_aiv {split = 1 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
  // CHECK-NEXT: pto.tfree_to_aiv %pa
  // CHECK-NEXT: %pb = pto.tpop_from_aiv {split = 1 : i64} : !pto.tile<4x32xf8E8M0FNU, mat, slayout = col_major, fractal = 32>
  // CHECK-NEXT: pto.tfree_to_aiv %pb
  // CHECK-NEXT: %pp = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32, valid = [30, 4]>
  func.func @sp_aic() attributes {pto.kind = #pto.kind<aic>} {
    %rb = pto.reserve_buffer {name = "sp_v2c", size = 256 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %c0, %rb {dir_mask = 2 : i64, slot_size = 128 : i64, slot_num = 2 : i64} : i32, i32
    %pa = pto.tpop_from_aiv {split = 1 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    pto.tfree_to_aiv %pa : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    %pb = pto.tpop_from_aiv {split = 1 : i64} : !pto.tile<4x32xf8E8M0FNU, mat, slayout = col_major, fractal = 32>
    pto.tfree_to_aiv %pb : !pto.tile<4x32xf8E8M0FNU, mat, slayout = col_major, fractal = 32>
    %pp = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32, valid = [30, 4]>
    pto.tfree_to_aiv %pp : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32, valid = [30, 4]>
    %pc = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    pto.tfree_to_aiv %pc : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    func.return
  }
}
