// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: pypto-opt %s --lower-auto-vector-split | pypto-opt | filecheck %s

// Seed example 2 (V->C boundary stays full size): the V->C move of the per-lane tile `v` becomes
// `%gathered_mat = aic_gather %v {split}` (half -> full, Mat) followed by the retained placement move.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @gather_up_down
  // CHECK:       %v = pto.load %x[%{{.*}}, 0] : !pto.tensor<128x128xf32> -> !pto.tile<64x128xf32, vec>
  // CHECK-NEXT:  %gathered_mat = pto.aic_gather %v {split = 1 : i64} : !pto.tile<64x128xf32, vec> -> !pto.tile<128x128xf32, mat>
  // CHECK-NEXT:  %gathered = pto.move %gathered_mat : !pto.tile<128x128xf32, mat> -> !pto.tile<128x128xf32, mat>
  // CHECK-NEXT:  %l = pto.move %gathered : !pto.tile<128x128xf32, mat> -> !pto.tile<128x128xf32, left>
  // CHECK:       pto.matmul %l, %r : !pto.tile<128x128xf32, left>, !pto.tile<128x128xf32, right> -> !pto.tile<128x128xf32, acc>
  func.func @gather_up_down(%x: !pto.tensor<128x128xf32>, %w: !pto.tile<128x128xf32, mat>,
                            %out_0: !pto.tensor<128x128xf32> {pto.out}) -> !pto.tensor<128x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.load %x[0, 0] : !pto.tensor<128x128xf32> -> !pto.tile<128x128xf32, vec>
    %gathered = pto.move %v : !pto.tile<128x128xf32, vec> -> !pto.tile<128x128xf32, mat>
    %l = pto.move %gathered : !pto.tile<128x128xf32, mat> -> !pto.tile<128x128xf32, left>
    %r = pto.move %w : !pto.tile<128x128xf32, mat> -> !pto.tile<128x128xf32, right>
    %c = pto.matmul %l, %r : !pto.tile<128x128xf32, left>, !pto.tile<128x128xf32, right> -> !pto.tile<128x128xf32, acc>
    %out_1 = pto.store %c, %out_0[0, 0] : !pto.tile<128x128xf32, acc>, !pto.tensor<128x128xf32>
    func.return %out_1 : !pto.tensor<128x128xf32>
  }

  // LEFT_RIGHT: the gather splits the column axis (split = 2) and goes straight into the Left placement move.
  // CHECK-LABEL: func.func @gather_left_right
  // CHECK:       %v = pto.exp %{{.*}} : !pto.tile<64x64xf32, vec>
  // CHECK-NEXT:  %vl_mat = pto.aic_gather %v {split = 2 : i64} : !pto.tile<64x64xf32, vec> -> !pto.tile<64x128xf32, mat>
  // CHECK-NEXT:  %vl = pto.move %vl_mat : !pto.tile<64x128xf32, mat> -> !pto.tile<64x128xf32, left>
  func.func @gather_left_right(%x: !pto.tensor<64x128xf32>, %w: !pto.tile<128x64xf32, right>,
                               %out_0: !pto.tensor<64x64xf32> {pto.out}) -> !pto.tensor<64x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %a = pto.load %x[0, 0] : !pto.tensor<64x128xf32> -> !pto.tile<64x128xf32, vec>
    %v = pto.exp %a : !pto.tile<64x128xf32, vec>
    %vl = pto.move %v : !pto.tile<64x128xf32, vec> -> !pto.tile<64x128xf32, left>
    %c = pto.matmul %vl, %w : !pto.tile<64x128xf32, left>, !pto.tile<128x64xf32, right> -> !pto.tile<64x64xf32, acc>
    %out_1 = pto.store %c, %out_0[0, 0] : !pto.tile<64x64xf32, acc>, !pto.tensor<64x64xf32>
    func.return %out_1 : !pto.tensor<64x64xf32>
  }

  // The gather follows the operand's tracked split axis, not the function's: in an UP_DOWN function the
  // reshape [8,1] -> [1,8] moved the split to dim 1, so the gather is split = 2 and doubles the columns.
  // CHECK-LABEL: func.func @gather_after_reshape
  // CHECK:       %s = pto.aiv_shard %qk {split = 1 : i64} : !pto.tile<16x1xf32, acc> -> !pto.tile<8x1xf32, vec>
  // CHECK-NEXT:  %row = pto.reshape %s : !pto.tile<8x1xf32, vec> -> !pto.tile<1x8xf32, vec>
  // CHECK-NEXT:  %g_mat = pto.aic_gather %row {split = 2 : i64} : !pto.tile<1x8xf32, vec> -> !pto.tile<1x16xf32, mat>
  // CHECK-NEXT:  %g = pto.move %g_mat : !pto.tile<1x16xf32, mat> -> !pto.tile<1x16xf32, left>
  func.func @gather_after_reshape(%qk: !pto.tile<16x1xf32, acc>, %w: !pto.tile<16x16xf32, right>,
                                  %out_0: !pto.tensor<1x16xf32> {pto.out}) -> !pto.tensor<1x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x1xf32, acc> -> !pto.tile<16x1xf32, vec>
    %row = pto.reshape %s : !pto.tile<16x1xf32, vec> -> !pto.tile<1x16xf32, vec>
    %g = pto.move %row : !pto.tile<1x16xf32, vec> -> !pto.tile<1x16xf32, left>
    %c = pto.matmul %g, %w : !pto.tile<1x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<1x16xf32, acc>
    %out_1 = pto.store %c, %out_0[0, 0] : !pto.tile<1x16xf32, acc>, !pto.tensor<1x16xf32>
    func.return %out_1 : !pto.tensor<1x16xf32>
  }
}
