// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir --lower-auto-vector-split | filecheck %s
// RUN: pypto-run --quiet --entry ud_window --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry ud_window --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry lr_cols --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry lr_cols --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry load_past_valid --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry load_past_valid --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry one_row --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry one_row --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry loop_window --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry loop_window --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry odd_window --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry odd_window --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry to_cube --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry to_cube --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry carried --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry carried --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir

// A pto.slice that takes a window of the split axis (not its whole extent) of a value the split would halve
// (docs/lower-auto-vector-split.md, SliceHalving and full-width chains).  Each lane would hold only its half of
// the source, and the window's cells may lie on the other lane (or on both), so the source is computed whole on
// both lanes instead: its producer chain (back to the loads, C->V boundaries — then plain moves, split code 0 —
// and generators, through scf.for and scf.if) stays full width, the slice is taken as written and split like a
// slice of any full-width tile (lane l's window at offset + subblock_idx * step).  Other users of the whole values
// take their lane part.  A window of a loaded tile whose cells the load read is still loaded directly
// (whole_lane_parts.mlir).  The IR after the pass is the same on both targets; every kernel is checked by
// execution before and after the whole pipeline on a2a3 and a5.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // UP_DOWN rows [4, 12) of an exp of a C->V boundary: the boundary stays a move, the exp runs whole, lane l
  // takes rows 4 + 4l of it and stores them at row 4l.
  // CHECK-LABEL: func.func @ud_window
  // CHECK:       %[[LANE:.*]] = arith.muli %subblock_idx, %c4 : index
  // CHECK-NEXT:  %[[OFF:.*]] = arith.addi %c4, %[[LANE]] : index
  // CHECK-NEXT:  %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:  %e = pto.exp %s : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:  %t = pto.slice %e[%[[OFF]], 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<4x16xf32, vec>
  // CHECK-NEXT:  %o = pto.store %t, %out[%[[LANE]], 0] : !pto.tile<4x16xf32, vec>, !pto.tensor<8x16xf32>
  func.func @ud_window(%qk: !pto.tile<16x16xf32, acc>, %out: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %e = pto.exp %s : !pto.tile<16x16xf32, vec>
    %t = pto.slice %e[4, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>
    %o = pto.store %t, %out[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    func.return %o : !pto.tensor<8x16xf32>
  }
  // LEFT_RIGHT columns [3, 9) of a value that is also stored per lane: the exp runs whole, the store takes its
  // lane part (columns 8l), the window is split into columns 3 + 3l.
  // CHECK-LABEL: func.func @lr_cols
  // CHECK:       %[[HALF:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:       %[[LANE:.*]] = arith.muli %subblock_idx, %c3 : index
  // CHECK-NEXT:  %[[OFF:.*]] = arith.addi %c3, %[[LANE]] : index
  // CHECK-NEXT:  %s = pto.move %qk : !pto.tile<8x16xf32, acc> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %e = pto.exp %s : !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %[[PART:.*]] = pto.slice %e[0, %[[HALF]]] : !pto.tile<8x16xf32, vec> -> !pto.tile<8x8xf32, vec>
  // CHECK-NEXT:  %p = pto.store %[[PART]], %o2[0, %[[HALF]]] : !pto.tile<8x8xf32, vec>, !pto.tensor<8x16xf32>
  // CHECK-NEXT:  %t = pto.slice %e[0, %[[OFF]]] : !pto.tile<8x16xf32, vec> -> !pto.tile<8x3xf32, vec>
  // CHECK-NEXT:  %o = pto.store %t, %out[0, %[[LANE]]] : !pto.tile<8x3xf32, vec>, !pto.tensor<8x6xf32>
  func.func @lr_cols(%qk: !pto.tile<8x16xf32, acc>, %out: !pto.tensor<8x6xf32> {pto.out}, %o2: !pto.tensor<8x16xf32> {pto.out}) -> (!pto.tensor<8x6xf32>, !pto.tensor<8x16xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<8x16xf32, acc> -> !pto.tile<8x16xf32, vec>
    %e = pto.exp %s : !pto.tile<8x16xf32, vec>
    %p = pto.store %e, %o2[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    %t = pto.slice %e[0, 3] : !pto.tile<8x16xf32, vec> -> !pto.tile<8x6xf32, vec>
    %o = pto.store %t, %out[0, 0] : !pto.tile<8x6xf32, vec>, !pto.tensor<8x6xf32>
    func.return %o, %p : !pto.tensor<8x6xf32>, !pto.tensor<8x16xf32>
  }
  // A window of a load whose valid cells the load did not read (rows [4, 12) of 10 valid rows) cannot be loaded
  // directly: the load stays whole, both windows (of the load and of the boundary) are split.
  // CHECK-LABEL: func.func @load_past_valid
  // CHECK:       %[[OFF:.*]] = arith.addi %c4, %{{.*}} : index
  // CHECK:       %l = pto.load %x[0, 0] valid [10, 16] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec, valid = [10, 16]>
  // CHECK-NEXT:  %t = pto.slice %l[%[[OFF]], 0] : !pto.tile<16x16xf32, vec, valid = [10, 16]> -> !pto.tile<4x16xf32, vec>
  // CHECK-NEXT:  %a = pto.slice %s[%[[OFF]], 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<4x16xf32, vec>
  // CHECK-NEXT:  %b = pto.add %t, %a : !pto.tile<4x16xf32, vec>
  func.func @load_past_valid(%qk: !pto.tile<16x16xf32, acc>, %x: !pto.tensor<16x16xf32>, %out: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %l = pto.load %x[0, 0] valid [10, 16] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec, valid = [10, 16]>
    %t = pto.slice %l[4, 0] : !pto.tile<16x16xf32, vec, valid = [10, 16]> -> !pto.tile<8x16xf32, vec>
    %a = pto.slice %s[4, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>
    %b = pto.add %t, %a : !pto.tile<8x16xf32, vec>
    %o = pto.store %b, %out[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    func.return %o : !pto.tensor<8x16xf32>
  }
  // One row (row 11, on lane 1's half) broadcast down the columns: the row is a singleton window, whole on both
  // lanes; the exp takes its lane part of the whole boundary.
  // CHECK-LABEL: func.func @one_row
  // CHECK:       %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:  %[[PART:.*]] = pto.slice %s[%{{.*}}, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %r = pto.slice %s[11, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<1x16xf32, vec>
  // CHECK-NEXT:  %e = pto.exp %[[PART]] : !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %x = pto.col_expand_add %e, %r : !pto.tile<8x16xf32, vec>, !pto.tile<1x16xf32, vec>
  func.func @one_row(%qk: !pto.tile<16x16xf32, acc>, %out: !pto.tensor<1x16xf32> {pto.out}, %o2: !pto.tensor<16x16xf32> {pto.out}) -> (!pto.tensor<1x16xf32>, !pto.tensor<16x16xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %r = pto.slice %s[11, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<1x16xf32, vec>
    %e = pto.exp %s : !pto.tile<16x16xf32, vec>
    %x = pto.col_expand_add %e, %r : !pto.tile<16x16xf32, vec>, !pto.tile<1x16xf32, vec>
    %p = pto.store %x, %o2[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    %o = pto.store %r, %out[0, 0] : !pto.tile<1x16xf32, vec>, !pto.tensor<1x16xf32>
    func.return %o, %p : !pto.tensor<1x16xf32>, !pto.tensor<16x16xf32>
  }
  // A window at a runtime row (4k) in a loop: lane l's window starts at 4k + 2l.
  // CHECK-LABEL: func.func @loop_window
  // CHECK:       %[[LANE:.*]] = arith.muli %subblock_idx, %c2 : index
  // CHECK:       %row = arith.muli %k, %c4 : index
  // CHECK-NEXT:  %[[OFF:.*]] = arith.addi %row, %[[LANE]] : index
  // CHECK-NEXT:  %w = pto.slice %s[%[[OFF]], 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<2x16xf32, vec>
  func.func @loop_window(%qk: !pto.tile<16x16xf32, acc>, %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%t = %out) -> (!pto.tensor<16x16xf32>) {
      %row = arith.muli %k, %c4 : index
      %w = pto.slice %s[%row, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<4x16xf32, vec>
      %n = pto.neg %w : !pto.tile<4x16xf32, vec>
      %o = pto.store %n, %t[%row, 0] : !pto.tile<4x16xf32, vec>, !pto.tensor<16x16xf32>
      scf.yield %o : !pto.tensor<16x16xf32>
    }
    func.return %r : !pto.tensor<16x16xf32>
  }
  // An odd window (5 rows): lanes of 3 and 2 valid rows.
  // CHECK-LABEL: func.func @odd_window
  // CHECK:       %w = pto.slice %s[%{{.*}}, 0] valid [%{{.*}}, 16] : !pto.tile<16x16xf32, vec> -> !pto.tile<3x16xf32, vec, valid = [?, 16]>
  func.func @odd_window(%qk: !pto.tile<16x16xf32, acc>, %out: !pto.tensor<5x16xf32> {pto.out}) -> !pto.tensor<5x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %w = pto.slice %s[4, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<5x16xf32, vec>
    %o = pto.store %w, %out[0, 0] : !pto.tile<5x16xf32, vec>, !pto.tensor<5x16xf32>
    func.return %o : !pto.tensor<5x16xf32>
  }
  // The window is moved to the cube: its lane parts are gathered as usual.
  // CHECK-LABEL: func.func @to_cube
  // CHECK:       %e = pto.exp %s : !pto.tile<32x16xf16, vec>
  // CHECK-NEXT:  %w = pto.slice %e[%{{.*}}, 0] : !pto.tile<32x16xf16, vec> -> !pto.tile<8x16xf16, vec>
  // CHECK-NEXT:  %m_mat = pto.aic_gather %w {split = 1 : i64} : !pto.tile<8x16xf16, vec> -> !pto.tile<16x16xf16, mat>
  func.func @to_cube(%qk: !pto.tile<32x16xf16, acc>, %b: !pto.tile<16x16xf16, right>, %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<32x16xf16, acc> -> !pto.tile<32x16xf16, vec>
    %e = pto.exp %s : !pto.tile<32x16xf16, vec>
    %w = pto.slice %e[8, 0] : !pto.tile<32x16xf16, vec> -> !pto.tile<16x16xf16, vec>
    %m = pto.move %w : !pto.tile<16x16xf16, vec> -> !pto.tile<16x16xf16, mat>
    %a = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
    %c = pto.matmul %a, %b : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
    %o = pto.store %c, %out[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }
  // A loop-carried source: the carried tile stays whole through the scf.for.
  // CHECK-LABEL: func.func @carried
  // CHECK:       scf.for %k = %c0 to %c3 step %c1 iter_args(%a = %s) -> (!pto.tile<16x16xf32, vec>)
  // CHECK:       %w = pto.slice %acc[%{{.*}}, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<4x16xf32, vec>
  func.func @carried(%qk: !pto.tile<16x16xf32, acc>, %out: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %acc = scf.for %k = %c0 to %c3 step %c1 iter_args(%a = %s) -> (!pto.tile<16x16xf32, vec>) {
      %n = pto.add %a, %s : !pto.tile<16x16xf32, vec>
      scf.yield %n : !pto.tile<16x16xf32, vec>
    }
    %w = pto.slice %acc[2, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>
    %o = pto.store %w, %out[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    func.return %o : !pto.tensor<8x16xf32>
  }
}
