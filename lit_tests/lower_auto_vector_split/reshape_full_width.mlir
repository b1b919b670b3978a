// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir --lower-auto-vector-split | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-run --quiet --entry lr_round_trip --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry lr_round_trip --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry lr_keep_rows --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry lr_keep_rows --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry ud_round_trip --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry ud_round_trip --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry ud_odd_flat --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry ud_odd_flat --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry ud_regroup_rows --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry ud_regroup_rows --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir

// Row-major reshapes of split data (docs/lower-auto-vector-split.md, ReshapeHalving): a lane's half survives a
// reshape only when the dims before the split axis keep their product and the half is one block of one result
// dim (passes/analysis/split_axis.py, reshape_split_target). Such reshapes stay per lane; any other reshape
// whose input is computed for it alone runs at full width on both lanes (its producer chain too: the C->V
// boundary stays a plain move, split code 0) and its result is lane-sliced. Every kernel is checked by
// execution before and after the whole pipeline, on a2a3 and a5; the IR after the pass is the same on both.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // A2A3: module attributes {pto.target = #pto.target<a2a3>}
  // A5: module attributes {pto.target = #pto.target<a5>}
  // LEFT_RIGHT [8,16] -> [1,128] -> [8,16] (campaign class lavs-reshape-left-right): a lane's 8 columns of each
  // row are not half of the flat 128 cells, so the first reshape runs at full width on both lanes (the boundary
  // stays a move) and each lane slices its 64 flat cells; the flat half then regroups into 4 whole rows (the
  // split axis migrates to dim 0), stored at row sub*4.
  // CHECK-LABEL: func.func @lr_round_trip
  // CHECK:       %[[F:.*]] = arith.muli %subblock_idx, %c64 : index
  // CHECK:       %[[R:.*]] = arith.muli %subblock_idx, %c4 : index
  // CHECK-NEXT:  %v = pto.move %qk : !pto.tile<8x16xf32, acc> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %flat = pto.reshape %v : !pto.tile<8x16xf32, vec> -> !pto.tile<1x128xf32, vec>
  // CHECK-NEXT:  %[[S:.*]] = pto.slice %flat[0, %[[F]]] : !pto.tile<1x128xf32, vec> -> !pto.tile<1x64xf32, vec>
  // CHECK:       %h = pto.muls %[[S]], %c : !pto.tile<1x64xf32, vec>, f32
  // CHECK-NEXT:  %back = pto.reshape %h : !pto.tile<1x64xf32, vec> -> !pto.tile<4x16xf32, vec>
  // CHECK-NEXT:  %o = pto.store %back, %out[%[[R]], 0] : !pto.tile<4x16xf32, vec>, !pto.tensor<8x16xf32>
  func.func @lr_round_trip(%qk: !pto.tile<8x16xf32, acc>, %out: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %v = pto.move %qk : !pto.tile<8x16xf32, acc> -> !pto.tile<8x16xf32, vec>
    %flat = pto.reshape %v : !pto.tile<8x16xf32, vec> -> !pto.tile<1x128xf32, vec>
    %c = arith.constant 0.5 : f32
    %h = pto.muls %flat, %c : !pto.tile<1x128xf32, vec>, f32
    %back = pto.reshape %h : !pto.tile<1x128xf32, vec> -> !pto.tile<8x16xf32, vec>
    %o = pto.store %back, %out[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    func.return %o : !pto.tensor<8x16xf32>
  }
  // LEFT_RIGHT [8,16] -> [8,2,8]: the 8 rows keep their product, a lane's 8 columns are one of the 2 groups of
  // dim 1: per lane [8,8] -> [8,1,8] and back, stored at column sub*8.
  // CHECK-LABEL: func.func @lr_keep_rows
  // CHECK:       %v = pto.aiv_shard %qk {split = 2 : i64} : !pto.tile<8x16xf32, acc> -> !pto.tile<8x8xf32, vec>
  // CHECK-NEXT:  %g = pto.reshape %v : !pto.tile<8x8xf32, vec> -> !pto.tile<8x1x8xf32, vec>
  // CHECK-NEXT:  %e = pto.exp %g : !pto.tile<8x1x8xf32, vec>
  // CHECK-NEXT:  %back = pto.reshape %e : !pto.tile<8x1x8xf32, vec> -> !pto.tile<8x8xf32, vec>
  // CHECK-NEXT:  %o = pto.store %back, %out[0, %{{.*}}] : !pto.tile<8x8xf32, vec>, !pto.tensor<8x16xf32>
  func.func @lr_keep_rows(%qk: !pto.tile<8x16xf32, acc>, %out: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %v = pto.move %qk : !pto.tile<8x16xf32, acc> -> !pto.tile<8x16xf32, vec>
    %g = pto.reshape %v : !pto.tile<8x16xf32, vec> -> !pto.tile<8x2x8xf32, vec>
    %e = pto.exp %g : !pto.tile<8x2x8xf32, vec>
    %back = pto.reshape %e : !pto.tile<8x2x8xf32, vec> -> !pto.tile<8x16xf32, vec>
    %o = pto.store %back, %out[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    func.return %o : !pto.tensor<8x16xf32>
  }
  // UP_DOWN, the same round trip: a lane's 4 rows are the first or last 64 flat cells, so both reshapes stay per
  // lane (the axis migrates to dim 1 and back).
  // CHECK-LABEL: func.func @ud_round_trip
  // CHECK:       %v = pto.aiv_shard %qk {split = 1 : i64} : !pto.tile<8x16xf32, acc> -> !pto.tile<4x16xf32, vec>
  // CHECK-NEXT:  %flat = pto.reshape %v : !pto.tile<4x16xf32, vec> -> !pto.tile<1x64xf32, vec>
  // CHECK:       %back = pto.reshape %h : !pto.tile<1x64xf32, vec> -> !pto.tile<4x16xf32, vec>
  // CHECK-NEXT:  %o = pto.store %back, %out[%{{.*}}, 0] : !pto.tile<4x16xf32, vec>, !pto.tensor<8x16xf32>
  func.func @ud_round_trip(%qk: !pto.tile<8x16xf32, acc>, %out: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<8x16xf32, acc> -> !pto.tile<8x16xf32, vec>
    %flat = pto.reshape %v : !pto.tile<8x16xf32, vec> -> !pto.tile<1x128xf32, vec>
    %c = arith.constant 0.5 : f32
    %h = pto.muls %flat, %c : !pto.tile<1x128xf32, vec>, f32
    %back = pto.reshape %h : !pto.tile<1x128xf32, vec> -> !pto.tile<8x16xf32, vec>
    %o = pto.store %back, %out[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    func.return %o : !pto.tensor<8x16xf32>
  }
  // UP_DOWN, an odd split axis flattened ([15,2] -> [1,30], E-RESHAPE-ODD when the input also feeds halved code):
  // the input is only computed for the reshape, so it stays full width; the [1,30] result has a unit split dim
  // and both lanes store the whole tile.
  // CHECK-LABEL: func.func @ud_odd_flat
  // CHECK:       %v = pto.move %qk : !pto.tile<15x2xf32, acc> -> !pto.tile<15x2xf32, vec>
  // CHECK-NEXT:  %flat = pto.reshape %v : !pto.tile<15x2xf32, vec> -> !pto.tile<1x30xf32, vec>
  // CHECK-NEXT:  %o = pto.store %flat, %out[0, 0] : !pto.tile<1x30xf32, vec>, !pto.tensor<1x30xf32>
  func.func @ud_odd_flat(%qk: !pto.tile<15x2xf32, acc>, %out: !pto.tensor<1x30xf32> {pto.out}) -> !pto.tensor<1x30xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<15x2xf32, acc> -> !pto.tile<15x2xf32, vec>
    %flat = pto.reshape %v : !pto.tile<15x2xf32, vec> -> !pto.tile<1x30xf32, vec>
    %o = pto.store %flat, %out[0, 0] : !pto.tile<1x30xf32, vec>, !pto.tensor<1x30xf32>
    func.return %o : !pto.tensor<1x30xf32>
  }
  // UP_DOWN [16,6] -> [4,24]: a lane's 8 rows (48 cells) are 2 whole rows of the result: per lane [8,6] -> [2,24].
  // CHECK-LABEL: func.func @ud_regroup_rows
  // CHECK:       %v = pto.aiv_shard %qk {split = 1 : i64} : !pto.tile<16x6xf32, acc> -> !pto.tile<8x6xf32, vec>
  // CHECK-NEXT:  %r = pto.reshape %v : !pto.tile<8x6xf32, vec> -> !pto.tile<2x24xf32, vec>
  // CHECK:       %back = pto.reshape %e : !pto.tile<2x24xf32, vec> -> !pto.tile<8x6xf32, vec>
  func.func @ud_regroup_rows(%qk: !pto.tile<16x6xf32, acc>, %out: !pto.tensor<16x6xf32> {pto.out}) -> !pto.tensor<16x6xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x6xf32, acc> -> !pto.tile<16x6xf32, vec>
    %r = pto.reshape %v : !pto.tile<16x6xf32, vec> -> !pto.tile<4x24xf32, vec>
    %e = pto.exp %r : !pto.tile<4x24xf32, vec>
    %back = pto.reshape %e : !pto.tile<4x24xf32, vec> -> !pto.tile<16x6xf32, vec>
    %o = pto.store %back, %out[0, 0] : !pto.tile<16x6xf32, vec>, !pto.tensor<16x6xf32>
    func.return %o : !pto.tensor<16x6xf32>
  }
}
