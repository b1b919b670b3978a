// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefix=EMK
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-run --quiet --entry ragged_with_load --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry ragged_with_load --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry balanced_with_load --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry balanced_with_load --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry left_right_partial --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry left_right_partial --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry rows_and_cols --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry rows_and_cols --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry gather_odd --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry gather_odd --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry gather_ragged --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry gather_ragged --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry gather_singleton --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry gather_singleton --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir

// Boundaries that no split code can place, split anyway (issue 17; docs/lower-auto-vector-split.md, "Kernels
// that used to be rejected").  Every kernel is checked by execution before and after the whole pipeline, on
// a2a3 and on a5.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // Ragged C->V (13 of 16 rows) beside an independent fully valid load: a lane_stride of 7 would leave rows 14
  // and 15 of the load to no lane, so the box partition stays (8 and 5 rows, no split code).  The boundary is
  // carried whole (a plain move: split code 0, each lane receives the 16 rows) and each lane slices its 8-row
  // window at sub*8 with the clamped valid extent.
  // CHECK-LABEL: func.func @ragged_with_load
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:       %[[V:.*]] = arith.minsi %{{.*}}, %c8 : index
  // CHECK-NEXT:  %v_whole = pto.move %qk : !pto.tile<16x32xf32, acc, valid = [13, 32]> -> !pto.tile<16x32xf32, vec, valid = [13, 32]>
  // CHECK-NEXT:  %v = pto.slice %v_whole[%[[L]], 0] valid [%[[V]], 32] : !pto.tile<16x32xf32, vec, valid = [13, 32]> -> !pto.tile<8x32xf32, vec, valid = [?, 32]>
  // CHECK:       %o = pto.store %e, %out[%[[L]], 0]
  // CHECK:       %b = pto.load %x[%[[L]], 0] : !pto.tensor<16x32xf32> -> !pto.tile<8x32xf32, vec>
  // EMK-LABEL:   func.func @ragged_with_load_aiv
  // EMK:         %v_whole = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x32xf32, vec, valid = [13, 32]>
  // EMK-NEXT:    %v = pto.slice %v_whole
  func.func @ragged_with_load(%qk: !pto.tile<16x32xf32, acc, valid = [13, 32]>, %x: !pto.tensor<16x32xf32>, %out: !pto.tensor<16x32xf32> {pto.out}, %out2: !pto.tensor<16x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x32xf32, acc, valid = [13, 32]> -> !pto.tile<16x32xf32, vec, valid = [13, 32]>
    %e = pto.exp %v : !pto.tile<16x32xf32, vec, valid = [13, 32]>
    %o = pto.store %e, %out[0, 0] : !pto.tile<16x32xf32, vec, valid = [13, 32]>, !pto.tensor<16x32xf32>
    %b = pto.load %x[0, 0] : !pto.tensor<16x32xf32> -> !pto.tile<16x32xf32, vec>
    %n = pto.neg %b : !pto.tile<16x32xf32, vec>
    %o2 = pto.store %n, %out2[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>
    func.return
  }
  // The same boundary with a load of 13 valid rows: lane_stride 7 covers it ([0, 7) and [7, 14)), so the load
  // no longer blocks balancing (the reference blocks on every load): the load takes the stride too, and the
  // shard is placed by code 3.
  // CHECK-LABEL: func.func @balanced_with_load
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c7 : index
  // CHECK:       %[[V:.*]] = arith.minsi %{{.*}}, %c7 : index
  // CHECK-NEXT:  %v = pto.aiv_shard %qk {split = 1 : i64, lane_stride = 7 : i64} : !pto.tile<16x32xf32, acc, valid = [13, 32]> -> !pto.tile<8x32xf32, vec, valid = [?, 32]>
  // CHECK-NEXT:  %b = pto.load %x[%[[L]], 0] valid [%[[V]], 32] : !pto.tensor<16x32xf32> -> !pto.tile<8x32xf32, vec, valid = [?, 32]>
  // EMK-LABEL:   func.func @balanced_with_load_aiv
  // EMK:         %v = pto.tpop_from_aic {split = 3 : i64, lane_stride = 7 : i64}
  func.func @balanced_with_load(%qk: !pto.tile<16x32xf32, acc, valid = [13, 32]>, %x: !pto.tensor<16x32xf32>, %out: !pto.tensor<16x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x32xf32, acc, valid = [13, 32]> -> !pto.tile<16x32xf32, vec, valid = [13, 32]>
    %b = pto.load %x[0, 0] valid [13, 32] : !pto.tensor<16x32xf32> -> !pto.tile<16x32xf32, vec, valid = [13, 32]>
    %s = pto.add %v, %b : !pto.tile<16x32xf32, vec, valid = [13, 32]>
    %o = pto.store %s, %out[0, 0] : !pto.tile<16x32xf32, vec, valid = [13, 32]>, !pto.tensor<16x32xf32>
    func.return
  }
  // LEFT_RIGHT with 10 valid columns of 16: an aiv_shard cannot carry a partial column extent (reference
  // CheckSplitBoundaryCarriesValid), but the whole tile can: the columns are balanced (lane_stride 5) and each
  // lane slices 5 columns at sub*5.
  // CHECK-LABEL: func.func @left_right_partial
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c5 : index
  // CHECK-NEXT:  %v_whole = pto.move %qk : !pto.tile<16x16xf32, acc, valid = [16, 10]> -> !pto.tile<16x16xf32, vec, valid = [16, 10]>
  // CHECK-NEXT:  %v = pto.slice %v_whole[0, %[[L]]] : !pto.tile<16x16xf32, vec, valid = [16, 10]> -> !pto.tile<16x8xf32, vec, valid = [16, 5]>
  // CHECK:       %o = pto.store %e, %out[0, %[[L]]]
  func.func @left_right_partial(%qk: !pto.tile<16x16xf32, acc, valid = [16, 10]>, %out: !pto.tensor<16x16xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %v = pto.move %qk : !pto.tile<16x16xf32, acc, valid = [16, 10]> -> !pto.tile<16x16xf32, vec, valid = [16, 10]>
    %e = pto.abs %v : !pto.tile<16x16xf32, vec, valid = [16, 10]>
    %o = pto.store %e, %out[0, 0] : !pto.tile<16x16xf32, vec, valid = [16, 10]>, !pto.tensor<16x16xf32>
    func.return
  }
  // UP_DOWN with a ragged row extent and a narrowed column extent (13 x 10): no shard carries both; the whole
  // tile does (rows balanced with lane_stride 7).
  // CHECK-LABEL: func.func @rows_and_cols
  // CHECK:       %v_whole = pto.move %qk : !pto.tile<16x16xf32, acc, valid = [13, 10]> -> !pto.tile<16x16xf32, vec, valid = [13, 10]>
  // CHECK-NEXT:  %v = pto.slice %v_whole[%{{.*}}, 0] valid [%{{.*}}, 10] : !pto.tile<16x16xf32, vec, valid = [13, 10]> -> !pto.tile<8x16xf32, vec, valid = [?, 10]>
  func.func @rows_and_cols(%qk: !pto.tile<16x16xf32, acc, valid = [13, 10]>, %out: !pto.tensor<16x16xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x16xf32, acc, valid = [13, 10]> -> !pto.tile<16x16xf32, vec, valid = [13, 10]>
    %o = pto.store %v, %out[0, 0] : !pto.tile<16x16xf32, vec, valid = [13, 10]>, !pto.tensor<16x16xf32>
    func.return
  }
  // V->C of an odd box (15 rows): two 8-row lane boxes cannot gather into 15 rows.  The chain feeding the
  // boundary (load, muls, cast) stays full width on both lanes and the move stays a plain move: split code 0,
  // the cube takes lane 0's whole tile.
  // CHECK-LABEL: func.func @gather_odd
  // CHECK:       %a = pto.load %x[0, 0] : !pto.tensor<15x32xf32> -> !pto.tile<15x32xf32, vec>
  // CHECK:       %h = pto.cast %s : !pto.tile<15x32xf32, vec> -> !pto.tile<15x32xbf16, vec>
  // CHECK-NEXT:  %l = pto.move %h : !pto.tile<15x32xbf16, vec> -> !pto.tile<15x32xbf16, left>
  // EMK-LABEL:   func.func @gather_odd_aiv
  // EMK:         pto.tpush_to_aic %h {split = 0 : i64} : !pto.tile<15x32xbf16, vec>
  func.func @gather_odd(%x: !pto.tensor<15x32xf32>, %w: !pto.tile<32x16xbf16, right>, %out: !pto.tensor<15x16xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %a = pto.load %x[0, 0] : !pto.tensor<15x32xf32> -> !pto.tile<15x32xf32, vec>
    %c = arith.constant 0.5 : f32
    %s = pto.muls %a, %c : !pto.tile<15x32xf32, vec>, f32
    %h = pto.cast %s : !pto.tile<15x32xf32, vec> -> !pto.tile<15x32xbf16, vec>
    %l = pto.move %h : !pto.tile<15x32xbf16, vec> -> !pto.tile<15x32xbf16, left>
    %m = pto.matmul %l, %w : !pto.tile<15x32xbf16, left>, !pto.tile<32x16xbf16, right> -> !pto.tile<15x16xf32, acc>
    %o = pto.store %m, %out[0, 0] : !pto.tile<15x16xf32, acc>, !pto.tensor<15x16xf32>
    func.return
  }
  // V->C with 13 valid rows of 16 (lanes 8 and 5: a gather has no odd form): the V->C chain stays full width
  // (code 0), while the C->V boundary of the same kernel is still balanced (lane_stride 7, code 3): the
  // full-width chain does not block the stride.
  // CHECK-LABEL: func.func @gather_ragged
  // CHECK:       %a = pto.load %x[0, 0] valid [13, 32] : !pto.tensor<16x32xf32> -> !pto.tile<16x32xf32, vec, valid = [13, 32]>
  // CHECK:       %l = pto.move %h : !pto.tile<16x32xbf16, vec, valid = [13, 32]> -> !pto.tile<16x32xbf16, left, valid = [13, 32]>
  // CHECK:       %v = pto.aiv_shard %m {split = 1 : i64, lane_stride = 7 : i64}
  // EMK-LABEL:   func.func @gather_ragged_aiv
  // EMK:         pto.tpush_to_aic %h {split = 0 : i64} : !pto.tile<16x32xbf16, vec, valid = [13, 32]>
  // EMK:         pto.tpop_from_aic {split = 3 : i64, lane_stride = 7 : i64}
  func.func @gather_ragged(%x: !pto.tensor<16x32xf32>, %w: !pto.tile<32x16xbf16, right>, %out: !pto.tensor<16x16xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %a = pto.load %x[0, 0] valid [13, 32] : !pto.tensor<16x32xf32> -> !pto.tile<16x32xf32, vec, valid = [13, 32]>
    %h = pto.cast %a : !pto.tile<16x32xf32, vec, valid = [13, 32]> -> !pto.tile<16x32xbf16, vec, valid = [13, 32]>
    %l = pto.move %h : !pto.tile<16x32xbf16, vec, valid = [13, 32]> -> !pto.tile<16x32xbf16, left, valid = [13, 32]>
    %m = pto.matmul %l, %w : !pto.tile<16x32xbf16, left, valid = [13, 32]>, !pto.tile<32x16xbf16, right> -> !pto.tile<16x16xf32, acc, valid = [13, 16]>
    %v = pto.move %m : !pto.tile<16x16xf32, acc, valid = [13, 16]> -> !pto.tile<16x16xf32, vec, valid = [13, 16]>
    %o = pto.store %v, %out[0, 0] : !pto.tile<16x16xf32, vec, valid = [13, 16]>, !pto.tensor<16x16xf32>
    func.return
  }
  // A singleton split axis ([16, 1] under LEFT_RIGHT) is never halved, so it crosses whole (code 0); the
  // reference rejects it (E-FULLWIDTH).
  // CHECK-LABEL: func.func @gather_singleton
  // CHECK:       %l = pto.move %h : !pto.tile<16x1xbf16, vec> -> !pto.tile<16x1xbf16, left>
  // CHECK:       %v = pto.aiv_shard %m {split = 2 : i64}
  func.func @gather_singleton(%x: !pto.tensor<16x1xf32>, %w: !pto.tile<1x16xbf16, right>, %out: !pto.tensor<16x16xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %a = pto.load %x[0, 0] : !pto.tensor<16x1xf32> -> !pto.tile<16x1xf32, vec>
    %h = pto.cast %a : !pto.tile<16x1xf32, vec> -> !pto.tile<16x1xbf16, vec>
    %l = pto.move %h : !pto.tile<16x1xbf16, vec> -> !pto.tile<16x1xbf16, left>
    %m = pto.matmul %l, %w : !pto.tile<16x1xbf16, left>, !pto.tile<1x16xbf16, right> -> !pto.tile<16x16xf32, acc>
    %v = pto.move %m : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %o = pto.store %v, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return
  }

  // UP_DOWN with a runtime column extent: an aiv_shard needs a static narrowed column, the whole tile does not
  // (the row windows are even and full, so the lanes' row extents are static 8 and the slice takes its column
  // extent from the source).  Not run: the interpreter cannot make a tile parameter with a runtime extent.
  // CHECK-LABEL: func.func @runtime_columns
  // CHECK:       %v_whole = pto.move %qk : !pto.tile<16x16xf32, acc, valid = [16, ?]> -> !pto.tile<16x16xf32, vec, valid = [16, ?]>
  // CHECK-NEXT:  %v = pto.slice %v_whole[%{{.*}}, 0] : !pto.tile<16x16xf32, vec, valid = [16, ?]> -> !pto.tile<8x16xf32, vec, valid = [8, ?]>
  func.func @runtime_columns(%qk: !pto.tile<16x16xf32, acc, valid = [16, ?]>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x16xf32, acc, valid = [16, ?]> -> !pto.tile<16x16xf32, vec, valid = [16, ?]>
    func.return
  }
}
