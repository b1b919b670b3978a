// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s

// Loads and stores (reference §2.3): a vec load is halved on the split dim and its offset becomes
// `orig + subblock_idx * half` (the `0 +` folded, other offsets additive); a store of a per-lane tile moves its
// window the same way; rank-1 loads and singleton split dims are left alone, and so are stores of full-width tiles
// whose tensor no other store writes (else each lane stores its lane part: the cells are written by one lane).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @up_down
  // CHECK:       %subblock_idx = pto.get_subblock_idx : index
  // CHECK-NEXT:  %c64 = arith.constant 64 : index
  // CHECK-NEXT:  %[[L:.*]] = arith.muli %subblock_idx, %c64 : index
  // CHECK-NEXT:  %c128 = arith.constant 128 : index
  // CHECK-NEXT:  %[[S:.*]] = arith.addi %c128, %[[L]] : index
  // the singleton row's lane valid extent clamp(1 - sub, 0, 1) and lane offset 260 + sub (hoisted; below)
  // CHECK-NEXT:  %c1 = arith.constant 1 : index
  // CHECK-NEXT:  %[[L1:.*]] = arith.muli %subblock_idx, %c1 : index
  // CHECK-NEXT:  %[[M:.*]] = arith.maxsi %c1, %[[L1]] : index
  // CHECK-NEXT:  %[[D:.*]] = arith.subi %[[M]], %[[L1]] : index
  // CHECK-NEXT:  %[[V1:.*]] = arith.minsi %[[D]], %c1 : index
  // CHECK-NEXT:  %c260 = arith.constant 260 : index
  // CHECK-NEXT:  %[[R260:.*]] = arith.addi %c260, %[[L1]] : index
  // CHECK:       %a = pto.load %x[%[[L]], 0] : !pto.tensor<128x128xf32> -> !pto.tile<64x128xf32, vec>
  // CHECK:       %o1 = pto.store %e, %out[%[[S]], 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<264x128xf32>
  // rank-1 load: unchanged, and so is its store
  // CHECK-NEXT:  %r = pto.load %v[0] : !pto.tensor<128xf32> -> !pto.tile<128xf32, vec>
  // CHECK-NEXT:  %o2 = pto.store %r, %out1[0] : !pto.tile<128xf32, vec>, !pto.tensor<128xf32>
  // singleton split dim: the load is unchanged (both lanes hold the row), but %out is written by other stores
  // too, so the row is stored by one lane: each lane stores its lane part, lane 0 the row (valid [1, 128]) and
  // lane 1 an empty copy (valid [0, 128]) at the lane offset, as a singleton shard would hold it
  // CHECK:       %one = pto.load %x[5, 0] : !pto.tensor<128x128xf32> -> !pto.tile<1x128xf32, vec>
  // CHECK-NEXT:  %one_1 = pto.slice %one[0, 0] valid [%[[V1]], 128] : !pto.tile<1x128xf32, vec> -> !pto.tile<1x128xf32, vec, valid = [?, 128]>
  // CHECK-NEXT:  %o3 = pto.store %one_1, %out[%[[R260]], 0] : !pto.tile<1x128xf32, vec, valid = [?, 128]>, !pto.tensor<264x128xf32>
  // a rank-reducing load maps the tile's split dim onto the tensor's dim 1
  // CHECK-NEXT:  %b = pto.load %t3[2, %[[L]], 0] : !pto.tensor<4x128x128xf32> -> !pto.tile<64x128xf32, vec>
  func.func @up_down(%qk: !pto.tile<16x16xf32, acc>, %x: !pto.tensor<128x128xf32>, %v: !pto.tensor<128xf32>,
                     %t3: !pto.tensor<4x128x128xf32>, %out: !pto.tensor<264x128xf32> {pto.out},
                     %out1: !pto.tensor<128xf32> {pto.out}) -> !pto.tensor<264x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %a = pto.load %x[0, 0] : !pto.tensor<128x128xf32> -> !pto.tile<128x128xf32, vec>
    %e = pto.exp %a : !pto.tile<128x128xf32, vec>
    %o1 = pto.store %e, %out[128, 0] : !pto.tile<128x128xf32, vec>, !pto.tensor<264x128xf32>
    %r = pto.load %v[0] : !pto.tensor<128xf32> -> !pto.tile<128xf32, vec>
    %o2 = pto.store %r, %out1[0] : !pto.tile<128xf32, vec>, !pto.tensor<128xf32>
    %one = pto.load %x[5, 0] : !pto.tensor<128x128xf32> -> !pto.tile<1x128xf32, vec>
    %o3 = pto.store %one, %out[260, 0] : !pto.tile<1x128xf32, vec>, !pto.tensor<264x128xf32>
    %b = pto.load %t3[2, 0, 0] : !pto.tensor<4x128x128xf32> -> !pto.tile<128x128xf32, vec>
    %o4 = pto.store %b, %out[0, 0] : !pto.tile<128x128xf32, vec>, !pto.tensor<264x128xf32>
    func.return %o4 : !pto.tensor<264x128xf32>
  }

  // LEFT_RIGHT: the column offset moves: 32 -> 32 + subblock_idx * 64; a dynamic offset gets an arith.addi.
  // CHECK-LABEL: func.func @left_right
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c64 : index
  // CHECK-NEXT:  %c32 = arith.constant 32 : index
  // CHECK-NEXT:  %[[S:.*]] = arith.addi %c32, %[[L]] : index
  // CHECK:       %a = pto.load %x[0, %[[S]]] : !pto.tensor<64x256xf32> -> !pto.tile<64x64xf32, vec>
  // CHECK:       %[[D:.*]] = arith.addi %j, %[[L]] : index
  // CHECK-NEXT:  %o = pto.store %a, %out[16, %[[D]]] : !pto.tile<64x64xf32, vec>, !pto.tensor<128x256xf32>
  // a [64, 1] column has a singleton split dim under LEFT_RIGHT: unchanged
  // CHECK-NEXT:  %col = pto.load %x[0, 3] : !pto.tensor<64x256xf32> -> !pto.tile<64x1xf32, vec>
  func.func @left_right(%qk: !pto.tile<16x16xf32, acc>, %x: !pto.tensor<64x256xf32>, %j: index,
                        %out: !pto.tensor<128x256xf32> {pto.out}) -> !pto.tensor<128x256xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %a = pto.load %x[0, 32] : !pto.tensor<64x256xf32> -> !pto.tile<64x128xf32, vec>
    %o = pto.store %a, %out[16, %j] : !pto.tile<64x128xf32, vec>, !pto.tensor<128x256xf32>
    %col = pto.load %x[0, 3] : !pto.tensor<64x256xf32> -> !pto.tile<64x1xf32, vec>
    func.return %o : !pto.tensor<128x256xf32>
  }
}
