// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir --lower-auto-vector-split | filecheck %s
// RUN: pypto-run --quiet --entry ud_full_odd --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry ud_full_odd --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry ud_full_ragged --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry ud_full_ragged --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry lr_create_odd --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry lr_create_odd --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry lr_full_ragged --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry lr_full_ragged --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry main --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry main --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry region_full --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry region_full --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir

// A halved pto.full / pto.create (vec) whose lanes hold different valid extents on the split axis: an odd box
// (15 rows: lanes 8 and 7; 1x33 under left_right: 17 and 16) or a ragged valid extent (13 of 16 rows with the
// boundary's lane stride 7: 7 and 6).  A generator has no valid operand and its type cannot state two extents
// (the verifier rejects a '?' valid extent on it), so each lane generates its box, named %<name>_box, and a
// pto.set_validshape narrows it to clamp(V - subblock_idx * S, 0, S), the formula of passes/analysis/lanes.py
// that pto.ci uses too (ci_lane_start.mlir).  Before this, the halved generator was typed valid = [?, ..] with no
// valid operand, so lane 1 took its whole box: a store past the end of the tensor (odd box), or wrong cells of an
// inout tensor (ragged).  Shown through muls, row_sum / col_sum, an scf.if merge and a split_aiv_scope region, in
// f32, f16 and i32, into {pto.inout} tensors.  The IR after the pass is the same on both targets; every kernel is
// checked by execution before and after the whole pipeline on a2a3 and a5 (@main runs both scf.if branches).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // UP_DOWN, a fully valid odd box of 15 rows: lane 0 holds 8 rows, lane 1 rows [8, 15), 7 of its 8-row box.
  // CHECK-LABEL: func.func @ud_full_odd
  // CHECK:       %[[ROWS:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:       %[[HI:.*]] = arith.maxsi %c15, %[[ROWS]] : index
  // CHECK-NEXT:  %[[REST:.*]] = arith.subi %[[HI]], %[[ROWS]] : index
  // CHECK-NEXT:  %[[LANE:.*]] = arith.minsi %[[REST]], %c8 : index
  // CHECK:       %z_box = pto.full %f : f32 -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %z = pto.set_validshape %z_box valid [%[[LANE]], 16] : !pto.tile<8x16xf32, vec> -> !pto.tile<8x16xf32, vec, valid = [?, 16]>
  // CHECK-NEXT:  %m = pto.muls %z, %f : !pto.tile<8x16xf32, vec, valid = [?, 16]>, f32
  // CHECK-NEXT:  %o = pto.store %m, %out[%[[ROWS]], 0] : !pto.tile<8x16xf32, vec, valid = [?, 16]>, !pto.tensor<15x16xf32>
  func.func @ud_full_odd(%qk: !pto.tile<15x16xf32, acc>, %f: f32, %out: !pto.tensor<15x16xf32> {pto.inout}, %o2: !pto.tensor<15x16xf32> {pto.out}) -> (!pto.tensor<15x16xf32>, !pto.tensor<15x16xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<15x16xf32, acc> -> !pto.tile<15x16xf32, vec>
    %e = pto.exp %v : !pto.tile<15x16xf32, vec>
    %p = pto.store %e, %o2[0, 0] : !pto.tile<15x16xf32, vec>, !pto.tensor<15x16xf32>
    %z = pto.full %f : f32 -> !pto.tile<15x16xf32, vec>
    %m = pto.muls %z, %f : !pto.tile<15x16xf32, vec>, f32
    %o = pto.store %m, %out[0, 0] : !pto.tile<15x16xf32, vec>, !pto.tensor<15x16xf32>
    func.return %o, %p : !pto.tensor<15x16xf32>, !pto.tensor<15x16xf32>
  }
  // UP_DOWN, 13 valid of 16 rows after a ragged C->V boundary (lane stride 7): the lanes hold 7 and 6 rows; the
  // row_sum keeps the lane's extent and the store leaves rows 13-15 of the inout tensor alone.
  // CHECK-LABEL: func.func @ud_full_ragged
  // CHECK:       %[[ROWS:.*]] = arith.muli %subblock_idx, %c7 : index
  // CHECK:       %[[HI:.*]] = arith.maxsi %c13, %[[ROWS]] : index
  // CHECK-NEXT:  %[[REST:.*]] = arith.subi %[[HI]], %[[ROWS]] : index
  // CHECK-NEXT:  %[[LANE:.*]] = arith.minsi %[[REST]], %c7 : index
  // CHECK:       %z_box = pto.full %f : f32 -> !pto.tile<8x8xf32, vec>
  // CHECK-NEXT:  %z = pto.set_validshape %z_box valid [%[[LANE]], 8] : !pto.tile<8x8xf32, vec> -> !pto.tile<8x8xf32, vec, valid = [?, 8]>
  // CHECK-NEXT:  %s = pto.row_sum %z : !pto.tile<8x8xf32, vec, valid = [?, 8]> -> !pto.tile<8x1xf32, vec, valid = [?, 1]>
  // CHECK-NEXT:  %o = pto.store %s, %out[%[[ROWS]], 0] : !pto.tile<8x1xf32, vec, valid = [?, 1]>, !pto.tensor<16x1xf32>
  func.func @ud_full_ragged(%qk: !pto.tile<16x8xf32, acc, valid = [13, 8]>, %f: f32, %out: !pto.tensor<16x1xf32> {pto.inout}, %o2: !pto.tensor<16x8xf32> {pto.inout}) -> (!pto.tensor<16x1xf32>, !pto.tensor<16x8xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x8xf32, acc, valid = [13, 8]> -> !pto.tile<16x8xf32, vec, valid = [13, 8]>
    %e = pto.exp %v : !pto.tile<16x8xf32, vec, valid = [13, 8]>
    %p = pto.store %e, %o2[0, 0] : !pto.tile<16x8xf32, vec, valid = [13, 8]>, !pto.tensor<16x8xf32>
    %z = pto.full %f : f32 -> !pto.tile<16x8xf32, vec, valid = [13, 8]>
    %s = pto.row_sum %z : !pto.tile<16x8xf32, vec, valid = [13, 8]> -> !pto.tile<16x1xf32, vec, valid = [13, 1]>
    %o = pto.store %s, %out[0, 0] : !pto.tile<16x1xf32, vec, valid = [13, 1]>, !pto.tensor<16x1xf32>
    func.return %o, %p : !pto.tensor<16x1xf32>, !pto.tensor<16x8xf32>
  }
  // LEFT_RIGHT, a vec pto.create of one 33-column row in f16: lane 1 holds columns [17, 33), 16 of its 17.
  // CHECK-LABEL: func.func @lr_create_odd
  // CHECK:       %[[COLS:.*]] = arith.muli %subblock_idx, %c17 : index
  // CHECK:       %[[HI:.*]] = arith.maxsi %c33, %[[COLS]] : index
  // CHECK-NEXT:  %[[REST:.*]] = arith.subi %[[HI]], %[[COLS]] : index
  // CHECK-NEXT:  %[[LANE:.*]] = arith.minsi %[[REST]], %c17 : index
  // CHECK:       %z_box = pto.create : !pto.tile<1x17xf16, vec>
  // CHECK-NEXT:  %z = pto.set_validshape %z_box valid [1, %[[LANE]]] : !pto.tile<1x17xf16, vec> -> !pto.tile<1x17xf16, vec, valid = [1, ?]>
  // CHECK-NEXT:  %m = pto.adds %z, %f : !pto.tile<1x17xf16, vec, valid = [1, ?]>, f16
  // CHECK-NEXT:  %o = pto.store %m, %out[0, %[[COLS]]] : !pto.tile<1x17xf16, vec, valid = [1, ?]>, !pto.tensor<1x33xf16>
  func.func @lr_create_odd(%qk: !pto.tile<1x33xf16, acc>, %f: f16, %out: !pto.tensor<1x33xf16> {pto.inout}, %o2: !pto.tensor<1x33xf16> {pto.out}) -> (!pto.tensor<1x33xf16>, !pto.tensor<1x33xf16>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %v = pto.move %qk : !pto.tile<1x33xf16, acc> -> !pto.tile<1x33xf16, vec>
    %p = pto.store %v, %o2[0, 0] : !pto.tile<1x33xf16, vec>, !pto.tensor<1x33xf16>
    %z = pto.create : !pto.tile<1x33xf16, vec>
    %m = pto.adds %z, %f : !pto.tile<1x33xf16, vec>, f16
    %o = pto.store %m, %out[0, 0] : !pto.tile<1x33xf16, vec>, !pto.tensor<1x33xf16>
    func.return %o, %p : !pto.tensor<1x33xf16>, !pto.tensor<1x33xf16>
  }
  // LEFT_RIGHT, 13 valid of 16 columns (lane stride 7): the col_sum of each lane's part has 7 and 6 columns.
  // CHECK-LABEL: func.func @lr_full_ragged
  // CHECK:       %[[COLS:.*]] = arith.muli %subblock_idx, %c7 : index
  // CHECK:       %[[LANE:.*]] = arith.minsi %{{.*}}, %c7 : index
  // CHECK:       %z_box = pto.full %f : f32 -> !pto.tile<16x8xf32, vec>
  // CHECK-NEXT:  %z = pto.set_validshape %z_box valid [16, %[[LANE]]] : !pto.tile<16x8xf32, vec> -> !pto.tile<16x8xf32, vec, valid = [16, ?]>
  // CHECK-NEXT:  %s = pto.col_sum %z : !pto.tile<16x8xf32, vec, valid = [16, ?]> -> !pto.tile<1x8xf32, vec, valid = [1, ?]>
  // CHECK-NEXT:  %o = pto.store %s, %out[0, %[[COLS]]] : !pto.tile<1x8xf32, vec, valid = [1, ?]>, !pto.tensor<1x16xf32>
  func.func @lr_full_ragged(%qk: !pto.tile<16x16xf32, acc, valid = [16, 13]>, %f: f32, %out: !pto.tensor<1x16xf32> {pto.inout}, %o2: !pto.tensor<16x16xf32> {pto.inout}) -> (!pto.tensor<1x16xf32>, !pto.tensor<16x16xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %v = pto.move %qk : !pto.tile<16x16xf32, acc, valid = [16, 13]> -> !pto.tile<16x16xf32, vec, valid = [16, 13]>
    %p = pto.store %v, %o2[0, 0] : !pto.tile<16x16xf32, vec, valid = [16, 13]>, !pto.tensor<16x16xf32>
    %z = pto.full %f : f32 -> !pto.tile<16x16xf32, vec, valid = [16, 13]>
    %s = pto.col_sum %z : !pto.tile<16x16xf32, vec, valid = [16, 13]> -> !pto.tile<1x16xf32, vec, valid = [1, 13]>
    %o = pto.store %s, %out[0, 0] : !pto.tile<1x16xf32, vec, valid = [1, 13]>, !pto.tensor<1x16xf32>
    func.return %o, %p : !pto.tensor<1x16xf32>, !pto.tensor<16x16xf32>
  }
  // UP_DOWN, i32, 15 valid of 16 rows, the generator in one branch of an scf.if: both yields have the lane's type
  // valid = [?, 16] (the narrowed full, the muls of the boundary's lane part), so the merge needs nothing more.
  // CHECK-LABEL: func.func @ud_full_if
  // CHECK:       %[[LANE:.*]] = arith.minsi %{{.*}}, %c8 : index
  // CHECK:       %m = scf.if %c -> (!pto.tile<8x16xi32, vec, valid = [?, 16]>) {
  // CHECK-NEXT:    %z_box = pto.full %k : i32 -> !pto.tile<8x16xi32, vec>
  // CHECK-NEXT:    %z = pto.set_validshape %z_box valid [%[[LANE]], 16] : !pto.tile<8x16xi32, vec> -> !pto.tile<8x16xi32, vec, valid = [?, 16]>
  // CHECK-NEXT:    scf.yield %z : !pto.tile<8x16xi32, vec, valid = [?, 16]>
  // CHECK-NEXT:  } else {
  // CHECK-NEXT:    %n = pto.muls %v, %k : !pto.tile<8x16xi32, vec, valid = [?, 16]>, i32
  func.func @ud_full_if(%qk: !pto.tile<16x16xi32, acc, valid = [15, 16]>, %k: i32, %c: i1, %out: !pto.tensor<16x16xi32> {pto.inout}) -> !pto.tensor<16x16xi32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x16xi32, acc, valid = [15, 16]> -> !pto.tile<16x16xi32, vec, valid = [15, 16]>
    %m = scf.if %c -> (!pto.tile<16x16xi32, vec, valid = [15, 16]>) {
      %z = pto.full %k : i32 -> !pto.tile<16x16xi32, vec, valid = [15, 16]>
      scf.yield %z : !pto.tile<16x16xi32, vec, valid = [15, 16]>
    } else {
      %n = pto.muls %v, %k : !pto.tile<16x16xi32, vec, valid = [15, 16]>, i32
      scf.yield %n : !pto.tile<16x16xi32, vec, valid = [15, 16]>
    }
    %o = pto.store %m, %out[0, 0] : !pto.tile<16x16xi32, vec, valid = [15, 16]>, !pto.tensor<16x16xi32>
    func.return %o : !pto.tensor<16x16xi32>
  }
  // CHECK-LABEL: func.func @main
  func.func @main(%qk: !pto.tile<16x16xi32, acc, valid = [15, 16]>, %k: i32, %a: !pto.tensor<16x16xi32> {pto.inout}, %b: !pto.tensor<16x16xi32> {pto.inout}) -> (!pto.tensor<16x16xi32>, !pto.tensor<16x16xi32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %t = arith.constant true
    %f = arith.constant false
    %r1 = func.call @ud_full_if(%qk, %k, %t, %a) : (!pto.tile<16x16xi32, acc, valid = [15, 16]>, i32, i1, !pto.tensor<16x16xi32>) -> !pto.tensor<16x16xi32>
    %r2 = func.call @ud_full_if(%qk, %k, %f, %b) : (!pto.tile<16x16xi32, acc, valid = [15, 16]>, i32, i1, !pto.tensor<16x16xi32>) -> !pto.tensor<16x16xi32>
    func.return %r1, %r2 : !pto.tensor<16x16xi32>, !pto.tensor<16x16xi32>
  }
  // A split_aiv_scope up_down region over 15 rows: the region path halves the full with the same rule, and the
  // load of the region gets the same lane extent as its valid operand.
  // CHECK-LABEL: func.func @region_full
  // CHECK:       %[[ROWS:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:       %[[LANE:.*]] = arith.minsi %{{.*}}, %c8 : index
  // CHECK:       %x = pto.load %p[%[[ROWS]], 0] valid [%[[LANE]], 16] : !pto.tensor<15x16xf32> -> !pto.tile<8x16xf32, vec, valid = [?, 16]>
  // CHECK-NEXT:  %z_box = pto.full %f : f32 -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %z = pto.set_validshape %z_box valid [%[[LANE]], 16] : !pto.tile<8x16xf32, vec> -> !pto.tile<8x16xf32, vec, valid = [?, 16]>
  // CHECK-NEXT:  %a = pto.add %x, %z : !pto.tile<8x16xf32, vec, valid = [?, 16]>
  // CHECK-NEXT:  %m = pto.muls %z, %f : !pto.tile<8x16xf32, vec, valid = [?, 16]>, f32
  // CHECK-NEXT:  %q2 = pto.store %m, %q[%[[ROWS]], 0] : !pto.tile<8x16xf32, vec, valid = [?, 16]>, !pto.tensor<15x16xf32>
  // CHECK-NEXT:  %q3 = pto.store %a, %s[%[[ROWS]], 0] : !pto.tile<8x16xf32, vec, valid = [?, 16]>, !pto.tensor<15x16xf32>
  func.func @region_full(%p: !pto.tensor<15x16xf32>, %q: !pto.tensor<15x16xf32> {pto.inout}, %s: !pto.tensor<15x16xf32> {pto.out}, %f: f32) -> (!pto.tensor<15x16xf32>, !pto.tensor<15x16xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %r1, %r2 = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<15x16xf32>, !pto.tensor<15x16xf32>) {
      %x = pto.load %p[0, 0] : !pto.tensor<15x16xf32> -> !pto.tile<15x16xf32, vec>
      %z = pto.full %f : f32 -> !pto.tile<15x16xf32, vec>
      %a = pto.add %x, %z : !pto.tile<15x16xf32, vec>
      %m = pto.muls %z, %f : !pto.tile<15x16xf32, vec>, f32
      %q2 = pto.store %m, %q[0, 0] : !pto.tile<15x16xf32, vec>, !pto.tensor<15x16xf32>
      %q3 = pto.store %a, %s[0, 0] : !pto.tile<15x16xf32, vec>, !pto.tensor<15x16xf32>
      pto.yield %q2, %q3 : !pto.tensor<15x16xf32>, !pto.tensor<15x16xf32>
    }
    func.return %r1, %r2 : !pto.tensor<15x16xf32>, !pto.tensor<15x16xf32>
  }
}
