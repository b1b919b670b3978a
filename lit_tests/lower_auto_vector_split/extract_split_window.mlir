// RUN: pypto-opt %s '--lower-auto-vector-split{fallback=error}' | filecheck %s
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir '--lower-auto-vector-split{fallback=error}' --expand-mixed-kernel | filecheck %s --check-prefix=EMK
// RUN: pypto-opt %s '--lower-auto-vector-split{fallback=error}' --expand-mixed-kernel | filecheck %s --check-prefix=EMK
// RUN: pypto-run --quiet --entry across_midline --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry across_midline --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry in_lane_one --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry in_lane_one --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry singleton_ci --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry singleton_ci --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir

// The smaller classes of issue 43 (part 5), checked by execution on a2a3 and a5.
// A vec -> vec pto.extract window of the split axis is split like the same pto.slice window (slice_split_window.mlir):
// its source's producer chain runs whole on both lanes (full_width.py, here the C->V move carried whole), and each
// lane extracts its half of the window at `offset + sub * half` and stores it at its lane offset.  An odd window
// extent and a source that cannot run whole are still refused (view_ops_errors.mlir).
// A singleton split axis (a 1x32 pto.ci under up_down) is kept whole on both lanes: the generator is not halved,
// the col_expand reads it whole beside the per-lane rows, and its store (the only one of its tensor) writes the same
// cells from both lanes.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // A 6-row window at row 5 straddles the midline (lane 0 holds rows 0-7): lane l extracts rows 5+3l .. 8+3l.
  // CHECK-LABEL: func.func @across_midline
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c3 : index
  // CHECK:       %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
  // CHECK:       %[[O:.*]] = arith.addi %c5, %[[L]] : index
  // CHECK-NEXT:  %w = pto.extract %s[%[[O]], %c0] : !pto.tile<16x16xf32, vec> -> !pto.tile<3x16xf32, vec>
  // CHECK-NEXT:  %o = pto.store %w, %out[%[[L]], 0] : !pto.tile<3x16xf32, vec>, !pto.tensor<6x16xf32>
  // EMK-LABEL:   func.func @across_midline_aiv
  // EMK:         pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x16xf32, vec>
  func.func @across_midline(%qk: !pto.tile<16x16xf32, acc>, %out: !pto.tensor<6x16xf32> {pto.out})
      -> !pto.tensor<6x16xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %c5 = arith.constant 5 : index
    %c0 = arith.constant 0 : index
    %w = pto.extract %s[%c5, %c0] : !pto.tile<16x16xf32, vec> -> !pto.tile<6x16xf32, vec>
    %o = pto.store %w, %out[0, 0] : !pto.tile<6x16xf32, vec>, !pto.tensor<6x16xf32>
    func.return %o : !pto.tensor<6x16xf32>
  }
  // LEFT_RIGHT, a 4-column window inside lane 1's half (columns 20-23): the exp runs whole, its main store takes
  // the lane part, and lane l extracts columns 20+2l .. 22+2l.
  // CHECK-LABEL: func.func @in_lane_one
  // CHECK:       %e = pto.exp %s : !pto.tile<8x32xf32, vec>
  // CHECK:       %w = pto.extract %e[0, %{{.*}}] : !pto.tile<8x32xf32, vec> -> !pto.tile<8x2xf32, vec>
  func.func @in_lane_one(%qk: !pto.tile<8x32xf32, acc>, %out: !pto.tensor<8x32xf32> {pto.out}, %side: !pto.tensor<8x4xf32> {pto.out})
      -> (!pto.tensor<8x32xf32>, !pto.tensor<8x4xf32>) attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<8x32xf32, acc> -> !pto.tile<8x32xf32, vec>
    %e = pto.exp %s : !pto.tile<8x32xf32, vec>
    %w = pto.extract %e[0, 20] : !pto.tile<8x32xf32, vec> -> !pto.tile<8x4xf32, vec>
    %p = pto.store %w, %side[0, 0] : !pto.tile<8x4xf32, vec>, !pto.tensor<8x4xf32>
    %o = pto.store %e, %out[0, 0] : !pto.tile<8x32xf32, vec>, !pto.tensor<8x32xf32>
    func.return %o, %p : !pto.tensor<8x32xf32>, !pto.tensor<8x4xf32>
  }
  // CHECK-LABEL: func.func @singleton_ci
  // CHECK:       %ci = pto.ci %c5 : i32 -> !pto.tile<1x32xi32, vec>
  // CHECK-NEXT:  %cf = pto.cast %ci : !pto.tile<1x32xi32, vec> -> !pto.tile<1x32xf32, vec>
  // CHECK-NEXT:  %y = pto.col_expand_add %s, %cf : !pto.tile<8x32xf32, vec>, !pto.tile<1x32xf32, vec>
  // CHECK:       %p = pto.store %cf, %o2[0, 0] : !pto.tile<1x32xf32, vec>, !pto.tensor<1x32xf32>
  func.func @singleton_ci(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<16x32xf32> {pto.out}, %o2: !pto.tensor<1x32xf32> {pto.out})
      -> (!pto.tensor<16x32xf32>, !pto.tensor<1x32xf32>) attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %c5 = arith.constant 5 : i32
    %ci = pto.ci %c5 : i32 -> !pto.tile<1x32xi32, vec>
    %cf = pto.cast %ci : !pto.tile<1x32xi32, vec> -> !pto.tile<1x32xf32, vec>
    %y = pto.col_expand_add %s, %cf : !pto.tile<16x32xf32, vec>, !pto.tile<1x32xf32, vec>
    %o = pto.store %y, %out[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>
    %p = pto.store %cf, %o2[0, 0] : !pto.tile<1x32xf32, vec>, !pto.tensor<1x32xf32>
    func.return %o, %p : !pto.tensor<16x32xf32>, !pto.tensor<1x32xf32>
  }
}
