// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir --lower-auto-vector-split | filecheck %s
// RUN: pypto-run --quiet --entry ud_tail --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry ud_tail --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry lr_tail --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry lr_tail --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry extract_odd --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry extract_odd --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir

// A window of the split axis of a value the pass computes whole on both lanes (a full-width chain value,
// slice_split_window.mlir) whose per-lane windows do not fit (issue 43): an odd window that ends at the source's
// end (lane 1's window [offset + step, + ceil(w/2)) passes the source's box, and pto has no padded slice), or an
// extract of an odd extent (an extract copies whole windows).  Before, it was refused; now both lanes take the
// window as written, whole, as they hold its source: the window is never halved, and its users follow the rules
// of whole values (a store of it alone writes the same cells from both lanes; where it meets per-lane data it is
// refused, odd_window_whole_errors.mlir).  The source's other users still take their lane parts.  The IR after
// the pass is the same on both targets; every kernel is checked by execution on a2a3 and a5 under
// fallback=error (the kernel is split, not fallen back).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // UP_DOWN rows [9, 16) of an exp of a C->V boundary (7 rows: lane 1's window [13, 17) passed the 16 rows): the
  // boundary stays a move, the exp runs whole, the window is taken whole and stored whole; the exp's own store
  // takes its lane part (rows 8l).
  // CHECK-LABEL: func.func @ud_tail
  // CHECK:       %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:  %e = pto.exp %s : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:  %[[PART:.*]] = pto.slice %e[%[[LANE:.*]], 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %w = pto.slice %e[9, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<7x16xf32, vec>
  // CHECK-NEXT:  %o = pto.store %w, %out[0, 0] : !pto.tile<7x16xf32, vec>, !pto.tensor<7x16xf32>
  // CHECK-NEXT:  %p = pto.store %[[PART]], %o2[%[[LANE]], 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<16x16xf32>
  func.func @ud_tail(%qk: !pto.tile<16x16xf32, acc>, %out: !pto.tensor<7x16xf32> {pto.out}, %o2: !pto.tensor<16x16xf32> {pto.out}) -> (!pto.tensor<7x16xf32>, !pto.tensor<16x16xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %e = pto.exp %s : !pto.tile<16x16xf32, vec>
    %w = pto.slice %e[9, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<7x16xf32, vec>
    %o = pto.store %w, %out[0, 0] : !pto.tile<7x16xf32, vec>, !pto.tensor<7x16xf32>
    %p = pto.store %e, %o2[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o, %p : !pto.tensor<7x16xf32>, !pto.tensor<16x16xf32>
  }
  // LEFT_RIGHT columns [7, 16) (9 columns: lane 1's window [12, 17) passed the 16 columns); the whole window is
  // computed on further (relu) at full width, and stored whole.
  // CHECK-LABEL: func.func @lr_tail
  // CHECK:       %s = pto.move %qk : !pto.tile<8x16xf32, acc> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %w = pto.slice %s[0, 7] : !pto.tile<8x16xf32, vec> -> !pto.tile<8x9xf32, vec>
  // CHECK-NEXT:  %r = pto.relu %w : !pto.tile<8x9xf32, vec>
  // CHECK-NEXT:  %o = pto.store %r, %out[0, 0] : !pto.tile<8x9xf32, vec>, !pto.tensor<8x9xf32>
  func.func @lr_tail(%qk: !pto.tile<8x16xf32, acc>, %out: !pto.tensor<8x9xf32> {pto.out}) -> !pto.tensor<8x9xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<8x16xf32, acc> -> !pto.tile<8x16xf32, vec>
    %w = pto.slice %s[0, 7] : !pto.tile<8x16xf32, vec> -> !pto.tile<8x9xf32, vec>
    %r = pto.relu %w : !pto.tile<8x9xf32, vec>
    %o = pto.store %r, %out[0, 0] : !pto.tile<8x9xf32, vec>, !pto.tensor<8x9xf32>
    func.return %o : !pto.tensor<8x9xf32>
  }
  // An extract of 5 rows (odd) of a boundary value: extracted whole on both lanes, stored whole.
  // CHECK-LABEL: func.func @extract_odd
  // CHECK:       %xv = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:  %e = pto.extract %xv[4, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<5x16xf32, vec>
  // CHECK-NEXT:  %o = pto.store %e, %out[0, 0] : !pto.tile<5x16xf32, vec>, !pto.tensor<5x16xf32>
  func.func @extract_odd(%x: !pto.tensor<16x16xf32>, %out: !pto.tensor<5x16xf32> {pto.out}) -> !pto.tensor<5x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xv = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, vec>
    %e = pto.extract %xv[4, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<5x16xf32, vec>
    %o = pto.store %e, %out[0, 0] : !pto.tile<5x16xf32, vec>, !pto.tensor<5x16xf32>
    func.return %o : !pto.tensor<5x16xf32>
  }
}
