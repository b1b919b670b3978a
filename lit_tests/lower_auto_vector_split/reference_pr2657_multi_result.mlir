// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s --check-prefix=CHECK
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split | filecheck %s --check-prefix=CHECK
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel -

// Reference compiler PR #2657 (after the version ../shared/spec/lower-auto-vector-split.reference.md describes;
// docs/lower-auto-vector-split.md, "Reference rules after the described version"): a value projected from a
// multi-result op is a tracked operand for every op, each result with its own split axis and offset. Here every
// result of scf.for / scf.if / scf.while is its own SSA value with its own TileInfo (SplitLowering tracks values,
// not ops), so each is halved, read by any op (elementwise, slice, V->C gather, store) and stored at its own lane
// offset. Executed before and after both passes on both targets, with each if branch taken.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // UP_DOWN, two tiles through scf.for (swapped each step), scf.if and scf.while: #0 is stored, #1 is sliced and
  // stored, and gathered back to the cube; all per-lane [8, 16] at row subblock_idx * 8.
  // CHECK-LABEL: func.func @three_multi_result_ops
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:       %f, %f_1 = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %zv, %b = %yv) -> (!pto.tile<8x16xf32, vec>, !pto.tile<8x16xf32, vec>) {
  // CHECK:       %g, %g_1 = scf.if %c -> (!pto.tile<8x16xf32, vec>, !pto.tile<8x16xf32, vec>) {
  // CHECK-NEXT:    scf.yield %f_1, %f : !pto.tile<8x16xf32, vec>, !pto.tile<8x16xf32, vec>
  // CHECK:       %w, %w_1 = scf.while (%p = %g, %q = %g_1, %k = %c0) : (!pto.tile<8x16xf32, vec>, !pto.tile<8x16xf32, vec>, index) -> (!pto.tile<8x16xf32, vec>, !pto.tile<8x16xf32, vec>) {
  // CHECK:       %sl = pto.slice %w_1[0, 8] : !pto.tile<8x16xf32, vec> -> !pto.tile<8x8xf32, vec>
  // CHECK-NEXT:  %o0 = pto.store %w, %out0[%[[L]], 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<16x16xf32>
  // CHECK-NEXT:  %o1 = pto.store %sl, %out1[%[[L]], 0] : !pto.tile<8x8xf32, vec>, !pto.tensor<16x16xf32>
  // CHECK-NEXT:  %wm_mat = pto.aic_gather %w_1 {split = 1 : i64} : !pto.tile<8x16xf32, vec> -> !pto.tile<16x16xf32, mat>
  func.func @three_multi_result_ops(%x: !pto.tensor<16x16xf32>, %y: !pto.tensor<16x16xf32>, %c: i1,
                                    %out0: !pto.tensor<16x16xf32> {pto.out}, %out1: !pto.tensor<16x16xf32> {pto.out},
                                    %out2: !pto.tensor<16x16xf32> {pto.out})
      -> (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %cf = arith.constant 0.5 : f32
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xl = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
    %xr = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, right>
    %z = pto.matmul %xl, %xr : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>
    %zv = pto.move %z : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %yv = pto.load %y[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    %f:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %zv, %b = %yv) -> (!pto.tile<16x16xf32, vec>, !pto.tile<16x16xf32, vec>) {
      %a2 = pto.add %a, %b : !pto.tile<16x16xf32, vec>
      %b2 = pto.muls %b, %cf : !pto.tile<16x16xf32, vec>, f32
      scf.yield %b2, %a2 : !pto.tile<16x16xf32, vec>, !pto.tile<16x16xf32, vec>
    }
    %g:2 = scf.if %c -> (!pto.tile<16x16xf32, vec>, !pto.tile<16x16xf32, vec>) {
      scf.yield %f#1, %f#0 : !pto.tile<16x16xf32, vec>, !pto.tile<16x16xf32, vec>
    } else {
      %n = pto.neg %f#0 : !pto.tile<16x16xf32, vec>
      scf.yield %n, %f#1 : !pto.tile<16x16xf32, vec>, !pto.tile<16x16xf32, vec>
    }
    %w:2 = scf.while (%p = %g#0, %q = %g#1, %k = %c0) : (!pto.tile<16x16xf32, vec>, !pto.tile<16x16xf32, vec>, index) -> (!pto.tile<16x16xf32, vec>, !pto.tile<16x16xf32, vec>) {
      %cond = arith.cmpi slt, %k, %c3 : index
      scf.condition(%cond) %p, %q : !pto.tile<16x16xf32, vec>, !pto.tile<16x16xf32, vec>
    } do {
    ^bb0(%p2: !pto.tile<16x16xf32, vec>, %q2: !pto.tile<16x16xf32, vec>):
      %p3 = pto.relu %q2 : !pto.tile<16x16xf32, vec>
      %k3 = arith.addi %c1, %c3 : index
      scf.yield %p3, %p2, %k3 : !pto.tile<16x16xf32, vec>, !pto.tile<16x16xf32, vec>, index
    }
    %sl = pto.slice %w#1[0, 8] : !pto.tile<16x16xf32, vec> -> !pto.tile<16x8xf32, vec>
    %o0 = pto.store %w#0, %out0[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    %o1 = pto.store %sl, %out1[0, 0] : !pto.tile<16x8xf32, vec>, !pto.tensor<16x16xf32>
    %wm = pto.move %w#1 : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, mat>
    %wl = pto.move %wm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
    %z2 = pto.matmul %wl, %xr : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>
    %o2 = pto.store %z2, %out2[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
    func.return %o0, %o1, %o2 : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
  }

  // Each result its own axis: an scf.for carries a [16, 16] tile split on its rows (dim 0) and the reshaped row
  // sums [1, 16], whose split moved to dim 1 (UP_DOWN). The two results are stored at their own offsets: the
  // first at row subblock_idx * 8, the second at column subblock_idx * 8.
  // CHECK-LABEL: func.func @results_on_two_axes
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:       %rs = pto.reshape %m : !pto.tile<8x1xf32, vec> -> !pto.tile<1x8xf32, vec>
  // CHECK-NEXT:  %f, %f_1 = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %zv, %b = %rs) -> (!pto.tile<8x16xf32, vec>, !pto.tile<1x8xf32, vec>) {
  // CHECK:       %o0 = pto.store %f, %out0[%[[L]], 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<16x16xf32>
  // CHECK-NEXT:  %o1 = pto.store %f_1, %out1[0, %[[L]]] : !pto.tile<1x8xf32, vec>, !pto.tensor<1x16xf32>
  func.func @results_on_two_axes(%x: !pto.tensor<16x16xf32>, %out0: !pto.tensor<16x16xf32> {pto.out},
                                 %out1: !pto.tensor<1x16xf32> {pto.out}) -> (!pto.tensor<16x16xf32>, !pto.tensor<1x16xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %zv = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, vec>
    %m = pto.row_sum %zv : !pto.tile<16x16xf32, vec> -> !pto.tile<16x1xf32, vec>
    %rs = pto.reshape %m : !pto.tile<16x1xf32, vec> -> !pto.tile<1x16xf32, vec>
    %f:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %zv, %b = %rs) -> (!pto.tile<16x16xf32, vec>, !pto.tile<1x16xf32, vec>) {
      %a2 = pto.exp %a : !pto.tile<16x16xf32, vec>
      %b2 = pto.add %b, %b : !pto.tile<1x16xf32, vec>
      scf.yield %a2, %b2 : !pto.tile<16x16xf32, vec>, !pto.tile<1x16xf32, vec>
    }
    %o0 = pto.store %f#0, %out0[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    %o1 = pto.store %f#1, %out1[0, 0] : !pto.tile<1x16xf32, vec>, !pto.tensor<1x16xf32>
    func.return %o0, %o1 : !pto.tensor<16x16xf32>, !pto.tensor<1x16xf32>
  }

  // CHECK-LABEL: func.func @main
  func.func @main(%x: !pto.tensor<16x16xf32>, %y: !pto.tensor<16x16xf32>)
      -> (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>,
          !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<1x16xf32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %t = arith.constant true
    %f = arith.constant false
    %a0 = pto.create_tensor : !pto.tensor<16x16xf32>
    %a1 = pto.create_tensor : !pto.tensor<16x16xf32>
    %a2 = pto.create_tensor : !pto.tensor<16x16xf32>
    %b0 = pto.create_tensor : !pto.tensor<16x16xf32>
    %b1 = pto.create_tensor : !pto.tensor<16x16xf32>
    %b2 = pto.create_tensor : !pto.tensor<16x16xf32>
    %d0 = pto.create_tensor : !pto.tensor<16x16xf32>
    %d1 = pto.create_tensor : !pto.tensor<1x16xf32>
    %r:3 = func.call @three_multi_result_ops(%x, %y, %t, %a0, %a1, %a2) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, i1, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>)
    %s:3 = func.call @three_multi_result_ops(%x, %y, %f, %b0, %b1, %b2) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, i1, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>)
    %u:2 = func.call @results_on_two_axes(%x, %d0, %d1) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<1x16xf32>) -> (!pto.tensor<16x16xf32>, !pto.tensor<1x16xf32>)
    func.return %r#0, %r#1, %r#2, %s#0, %s#1, %s#2, %u#0, %u#1 : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<1x16xf32>
  }
}
