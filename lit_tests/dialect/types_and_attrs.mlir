// Round trip of the types and attributes: !pto.tensor (layouts nd/dn/nz and the MX scale layouts mx_a_zz/mx_b_nn, `?` dims, rank 1..3), !pto.tile with
// every view field, the canonical form (a view field equal to its memory space's implicit view is not printed,
// for every memory space, including the vec Nx1 column whose implicit blayout is col_major), and the
// #pto.target / #pto.kind / #pto.split attributes with every function and argument attribute.

// RUN: pypto-opt %s | filecheck %s
// RUN: pypto-opt %s | pypto-opt | filecheck %s
// RUN: pypto-opt %s --mlir-print-op-generic | pypto-opt | filecheck %s
// The exact fixed point (byte-identical reprint, custom and generic) is checked in-process by
// tests/dialects/test_dialect_roundtrip.py, which does not depend on lit's shared temporary files.

// CHECK: builtin.module attributes {pto.target = #pto.target<a5>} {
builtin.module attributes {pto.target = #pto.target<a5>} {
  // CHECK-LABEL: func.func @tensors
  // CHECK-SAME: %a: !pto.tensor<16x128xbf16>
  // CHECK-SAME: %b: !pto.tensor<16x128xbf16>
  // CHECK-SAME: %c: !pto.tensor<16x128xbf16, dn>
  // CHECK-SAME: %d: !pto.tensor<16x128xbf16, nz>
  // CHECK-SAME: %e: !pto.tensor<?x128xf32>
  // CHECK-SAME: %f: !pto.tensor<?x?xf16, dn>
  // CHECK-SAME: %g: !pto.tensor<128xi8>
  // CHECK-SAME: %h: !pto.tensor<2x16x128xi32>
  // CHECK-SAME: %i: !pto.tensor<16x16xf8E4M3FN>
  // CHECK-SAME: %j: !pto.tensor<16x16xf8E5M2>
  // CHECK-SAME: %k: !pto.tensor<16x64xi4>
  // CHECK-SAME: %l: !pto.tensor<16x16xi64>
  // CHECK-SAME: %m: !pto.tensor<16x16xi16>
  // CHECK-SAME: %n: !pto.tensor<64x4xf8E8M0FNU, mx_a_zz>
  // CHECK-SAME: %o: !pto.tensor<4x64xf8E8M0FNU, mx_b_nn>
  func.func @tensors(%a: !pto.tensor<16x128xbf16>, %b: !pto.tensor<16x128xbf16, nd>, %c: !pto.tensor<16x128xbf16, dn>,
                     %d: !pto.tensor<16x128xbf16, nz>, %e: !pto.tensor<?x128xf32>, %f: !pto.tensor<?x?xf16, dn>,
                     %g: !pto.tensor<128xi8>, %h: !pto.tensor<2x16x128xi32>, %i: !pto.tensor<16x16xf8E4M3FN>,
                     %j: !pto.tensor<16x16xf8E5M2>, %k: !pto.tensor<16x64xi4>, %l: !pto.tensor<16x16xi64>,
                     %m: !pto.tensor<16x16xi16>, %n: !pto.tensor<64x4xf8E8M0FNU, mx_a_zz>,
                     %o: !pto.tensor<4x64xf8E8M0FNU, mx_b_nn>) {
    func.return
  }

  // Implicit views, written out in full: each prints as the bare `<shape x dtype, space>`.
  // CHECK-LABEL: func.func @implicit_views_omitted
  // CHECK-SAME: %vec: !pto.tile<16x128xf32, vec>,
  // CHECK-SAME: %col: !pto.tile<16x1xf32, vec>,
  // CHECK-SAME: %one: !pto.tile<1x1xf32, vec>,
  // CHECK-SAME: %row: !pto.tile<1x16xf32, vec>,
  // CHECK-SAME: %mat: !pto.tile<16x128xbf16, mat>,
  // CHECK-SAME: %left: !pto.tile<16x128xbf16, left>,
  // CHECK-SAME: %right: !pto.tile<128x64xbf16, right>,
  // CHECK-SAME: %acc: !pto.tile<16x64xf32, acc>,
  // CHECK-SAME: %bias: !pto.tile<1x64xf32, bias>,
  // CHECK-SAME: %ls: !pto.tile<16x4xf8E8M0FNU, left_scale>,
  // CHECK-SAME: %rs: !pto.tile<4x64xf8E8M0FNU, right_scale>,
  // CHECK-SAME: %full: !pto.tile<16x128xf32, vec>)
  func.func @implicit_views_omitted(
      %vec: !pto.tile<16x128xf32, vec, blayout = row_major, slayout = none_box, fractal = 512, pad = null, valid = [16, 128]>,
      %col: !pto.tile<16x1xf32, vec, blayout = col_major, slayout = none_box, fractal = 512>,
      %one: !pto.tile<1x1xf32, vec, blayout = row_major>,
      %row: !pto.tile<1x16xf32, vec, blayout = row_major>,
      %mat: !pto.tile<16x128xbf16, mat, blayout = col_major, slayout = row_major, fractal = 512>,
      %left: !pto.tile<16x128xbf16, left, blayout = col_major, slayout = row_major, fractal = 512>,
      %right: !pto.tile<128x64xbf16, right, blayout = row_major, slayout = col_major, fractal = 512>,
      %acc: !pto.tile<16x64xf32, acc, blayout = col_major, slayout = row_major, fractal = 1024>,
      %bias: !pto.tile<1x64xf32, bias, blayout = row_major, slayout = none_box, fractal = 512>,
      %ls: !pto.tile<16x4xf8E8M0FNU, left_scale, blayout = row_major, slayout = row_major, fractal = 32>,
      %rs: !pto.tile<4x64xf8E8M0FNU, right_scale, blayout = col_major, slayout = col_major, fractal = 32>,
      %full: !pto.tile<16x128xf32, vec, valid = [16, 128], pad = null, fractal = 512, slayout = none_box, blayout = row_major>) {
    func.return
  }

  // Fields that differ from the implicit view are printed, in the fixed order blayout, slayout, fractal, pad, valid.
  // CHECK-LABEL: func.func @explicit_views
  // CHECK-SAME: %v1: !pto.tile<16x128xf32, vec, blayout = col_major>,
  // CHECK-SAME: %v2: !pto.tile<16x1xf32, vec, blayout = row_major>,
  // CHECK-SAME: %v3: !pto.tile<16x128xf32, vec, slayout = row_major, fractal = 1024>,
  // CHECK-SAME: %v4: !pto.tile<16x128xf32, vec, blayout = none_box, slayout = col_major, fractal = 32, pad = zero, valid = [?, 100]>,
  // CHECK-SAME: %v5: !pto.tile<16x128xf32, vec, pad = max>,
  // CHECK-SAME: %v6: !pto.tile<16x128xf32, vec, pad = min, valid = [13, ?]>,
  // CHECK-SAME: %m1: !pto.tile<16x128xbf16, mat, blayout = row_major, slayout = col_major>,
  // CHECK-SAME: %m2: !pto.tile<16x128xbf16, mat, fractal = 1024>,
  // CHECK-SAME: %r1: !pto.tile<128x64xbf16, right, blayout = col_major, slayout = row_major>,
  // CHECK-SAME: %a1: !pto.tile<16x64xf32, acc, fractal = 512>,
  // CHECK-SAME: %a2: !pto.tile<16x64xf32, acc, blayout = row_major, slayout = none_box>,
  // CHECK-SAME: %l1: !pto.tile<16x128xbf16, left, blayout = row_major, slayout = col_major>,
  // CHECK-SAME: %ls1: !pto.tile<16x4xf8E8M0FNU, left_scale, fractal = 512>,
  // CHECK-SAME: %rs1: !pto.tile<4x64xf8E8M0FNU, right_scale, blayout = row_major>,
  // CHECK-SAME: %b1: !pto.tile<1x64xf32, bias, blayout = col_major>,
  // CHECK-SAME: %d1: !pto.tile<?x128xf32, vec>,
  // CHECK-SAME: %d2: !pto.tile<?x?xf32, vec, valid = [8, ?]>,
  // CHECK-SAME: %d3: !pto.tile<2x16x128xf32, vec>,
  // CHECK-SAME: %i4: !pto.tile<16x64xi4, vec>)
  func.func @explicit_views(
      %v1: !pto.tile<16x128xf32, vec, blayout = col_major>,
      %v2: !pto.tile<16x1xf32, vec, blayout = row_major>,
      %v3: !pto.tile<16x128xf32, vec, fractal = 1024, slayout = row_major>,
      %v4: !pto.tile<16x128xf32, vec, valid = [?, 100], pad = zero, fractal = 32, slayout = col_major, blayout = none_box>,
      %v5: !pto.tile<16x128xf32, vec, pad = max>,
      %v6: !pto.tile<16x128xf32, vec, pad = min, valid = [13, ?]>,
      %m1: !pto.tile<16x128xbf16, mat, blayout = row_major, slayout = col_major>,
      %m2: !pto.tile<16x128xbf16, mat, fractal = 1024>,
      %r1: !pto.tile<128x64xbf16, right, blayout = col_major, slayout = row_major>,
      %a1: !pto.tile<16x64xf32, acc, fractal = 512>,
      %a2: !pto.tile<16x64xf32, acc, blayout = row_major, slayout = none_box>,
      %l1: !pto.tile<16x128xbf16, left, blayout = row_major, slayout = col_major>,
      %ls1: !pto.tile<16x4xf8E8M0FNU, left_scale, fractal = 512>,
      %rs1: !pto.tile<4x64xf8E8M0FNU, right_scale, blayout = row_major>,
      %b1: !pto.tile<1x64xf32, bias, blayout = col_major>,
      %d1: !pto.tile<?x128xf32, vec>,
      %d2: !pto.tile<?x?xf32, vec, valid = [8, ?]>,
      %d3: !pto.tile<2x16x128xf32, vec>,
      %i4: !pto.tile<16x64xi4, vec>) {
    func.return
  }

  // Every pto.kind, every pto.split and every other function attribute; argument directions.
  // CHECK-LABEL: func.func @kernel
  // CHECK-SAME: (%x: !pto.tensor<16x128xf32>, %y: !pto.tensor<16x128xf32> {pto.inout}, %z: !pto.tensor<16x128xf32> {pto.out})
  // CHECK-SAME: attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv, pto.split_aiv_region_validated, pto.dual_aiv_dispatch, pto.slot_num = 4 : i64, pto.local_slot_num = 2 : i64, pto.core_num = 24 : i64, pto.sync_start}
  func.func @kernel(%x: !pto.tensor<16x128xf32>, %y: !pto.tensor<16x128xf32> {pto.inout}, %z: !pto.tensor<16x128xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv, pto.split_aiv_region_validated,
                  pto.dual_aiv_dispatch, pto.slot_num = 4 : i64, pto.local_slot_num = 2 : i64, pto.core_num = 24 : i64, pto.sync_start} {
    func.return
  }
  // CHECK: func.func @k_opaque() attributes {pto.kind = #pto.kind<opaque>, pto.split = #pto.split<none>}
  func.func @k_opaque() attributes {pto.kind = #pto.kind<opaque>, pto.split = #pto.split<none>} {
    func.return
  }
  // CHECK: func.func @k_orchestration() attributes {pto.kind = #pto.kind<orchestration>, pto.split = #pto.split<left_right>}
  func.func @k_orchestration() attributes {pto.kind = #pto.kind<orchestration>, pto.split = #pto.split<left_right>} {
    func.return
  }
  // CHECK: func.func @k_aic() attributes {pto.kind = #pto.kind<aic>}
  func.func @k_aic() attributes {pto.kind = #pto.kind<aic>} {
    func.return
  }
  // CHECK: func.func @k_aiv() attributes {pto.kind = #pto.kind<aiv>}
  func.func @k_aiv() attributes {pto.kind = #pto.kind<aiv>} {
    func.return
  }
  // CHECK: func.func @k_group() attributes {pto.kind = #pto.kind<group>}
  func.func @k_group() attributes {pto.kind = #pto.kind<group>} {
    func.return
  }
  // CHECK: func.func @k_spmd() attributes {pto.kind = #pto.kind<spmd>}
  func.func @k_spmd() attributes {pto.kind = #pto.kind<spmd>} {
    func.return
  }
  // CHECK: func.func @k_inline() attributes {pto.kind = #pto.kind<inline>}
  func.func @k_inline() attributes {pto.kind = #pto.kind<inline>} {
    func.return
  }
}
