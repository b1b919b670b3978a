// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: pypto-opt %s --lower-auto-vector-split | pypto-opt | filecheck %s

// Seed example 1 (split_auto, UP_DOWN): the C->V move becomes a per-lane aiv_shard, the vector add is halved
// to [64, 128], the store offset becomes 0 + subblock_idx * 64 (the `0 +` folded); the cube tile stays full.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @split_auto
  // CHECK-SAME:  %qk: !pto.tile<128x128xf32, mat>
  // CHECK-SAME:  attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv}
  // CHECK-NEXT:  %subblock_idx = pto.get_subblock_idx : index
  // CHECK-NEXT:  %c64 = arith.constant 64 : index
  // CHECK-NEXT:  %[[OFF:.*]] = arith.muli %subblock_idx, %c64 : index
  // CHECK-NEXT:  %popped = pto.aiv_shard %qk {split = 1 : i64} : !pto.tile<128x128xf32, mat> -> !pto.tile<64x128xf32, vec>
  // CHECK-NEXT:  %y = pto.add %popped, %popped : !pto.tile<64x128xf32, vec>
  // CHECK-NEXT:  %out_1 = pto.store %y, %out[%[[OFF]], 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<128x128xf32>
  // CHECK-NEXT:  func.return %out_1
  func.func @split_auto(%qk: !pto.tile<128x128xf32, mat>, %out_0: !pto.tensor<128x128xf32> {pto.out})
      -> !pto.tensor<128x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %popped = pto.move %qk : !pto.tile<128x128xf32, mat> -> !pto.tile<128x128xf32, vec>
    %y = pto.add %popped, %popped : !pto.tile<128x128xf32, vec>
    %out_1 = pto.store %y, %out_0[0, 0] : !pto.tile<128x128xf32, vec>, !pto.tensor<128x128xf32>
    func.return %out_1 : !pto.tensor<128x128xf32>
  }

  // The same kernel under LEFT_RIGHT: the shard splits the columns (split = 2), the store moves its column offset.
  // CHECK-LABEL: func.func @split_auto_left_right
  // CHECK-SAME:  pto.split = #pto.split<left_right>, pto.split_aiv}
  // CHECK-NEXT:  %subblock_idx = pto.get_subblock_idx : index
  // CHECK-NEXT:  %c64 = arith.constant 64 : index
  // CHECK-NEXT:  %[[OFF:.*]] = arith.muli %subblock_idx, %c64 : index
  // CHECK-NEXT:  %popped = pto.aiv_shard %qk {split = 2 : i64} : !pto.tile<128x128xf32, mat> -> !pto.tile<128x64xf32, vec>
  // CHECK-NEXT:  %y = pto.add %popped, %popped : !pto.tile<128x64xf32, vec>
  // CHECK-NEXT:  %out_1 = pto.store %y, %out[0, %[[OFF]]] : !pto.tile<128x64xf32, vec>, !pto.tensor<128x128xf32>
  func.func @split_auto_left_right(%qk: !pto.tile<128x128xf32, mat>, %out_0: !pto.tensor<128x128xf32> {pto.out})
      -> !pto.tensor<128x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %popped = pto.move %qk : !pto.tile<128x128xf32, mat> -> !pto.tile<128x128xf32, vec>
    %y = pto.add %popped, %popped : !pto.tile<128x128xf32, vec>
    %out_1 = pto.store %y, %out_0[0, 0] : !pto.tile<128x128xf32, vec>, !pto.tensor<128x128xf32>
    func.return %out_1 : !pto.tensor<128x128xf32>
  }
}
