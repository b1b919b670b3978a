// RUN: pypto-opt %s '--lower-auto-vector-split{fallback=error split-policy=always}' | filecheck %s
// RUN: pypto-run --quiet --check-pipeline 'lower-auto-vector-split{fallback=error split-policy=always},expand-mixed-kernel' %s
// RUN: pypto-opt %s '--lower-auto-vector-split{fallback=error split-policy=always report=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REPORT
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir '--lower-auto-vector-split{fallback=error split-policy=always}' | filecheck %s
// RUN: pypto-run --quiet --check-pipeline 'lower-auto-vector-split{fallback=error split-policy=always},expand-mixed-kernel' %t.a5.mlir

// A per-lane value that meets a value split on another axis, or a value it cannot be combined with lane by lane,
// is computed whole on both lanes instead when its producers can be (issue 43, classes 1, 2, 4;
// auto/whole_retry.py): the pass lowers the kernel again with that value's producer chain whole, and its users
// take its lane part on the axis of the data they meet.  Every function is executed before and after the split
// (both branches of each scf.if: @main calls it with true and false), on both targets; the split IR is the same on
// both (one prefix).  split-policy=always: the split is what is shown, not the timing model's choice.  What is
// still refused (a value that cannot be computed whole): transpose_axis_errors.mlir.  The report (report=true)
// says how many values each kernel computes whole.
// REPORT: remark: LowerAutoVectorSplit report: kernel 'if_axes_reshape' is lane-split left_right (box partition), 1 value(s) computed whole on both lanes where per-lane values met another axis or width
// REPORT: remark: LowerAutoVectorSplit report: kernel 'meet_add' is lane-split up_down (box partition), 1 value(s) computed whole on both lanes where per-lane values met another axis or width
// REPORT: remark: LowerAutoVectorSplit report: kernel 'if_transpose' is lane-split up_down (box partition), 1 value(s) computed whole on both lanes where per-lane values met another axis or width
// REPORT: remark: LowerAutoVectorSplit report: kernel 'row_expand_moved' is lane-split left_right (box partition), 1 value(s) computed whole on both lanes where per-lane values met another axis or width
// REPORT: remark: LowerAutoVectorSplit report: kernel 'if_axes_odd' is lane-split left_right (box partition), 1 value(s) computed whole on both lanes where per-lane values met another axis or width
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // Class 2: the then branch keeps the split axis (dim 1, left_right); the else branch moves it with a reshape
  // round trip through a flat row ([8, 16] -> [1, 128] -> [8, 16]: lane l's 64 flat cells are rows 4l..4l+3, so
  // the result is split on dim 0).  The else branch's chain runs whole (a plain C->V move, the reshapes, the add)
  // and yields its column lane part: both branches yield columns.
  // CHECK-LABEL: func.func @if_axes_reshape
  // CHECK:       %m = scf.if %c -> (!pto.tile<8x8xf32, vec>) {
  // CHECK:         %a = pto.aiv_shard %z {split = 2 : i64} : !pto.tile<8x16xf32, acc> -> !pto.tile<8x8xf32, vec>
  // CHECK:         scf.yield %back : !pto.tile<8x8xf32, vec>
  // CHECK:       } else {
  // CHECK-NEXT:    %b = pto.move %z : !pto.tile<8x16xf32, acc> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:    %flat = pto.reshape %b : !pto.tile<8x16xf32, vec> -> !pto.tile<1x128xf32, vec>
  // CHECK-NEXT:    %scaled = pto.muls %flat, %half : !pto.tile<1x128xf32, vec>, f32
  // CHECK-NEXT:    %rows = pto.reshape %scaled : !pto.tile<1x128xf32, vec> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:    %sum = pto.add %rows, %b : !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:    %[[PART:.*]] = pto.slice %sum[0, %[[OFF:.*]]] : !pto.tile<8x16xf32, vec> -> !pto.tile<8x8xf32, vec>
  // CHECK-NEXT:    scf.yield %[[PART]] : !pto.tile<8x8xf32, vec>
  // CHECK:       pto.store %y, %out[0, %[[OFF]]] : !pto.tile<8x8xf32, vec>, !pto.tensor<8x16xf32>
  func.func @if_axes_reshape(%x: !pto.tensor<8x16xbf16>, %w: !pto.tensor<16x16xbf16>, %c: i1, %out: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<8x16xbf16> -> !pto.tile<8x16xbf16, mat>
    %xl = pto.move %xm : !pto.tile<8x16xbf16, mat> -> !pto.tile<8x16xbf16, left>
    %wm = pto.load %w[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %wr = pto.move %wm : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, right>
    %z = pto.matmul %xl, %wr : !pto.tile<8x16xbf16, left>, !pto.tile<16x16xbf16, right> -> !pto.tile<8x16xf32, acc>
    %half = arith.constant 0.5 : f32
    %m = scf.if %c -> (!pto.tile<8x16xf32, vec>) {
      %a = pto.move %z : !pto.tile<8x16xf32, acc> -> !pto.tile<8x16xf32, vec>
      %bits = pto.reinterpret_view %a : !pto.tile<8x16xf32, vec> -> !pto.tile<8x16xi32, vec>
      %back = pto.reinterpret_view %bits : !pto.tile<8x16xi32, vec> -> !pto.tile<8x16xf32, vec>
      scf.yield %back : !pto.tile<8x16xf32, vec>
    } else {
      %b = pto.move %z : !pto.tile<8x16xf32, acc> -> !pto.tile<8x16xf32, vec>
      %flat = pto.reshape %b : !pto.tile<8x16xf32, vec> -> !pto.tile<1x128xf32, vec>
      %scaled = pto.muls %flat, %half : !pto.tile<1x128xf32, vec>, f32
      %rows = pto.reshape %scaled : !pto.tile<1x128xf32, vec> -> !pto.tile<8x16xf32, vec>
      %sum = pto.add %rows, %b : !pto.tile<8x16xf32, vec>
      scf.yield %sum : !pto.tile<8x16xf32, vec>
    }
    %y = pto.abs %m : !pto.tile<8x16xf32, vec>
    %o = pto.store %y, %out[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    func.return %o : !pto.tensor<8x16xf32>
  }
  // Class 1: the transpose (split on dim 1 under up_down) added to its source (dim 0).  The transpose and its
  // source run whole; the add takes both lane parts on rows.
  // CHECK-LABEL: func.func @meet_add
  // CHECK:       %s = pto.move %z : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:  %[[S:.*]] = pto.slice %s[%[[OFF:.*]], 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %t = pto.transpose %s : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:  %[[T:.*]] = pto.slice %t[%[[OFF]], 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %y = pto.add %[[T]], %[[S]] : !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  pto.store %y, %out[%[[OFF]], 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<16x16xf32>
  func.func @meet_add(%x: !pto.tensor<16x16xbf16>, %w: !pto.tensor<16x16xbf16>, %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %xl = pto.move %xm : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, left>
    %wm = pto.load %w[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %wr = pto.move %wm : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, right>
    %z = pto.matmul %xl, %wr : !pto.tile<16x16xbf16, left>, !pto.tile<16x16xbf16, right> -> !pto.tile<16x16xf32, acc>
    %s = pto.move %z : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %t = pto.transpose %s : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>
    %y = pto.add %t, %s : !pto.tile<16x16xf32, vec>
    %o = pto.store %y, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }
  // Class 2 with a transpose in one branch: the branches run whole and the result's row lane part is stored.
  // CHECK-LABEL: func.func @if_transpose
  // CHECK:       %m = scf.if %c -> (!pto.tile<16x16xf32, vec>) {
  // CHECK-NEXT:    scf.yield %s : !pto.tile<16x16xf32, vec>
  // CHECK:         %t = pto.transpose %s : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:    scf.yield %t : !pto.tile<16x16xf32, vec>
  // CHECK:       %[[M:.*]] = pto.slice %m[%[[OFF:.*]], 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  pto.store %[[M]], %out[%[[OFF]], 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<16x16xf32>
  func.func @if_transpose(%x: !pto.tensor<16x16xbf16>, %w: !pto.tensor<16x16xbf16>, %c: i1, %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %xl = pto.move %xm : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, left>
    %wm = pto.load %w[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %wr = pto.move %wm : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, right>
    %z = pto.matmul %xl, %wr : !pto.tile<16x16xbf16, left>, !pto.tile<16x16xbf16, right> -> !pto.tile<16x16xf32, acc>
    %s = pto.move %z : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %m = scf.if %c -> (!pto.tile<16x16xf32, vec>) {
      scf.yield %s : !pto.tile<16x16xf32, vec>
    } else {
      %t = pto.transpose %s : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>
      scf.yield %t : !pto.tile<16x16xf32, vec>
    }
    %o = pto.store %m, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }
  // Class 4: under left_right the transpose is split on rows, and a row broadcast of a [16, 1] column (split
  // dim 1: never halved, full width) cannot take the lanes' rows.  The transpose runs whole, and the broadcast
  // takes its column lane part.
  // CHECK-LABEL: func.func @row_expand_moved
  // CHECK:       %t = pto.transpose %s : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:  %[[T:.*]] = pto.slice %t[0, %[[OFF:.*]]] : !pto.tile<16x16xf32, vec> -> !pto.tile<16x8xf32, vec>
  // CHECK-NEXT:  %r = pto.load %scale[0, 0] : !pto.tensor<16x1xf32> -> !pto.tile<16x1xf32, vec>
  // CHECK-NEXT:  %y = pto.row_expand_mul %[[T]], %r : !pto.tile<16x8xf32, vec>, !pto.tile<16x1xf32, vec>
  // CHECK-NEXT:  pto.store %y, %out[0, %[[OFF]]] : !pto.tile<16x8xf32, vec>, !pto.tensor<16x16xf32>
  func.func @row_expand_moved(%x: !pto.tensor<16x16xbf16>, %w: !pto.tensor<16x16xbf16>, %scale: !pto.tensor<16x1xf32>, %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %xl = pto.move %xm : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, left>
    %wm = pto.load %w[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %wr = pto.move %wm : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, right>
    %z = pto.matmul %xl, %wr : !pto.tile<16x16xbf16, left>, !pto.tile<16x16xbf16, right> -> !pto.tile<16x16xf32, acc>
    %s = pto.move %z : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %t = pto.transpose %s : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>
    %r = pto.load %scale[0, 0] : !pto.tensor<16x1xf32> -> !pto.tile<16x1xf32, vec>
    %y = pto.row_expand_mul %t, %r : !pto.tile<16x16xf32, vec>, !pto.tile<16x1xf32, vec>
    %o = pto.store %y, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }
  // Class 2 on an odd split axis (31 columns, left_right): the else branch keeps the split axis, the then branch
  // moves it to rows with the reshape round trip.  The then branch is kept whole; its value has no column lane
  // slice (an odd box: lane 1's 15 columns at column 16 pass the box), so the branch yields its lane part through
  // a GM workspace (gm_lane_parts.mlir), the cells the else branch's shard holds.
  // CHECK-LABEL: func.func @if_axes_odd
  // CHECK:       %sum_ws = pto.lane_workspace : !pto.tensor<2x16x32xf32>
  // CHECK:       %m = scf.if %c -> (!pto.tile<16x16xf32, vec, valid = [16, ?]>) {
  // CHECK:         %sum = pto.add %rows, %b : !pto.tile<16x31xf32, vec>
  // CHECK-NEXT:    %sum_row = pto.store %sum, %sum_ws[%subblock_idx, 0, 0]
  // CHECK-NEXT:    %sum_lane = pto.load %sum_row[%subblock_idx, 0, %[[OFF:.*]]] valid [16, %{{.*}}]
  // CHECK-NEXT:    scf.yield %sum_lane : !pto.tile<16x16xf32, vec, valid = [16, ?]>
  // CHECK:       } else {
  // CHECK-NEXT:    %a = pto.aiv_shard %z {split = 2 : i64} : !pto.tile<16x31xf32, acc> -> !pto.tile<16x16xf32, vec, valid = [16, ?]>
  // CHECK-NEXT:    scf.yield %a : !pto.tile<16x16xf32, vec, valid = [16, ?]>
  // CHECK:       pto.store %m, %out[0, %[[OFF]]] : !pto.tile<16x16xf32, vec, valid = [16, ?]>, !pto.tensor<16x31xf32>
  func.func @if_axes_odd(%x: !pto.tensor<16x16xbf16>, %w: !pto.tensor<16x31xbf16>, %c: i1, %out: !pto.tensor<16x31xf32> {pto.out}) -> !pto.tensor<16x31xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %xl = pto.move %xm : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, left>
    %wm = pto.load %w[0, 0] : !pto.tensor<16x31xbf16> -> !pto.tile<16x31xbf16, mat>
    %wr = pto.move %wm : !pto.tile<16x31xbf16, mat> -> !pto.tile<16x31xbf16, right>
    %z = pto.matmul %xl, %wr : !pto.tile<16x16xbf16, left>, !pto.tile<16x31xbf16, right> -> !pto.tile<16x31xf32, acc>
    %half = arith.constant 0.5 : f32
    %m = scf.if %c -> (!pto.tile<16x31xf32, vec>) {
      %b = pto.move %z : !pto.tile<16x31xf32, acc> -> !pto.tile<16x31xf32, vec>
      %flat = pto.reshape %b : !pto.tile<16x31xf32, vec> -> !pto.tile<1x496xf32, vec>
      %scaled = pto.muls %flat, %half : !pto.tile<1x496xf32, vec>, f32
      %rows = pto.reshape %scaled : !pto.tile<1x496xf32, vec> -> !pto.tile<16x31xf32, vec>
      %sum = pto.add %rows, %b : !pto.tile<16x31xf32, vec>
      scf.yield %sum : !pto.tile<16x31xf32, vec>
    } else {
      %a = pto.move %z : !pto.tile<16x31xf32, acc> -> !pto.tile<16x31xf32, vec>
      scf.yield %a : !pto.tile<16x31xf32, vec>
    }
    %o = pto.store %m, %out[0, 0] : !pto.tile<16x31xf32, vec>, !pto.tensor<16x31xf32>
    func.return %o : !pto.tensor<16x31xf32>
  }
  // CHECK-LABEL: func.func @main
  func.func @main(%x: !pto.tensor<8x16xbf16>, %w: !pto.tensor<16x16xbf16>, %x16: !pto.tensor<16x16xbf16>, %scale: !pto.tensor<16x1xf32>, %w31: !pto.tensor<16x31xbf16>)
      -> (!pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x31xf32>, !pto.tensor<16x31xf32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %t = arith.constant true
    %f = arith.constant false
    %o1 = pto.create_tensor : !pto.tensor<8x16xf32>
    %o2 = pto.create_tensor : !pto.tensor<8x16xf32>
    %r1 = func.call @if_axes_reshape(%x, %w, %t, %o1) : (!pto.tensor<8x16xbf16>, !pto.tensor<16x16xbf16>, i1, !pto.tensor<8x16xf32>) -> !pto.tensor<8x16xf32>
    %r2 = func.call @if_axes_reshape(%x, %w, %f, %o2) : (!pto.tensor<8x16xbf16>, !pto.tensor<16x16xbf16>, i1, !pto.tensor<8x16xf32>) -> !pto.tensor<8x16xf32>
    %o3 = pto.create_tensor : !pto.tensor<16x16xf32>
    %o4 = pto.create_tensor : !pto.tensor<16x16xf32>
    %o5 = pto.create_tensor : !pto.tensor<16x16xf32>
    %o6 = pto.create_tensor : !pto.tensor<16x16xf32>
    %r3 = func.call @meet_add(%x16, %w, %o3) : (!pto.tensor<16x16xbf16>, !pto.tensor<16x16xbf16>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    %r4 = func.call @if_transpose(%x16, %w, %t, %o4) : (!pto.tensor<16x16xbf16>, !pto.tensor<16x16xbf16>, i1, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    %r5 = func.call @if_transpose(%x16, %w, %f, %o5) : (!pto.tensor<16x16xbf16>, !pto.tensor<16x16xbf16>, i1, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    %r6 = func.call @row_expand_moved(%x16, %w, %scale, %o6) : (!pto.tensor<16x16xbf16>, !pto.tensor<16x16xbf16>, !pto.tensor<16x1xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    %o7 = pto.create_tensor : !pto.tensor<16x31xf32>
    %o8 = pto.create_tensor : !pto.tensor<16x31xf32>
    %r7 = func.call @if_axes_odd(%x16, %w31, %t, %o7) : (!pto.tensor<16x16xbf16>, !pto.tensor<16x31xbf16>, i1, !pto.tensor<16x31xf32>) -> !pto.tensor<16x31xf32>
    %r8 = func.call @if_axes_odd(%x16, %w31, %f, %o8) : (!pto.tensor<16x16xbf16>, !pto.tensor<16x31xbf16>, i1, !pto.tensor<16x31xf32>) -> !pto.tensor<16x31xf32>
    func.return %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8 : !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x31xf32>, !pto.tensor<16x31xf32>
  }
}
