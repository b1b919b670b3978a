// RUN: pypto-opt %s '--lower-auto-vector-split{fallback=error split-policy=always}' | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %s '--lower-auto-vector-split{fallback=error split-policy=always}' --split-report=- 2>&1 >/dev/null | filecheck %s --check-prefix=REPORT
// RUN: pypto-opt %t.a5.mlir '--lower-auto-vector-split{fallback=error split-policy=always}' | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-run --quiet --entry tile_get_odd --check-pipeline 'lower-auto-vector-split{fallback=error split-policy=always},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry tile_get_odd --check-pipeline 'lower-auto-vector-split{fallback=error split-policy=always},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry tile_get_odd_whole --check-pipeline 'lower-auto-vector-split{fallback=error split-policy=always},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry tile_get_odd_whole --check-pipeline 'lower-auto-vector-split{fallback=error split-policy=always},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry whole_odd_meets_lanes --check-pipeline 'lower-auto-vector-split{fallback=error split-policy=always},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry whole_odd_meets_lanes --check-pipeline 'lower-auto-vector-split{fallback=error split-policy=always},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry odd_window_meets_lanes --check-pipeline 'lower-auto-vector-split{fallback=error split-policy=always},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry odd_window_meets_lanes --check-pipeline 'lower-auto-vector-split{fallback=error split-policy=always},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry ci_odd_columns_add --check-pipeline 'lower-auto-vector-split{fallback=error split-policy=always},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry ci_odd_columns_add --check-pipeline 'lower-auto-vector-split{fallback=error split-policy=always},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry ci_odd_columns_if --check-pipeline 'lower-auto-vector-split{fallback=error split-policy=always},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry ci_odd_columns_if --check-pipeline 'lower-auto-vector-split{fallback=error split-policy=always},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry whole_odd_in_loop --check-pipeline 'lower-auto-vector-split{fallback=error split-policy=always},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry whole_odd_in_loop --check-pipeline 'lower-auto-vector-split{fallback=error split-policy=always},expand-mixed-kernel' %t.a5.mlir

// The lane part of a whole value of an odd split extent, through a GM workspace (issue 43; patterns/gm_lane_part.py).
// A whole tile of an odd box has no lane slice (lane 1's window [step, step + ceil(B/2)) passes the box), so where
// it meets per-lane data or is yielded for a per-lane result, each
// lane stores it to its own row of a `pto.lane_workspace` and loads its lane window back, as an odd-extent load
// would (box ceil(B/2), valid clamp(V - sub*step, 0, step)).  An odd `pto.tile_get` (a fully valid result: it has
// no valid operand) is read whole on both lanes and gets its lane part the same way where it needs one.  Every
// kernel is checked by execution before and after the whole pipeline, on a2a3 and a5; the IR is the same on both.
// split-policy=always: the timing model may keep these small kernels unsplit, and the split is what is shown.
// The split report names each lane part taken through GM (the first kernel's line shown).
// REPORT-LABEL: kernel @tile_get_odd: split up_down requested, lane-split
// REPORT:       the split takes the lane part of %g (whole on both lanes, an odd split extent on dim 0) through a [2, 16, 16] GM workspace: each lane stores it to its row and loads its window
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // A2A3: module attributes {pto.target = #pto.target<a2a3>}
  // A5: module attributes {pto.target = #pto.target<a5>}
  // Class 0: a 15-row tile_get added to per-lane rows (the 15-row C->V boundary, 8 + 7).  The tile_get reads the
  // whole window on both lanes; the add takes its lane part: stored to the lane's row of a 2x16x16 workspace (16:
  // lane 1's box [8, 16) lies inside it), loaded back at row sub*8 with the lane's valid rows (8, then 7).
  // CHECK-LABEL: func.func @tile_get_odd
  // CHECK:       %[[LANE:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:       %[[ROWS:.*]] = arith.minsi %{{.*}}, %c8 : index
  // CHECK:       %g_ws = pto.lane_workspace : !pto.tensor<2x16x16xf32>
  // CHECK:       %g = pto.tile_get %x[0, 0] from %c0 : !pto.tensor<15x16xf32> -> !pto.tile<15x16xf32, vec>
  // CHECK-NEXT:  %g_row = pto.store %g, %g_ws[%subblock_idx, 0, 0] : !pto.tile<15x16xf32, vec>, !pto.tensor<2x16x16xf32>
  // CHECK-NEXT:  %g_lane = pto.load %g_row[%subblock_idx, %[[LANE]], 0] valid [%[[ROWS]], 16] : !pto.tensor<2x16x16xf32> -> !pto.tile<8x16xf32, vec, valid = [?, 16]>
  // CHECK-NEXT:  %a = pto.add %s, %g_lane : !pto.tile<8x16xf32, vec, valid = [?, 16]>
  // CHECK-NEXT:  pto.store %a, %out[%[[LANE]], 0]
  func.func @tile_get_odd(%qk: !pto.tile<15x16xf32, acc>, %x: !pto.tensor<15x16xf32>, %out: !pto.tensor<15x16xf32> {pto.out}) -> !pto.tensor<15x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<15x16xf32, acc> -> !pto.tile<15x16xf32, vec>
    %c0 = arith.constant 0 : index
    %g = pto.tile_get %x[0, 0] from %c0 : !pto.tensor<15x16xf32> -> !pto.tile<15x16xf32, vec>
    %a = pto.add %s, %g : !pto.tile<15x16xf32, vec>
    %o = pto.store %a, %out[0, 0] : !pto.tile<15x16xf32, vec>, !pto.tensor<15x16xf32>
    func.return %o : !pto.tensor<15x16xf32>
  }
  // An odd tile_get that meets no per-lane data stays whole, with no workspace: both lanes compute the same
  // whole value and store it into a tensor no other op writes (the same cells, the same values).
  // CHECK-LABEL: func.func @tile_get_odd_whole
  // CHECK-NOT:   pto.lane_workspace
  // CHECK:       %g = pto.tile_get %x[0, 0] from %c0 : !pto.tensor<15x16xf32> -> !pto.tile<15x16xf32, vec>
  // CHECK-NEXT:  %e = pto.exp %g : !pto.tile<15x16xf32, vec>
  // CHECK-NEXT:  pto.store %e, %side[0, 0] : !pto.tile<15x16xf32, vec>, !pto.tensor<15x16xf32>
  // CHECK-NOT:   pto.lane_workspace
  // CHECK:       func.return
  func.func @tile_get_odd_whole(%qk: !pto.tile<16x16xf32, acc>, %x: !pto.tensor<15x16xf32>, %out: !pto.tensor<16x16xf32> {pto.out}, %side: !pto.tensor<15x16xf32> {pto.out}) -> (!pto.tensor<16x16xf32>, !pto.tensor<15x16xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %o = pto.store %s, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    %c0 = arith.constant 0 : index
    %g = pto.tile_get %x[0, 0] from %c0 : !pto.tensor<15x16xf32> -> !pto.tile<15x16xf32, vec>
    %e = pto.exp %g : !pto.tile<15x16xf32, vec>
    %p = pto.store %e, %side[0, 0] : !pto.tile<15x16xf32, vec>, !pto.tensor<15x16xf32>
    func.return %o, %p : !pto.tensor<16x16xf32>, !pto.tensor<15x16xf32>
  }
  // Class 9: a value kept whole for a reshape with no lane window ([15, 2] -> [1, 30]) meets the per-lane rows of
  // a 15-row load.  Its lane part comes through the workspace; the reshape still reads it whole.
  // CHECK-LABEL: func.func @whole_odd_meets_lanes
  // CHECK:       %s_ws = pto.lane_workspace : !pto.tensor<2x16x2xf32>
  // CHECK:       %s = pto.move %qk : !pto.tile<15x2xf32, acc> -> !pto.tile<15x2xf32, vec>
  // CHECK-NEXT:  %s_row = pto.store %s, %s_ws[%subblock_idx, 0, 0]
  // CHECK-NEXT:  %s_lane = pto.load %s_row[%subblock_idx, %{{.*}}, 0] valid [%{{.*}}, 2] : !pto.tensor<2x16x2xf32> -> !pto.tile<8x2xf32, vec, valid = [?, 2]>
  // CHECK:       %a = pto.add %s_lane, %l : !pto.tile<8x2xf32, vec, valid = [?, 2]>
  // CHECK:       %r = pto.reshape %s : !pto.tile<15x2xf32, vec> -> !pto.tile<1x30xf32, vec>
  func.func @whole_odd_meets_lanes(%qk: !pto.tile<15x2xf32, acc>, %x: !pto.tensor<15x2xf32>, %out: !pto.tensor<15x2xf32> {pto.out}, %flat: !pto.tensor<1x30xf32> {pto.out}) -> (!pto.tensor<15x2xf32>, !pto.tensor<1x30xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<15x2xf32, acc> -> !pto.tile<15x2xf32, vec>
    %l = pto.load %x[0, 0] : !pto.tensor<15x2xf32> -> !pto.tile<15x2xf32, vec>
    %a = pto.add %s, %l : !pto.tile<15x2xf32, vec>
    %o = pto.store %a, %out[0, 0] : !pto.tile<15x2xf32, vec>, !pto.tensor<15x2xf32>
    %r = pto.reshape %s : !pto.tile<15x2xf32, vec> -> !pto.tile<1x30xf32, vec>
    %p = pto.store %r, %flat[0, 0] : !pto.tile<1x30xf32, vec>, !pto.tensor<1x30xf32>
    func.return %o, %p : !pto.tensor<15x2xf32>, !pto.tensor<1x30xf32>
  }
  // The whole 7-row window of a C->V tile (taken whole: lane 1's slice window would pass the 16-row box,
  // odd_window_whole.mlir) added to the per-lane rows of a 7-row load (4 + 3): a 2x8x16 workspace.
  // CHECK-LABEL: func.func @odd_window_meets_lanes
  // CHECK:       %w_ws = pto.lane_workspace : !pto.tensor<2x8x16xf32>
  // CHECK:       %w = pto.slice %s[9, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<7x16xf32, vec>
  // CHECK-NEXT:  %w_row = pto.store %w, %w_ws[%subblock_idx, 0, 0]
  // CHECK-NEXT:  %w_lane = pto.load %w_row[%subblock_idx, %{{.*}}, 0] valid [%{{.*}}, 16] : !pto.tensor<2x8x16xf32> -> !pto.tile<4x16xf32, vec, valid = [?, 16]>
  // CHECK:       %a = pto.add %l, %w_lane : !pto.tile<4x16xf32, vec, valid = [?, 16]>
  func.func @odd_window_meets_lanes(%qk: !pto.tile<16x16xf32, acc>, %x: !pto.tensor<7x16xf32>, %out: !pto.tensor<7x16xf32> {pto.out}) -> !pto.tensor<7x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %w = pto.slice %s[9, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<7x16xf32, vec>
    %l = pto.load %x[0, 0] : !pto.tensor<7x16xf32> -> !pto.tile<7x16xf32, vec>
    %a = pto.add %l, %w : !pto.tile<7x16xf32, vec>
    %o = pto.store %a, %out[0, 0] : !pto.tile<7x16xf32, vec>, !pto.tensor<7x16xf32>
    func.return %o : !pto.tensor<7x16xf32>
  }
  // A whole `pto.ci` of 15 columns under left_right (ci_lane_start.mlir shows its split forms) added to the
  // per-lane columns of a C->V tile (8 + 7): its lane part on the columns (dim 1).
  // CHECK-LABEL: func.func @ci_odd_columns_add
  // CHECK:       %i_ws = pto.lane_workspace : !pto.tensor<2x4x16xi32>
  // CHECK:       %i = pto.ci %c0 : i32 -> !pto.tile<4x15xi32, vec>
  // CHECK-NEXT:  %i_row = pto.store %i, %i_ws[%subblock_idx, 0, 0]
  // CHECK-NEXT:  %i_lane = pto.load %i_row[%subblock_idx, 0, %{{.*}}] valid [4, %{{.*}}] : !pto.tensor<2x4x16xi32> -> !pto.tile<4x8xi32, vec, valid = [4, ?]>
  // CHECK-NEXT:  %s = pto.add %v, %i_lane : !pto.tile<4x8xi32, vec, valid = [4, ?]>
  func.func @ci_odd_columns_add(%qk: !pto.tile<4x15xi32, acc>, %out: !pto.tensor<4x15xi32> {pto.out}) -> !pto.tensor<4x15xi32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %v = pto.move %qk : !pto.tile<4x15xi32, acc> -> !pto.tile<4x15xi32, vec>
    %c0 = arith.constant 0 : i32
    %i = pto.ci %c0 : i32 -> !pto.tile<4x15xi32, vec>
    %s = pto.add %v, %i : !pto.tile<4x15xi32, vec>
    %o = pto.store %s, %out[0, 0] : !pto.tile<4x15xi32, vec>, !pto.tensor<4x15xi32>
    func.return %o : !pto.tensor<4x15xi32>
  }
  // Class 12: under left_right a `pto.ci` is computed whole (a lane's columns of several rows are not one run of
  // its values) and its 15 columns have no lane slice; an scf.if yields it in one branch and a per-lane value
  // (columns 8 + 7 of a load) in the other, so the branch yields its lane part, on the columns (dim 1).
  // CHECK-LABEL: func.func @ci_odd_columns_if
  // CHECK:       %gen_ws = pto.lane_workspace : !pto.tensor<2x8x16xi32>
  // CHECK:       %gen = pto.ci %{{.*}} : i32 -> !pto.tile<8x15xi32, vec>
  // CHECK-NEXT:  %gen_row = pto.store %gen, %gen_ws[%subblock_idx, 0, 0]
  // CHECK-NEXT:  %gen_lane = pto.load %gen_row[%subblock_idx, 0, %{{.*}}] valid [8, %{{.*}}] : !pto.tensor<2x8x16xi32> -> !pto.tile<8x8xi32, vec, valid = [8, ?]>
  // CHECK-NEXT:  scf.yield %gen_lane : !pto.tile<8x8xi32, vec, valid = [8, ?]>
  func.func @ci_odd_columns_if(%x: !pto.tensor<8x15xi32>, %w: !pto.tensor<16x16xbf16>, %out: !pto.tensor<8x15xi32> {pto.out}, %mm_out: !pto.tensor<16x16xf32> {pto.out}, %n: index) -> (!pto.tensor<8x15xi32>, !pto.tensor<16x16xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %wl = pto.load %w[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %wa = pto.move %wl : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, left>
    %wb = pto.move %wl : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, right>
    %mm = pto.matmul %wa, %wb : !pto.tile<16x16xbf16, left>, !pto.tile<16x16xbf16, right> -> !pto.tile<16x16xf32, acc>
    %q = pto.store %mm, %mm_out[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
    %c0 = arith.constant 0 : index
    %cond = arith.cmpi sgt, %n, %c0 : index
    %r = scf.if %cond -> (!pto.tile<8x15xi32, vec>) {
      %k = arith.constant 3 : i32
      %gen = pto.ci %k : i32 -> !pto.tile<8x15xi32, vec>
      scf.yield %gen : !pto.tile<8x15xi32, vec>
    } else {
      %l = pto.load %x[0, 0] : !pto.tensor<8x15xi32> -> !pto.tile<8x15xi32, vec>
      scf.yield %l : !pto.tile<8x15xi32, vec>
    }
    %o = pto.store %r, %out[0, 0] : !pto.tile<8x15xi32, vec>, !pto.tensor<8x15xi32>
    func.return %o, %q : !pto.tensor<8x15xi32>, !pto.tensor<16x16xf32>
  }
  // Class 10 (a whole odd value stored into a tensor another op writes) needs no workspace: lane 0 alone stores
  // it between two lane barriers (whole_store_one_writer.mlir).
  // In a loop: the odd tile_get of each iteration meets the per-lane accumulator; the workspace is created once at
  // the kernel entry, and each iteration's store and load of the lane's own row follow each other on that lane
  // (the next iteration's store comes after this iteration's load in the lane's program order; no barrier).
  // CHECK-LABEL: func.func @whole_odd_in_loop
  // CHECK:       %g_ws = pto.lane_workspace : !pto.tensor<2x16x16xf32>
  // CHECK:       scf.for
  // CHECK:         %g = pto.tile_get %x[%{{.*}}, 0] from %c0 : !pto.tensor<45x16xf32> -> !pto.tile<15x16xf32, vec>
  // CHECK-NEXT:    %g_row = pto.store %g, %g_ws[%subblock_idx, 0, 0]
  // CHECK-NEXT:    %g_lane = pto.load %g_row
  // CHECK-NOT:     pto.lane_barrier
  // CHECK:         pto.add %{{.*}}, %g_lane
  func.func @whole_odd_in_loop(%qk: !pto.tile<15x16xf32, acc>, %x: !pto.tensor<45x16xf32>, %out: !pto.tensor<15x16xf32> {pto.out}) -> !pto.tensor<15x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<15x16xf32, acc> -> !pto.tile<15x16xf32, vec>
    %c0 = arith.constant 0 : index
    %c15 = arith.constant 15 : index
    %c45 = arith.constant 45 : index
    %acc = scf.for %i = %c0 to %c45 step %c15 iter_args(%sum = %s) -> (!pto.tile<15x16xf32, vec>) {
      %g = pto.tile_get %x[%i, 0] from %c0 : !pto.tensor<45x16xf32> -> !pto.tile<15x16xf32, vec>
      %a = pto.add %sum, %g : !pto.tile<15x16xf32, vec>
      scf.yield %a : !pto.tile<15x16xf32, vec>
    }
    %o = pto.store %acc, %out[0, 0] : !pto.tile<15x16xf32, vec>, !pto.tensor<15x16xf32>
    func.return %o : !pto.tensor<15x16xf32>
  }
}
