// RUN: pypto-opt %s | pypto-opt | filecheck %s --check-prefix=ROUND
// RUN: pypto-opt %s -p 'lower-auto-vector-split{remarks=false},expand-mixed-kernel' | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir -p 'lower-auto-vector-split{remarks=false},expand-mixed-kernel' | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-opt %s '--lower-auto-vector-split{report=true}' 2>&1 >/dev/null | filecheck %s --check-prefixes=REPORT,REPORT-A2A3
// RUN: pypto-opt %t.a5.mlir '--lower-auto-vector-split{report=true}' 2>&1 >/dev/null | filecheck %s --check-prefixes=REPORT,REPORT-A5
// RUN: pypto-run --quiet --entry rows_only --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry rows_only --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry cols_only --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry cols_only --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry row_reduce --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry row_reduce --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry ragged_rows --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry ragged_rows --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry even --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry even --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry neither --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry neither --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir

// `#pto.split<auto>` (issue 43 part 3): LowerAutoVectorSplit lowers the kernel on each axis and keeps the one
// that splits; where both do, the one with the smaller modelled makespan (the kernel alone through
// ExpandMixedKernel, its Group timed), up_down on a tie; where neither does, the kernel is compiled unsplit with
// the reason of each axis.  The attribute prints as written when no pass runs (ROUND); the lowered kernel carries
// the chosen axis (pto.split<up_down|left_right>, or <none>), never <auto>.
// ROUND: pto.split = #pto.split<auto>
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // A random row broadcast down the columns: under left_right the generator would span the split axis (E-GEN),
  // so up_down is the only axis that splits.
  // CHECK-LABEL: func.func @rows_only_aiv
  // CHECK-SAME:  pto.split = #pto.split<up_down>, pto.split_aiv
  // CHECK:       pto.col_expand_add {{.*}} : !pto.tile<8x32xf32, vec>, !pto.tile<1x32xf32, vec>
  // REPORT:      remark: LowerAutoVectorSplit report: kernel 'rows_only' is lane-split up_down (box partition); axis up_down: the only axis that splits (left_right does not)
  func.func @rows_only(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<16x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<auto>} {
    %v = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %c0 = arith.constant 0 : i32
    %g = pto.random %c0 : i32 -> !pto.tile<1x32xf32, vec>
    %s = pto.col_expand_add %v, %g : !pto.tile<16x32xf32, vec>, !pto.tile<1x32xf32, vec>
    %o = pto.store %s, %out[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>
    func.return
  }

  // A random column broadcast along the rows: only left_right splits.
  // CHECK-LABEL: func.func @cols_only_aiv
  // CHECK-SAME:  pto.split = #pto.split<left_right>, pto.split_aiv
  // CHECK:       pto.row_expand_add {{.*}} : !pto.tile<16x16xf32, vec>, !pto.tile<16x1xf32, vec>
  // REPORT:      remark: LowerAutoVectorSplit report: kernel 'cols_only' is lane-split left_right (box partition); axis left_right: the only axis that splits (up_down does not)
  func.func @cols_only(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<16x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<auto>} {
    %v = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %c0 = arith.constant 0 : i32
    %g = pto.random %c0 : i32 -> !pto.tile<16x1xf32, vec>
    %s = pto.row_expand_add %v, %g : !pto.tile<16x32xf32, vec>, !pto.tile<16x1xf32, vec>
    %o = pto.store %s, %out[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>
    func.return
  }

  // A row reduction: both axes split, left_right with a cross-lane combine (each lane sums half of each row, the
  // partials meet in a GM workspace between lane barriers); the model times up_down shorter.
  // CHECK-LABEL: func.func @row_reduce_aiv
  // CHECK-SAME:  pto.split = #pto.split<up_down>, pto.split_aiv
  // CHECK:       pto.row_sum {{.*}} : !pto.tile<8x32xf32, vec> -> !pto.tile<8x1xf32, vec>
  // CHECK-NOT:   pto.lane_barrier
  // CHECK-LABEL: func.func @row_reduce
  // REPORT:      remark: LowerAutoVectorSplit report: kernel 'row_reduce' is lane-split up_down (box partition); axis up_down: the smaller modelled makespan (up_down {{[0-9]+}}, left_right {{[0-9]+}} cycles)
  func.func @row_reduce(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<16x1xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<auto>} {
    %v = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %s = pto.row_sum %v : !pto.tile<16x32xf32, vec> -> !pto.tile<16x1xf32, vec>
    %o = pto.store %s, %out[0, 0] : !pto.tile<16x1xf32, vec>, !pto.tensor<16x1xf32>
    func.return
  }

  // Both axes split; three rows split up_down give lane 0 two rows and lane 1 one, while left_right gives each
  // lane 3x128: the model times left_right shorter on both targets.
  // CHECK-LABEL: func.func @ragged_rows_aiv
  // CHECK-SAME:  pto.split = #pto.split<left_right>, pto.split_aiv
  // CHECK:       pto.exp {{.*}} : !pto.tile<3x128xf32, vec>
  // REPORT:      remark: LowerAutoVectorSplit report: kernel 'ragged_rows' is lane-split left_right (box partition); axis left_right: the smaller modelled makespan
  // REPORT-A2A3-SAME: (up_down 1179, left_right 1159 cycles)
  // REPORT-A5-SAME:   (up_down {{[0-9]+}}, left_right {{[0-9]+}} cycles)
  func.func @ragged_rows(%qk: !pto.tile<16x32xf32, acc>, %x: !pto.tensor<3x256xf32>,
                         %out: !pto.tensor<16x32xf32> {pto.out}, %out2: !pto.tensor<3x256xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<auto>} {
    %v = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %o = pto.store %v, %out[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>
    %l = pto.load %x[0, 0] : !pto.tensor<3x256xf32> -> !pto.tile<3x256xf32, vec>
    %e = pto.exp %l : !pto.tile<3x256xf32, vec>
    %o2 = pto.store %e, %out2[0, 0] : !pto.tile<3x256xf32, vec>, !pto.tensor<3x256xf32>
    func.return
  }

  // Both axes split and the model times them alike: up_down, the stated default.
  // CHECK-LABEL: func.func @even_aiv
  // CHECK-SAME:  pto.split = #pto.split<up_down>, pto.split_aiv
  // CHECK:       pto.exp {{.*}} : !pto.tile<8x32xf32, vec>
  // REPORT:      remark: LowerAutoVectorSplit report: kernel 'even' is lane-split up_down (box partition); axis up_down: the modelled makespans tie
  // REPORT-SAME: up_down, the default
  func.func @even(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<16x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<auto>} {
    %v = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %e = pto.exp %v : !pto.tile<16x32xf32, vec>
    %o = pto.store %e, %out[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>
    func.return
  }

  // A random column and a random row: each spans one axis, so neither axis splits; the kernel is compiled unsplit
  // (pto.split<none>, the body as written) and the report gives both reasons.
  // CHECK-LABEL: func.func @neither_aiv
  // CHECK-SAME:  pto.split = #pto.split<none>
  // A2A3-SAME:   pto.dual_aiv_dispatch
  // A5-NOT:      pto.dual_aiv_dispatch
  // CHECK:       pto.random {{.*}} -> !pto.tile<16x1xf32, vec>
  // CHECK:       pto.random {{.*}} -> !pto.tile<1x32xf32, vec>
  // REPORT:      remark: LowerAutoVectorSplit report: kernel 'neither' falls back to unsplit because neither axis can be lane-split (up_down: 'pto.random' at {{.*}}.mlir:[[# @LINE + 5]]:5: automatic split-axis halving of 'pto.random'{{.*}}; left_right: 'pto.random' at {{.*}}.mlir:[[# @LINE + 7]]:5: automatic split-axis halving of 'pto.random'
  func.func @neither(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<16x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<auto>} {
    %v = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %c0 = arith.constant 0 : i32
    %col = pto.random %c0 : i32 -> !pto.tile<16x1xf32, vec>
    %a = pto.row_expand_add %v, %col : !pto.tile<16x32xf32, vec>, !pto.tile<16x1xf32, vec>
    %row = pto.random %c0 : i32 -> !pto.tile<1x32xf32, vec>
    %b = pto.col_expand_add %a, %row : !pto.tile<16x32xf32, vec>, !pto.tile<1x32xf32, vec>
    %o = pto.store %b, %out[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>
    func.return
  }
}
