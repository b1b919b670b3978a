// RUN: pypto-opt %s '--lower-auto-vector-split{fallback=error}' | filecheck %s

// Views (reference §2.3): slice, reshape (axis migration and the untracked-input slice rule), transpose and
// set_validshape.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // Slice: of a full-width tile the window is halved and lane-offset (32 -> 32 + sub*32); of a per-lane tile
  // (along the other axis) the shape is halved and the offsets kept.
  // CHECK-LABEL: func.func @slices_up_down
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c32 : index
  // CHECK-NEXT:  %[[S:.*]] = arith.addi %c32, %[[L]] : index
  // CHECK:       %t = pto.slice %s[0, 64] : !pto.tile<32x128xf32, vec> -> !pto.tile<32x64xf32, vec>
  // CHECK-NEXT:  %u = pto.slice %x[%[[S]], 0] : !pto.tile<128x128xf32, vec> -> !pto.tile<32x64xf32, vec>
  // CHECK-NEXT:  %w = pto.add %t, %u : !pto.tile<32x64xf32, vec>
  func.func @slices_up_down(%qk: !pto.tile<64x128xf32, acc>, %x: !pto.tile<128x128xf32, vec>,
                            %out: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
    %t = pto.slice %s[0, 64] : !pto.tile<64x128xf32, vec> -> !pto.tile<64x64xf32, vec>
    %u = pto.slice %x[32, 0] : !pto.tile<128x128xf32, vec> -> !pto.tile<64x64xf32, vec>
    %w = pto.add %t, %u : !pto.tile<64x64xf32, vec>
    %o = pto.store %w, %out[0, 0] : !pto.tile<64x64xf32, vec>, !pto.tensor<64x128xf32>
    func.return %o : !pto.tensor<64x128xf32>
  }

  // CHECK-LABEL: func.func @slices_left_right
  // CHECK:       %t = pto.slice %s[8, 0] : !pto.tile<64x64xf32, vec> -> !pto.tile<16x64xf32, vec>
  // CHECK-NEXT:  %u = pto.slice %x[0, %{{.*}}] : !pto.tile<16x128xf32, vec> -> !pto.tile<16x64xf32, vec>
  func.func @slices_left_right(%qk: !pto.tile<64x128xf32, acc>, %x: !pto.tile<16x128xf32, vec>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
    %t = pto.slice %s[8, 0] : !pto.tile<64x128xf32, vec> -> !pto.tile<16x128xf32, vec>
    %u = pto.slice %x[0, 0] : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xf32, vec>
    %w = pto.add %t, %u : !pto.tile<16x128xf32, vec>
    func.return
  }

  // Reshape migration: [16,1] -> [1,16] moves the split to dim 1, [1,16] -> [16,1] moves it back; the store
  // offset is on dim 0 again (0 + sub*8).
  // CHECK-LABEL: func.func @reshape_migrate_up_down
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK-NEXT:  %s = pto.aiv_shard %qk {split = 1 : i64} : !pto.tile<16x1xf32, acc> -> !pto.tile<8x1xf32, vec>
  // CHECK-NEXT:  %r = pto.reshape %s : !pto.tile<8x1xf32, vec> -> !pto.tile<1x8xf32, vec>
  // CHECK-NEXT:  %e = pto.recip %r : !pto.tile<1x8xf32, vec>
  // CHECK-NEXT:  %b = pto.reshape %e : !pto.tile<1x8xf32, vec> -> !pto.tile<8x1xf32, vec>
  // CHECK-NEXT:  %o = pto.store %b, %out[%[[L]], 0] : !pto.tile<8x1xf32, vec>, !pto.tensor<16x1xf32>
  func.func @reshape_migrate_up_down(%qk: !pto.tile<16x1xf32, acc>, %out: !pto.tensor<16x1xf32> {pto.out})
      -> !pto.tensor<16x1xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x1xf32, acc> -> !pto.tile<16x1xf32, vec>
    %r = pto.reshape %s : !pto.tile<16x1xf32, vec> -> !pto.tile<1x16xf32, vec>
    %e = pto.recip %r : !pto.tile<1x16xf32, vec>
    %b = pto.reshape %e : !pto.tile<1x16xf32, vec> -> !pto.tile<16x1xf32, vec>
    %o = pto.store %b, %out[0, 0] : !pto.tile<16x1xf32, vec>, !pto.tensor<16x1xf32>
    func.return %o : !pto.tensor<16x1xf32>
  }

  // LEFT_RIGHT migration: [1,16] -> [16,1] moves the split from dim 1 to dim 0.
  // CHECK-LABEL: func.func @reshape_migrate_left_right
  // CHECK:       %s = pto.aiv_shard %qk {split = 2 : i64} : !pto.tile<1x16xf32, acc> -> !pto.tile<1x8xf32, vec>
  // CHECK-NEXT:  %r = pto.reshape %s : !pto.tile<1x8xf32, vec> -> !pto.tile<8x1xf32, vec>
  // CHECK-NEXT:  %o = pto.store %r, %out[%{{.*}}, 0] : !pto.tile<8x1xf32, vec>, !pto.tensor<16x1xf32>
  func.func @reshape_migrate_left_right(%qk: !pto.tile<1x16xf32, acc>, %out: !pto.tensor<16x1xf32> {pto.out})
      -> !pto.tensor<16x1xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<1x16xf32, acc> -> !pto.tile<1x16xf32, vec>
    %r = pto.reshape %s : !pto.tile<1x16xf32, vec> -> !pto.tile<16x1xf32, vec>
    %o = pto.store %r, %out[0, 0] : !pto.tile<16x1xf32, vec>, !pto.tensor<16x1xf32>
    func.return %o : !pto.tensor<16x1xf32>
  }

  // Same-axis reshape: [8,16] (half of [16,16]) -> [128,1] (half of [256,1]).
  // CHECK-LABEL: func.func @reshape_same_axis
  // CHECK:       %r = pto.reshape %s : !pto.tile<8x16xf32, vec> -> !pto.tile<128x1xf32, vec>
  // CHECK-NEXT:  %o = pto.store %r, %out[%{{.*}}, 0] : !pto.tile<128x1xf32, vec>, !pto.tensor<256x1xf32>
  func.func @reshape_same_axis(%qk: !pto.tile<16x16xf32, acc>, %out: !pto.tensor<256x1xf32> {pto.out})
      -> !pto.tensor<256x1xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %r = pto.reshape %s : !pto.tile<16x16xf32, vec> -> !pto.tile<256x1xf32, vec>
    %o = pto.store %r, %out[0, 0] : !pto.tile<256x1xf32, vec>, !pto.tensor<256x1xf32>
    func.return %o : !pto.tensor<256x1xf32>
  }

  // Untracked input: a rank-1 load is reshaped at full width, then lane-sliced (offset sub*64, no `0 +`).
  // CHECK-LABEL: func.func @reshape_untracked_up_down
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c64 : index
  // CHECK:       %a = pto.load %x[0] : !pto.tensor<128xf32> -> !pto.tile<128xf32, vec>
  // CHECK-NEXT:  %[[B:.*]] = pto.reshape %a : !pto.tile<128xf32, vec> -> !pto.tile<128x1xf32, vec>
  // CHECK-NEXT:  %[[BS:.*]] = pto.slice %[[B]][%[[L]], 0] : !pto.tile<128x1xf32, vec> -> !pto.tile<64x1xf32, vec>
  // CHECK-NEXT:  %e = pto.exp %[[BS]] : !pto.tile<64x1xf32, vec>
  // CHECK-NEXT:  %o = pto.store %e, %out[%[[L]], 0] : !pto.tile<64x1xf32, vec>, !pto.tensor<128x1xf32>
  func.func @reshape_untracked_up_down(%qk: !pto.tile<16x16xf32, acc>, %x: !pto.tensor<128xf32>,
                                       %out: !pto.tensor<128x1xf32> {pto.out}) -> !pto.tensor<128x1xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %a = pto.load %x[0] : !pto.tensor<128xf32> -> !pto.tile<128xf32, vec>
    %b = pto.reshape %a : !pto.tile<128xf32, vec> -> !pto.tile<128x1xf32, vec>
    %e = pto.exp %b : !pto.tile<128x1xf32, vec>
    %o = pto.store %e, %out[0, 0] : !pto.tile<128x1xf32, vec>, !pto.tensor<128x1xf32>
    func.return %o : !pto.tensor<128x1xf32>
  }

  // LEFT_RIGHT: [512] i16 -> [16, 32] then slice [16, 16] at [0, sub*16].
  // CHECK-LABEL: func.func @reshape_untracked_left_right
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c16 : index
  // CHECK:       %[[B:.*]] = pto.reshape %a : !pto.tile<512xi16, vec> -> !pto.tile<16x32xi16, vec>
  // CHECK-NEXT:  %{{.*}} = pto.slice %[[B]][0, %[[L]]] : !pto.tile<16x32xi16, vec> -> !pto.tile<16x16xi16, vec>
  func.func @reshape_untracked_left_right(%qk: !pto.tile<16x16xf32, acc>, %x: !pto.tensor<512xi16>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %a = pto.load %x[0] : !pto.tensor<512xi16> -> !pto.tile<512xi16, vec>
    %bits = pto.reshape %a : !pto.tile<512xi16, vec> -> !pto.tile<16x32xi16, vec>
    func.return
  }

  // Transpose: the split axis follows the permutation ([32,64] dim 0 -> [64,32] dim 1), so the store moves its
  // column offset (under fallback=error, the RUN line; by default the transpose hazard makes it fall back).
  // CHECK-LABEL: func.func @transpose_moves_axis
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c32 : index
  // CHECK:       %t = pto.transpose %s : !pto.tile<32x64xf32, vec> -> !pto.tile<64x32xf32, vec>
  // CHECK-NEXT:  %o = pto.store %t, %out[0, %[[L]]] : !pto.tile<64x32xf32, vec>, !pto.tensor<64x64xf32>
  func.func @transpose_moves_axis(%qk: !pto.tile<64x64xf32, acc>, %out: !pto.tensor<64x64xf32> {pto.out})
      -> !pto.tensor<64x64xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<64x64xf32, acc> -> !pto.tile<64x64xf32, vec>
    %t = pto.transpose %s : !pto.tile<64x64xf32, vec> -> !pto.tile<64x64xf32, vec>
    %o = pto.store %t, %out[0, 0] : !pto.tile<64x64xf32, vec>, !pto.tensor<64x64xf32>
    func.return %o : !pto.tensor<64x64xf32>
  }

  // set_validshape: the split-axis size is clamped to the lane, min(max(V, sub*32) - sub*32, 32), for a
  // runtime V and a static partial V (40: lane 0 gets 32, lane 1 gets 8); a full V becomes the half.
  // CHECK-LABEL: func.func @set_validshape
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c32 : index
  // CHECK:       %[[V40:.*]] = arith.minsi %{{.*}}, %c32 : index
  // CHECK:       %[[VN:.*]] = arith.minsi %{{.*}}, %c32 : index
  // CHECK-NEXT:  %v = pto.set_validshape %s valid [%[[VN]], 128] : !pto.tile<32x128xf32, vec> -> !pto.tile<32x128xf32, vec, valid = [?, 128]>
  // CHECK-NEXT:  %w = pto.set_validshape %s valid [%[[V40]], 100] : !pto.tile<32x128xf32, vec> -> !pto.tile<32x128xf32, vec, valid = [?, 100]>
  // CHECK-NEXT:  %f = pto.set_validshape %s valid [32, 100] : !pto.tile<32x128xf32, vec> -> !pto.tile<32x128xf32, vec, valid = [32, 100]>
  func.func @set_validshape(%qk: !pto.tile<64x128xf32, acc>, %n: index)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
    %v = pto.set_validshape %s valid [%n, 128] : !pto.tile<64x128xf32, vec> -> !pto.tile<64x128xf32, vec, valid = [?, 128]>
    %w = pto.set_validshape %s valid [40, 100] : !pto.tile<64x128xf32, vec> -> !pto.tile<64x128xf32, vec, valid = [40, 100]>
    %f = pto.set_validshape %s valid [64, 100] : !pto.tile<64x128xf32, vec> -> !pto.tile<64x128xf32, vec, valid = [64, 100]>
    func.return
  }

  // LEFT_RIGHT transpose: [64,32] split on dim 1 -> [32,64] split on dim 0; the store moves its row offset.
  // CHECK-LABEL: func.func @transpose_left_right
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c32 : index
  // CHECK:       %t = pto.transpose %s : !pto.tile<64x32xf32, vec> -> !pto.tile<32x64xf32, vec>
  // CHECK-NEXT:  %o = pto.store %t, %out[%[[L]], 0] : !pto.tile<32x64xf32, vec>, !pto.tensor<64x64xf32>
  func.func @transpose_left_right(%qk: !pto.tile<64x64xf32, acc>, %out: !pto.tensor<64x64xf32> {pto.out})
      -> !pto.tensor<64x64xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<64x64xf32, acc> -> !pto.tile<64x64xf32, vec>
    %t = pto.transpose %s : !pto.tile<64x64xf32, vec> -> !pto.tile<64x64xf32, vec>
    %o = pto.store %t, %out[0, 0] : !pto.tile<64x64xf32, vec>, !pto.tensor<64x64xf32>
    func.return %o : !pto.tensor<64x64xf32>
  }

  // LEFT_RIGHT set_validshape: the column size is clamped (100 of 128: lane 0 gets 64, lane 1 gets 36).
  // CHECK-LABEL: func.func @set_validshape_left_right
  // CHECK:       %c100 = arith.constant 100 : index
  // CHECK:       %[[V:.*]] = arith.minsi %{{.*}}, %c64 : index
  // CHECK:       %v = pto.set_validshape %s valid [5, %[[V]]] : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xf32, vec, valid = [5, ?]>
  func.func @set_validshape_left_right(%qk: !pto.tile<16x128xf32, acc>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %v = pto.set_validshape %s valid [5, 100] : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xf32, vec, valid = [5, 100]>
    func.return
  }
}
