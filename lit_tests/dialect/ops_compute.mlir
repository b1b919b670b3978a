// Round trip of the compute ops: generators (create, full, ci, random), the eight cube matmul ops, the vector
// elementwise ops (tile-tile, tile-scalar, unary), cast, the six reductions, the eight broadcasts and
// get_subblock_idx, in custom and generic form.

// RUN: pypto-opt %s | filecheck %s
// RUN: pypto-opt %s | pypto-opt | filecheck %s
// RUN: pypto-opt %s --mlir-print-op-generic | pypto-opt | filecheck %s
// RUN: pypto-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: pypto-opt %s --mlir-print-op-generic | pypto-opt --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// The exact fixed point (byte-identical reprint, custom and generic) is checked in-process by
// tests/dialects/test_dialect_roundtrip.py, which does not depend on lit's shared temporary files.

builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @generators
  // CHECK:      %u = pto.create : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %uc = pto.create : !pto.tile<16x128xf32, acc>
  // CHECK-NEXT: %z = pto.full %f : f32 -> !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %ci = pto.ci %n : i32 -> !pto.tile<1x128xi32, vec>
  // CHECK-NEXT: %rnd = pto.random %n : i32 -> !pto.tile<16x128xf32, vec>
  // A generator's valid region is its type's: a static partial one, or a dynamic box (valid in full), is accepted
  // (a `?` valid extent of a static dim is an error: invalid_compute_ops.mlir).
  // CHECK-NEXT: %zp = pto.full %f : f32 -> !pto.tile<16x128xf32, vec, valid = [15, 128]>
  // CHECK-NEXT: %zd = pto.full %f : f32 -> !pto.tile<?x128xf32, vec>
  // GENERIC-LABEL: "func.func"() <{sym_name = "generators"
  // GENERIC: %z = "pto.full"(%f) : (f32) -> !pto.tile<16x128xf32, vec>
  func.func @generators(%f: f32, %n: i32) {
    %u = pto.create : !pto.tile<16x128xf32, vec>
    %uc = pto.create : !pto.tile<16x128xf32, acc>
    %z = pto.full %f : f32 -> !pto.tile<16x128xf32, vec>
    %ci = pto.ci %n : i32 -> !pto.tile<1x128xi32, vec>
    %rnd = pto.random %n : i32 -> !pto.tile<16x128xf32, vec>
    %zp = pto.full %f : f32 -> !pto.tile<16x128xf32, vec, valid = [15, 128]>
    %zd = pto.full %f : f32 -> !pto.tile<?x128xf32, vec>
    func.return
  }

  // CHECK-LABEL: func.func @cube
  // CHECK:      %c = pto.matmul %l, %r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
  // CHECK-NEXT: %c2 = pto.matmul_acc %c, %l, %r : !pto.tile<16x128xf32, acc>, !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
  // CHECK-NEXT: %c3 = pto.matmul_bias %l, %r, %bias : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right>, !pto.tile<1x128xf32, bias> -> !pto.tile<16x128xf32, acc>
  // CHECK-NEXT: %g = pto.gemv %v, %r : !pto.tile<1x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<1x128xf32, acc>
  // CHECK-NEXT: %g2 = pto.gemv_acc %g, %v, %r : !pto.tile<1x128xf32, acc>, !pto.tile<1x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<1x128xf32, acc>
  // CHECK-NEXT: %g3 = pto.gemv_bias %v, %r, %bias : !pto.tile<1x64xbf16, left>, !pto.tile<64x128xbf16, right>, !pto.tile<1x128xf32, bias> -> !pto.tile<1x128xf32, acc>
  // CHECK-NEXT: %bm = pto.batch_matmul %bl, %br : !pto.tile<2x16x64xbf16, left>, !pto.tile<2x64x32xbf16, right> -> !pto.tile<2x16x32xf32, acc>
  // CHECK-NEXT: %bm2 = pto.batch_matmul_acc %bm, %bl, %br : !pto.tile<2x16x32xf32, acc>, !pto.tile<2x16x64xbf16, left>, !pto.tile<2x64x32xbf16, right> -> !pto.tile<2x16x32xf32, acc>
  // GENERIC-LABEL: "func.func"() <{sym_name = "cube"
  // GENERIC: %c2 = "pto.matmul_acc"(%c, %l, %r) : (!pto.tile<16x128xf32, acc>, !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right>) -> !pto.tile<16x128xf32, acc>
  func.func @cube(%l: !pto.tile<16x64xbf16, left>, %r: !pto.tile<64x128xbf16, right>, %bias: !pto.tile<1x128xf32, bias>,
                  %v: !pto.tile<1x64xbf16, left>, %bl: !pto.tile<2x16x64xbf16, left>, %br: !pto.tile<2x64x32xbf16, right>) {
    %c = pto.matmul %l, %r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %c2 = pto.matmul_acc %c, %l, %r : !pto.tile<16x128xf32, acc>, !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %c3 = pto.matmul_bias %l, %r, %bias : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right>, !pto.tile<1x128xf32, bias> -> !pto.tile<16x128xf32, acc>
    %g = pto.gemv %v, %r : !pto.tile<1x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<1x128xf32, acc>
    %g2 = pto.gemv_acc %g, %v, %r : !pto.tile<1x128xf32, acc>, !pto.tile<1x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<1x128xf32, acc>
    %g3 = pto.gemv_bias %v, %r, %bias : !pto.tile<1x64xbf16, left>, !pto.tile<64x128xbf16, right>, !pto.tile<1x128xf32, bias> -> !pto.tile<1x128xf32, acc>
    %bm = pto.batch_matmul %bl, %br : !pto.tile<2x16x64xbf16, left>, !pto.tile<2x64x32xbf16, right> -> !pto.tile<2x16x32xf32, acc>
    %bm2 = pto.batch_matmul_acc %bm, %bl, %br : !pto.tile<2x16x32xf32, acc>, !pto.tile<2x16x64xbf16, left>, !pto.tile<2x64x32xbf16, right> -> !pto.tile<2x16x32xf32, acc>
    func.return
  }

  // CHECK-LABEL: func.func @elementwise
  // CHECK:      %add = pto.add %a, %b : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %sub = pto.sub %a, %b : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %mul = pto.mul %a, %b : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %div = pto.div %a, %b : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %max = pto.max %a, %b : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %min = pto.min %a, %b : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %adds = pto.adds %a, %f : !pto.tile<16x128xf32, vec>, f32
  // CHECK-NEXT: %subs = pto.subs %a, %f : !pto.tile<16x128xf32, vec>, f32
  // CHECK-NEXT: %muls = pto.muls %a, %f : !pto.tile<16x128xf32, vec>, f32
  // CHECK-NEXT: %divs = pto.divs %a, %f : !pto.tile<16x128xf32, vec>, f32
  // CHECK-NEXT: %maxs = pto.maxs %a, %f : !pto.tile<16x128xf32, vec>, f32
  // CHECK-NEXT: %mins = pto.mins %a, %f : !pto.tile<16x128xf32, vec>, f32
  // CHECK-NEXT: %exp = pto.exp %a : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %log = pto.log %a : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %sqrt = pto.sqrt %a : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %rsqrt = pto.rsqrt %a : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %recip = pto.recip %a : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %neg = pto.neg %a : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %abs = pto.abs %a : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %relu = pto.relu %a : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %h = pto.cast %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xbf16, vec>
  // CHECK-NEXT: %q = pto.cast %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xi8, vec>
  // CHECK-NEXT: %ai = pto.adds %ti, %n : !pto.tile<16x128xi32, vec>, i32
  // GENERIC-LABEL: "func.func"() <{sym_name = "elementwise"
  // GENERIC: %add = "pto.add"(%a, %b) : (!pto.tile<16x128xf32, vec>, !pto.tile<16x128xf32, vec>) -> !pto.tile<16x128xf32, vec>
  // GENERIC: %adds = "pto.adds"(%a, %f) : (!pto.tile<16x128xf32, vec>, f32) -> !pto.tile<16x128xf32, vec>
  // GENERIC: %exp = "pto.exp"(%a) : (!pto.tile<16x128xf32, vec>) -> !pto.tile<16x128xf32, vec>
  func.func @elementwise(%a: !pto.tile<16x128xf32, vec>, %b: !pto.tile<16x128xf32, vec>, %f: f32,
                         %ti: !pto.tile<16x128xi32, vec>, %n: i32) {
    %add = pto.add %a, %b : !pto.tile<16x128xf32, vec>
    %sub = pto.sub %a, %b : !pto.tile<16x128xf32, vec>
    %mul = pto.mul %a, %b : !pto.tile<16x128xf32, vec>
    %div = pto.div %a, %b : !pto.tile<16x128xf32, vec>
    %max = pto.max %a, %b : !pto.tile<16x128xf32, vec>
    %min = pto.min %a, %b : !pto.tile<16x128xf32, vec>
    %adds = pto.adds %a, %f : !pto.tile<16x128xf32, vec>, f32
    %subs = pto.subs %a, %f : !pto.tile<16x128xf32, vec>, f32
    %muls = pto.muls %a, %f : !pto.tile<16x128xf32, vec>, f32
    %divs = pto.divs %a, %f : !pto.tile<16x128xf32, vec>, f32
    %maxs = pto.maxs %a, %f : !pto.tile<16x128xf32, vec>, f32
    %mins = pto.mins %a, %f : !pto.tile<16x128xf32, vec>, f32
    %exp = pto.exp %a : !pto.tile<16x128xf32, vec>
    %log = pto.log %a : !pto.tile<16x128xf32, vec>
    %sqrt = pto.sqrt %a : !pto.tile<16x128xf32, vec>
    %rsqrt = pto.rsqrt %a : !pto.tile<16x128xf32, vec>
    %recip = pto.recip %a : !pto.tile<16x128xf32, vec>
    %neg = pto.neg %a : !pto.tile<16x128xf32, vec>
    %abs = pto.abs %a : !pto.tile<16x128xf32, vec>
    %relu = pto.relu %a : !pto.tile<16x128xf32, vec>
    %h = pto.cast %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xbf16, vec>
    %q = pto.cast %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xi8, vec>
    %ai = pto.adds %ti, %n : !pto.tile<16x128xi32, vec>, i32
    func.return
  }

  // CHECK-LABEL: func.func @reduce_broadcast
  // CHECK:      %rs = pto.row_sum %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x1xf32, vec>
  // CHECK-NEXT: %rmax = pto.row_max %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x1xf32, vec>
  // CHECK-NEXT: %rmin = pto.row_min %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x1xf32, vec>
  // CHECK-NEXT: %cs = pto.col_sum %a : !pto.tile<16x128xf32, vec> -> !pto.tile<1x128xf32, vec>
  // CHECK-NEXT: %cmax = pto.col_max %a : !pto.tile<16x128xf32, vec> -> !pto.tile<1x128xf32, vec>
  // CHECK-NEXT: %cmin = pto.col_min %a : !pto.tile<16x128xf32, vec> -> !pto.tile<1x128xf32, vec>
  // CHECK-NEXT: %rea = pto.row_expand_add %a, %rs : !pto.tile<16x128xf32, vec>, !pto.tile<16x1xf32, vec>
  // CHECK-NEXT: %res = pto.row_expand_sub %a, %rmax : !pto.tile<16x128xf32, vec>, !pto.tile<16x1xf32, vec>
  // CHECK-NEXT: %rem = pto.row_expand_mul %a, %rs : !pto.tile<16x128xf32, vec>, !pto.tile<16x1xf32, vec>
  // CHECK-NEXT: %red = pto.row_expand_div %a, %rs : !pto.tile<16x128xf32, vec>, !pto.tile<16x1xf32, vec>
  // CHECK-NEXT: %cea = pto.col_expand_add %a, %cs : !pto.tile<16x128xf32, vec>, !pto.tile<1x128xf32, vec>
  // CHECK-NEXT: %ces = pto.col_expand_sub %a, %cmax : !pto.tile<16x128xf32, vec>, !pto.tile<1x128xf32, vec>
  // CHECK-NEXT: %cem = pto.col_expand_mul %a, %cs : !pto.tile<16x128xf32, vec>, !pto.tile<1x128xf32, vec>
  // CHECK-NEXT: %ced = pto.col_expand_div %a, %cs : !pto.tile<16x128xf32, vec>, !pto.tile<1x128xf32, vec>
  // CHECK-NEXT: %lane = pto.get_subblock_idx : index
  // GENERIC-LABEL: "func.func"() <{sym_name = "reduce_broadcast"
  // GENERIC: %rs = "pto.row_sum"(%a) : (!pto.tile<16x128xf32, vec>) -> !pto.tile<16x1xf32, vec>
  // GENERIC: %rea = "pto.row_expand_add"(%a, %rs) : (!pto.tile<16x128xf32, vec>, !pto.tile<16x1xf32, vec>) -> !pto.tile<16x128xf32, vec>
  // GENERIC: %lane = "pto.get_subblock_idx"() : () -> index
  func.func @reduce_broadcast(%a: !pto.tile<16x128xf32, vec>) {
    %rs = pto.row_sum %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x1xf32, vec>
    %rmax = pto.row_max %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x1xf32, vec>
    %rmin = pto.row_min %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x1xf32, vec>
    %cs = pto.col_sum %a : !pto.tile<16x128xf32, vec> -> !pto.tile<1x128xf32, vec>
    %cmax = pto.col_max %a : !pto.tile<16x128xf32, vec> -> !pto.tile<1x128xf32, vec>
    %cmin = pto.col_min %a : !pto.tile<16x128xf32, vec> -> !pto.tile<1x128xf32, vec>
    %rea = pto.row_expand_add %a, %rs : !pto.tile<16x128xf32, vec>, !pto.tile<16x1xf32, vec>
    %res = pto.row_expand_sub %a, %rmax : !pto.tile<16x128xf32, vec>, !pto.tile<16x1xf32, vec>
    %rem = pto.row_expand_mul %a, %rs : !pto.tile<16x128xf32, vec>, !pto.tile<16x1xf32, vec>
    %red = pto.row_expand_div %a, %rs : !pto.tile<16x128xf32, vec>, !pto.tile<16x1xf32, vec>
    %cea = pto.col_expand_add %a, %cs : !pto.tile<16x128xf32, vec>, !pto.tile<1x128xf32, vec>
    %ces = pto.col_expand_sub %a, %cmax : !pto.tile<16x128xf32, vec>, !pto.tile<1x128xf32, vec>
    %cem = pto.col_expand_mul %a, %cs : !pto.tile<16x128xf32, vec>, !pto.tile<1x128xf32, vec>
    %ced = pto.col_expand_div %a, %cs : !pto.tile<16x128xf32, vec>, !pto.tile<1x128xf32, vec>
    %lane = pto.get_subblock_idx : index
    func.return
  }
}
