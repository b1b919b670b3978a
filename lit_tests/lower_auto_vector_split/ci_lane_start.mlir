// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir --lower-auto-vector-split | filecheck %s
// RUN: pypto-run --quiet --entry ud_start --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry ud_start --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry lr_one_row --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry lr_one_row --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry lr_rows --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry lr_rows --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry ud_odd_valid --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry ud_odd_valid --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry ud_loop --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry ud_loop --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry ud_ragged --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry ud_ragged --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir

// pto.ci (consecutive integers from %start, row-major over the tile) in an AUTO split kernel
// (docs/lower-auto-vector-split.md, GeneratorHalving).  Lane l must hold the values the full-width ci has in its
// part.  When a lane's part is one contiguous run of the row-major order (UP_DOWN, or LEFT_RIGHT of one row) it
// is the same generator started at the lane's first cell: the result is halved and the start moves by
// subblock_idx * step * (cells per split-axis index), the step the lane offsets use.  Under LEFT_RIGHT with
// several rows a lane's columns are not one run, so ci is generated whole on both lanes and its users take the
// lane part (a pto.slice at column subblock_idx * step).  Lanes with different valid extents (an odd or ragged
// split axis) get the lane's box and a pto.set_validshape.  The IR after the pass is the same on both targets;
// every kernel is checked by execution before and after the whole pipeline on a2a3 and a5.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // UP_DOWN [16, 32]: lane l holds rows [8l, 8l + 8), so its ci starts at start + subblock_idx * 8 * 32.
  // CHECK-LABEL: func.func @ud_start
  // CHECK:       %[[CELLS:.*]] = arith.muli %subblock_idx, %c256 : index
  // CHECK:       %[[ROWS:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:       %v = pto.aiv_shard %qk {split = 1 : i64} : !pto.tile<16x32xi32, acc> -> !pto.tile<8x32xi32, vec>
  // CHECK-NEXT:  %c3 = arith.constant 3 : i32
  // CHECK-NEXT:  %[[OFF:.*]] = arith.index_cast %[[CELLS]] : index to i32
  // CHECK-NEXT:  %[[START:.*]] = arith.addi %c3, %[[OFF]] : i32
  // CHECK-NEXT:  %i = pto.ci %[[START]] : i32 -> !pto.tile<8x32xi32, vec>
  // CHECK-NEXT:  %s = pto.add %v, %i : !pto.tile<8x32xi32, vec>
  // CHECK-NEXT:  %o = pto.store %s, %out[%[[ROWS]], 0] : !pto.tile<8x32xi32, vec>, !pto.tensor<16x32xi32>
  func.func @ud_start(%qk: !pto.tile<16x32xi32, acc>, %out: !pto.tensor<16x32xi32> {pto.out}) -> !pto.tensor<16x32xi32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x32xi32, acc> -> !pto.tile<16x32xi32, vec>
    %c3 = arith.constant 3 : i32
    %i = pto.ci %c3 : i32 -> !pto.tile<16x32xi32, vec>
    %s = pto.add %v, %i : !pto.tile<16x32xi32, vec>
    %o = pto.store %s, %out[0, 0] : !pto.tile<16x32xi32, vec>, !pto.tensor<16x32xi32>
    func.return %o : !pto.tensor<16x32xi32>
  }
  // LEFT_RIGHT [1, 64]: one row, so a lane's 32 columns are one run: start + subblock_idx * 32.
  // CHECK-LABEL: func.func @lr_one_row
  // CHECK:       %[[COLS:.*]] = arith.muli %subblock_idx, %c32 : index
  // CHECK:       %[[OFF:.*]] = arith.index_cast %[[COLS]] : index to i32
  // CHECK-NEXT:  %[[START:.*]] = arith.addi %c5, %[[OFF]] : i32
  // CHECK-NEXT:  %i = pto.ci %[[START]] : i32 -> !pto.tile<1x32xi32, vec>
  // CHECK-NEXT:  %s = pto.mul %v, %i : !pto.tile<1x32xi32, vec>
  // CHECK-NEXT:  %o = pto.store %s, %out[0, %[[COLS]]] : !pto.tile<1x32xi32, vec>, !pto.tensor<1x64xi32>
  func.func @lr_one_row(%qk: !pto.tile<1x64xi32, acc>, %out: !pto.tensor<1x64xi32> {pto.out}) -> !pto.tensor<1x64xi32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %v = pto.move %qk : !pto.tile<1x64xi32, acc> -> !pto.tile<1x64xi32, vec>
    %c5 = arith.constant 5 : i32
    %i = pto.ci %c5 : i32 -> !pto.tile<1x64xi32, vec>
    %s = pto.mul %v, %i : !pto.tile<1x64xi32, vec>
    %o = pto.store %s, %out[0, 0] : !pto.tile<1x64xi32, vec>, !pto.tensor<1x64xi32>
    func.return %o : !pto.tensor<1x64xi32>
  }
  // LEFT_RIGHT [4, 8]: a lane's 4 columns of each row are not one run of the 32 cells; ci is generated whole
  // (start unchanged) and each user reads the lane part, columns [4 * subblock_idx, + 4).
  // CHECK-LABEL: func.func @lr_rows
  // CHECK:       %[[COLS:.*]] = arith.muli %subblock_idx, %c4 : index
  // CHECK:       %i = pto.ci %c0 : i32 -> !pto.tile<4x8xi32, vec>
  // CHECK-NEXT:  %[[PART:.*]] = pto.slice %i[0, %[[COLS]]] : !pto.tile<4x8xi32, vec> -> !pto.tile<4x4xi32, vec>
  // CHECK-NEXT:  %m = pto.muls %[[PART]], %c2 : !pto.tile<4x4xi32, vec>, i32
  // CHECK-NEXT:  %j = pto.add %[[PART]], %m : !pto.tile<4x4xi32, vec>
  // CHECK-NEXT:  %s = pto.sub %v, %j : !pto.tile<4x4xi32, vec>
  // CHECK-NEXT:  %o = pto.store %s, %out[0, %[[COLS]]] : !pto.tile<4x4xi32, vec>, !pto.tensor<4x8xi32>
  func.func @lr_rows(%qk: !pto.tile<4x8xi32, acc>, %out: !pto.tensor<4x8xi32> {pto.out}) -> !pto.tensor<4x8xi32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %v = pto.move %qk : !pto.tile<4x8xi32, acc> -> !pto.tile<4x8xi32, vec>
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %i = pto.ci %c0 : i32 -> !pto.tile<4x8xi32, vec>
    %m = pto.muls %i, %c2 : !pto.tile<4x8xi32, vec>, i32
    %j = pto.add %i, %m : !pto.tile<4x8xi32, vec>
    %s = pto.sub %v, %j : !pto.tile<4x8xi32, vec>
    %o = pto.store %s, %out[0, 0] : !pto.tile<4x8xi32, vec>, !pto.tensor<4x8xi32>
    func.return %o : !pto.tensor<4x8xi32>
  }
  // UP_DOWN with 15 valid of 16 rows, stored directly: the lanes hold 8 and 7 valid rows, which the ci's type
  // cannot state, so each lane generates its 8-row box and pto.set_validshape gives it clamp(15 - 8 l, 0, 8).
  // CHECK-LABEL: func.func @ud_odd_valid
  // CHECK:       %[[ROWS:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:       %[[CELLS:.*]] = arith.muli %subblock_idx, %c128 : index
  // CHECK:       %[[LANE:.*]] = arith.minsi %{{.*}}, %c8 : index
  // CHECK:       %[[OFF:.*]] = arith.index_cast %[[CELLS]] : index to i32
  // CHECK-NEXT:  %[[START:.*]] = arith.addi %st, %[[OFF]] : i32
  // CHECK-NEXT:  %i_box = pto.ci %[[START]] : i32 -> !pto.tile<8x16xi32, vec>
  // CHECK-NEXT:  %i = pto.set_validshape %i_box valid [%[[LANE]], 16] : !pto.tile<8x16xi32, vec> -> !pto.tile<8x16xi32, vec, valid = [?, 16]>
  // CHECK-NEXT:  %o = pto.store %i, %out[%[[ROWS]], 0] : !pto.tile<8x16xi32, vec, valid = [?, 16]>, !pto.tensor<16x16xi32>
  func.func @ud_odd_valid(%qk: !pto.tile<16x16xf32, acc>, %st: i32, %out: !pto.tensor<16x16xi32> {pto.out}, %o2: !pto.tensor<16x16xf32> {pto.out}) -> (!pto.tensor<16x16xi32>, !pto.tensor<16x16xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %e = pto.exp %v : !pto.tile<16x16xf32, vec>
    %p = pto.store %e, %o2[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    %i = pto.ci %st : i32 -> !pto.tile<16x16xi32, vec, valid = [15, 16]>
    %o = pto.store %i, %out[0, 0] : !pto.tile<16x16xi32, vec, valid = [15, 16]>, !pto.tensor<16x16xi32>
    func.return %o, %p : !pto.tensor<16x16xi32>, !pto.tensor<16x16xf32>
  }
  // In a loop, with a start that changes per iteration: the lane offset is hoisted, the addition stays in the loop.
  // CHECK-LABEL: func.func @ud_loop
  // CHECK:       %[[CELLS:.*]] = arith.muli %subblock_idx, %c128 : index
  // CHECK:       scf.for
  // CHECK:         %st = arith.muli %ki, %c100 : i32
  // CHECK-NEXT:    %[[OFF:.*]] = arith.index_cast %[[CELLS]] : index to i32
  // CHECK-NEXT:    %[[START:.*]] = arith.addi %st, %[[OFF]] : i32
  // CHECK-NEXT:    %i = pto.ci %[[START]] : i32 -> !pto.tile<4x32xi32, vec>
  func.func @ud_loop(%qk: !pto.tile<8x32xf32, acc>, %out: !pto.tensor<32x32xf32> {pto.out}) -> !pto.tensor<32x32xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<8x32xf32, acc> -> !pto.tile<8x32xf32, vec>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%t = %out) -> (!pto.tensor<32x32xf32>) {
      %ki = arith.index_cast %k : index to i32
      %c100 = arith.constant 100 : i32
      %st = arith.muli %ki, %c100 : i32
      %i = pto.ci %st : i32 -> !pto.tile<8x32xi32, vec>
      %f = pto.cast %i : !pto.tile<8x32xi32, vec> -> !pto.tile<8x32xf32, vec>
      %s = pto.add %v, %f : !pto.tile<8x32xf32, vec>
      %row = arith.muli %k, %c8 : index
      %o = pto.store %s, %t[%row, 0] : !pto.tile<8x32xf32, vec>, !pto.tensor<32x32xf32>
      scf.yield %o : !pto.tensor<32x32xf32>
    }
    func.return %r : !pto.tensor<32x32xf32>
  }
  // A ragged C->V boundary (13 valid of 16 rows): the lane part of the ci follows the boundary's lane windows
  // (the same step as every lane offset of the kernel) and its lane valid extent.
  // CHECK-LABEL: func.func @ud_ragged
  // CHECK:       %i_box = pto.ci %{{.*}} : i32 -> !pto.tile<8x8xi32, vec>
  // CHECK-NEXT:  %i = pto.set_validshape %i_box valid [%{{.*}}, 8] : !pto.tile<8x8xi32, vec> -> !pto.tile<8x8xi32, vec, valid = [?, 8]>
  func.func @ud_ragged(%qk: !pto.tile<16x8xi32, acc, valid = [13, 8]>, %out: !pto.tensor<16x8xi32> {pto.out}) -> !pto.tensor<16x8xi32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x8xi32, acc, valid = [13, 8]> -> !pto.tile<16x8xi32, vec, valid = [13, 8]>
    %c0 = arith.constant 1 : i32
    %i = pto.ci %c0 : i32 -> !pto.tile<16x8xi32, vec, valid = [13, 8]>
    %s = pto.add %v, %i : !pto.tile<16x8xi32, vec, valid = [13, 8]>
    %o = pto.store %s, %out[0, 0] : !pto.tile<16x8xi32, vec, valid = [13, 8]>, !pto.tensor<16x8xi32>
    func.return %o : !pto.tensor<16x8xi32>
  }
}
