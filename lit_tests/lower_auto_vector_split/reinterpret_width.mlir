// RUN: pypto-opt %s '--lower-auto-vector-split{fallback=error}' | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir '--lower-auto-vector-split{fallback=error}' | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-run --quiet --entry round_trip --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry round_trip --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry to_same_width --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry to_same_width --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry view_stored --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry view_stored --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry half_elements --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry half_elements --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir

// pto.reinterpret_view changing the element width along the split axis of a per-lane tile (issue 43, class 5).
// The view rescales the innermost dim; under LEFT_RIGHT a lane's part of an odd extent (16 of 31 f32 columns, lane
// 1 at column 16) is not its half of the view (lane 1's bytes start at i16 column 32, the view's halves at 31), and
// a lane's 3 of 6 i16 columns are 1.5 f32.  Such a view has no per-lane form, and was refused.  Now:
//  * a view whose only users are views is folded into them before the split (auto/view_folds.py): view(view(x))
//    is x viewed once (the same bytes), a round trip to x's own type is x itself; each lane then views its own
//    part of x by the usual rule (@round_trip, @to_same_width);
//  * any other such view has its source computed whole on both lanes (a full-width chain, auto/full_width.py
//    `reinterpret_unsplittable`), is viewed whole, and its users take its lane part where one exists (@view_stored:
//    the even i16 view is stored per lane; the f32 view back of that lane part views the whole value instead and,
//    odd, stays whole) or stay whole (@half_elements).
// Still refused: a source that cannot be computed whole (view_ops_errors.mlir).  The IR after the pass is the same
// on both targets (the prefixes only check the target); every kernel is checked by execution on a2a3 and a5.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // A2A3: module attributes {pto.target = #pto.target<a2a3>}
  // A5: module attributes {pto.target = #pto.target<a5>}

  // The round trip folds away: each lane's exp and abs run on its 16 columns (lane 1: 15 valid).
  // CHECK-LABEL: func.func @round_trip
  // CHECK:       %xv = pto.aiv_shard %xm {split = 2 : i64} : !pto.tile<16x31xf32, mat> -> !pto.tile<16x16xf32, vec, valid = [16, ?]>
  // CHECK-NEXT:  %e = pto.exp %xv : !pto.tile<16x16xf32, vec, valid = [16, ?]>
  // CHECK-NEXT:  %a = pto.abs %e : !pto.tile<16x16xf32, vec, valid = [16, ?]>
  // CHECK-NEXT:  %o = pto.store %a, %out[0, %{{.*}}] : !pto.tile<16x16xf32, vec, valid = [16, ?]>, !pto.tensor<16x31xf32>
  // CHECK-NOT:   pto.reinterpret_view
  func.func @round_trip(%x: !pto.tensor<16x31xf32>, %out: !pto.tensor<16x31xf32> {pto.out}) -> !pto.tensor<16x31xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x31xf32> -> !pto.tile<16x31xf32, mat>
    %xv = pto.move %xm : !pto.tile<16x31xf32, mat> -> !pto.tile<16x31xf32, vec>
    %e = pto.exp %xv : !pto.tile<16x31xf32, vec>
    %bits = pto.reinterpret_view %e : !pto.tile<16x31xf32, vec> -> !pto.tile<16x62xi16, vec>
    %back = pto.reinterpret_view %bits : !pto.tile<16x62xi16, vec> -> !pto.tile<16x31xf32, vec>
    %a = pto.abs %back : !pto.tile<16x31xf32, vec>
    %o = pto.store %a, %out[0, 0] : !pto.tile<16x31xf32, vec>, !pto.tensor<16x31xf32>
    func.return %o : !pto.tensor<16x31xf32>
  }
  // f32 -> i16 -> i32 is f32 -> i32 directly, exact per lane.
  // CHECK-LABEL: func.func @to_same_width
  // CHECK:       %e = pto.exp %xv : !pto.tile<16x16xf32, vec, valid = [16, ?]>
  // CHECK-NEXT:  %w = pto.reinterpret_view %e : !pto.tile<16x16xf32, vec, valid = [16, ?]> -> !pto.tile<16x16xi32, vec, valid = [16, ?]>
  // CHECK-NEXT:  %o = pto.store %w, %out[0, %{{.*}}] : !pto.tile<16x16xi32, vec, valid = [16, ?]>, !pto.tensor<16x31xi32>
  func.func @to_same_width(%x: !pto.tensor<16x31xf32>, %out: !pto.tensor<16x31xi32> {pto.out}) -> !pto.tensor<16x31xi32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x31xf32> -> !pto.tile<16x31xf32, mat>
    %xv = pto.move %xm : !pto.tile<16x31xf32, mat> -> !pto.tile<16x31xf32, vec>
    %e = pto.exp %xv : !pto.tile<16x31xf32, vec>
    %bits = pto.reinterpret_view %e : !pto.tile<16x31xf32, vec> -> !pto.tile<16x62xi16, vec>
    %w = pto.reinterpret_view %bits : !pto.tile<16x62xi16, vec> -> !pto.tile<16x31xi32, vec>
    %o = pto.store %w, %out[0, 0] : !pto.tile<16x31xi32, vec>, !pto.tensor<16x31xi32>
    func.return %o : !pto.tensor<16x31xi32>
  }
  // The i16 view is stored: its source is whole, the view whole, each lane stores its 31 i16 columns; the f32 view
  // back is taken of the whole i16 value (not of the lane part) and stays whole (31 is odd), stored by both lanes.
  // CHECK-LABEL: func.func @view_stored
  // CHECK:       %[[OFF:.*]] = arith.muli %subblock_idx, %c31 : index
  // CHECK:       %xv = pto.move %xm : !pto.tile<16x31xf32, mat> -> !pto.tile<16x31xf32, vec>
  // CHECK-NEXT:  %e = pto.exp %xv : !pto.tile<16x31xf32, vec>
  // CHECK-NEXT:  %bits = pto.reinterpret_view %e : !pto.tile<16x31xf32, vec> -> !pto.tile<16x62xi16, vec>
  // CHECK-NEXT:  %[[PART:.*]] = pto.slice %bits[0, %[[OFF]]] : !pto.tile<16x62xi16, vec> -> !pto.tile<16x31xi16, vec>
  // CHECK-NEXT:  %ob = pto.store %[[PART]], %bits_out[0, %[[OFF]]] : !pto.tile<16x31xi16, vec>, !pto.tensor<16x62xi16>
  // CHECK-NEXT:  %back = pto.reinterpret_view %bits : !pto.tile<16x62xi16, vec> -> !pto.tile<16x31xf32, vec>
  // CHECK-NEXT:  %a = pto.abs %back : !pto.tile<16x31xf32, vec>
  // CHECK-NEXT:  %o = pto.store %a, %out[0, 0] : !pto.tile<16x31xf32, vec>, !pto.tensor<16x31xf32>
  func.func @view_stored(%x: !pto.tensor<16x31xf32>, %bits_out: !pto.tensor<16x62xi16> {pto.out},
                         %out: !pto.tensor<16x31xf32> {pto.out}) -> !pto.tensor<16x31xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x31xf32> -> !pto.tile<16x31xf32, mat>
    %xv = pto.move %xm : !pto.tile<16x31xf32, mat> -> !pto.tile<16x31xf32, vec>
    %e = pto.exp %xv : !pto.tile<16x31xf32, vec>
    %bits = pto.reinterpret_view %e : !pto.tile<16x31xf32, vec> -> !pto.tile<16x62xi16, vec>
    %ob = pto.store %bits, %bits_out[0, 0] : !pto.tile<16x62xi16, vec>, !pto.tensor<16x62xi16>
    %back = pto.reinterpret_view %bits : !pto.tile<16x62xi16, vec> -> !pto.tile<16x31xf32, vec>
    %a = pto.abs %back : !pto.tile<16x31xf32, vec>
    %o = pto.store %a, %out[0, 0] : !pto.tile<16x31xf32, vec>, !pto.tensor<16x31xf32>
    func.return %o : !pto.tensor<16x31xf32>
  }
  // 3 of 6 i16 columns per lane are 1.5 f32: viewed whole, the 3-column result (odd) stays whole.
  // CHECK-LABEL: func.func @half_elements
  // CHECK:       %xv = pto.move %xm : !pto.tile<16x6xi16, mat> -> !pto.tile<16x6xi16, vec>
  // CHECK-NEXT:  %b = pto.reinterpret_view %xv : !pto.tile<16x6xi16, vec> -> !pto.tile<16x3xf32, vec>
  // CHECK-NEXT:  %o = pto.store %b, %out[0, 0] : !pto.tile<16x3xf32, vec>, !pto.tensor<16x3xf32>
  func.func @half_elements(%x: !pto.tensor<16x6xi16>, %out: !pto.tensor<16x3xf32> {pto.out}) -> !pto.tensor<16x3xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x6xi16> -> !pto.tile<16x6xi16, mat>
    %xv = pto.move %xm : !pto.tile<16x6xi16, mat> -> !pto.tile<16x6xi16, vec>
    %b = pto.reinterpret_view %xv : !pto.tile<16x6xi16, vec> -> !pto.tile<16x3xf32, vec>
    %o = pto.store %b, %out[0, 0] : !pto.tile<16x3xf32, vec>, !pto.tensor<16x3xf32>
    func.return %o : !pto.tensor<16x3xf32>
  }
}
