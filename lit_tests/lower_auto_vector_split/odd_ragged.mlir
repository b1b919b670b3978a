// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s

// Odd extents and ragged boundaries (reference §2.3, §2.4).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // Odd extent: a [15, 32] load gets the ceil half box [8, 32]; the valid row extent is clamped per lane,
  // min(max(15, sub*8) - sub*8, 8) (8 on lane 0, 7 on lane 1), passed as the load's valid operand.
  // CHECK-LABEL: func.func @odd_load
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK-NEXT:  %c15 = arith.constant 15 : index
  // CHECK-NEXT:  %[[MX:.*]] = arith.maxsi %c15, %[[L]] : index
  // CHECK-NEXT:  %[[SB:.*]] = arith.subi %[[MX]], %[[L]] : index
  // CHECK-NEXT:  %[[V:.*]] = arith.minsi %[[SB]], %c8 : index
  // CHECK:       %a = pto.load %x[%[[L]], 0] valid [%[[V]], 32] : !pto.tensor<15x32xf32> -> !pto.tile<8x32xf32, vec, valid = [?, 32]>
  // CHECK-NEXT:  %e = pto.exp %a : !pto.tile<8x32xf32, vec, valid = [?, 32]>
  // CHECK-NEXT:  %o = pto.store %e, %out[%[[L]], 0] : !pto.tile<8x32xf32, vec, valid = [?, 32]>, !pto.tensor<15x32xf32>
  func.func @odd_load(%qk: !pto.tile<16x16xf32, acc>, %x: !pto.tensor<15x32xf32>,
                      %out: !pto.tensor<15x32xf32> {pto.out}) -> !pto.tensor<15x32xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %a = pto.load %x[0, 0] : !pto.tensor<15x32xf32> -> !pto.tile<15x32xf32, vec>
    %e = pto.exp %a : !pto.tile<15x32xf32, vec>
    %o = pto.store %e, %out[0, 0] : !pto.tile<15x32xf32, vec>, !pto.tensor<15x32xf32>
    func.return %o : !pto.tensor<15x32xf32>
  }

  // Odd extent at a C->V boundary under LEFT_RIGHT: [16, 15] shards to [16, 8] with a per-lane column extent.
  // CHECK-LABEL: func.func @odd_shard_left_right
  // CHECK:       %p = pto.aiv_shard %qk {split = 2 : i64} : !pto.tile<16x15xf32, acc> -> !pto.tile<16x8xf32, vec, valid = [16, ?]>
  // CHECK-NEXT:  %o = pto.store %p, %out[0, %{{.*}}] : !pto.tile<16x8xf32, vec, valid = [16, ?]>, !pto.tensor<16x15xf32>
  func.func @odd_shard_left_right(%qk: !pto.tile<16x15xf32, acc>, %out: !pto.tensor<16x15xf32> {pto.out})
      -> !pto.tensor<16x15xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %p = pto.move %qk : !pto.tile<16x15xf32, acc> -> !pto.tile<16x15xf32, vec>
    %o = pto.store %p, %out[0, 0] : !pto.tile<16x15xf32, vec>, !pto.tensor<16x15xf32>
    func.return %o : !pto.tensor<16x15xf32>
  }

  // Ragged boundary 13/16 balanced with lane_stride = ceil(13/2) = 7: the box stays [8, 128], lane valid is
  // min(max(13, sub*7) - sub*7, 7) (7 and 6), the store offset is 0 + sub*7.
  // CHECK-LABEL: func.func @ragged_stride
  // CHECK:       %c7 = arith.constant 7 : index
  // CHECK-NEXT:  %[[L:.*]] = arith.muli %subblock_idx, %c7 : index
  // CHECK-NEXT:  %qs = pto.aiv_shard %qk {split = 1 : i64, lane_stride = 7 : i64} : !pto.tile<16x128xf32, acc, valid = [13, 128]> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
  // CHECK-NEXT:  %e = pto.exp %qs : !pto.tile<8x128xf32, vec, valid = [?, 128]>
  // CHECK-NEXT:  %o = pto.store %e, %out[%[[L]], 0] : !pto.tile<8x128xf32, vec, valid = [?, 128]>, !pto.tensor<16x128xf32>
  func.func @ragged_stride(%qk: !pto.tile<16x128xf32, acc, valid = [13, 128]>, %out: !pto.tensor<16x128xf32> {pto.out})
      -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %qs = pto.move %qk : !pto.tile<16x128xf32, acc, valid = [13, 128]> -> !pto.tile<16x128xf32, vec, valid = [13, 128]>
    %e = pto.exp %qs : !pto.tile<16x128xf32, vec, valid = [13, 128]>
    %o = pto.store %e, %out[0, 0] : !pto.tile<16x128xf32, vec, valid = [13, 128]>, !pto.tensor<16x128xf32>
    func.return %o : !pto.tensor<16x128xf32>
  }

  // 127/128: ceil(127/2) = 64 is the box half anyway, so no stride; lane valid 64 / 63.
  // CHECK-LABEL: func.func @ragged_no_stride
  // CHECK:       %qs = pto.aiv_shard %qk {split = 1 : i64} : !pto.tile<128x128xf32, acc, valid = [127, 128]> -> !pto.tile<64x128xf32, vec, valid = [?, 128]>
  func.func @ragged_no_stride(%qk: !pto.tile<128x128xf32, acc, valid = [127, 128]>, %out: !pto.tensor<128x128xf32> {pto.out})
      -> !pto.tensor<128x128xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %qs = pto.move %qk : !pto.tile<128x128xf32, acc, valid = [127, 128]> -> !pto.tile<128x128xf32, vec, valid = [127, 128]>
    %o = pto.store %qs, %out[0, 0] : !pto.tile<128x128xf32, vec, valid = [127, 128]>, !pto.tensor<128x128xf32>
    func.return %o : !pto.tensor<128x128xf32>
  }

  // 0/16: no stride; both lanes get 0 valid rows (a static 0).
  // CHECK-LABEL: func.func @ragged_empty
  // CHECK:       %qs = pto.aiv_shard %qk {split = 1 : i64} : !pto.tile<16x128xf32, acc, valid = [0, 128]> -> !pto.tile<8x128xf32, vec, valid = [0, 128]>
  func.func @ragged_empty(%qk: !pto.tile<16x128xf32, acc, valid = [0, 128]>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %qs = pto.move %qk : !pto.tile<16x128xf32, acc, valid = [0, 128]> -> !pto.tile<16x128xf32, vec, valid = [0, 128]>
    func.return
  }

  // 13/16 plus an independent load of 16 valid rows: lanes balanced with lane_stride 7 would cover rows
  // [0, 14) of the load only, so the box partition is kept (no lane_stride, offsets sub*8, the lanes hold 8 and 5
  // valid rows).  No split code places 8 and 5: the boundary is carried whole (a plain move, split code 0) and
  // each lane slices its rows (whole_transfer.mlir has the end-to-end cases).
  // CHECK-LABEL: func.func @ragged_box_partition
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:       %[[V:.*]] = arith.minsi %{{.*}}, %c8 : index
  // CHECK-NEXT:  %qs_whole = pto.move %qk : !pto.tile<16x128xf32, acc, valid = [13, 128]> -> !pto.tile<16x128xf32, vec, valid = [13, 128]>
  // CHECK-NEXT:  %qs = pto.slice %qs_whole[%[[L]], 0] valid [%[[V]], 128] : !pto.tile<16x128xf32, vec, valid = [13, 128]> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
  // CHECK-NEXT:  %b = pto.load %x[%[[L]], 0] : !pto.tensor<16x128xf32> -> !pto.tile<8x128xf32, vec>
  func.func @ragged_box_partition(%qk: !pto.tile<16x128xf32, acc, valid = [13, 128]>, %x: !pto.tensor<16x128xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %qs = pto.move %qk : !pto.tile<16x128xf32, acc, valid = [13, 128]> -> !pto.tile<16x128xf32, vec, valid = [13, 128]>
    %b = pto.load %x[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    func.return
  }

  // Dynamic extent: a runtime valid row count %n is clamped per lane with arith on index values.
  // CHECK-LABEL: func.func @dynamic_valid
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c64 : index
  // CHECK:       %[[MX:.*]] = arith.maxsi %n, %[[L]] : index
  // CHECK-NEXT:  %[[SB:.*]] = arith.subi %[[MX]], %[[L]] : index
  // CHECK-NEXT:  %[[V:.*]] = arith.minsi %[[SB]], %c64 : index
  // CHECK-NEXT:  %a = pto.load %x[%[[L]], 0] valid [%[[V]], 128] : !pto.tensor<128x128xf32> -> !pto.tile<64x128xf32, vec, valid = [?, 128]>
  func.func @dynamic_valid(%qk: !pto.tile<16x16xf32, acc>, %x: !pto.tensor<128x128xf32>, %n: index)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %a = pto.load %x[0, 0] valid [%n, 128] : !pto.tensor<128x128xf32> -> !pto.tile<128x128xf32, vec, valid = [?, 128]>
    func.return
  }

  // Dynamic column extent under LEFT_RIGHT (an i32 operand is cast to index first).
  // CHECK-LABEL: func.func @dynamic_valid_left_right
  // CHECK:       %[[N:.*]] = arith.index_cast %n : i32 to index
  // CHECK-NEXT:  %[[MX:.*]] = arith.maxsi %[[N]], %{{.*}} : index
  // CHECK:       %a = pto.load %x[0, %{{.*}}] valid [64, %{{.*}}] : !pto.tensor<64x128xf32> -> !pto.tile<64x64xf32, vec, valid = [64, ?]>
  func.func @dynamic_valid_left_right(%qk: !pto.tile<16x16xf32, acc>, %x: !pto.tensor<64x128xf32>, %n: i32)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %a = pto.load %x[0, 0] valid [64, %n] : !pto.tensor<64x128xf32> -> !pto.tile<64x128xf32, vec, valid = [64, ?]>
    func.return
  }
}
