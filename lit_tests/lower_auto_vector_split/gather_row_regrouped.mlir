// RUN: pypto-opt %s '--lower-auto-vector-split{fallback=error}' | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir '--lower-auto-vector-split{fallback=error}' | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-run --quiet --entry gather_regrouped --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry gather_regrouped --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry gather_transposed --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry gather_transposed --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir

// pto.gather_row reads rows of its table by index, so a table split on its rows cannot be gathered per lane; under
// UP_DOWN the table's chain is kept whole (reference PR #2585, reference_pr2585_fullwidth_reshape_gather.mlir).
// Under LEFT_RIGHT a table can be split on its rows too, when a view moved the split axis there: a reshape round
// trip [8, 16] -> [1, 128] -> [8, 16] (the flat tile is lane-sliced, and the reshape back puts each lane's 64
// cells on 4 rows), or a transpose.  That was refused (issue 43, class 8).  Now the axis the lowering will give the
// table is followed through those views (auto/full_width.py `predicted_split_axis`), and a table that will be
// split on its rows has its chain kept whole, through the views, as under UP_DOWN: both lanes gather the rows from
// the whole table (the result is whole, stored by both lanes: the same cells and values), and the table's other
// users take its lane part.  Still refused: a chain that cannot run whole (view_ops_errors.mlir).  The IR after
// the pass is the same on both targets (the prefixes only check the target); each kernel is checked by execution
// on a2a3 and a5.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // A2A3: module attributes {pto.target = #pto.target<a2a3>}
  // A5: module attributes {pto.target = #pto.target<a5>}

  // CHECK-LABEL: func.func @gather_regrouped
  // CHECK:       %[[OFF:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:       %xv = pto.move %xm : !pto.tile<8x16xf32, mat> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %flat = pto.reshape %xv : !pto.tile<8x16xf32, vec> -> !pto.tile<1x128xf32, vec>
  // CHECK-NEXT:  %half = arith.constant
  // CHECK-NEXT:  %scaled = pto.muls %flat, %half : !pto.tile<1x128xf32, vec>, f32
  // CHECK-NEXT:  %t = pto.reshape %scaled : !pto.tile<1x128xf32, vec> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %[[PART:.*]] = pto.slice %t[0, %[[OFF]]] : !pto.tile<8x16xf32, vec> -> !pto.tile<8x8xf32, vec>
  // CHECK:       %g = pto.gather_row %t, %idx[0] : !pto.tile<8x16xf32, vec>, !pto.tile<6x1xi32, vec> -> !pto.tile<6x16xf32, vec>
  // CHECK-NEXT:  %og = pto.store %g, %rows[0, 0] : !pto.tile<6x16xf32, vec>, !pto.tensor<6x16xf32>
  // CHECK-NEXT:  %e = pto.exp %[[PART]] : !pto.tile<8x8xf32, vec>
  // CHECK-NEXT:  %o = pto.store %e, %out[0, %[[OFF]]] : !pto.tile<8x8xf32, vec>, !pto.tensor<8x16xf32>
  func.func @gather_regrouped(%x: !pto.tensor<8x16xf32>, %rows: !pto.tensor<6x16xf32> {pto.out},
                              %out: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<8x16xf32> -> !pto.tile<8x16xf32, mat>
    %xv = pto.move %xm : !pto.tile<8x16xf32, mat> -> !pto.tile<8x16xf32, vec>
    %flat = pto.reshape %xv : !pto.tile<8x16xf32, vec> -> !pto.tile<1x128xf32, vec>
    %half = arith.constant 0.5 : f32
    %scaled = pto.muls %flat, %half : !pto.tile<1x128xf32, vec>, f32
    %t = pto.reshape %scaled : !pto.tile<1x128xf32, vec> -> !pto.tile<8x16xf32, vec>
    %two = arith.constant 2 : i32
    %idx = pto.ci %two : i32 -> !pto.tile<6x1xi32, vec>
    %g = pto.gather_row %t, %idx[0] : !pto.tile<8x16xf32, vec>, !pto.tile<6x1xi32, vec> -> !pto.tile<6x16xf32, vec>
    %og = pto.store %g, %rows[0, 0] : !pto.tile<6x16xf32, vec>, !pto.tensor<6x16xf32>
    %e = pto.exp %t : !pto.tile<8x16xf32, vec>
    %o = pto.store %e, %out[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    func.return %o : !pto.tensor<8x16xf32>
  }

  // A transpose under LEFT_RIGHT moves the split axis onto the table's rows: the same.
  // CHECK-LABEL: func.func @gather_transposed
  // CHECK:       %xv = pto.move %xm : !pto.tile<16x8xf32, mat> -> !pto.tile<16x8xf32, vec>
  // CHECK-NEXT:  %t = pto.transpose %xv : !pto.tile<16x8xf32, vec> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %[[PART:.*]] = pto.slice %t[0, %{{.*}}] : !pto.tile<8x16xf32, vec> -> !pto.tile<8x8xf32, vec>
  // CHECK:       %g = pto.gather_row %t, %idx[0] : !pto.tile<8x16xf32, vec>, !pto.tile<6x1xi32, vec> -> !pto.tile<6x16xf32, vec>
  // CHECK-NEXT:  %og = pto.store %g, %rows[0, 0] : !pto.tile<6x16xf32, vec>, !pto.tensor<6x16xf32>
  // CHECK-NEXT:  %e = pto.exp %[[PART]] : !pto.tile<8x8xf32, vec>
  func.func @gather_transposed(%x: !pto.tensor<16x8xf32>, %rows: !pto.tensor<6x16xf32> {pto.out},
                               %out: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x8xf32> -> !pto.tile<16x8xf32, mat>
    %xv = pto.move %xm : !pto.tile<16x8xf32, mat> -> !pto.tile<16x8xf32, vec>
    %t = pto.transpose %xv : !pto.tile<16x8xf32, vec> -> !pto.tile<8x16xf32, vec>
    %two = arith.constant 2 : i32
    %idx = pto.ci %two : i32 -> !pto.tile<6x1xi32, vec>
    %g = pto.gather_row %t, %idx[0] : !pto.tile<8x16xf32, vec>, !pto.tile<6x1xi32, vec> -> !pto.tile<6x16xf32, vec>
    %og = pto.store %g, %rows[0, 0] : !pto.tile<6x16xf32, vec>, !pto.tensor<6x16xf32>
    %e = pto.exp %t : !pto.tile<8x16xf32, vec>
    %o = pto.store %e, %out[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    func.return %o : !pto.tensor<8x16xf32>
  }
}
