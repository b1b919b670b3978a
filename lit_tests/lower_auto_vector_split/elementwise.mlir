// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s

// Vector op families (reference §2.3, generic rule): elementwise, tile-scalar, unary, cast, reductions off
// the split axis, broadcasts, same-side moves and generators (full, create) are halved on the split axis;
// singleton split dims are kept; cube ops stay full width.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // UP_DOWN softmax rows: row reductions are off the split axis ([64,128] -> [32,1]).
  // CHECK-LABEL: func.func @up_down
  // the cube side is untouched
  // CHECK:       %acc = pto.matmul %l, %r : !pto.tile<64x64xf32, left>, !pto.tile<64x128xf32, right> -> !pto.tile<64x128xf32, acc>
  // CHECK-NEXT:  %s = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<64x128xf32, acc> -> !pto.tile<32x128xf32, vec>
  // CHECK-NEXT:  %sc = pto.muls %s, %f : !pto.tile<32x128xf32, vec>, f32
  // CHECK-NEXT:  %m = pto.row_max %sc : !pto.tile<32x128xf32, vec> -> !pto.tile<32x1xf32, vec>
  // CHECK-NEXT:  %d = pto.row_expand_sub %sc, %m : !pto.tile<32x128xf32, vec>, !pto.tile<32x1xf32, vec>
  // CHECK-NEXT:  %e = pto.exp %d : !pto.tile<32x128xf32, vec>
  // CHECK-NEXT:  %z = pto.full %f : f32 -> !pto.tile<32x128xf32, vec>
  // CHECK-NEXT:  %u = pto.create : !pto.tile<32x128xf32, vec>
  // CHECK-NEXT:  %a = pto.max %e, %z : !pto.tile<32x128xf32, vec>
  // CHECK-NEXT:  %h = pto.cast %a : !pto.tile<32x128xf32, vec> -> !pto.tile<32x128xf16, vec>
  // CHECK-NEXT:  %mv = pto.move %h : !pto.tile<32x128xf16, vec> -> !pto.tile<32x128xf16, vec, pad = zero>
  // singleton split dim kept: a [1, 128] full stays [1, 128] and broadcasts over the half
  // CHECK-NEXT:  %bias = pto.full %f : f32 -> !pto.tile<1x128xf32, vec>
  // CHECK-NEXT:  %b = pto.col_expand_add %a, %bias : !pto.tile<32x128xf32, vec>, !pto.tile<1x128xf32, vec>
  func.func @up_down(%a_mat: !pto.tile<64x64xf32, mat>, %b_mat: !pto.tile<64x128xf32, mat>, %f: f32,
                     %out: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %l = pto.move %a_mat : !pto.tile<64x64xf32, mat> -> !pto.tile<64x64xf32, left>
    %r = pto.move %b_mat : !pto.tile<64x128xf32, mat> -> !pto.tile<64x128xf32, right>
    %acc = pto.matmul %l, %r : !pto.tile<64x64xf32, left>, !pto.tile<64x128xf32, right> -> !pto.tile<64x128xf32, acc>
    %s = pto.move %acc : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
    %sc = pto.muls %s, %f : !pto.tile<64x128xf32, vec>, f32
    %m = pto.row_max %sc : !pto.tile<64x128xf32, vec> -> !pto.tile<64x1xf32, vec>
    %d = pto.row_expand_sub %sc, %m : !pto.tile<64x128xf32, vec>, !pto.tile<64x1xf32, vec>
    %e = pto.exp %d : !pto.tile<64x128xf32, vec>
    %z = pto.full %f : f32 -> !pto.tile<64x128xf32, vec>
    %u = pto.create : !pto.tile<64x128xf32, vec>
    %a = pto.max %e, %z : !pto.tile<64x128xf32, vec>
    %h = pto.cast %a : !pto.tile<64x128xf32, vec> -> !pto.tile<64x128xf16, vec>
    %mv = pto.move %h : !pto.tile<64x128xf16, vec> -> !pto.tile<64x128xf16, vec, pad = zero>
    %bias = pto.full %f : f32 -> !pto.tile<1x128xf32, vec>
    %b = pto.col_expand_add %a, %bias : !pto.tile<64x128xf32, vec>, !pto.tile<1x128xf32, vec>
    %o = pto.store %b, %out[0, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<64x128xf32>
    func.return %o : !pto.tensor<64x128xf32>
  }

  // LEFT_RIGHT: column reductions are off the split axis ([64,128] -> [1,64]); the [64,1] row full is a
  // singleton on the split dim and is kept.
  // CHECK-LABEL: func.func @left_right
  // CHECK:       %s = pto.aiv_shard %acc {split = 2 : i64} : !pto.tile<64x128xf32, acc> -> !pto.tile<64x64xf32, vec>
  // CHECK-NEXT:  %cm = pto.col_max %s : !pto.tile<64x64xf32, vec> -> !pto.tile<1x64xf32, vec>
  // CHECK-NEXT:  %cd = pto.col_expand_div %s, %cm : !pto.tile<64x64xf32, vec>, !pto.tile<1x64xf32, vec>
  // CHECK-NEXT:  %n = pto.neg %cd : !pto.tile<64x64xf32, vec>
  // CHECK-NEXT:  %rw = pto.full %f : f32 -> !pto.tile<64x1xf32, vec>
  // CHECK-NEXT:  %rr = pto.row_expand_mul %n, %rw : !pto.tile<64x64xf32, vec>, !pto.tile<64x1xf32, vec>
  // CHECK-NEXT:  %o = pto.store %rr, %out[0, %{{.*}}] : !pto.tile<64x64xf32, vec>, !pto.tensor<64x128xf32>
  func.func @left_right(%acc: !pto.tile<64x128xf32, acc>, %f: f32, %out: !pto.tensor<64x128xf32> {pto.out})
      -> !pto.tensor<64x128xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %acc : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
    %cm = pto.col_max %s : !pto.tile<64x128xf32, vec> -> !pto.tile<1x128xf32, vec>
    %cd = pto.col_expand_div %s, %cm : !pto.tile<64x128xf32, vec>, !pto.tile<1x128xf32, vec>
    %n = pto.neg %cd : !pto.tile<64x128xf32, vec>
    %rw = pto.full %f : f32 -> !pto.tile<64x1xf32, vec>
    %rr = pto.row_expand_mul %n, %rw : !pto.tile<64x128xf32, vec>, !pto.tile<64x1xf32, vec>
    %o = pto.store %rr, %out[0, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<64x128xf32>
    func.return %o : !pto.tensor<64x128xf32>
  }

  // A full-width vector value (a vec parameter) that never meets the split data stays full width.
  // CHECK-LABEL: func.func @full_width_untouched
  // CHECK:       %e = pto.exp %p : !pto.tile<64x128xf32, vec>
  // CHECK-NEXT:  %o = pto.store %e, %out[0, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<64x128xf32>
  func.func @full_width_untouched(%acc: !pto.tile<64x128xf32, acc>, %p: !pto.tile<64x128xf32, vec>,
                                  %out: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %acc : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
    %e = pto.exp %p : !pto.tile<64x128xf32, vec>
    %o = pto.store %e, %out[0, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<64x128xf32>
    func.return %o : !pto.tensor<64x128xf32>
  }
}
