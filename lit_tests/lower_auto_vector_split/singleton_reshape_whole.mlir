// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir --lower-auto-vector-split | filecheck %s
// RUN: pypto-run --quiet --entry same_shape --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry same_shape --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry moved_round_trip --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry moved_round_trip --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry after_transposes --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry after_transposes --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir

// A reshape of a singleton split axis (a [1, N] gemv result under UP_DOWN; issue 43).  The C->V boundary of a
// [1, N] tile is a singleton shard: lane 0 holds the row, lane 1 an empty copy whose valid row extent is only
// known at run time ([?, N]).  A reshape has no valid operand, so no per-lane reshape of it exists (and a
// singleton moved onto another dim, [1, 16] -> [16, 1], is no lane window of the result): before, every such
// kernel was refused ("pto.reshape moves an ODD split axis (dim 0, extent 1)").  Now the reshape's input chain
// runs whole on both lanes (full_width.py, `singleton_reshape`: back to the C->V boundary, which crosses as a
// plain move, the whole tile to each lane, through transposes and reshapes that keep the singleton), the reshape
// runs whole, and where the whole value meets a singleton shard again (an op, an scf.if) it takes the part a
// shard holds (lane 0 the row, lane 1 an empty copy).  A singleton moved onto another dim stays whole
// (`SplitLowering.singleton_whole`) so that, moved back, it still meets the shards on their axis.  The IR after
// the pass is the same on both targets; each kernel is checked by execution on a2a3 and a5 under fallback=error.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // The same shape: the boundary crosses whole (a plain move: the whole tile to each lane), the reshape and its
  // user run whole, and both lanes store the same cells with the same values (a plain store, harmless twice).
  // CHECK-LABEL: func.func @same_shape
  // CHECK:       %v = pto.move %qk : !pto.tile<1x32xf32, acc> -> !pto.tile<1x32xf32, vec>
  // CHECK-NEXT:  %r = pto.reshape %v : !pto.tile<1x32xf32, vec> -> !pto.tile<1x32xf32, vec>
  // CHECK-NEXT:  %c = arith.constant
  // CHECK-NEXT:  %h = pto.muls %r, %c : !pto.tile<1x32xf32, vec>, f32
  // CHECK-NEXT:  %o = pto.store %h, %out[0, 0] : !pto.tile<1x32xf32, vec>, !pto.tensor<1x32xf32>
  func.func @same_shape(%qk: !pto.tile<1x32xf32, acc>, %out: !pto.tensor<1x32xf32> {pto.out}) -> !pto.tensor<1x32xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<1x32xf32, acc> -> !pto.tile<1x32xf32, vec>
    %r = pto.reshape %v : !pto.tile<1x32xf32, vec> -> !pto.tile<1x32xf32, vec>
    %c = arith.constant 0.5 : f32
    %h = pto.muls %r, %c : !pto.tile<1x32xf32, vec>, f32
    %o = pto.store %h, %out[0, 0] : !pto.tile<1x32xf32, vec>, !pto.tensor<1x32xf32>
    func.return %o : !pto.tensor<1x32xf32>
  }

  // [1, 16] -> [16, 1] -> [1, 16] in one branch, a singleton shard in the other: the moved value stays whole
  // (not cut into [8, 1] lane parts, which would come back split on dim 1), and the branch yields its singleton
  // part, the type the other branch's shard has.
  // CHECK-LABEL: func.func @moved_round_trip
  // CHECK:         %v = pto.move %qk : !pto.tile<1x16xf32, acc> -> !pto.tile<1x16xf32, vec>
  // CHECK-NEXT:    %col = pto.reshape %v : !pto.tile<1x16xf32, vec> -> !pto.tile<16x1xf32, vec>
  // CHECK-NEXT:    %c = arith.constant
  // CHECK-NEXT:    %h = pto.muls %col, %c : !pto.tile<16x1xf32, vec>, f32
  // CHECK-NEXT:    %row = pto.reshape %h : !pto.tile<16x1xf32, vec> -> !pto.tile<1x16xf32, vec>
  // CHECK-NEXT:    %[[PART:.*]] = pto.slice %row[0, 0] valid [%{{.*}}, 16] : !pto.tile<1x16xf32, vec> -> !pto.tile<1x16xf32, vec, valid = [?, 16]>
  // CHECK-NEXT:    scf.yield %[[PART]] : !pto.tile<1x16xf32, vec, valid = [?, 16]>
  // CHECK:         %w = pto.aiv_shard %qk {split = 1 : i64} : !pto.tile<1x16xf32, acc> -> !pto.tile<1x16xf32, vec, valid = [?, 16]>
  // CHECK-NEXT:    scf.yield %w : !pto.tile<1x16xf32, vec, valid = [?, 16]>
  func.func @moved_round_trip(%qk: !pto.tile<1x16xf32, acc>, %n: index, %out: !pto.tensor<1x16xf32> {pto.out}) -> !pto.tensor<1x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c1 = arith.constant 1 : index
    %cond = arith.cmpi slt, %n, %c1 : index
    %y = scf.if %cond -> (!pto.tile<1x16xf32, vec>) {
      %v = pto.move %qk : !pto.tile<1x16xf32, acc> -> !pto.tile<1x16xf32, vec>
      %col = pto.reshape %v : !pto.tile<1x16xf32, vec> -> !pto.tile<16x1xf32, vec>
      %c = arith.constant -0.25 : f32
      %h = pto.muls %col, %c : !pto.tile<16x1xf32, vec>, f32
      %row = pto.reshape %h : !pto.tile<16x1xf32, vec> -> !pto.tile<1x16xf32, vec>
      scf.yield %row : !pto.tile<1x16xf32, vec>
    } else {
      %w = pto.move %qk : !pto.tile<1x16xf32, acc> -> !pto.tile<1x16xf32, vec>
      scf.yield %w : !pto.tile<1x16xf32, vec>
    }
    %o = pto.store %y, %out[0, 0] : !pto.tile<1x16xf32, vec>, !pto.tensor<1x16xf32>
    func.return %o : !pto.tensor<1x16xf32>
  }

  // A transpose round trip carries the singleton shard along; the chain of the reshape after it follows the
  // transposes back to the boundary, so all of it runs whole, and the load it meets stays whole too.
  // CHECK-LABEL: func.func @after_transposes
  // CHECK:       %v = pto.move %qk : !pto.tile<1x32xf32, acc> -> !pto.tile<1x32xf32, vec>
  // CHECK-NEXT:  %t = pto.transpose %v : !pto.tile<1x32xf32, vec> -> !pto.tile<32x1xf32, vec>
  // CHECK-NEXT:  %c = arith.constant
  // CHECK-NEXT:  %h = pto.muls %t, %c : !pto.tile<32x1xf32, vec>, f32
  // CHECK-NEXT:  %b = pto.transpose %h : !pto.tile<32x1xf32, vec> -> !pto.tile<1x32xf32, vec>
  // CHECK-NEXT:  %l = pto.load %x[0, 0] : !pto.tensor<1x32xf32> -> !pto.tile<1x32xf32, vec>
  // CHECK-NEXT:  %m = pto.min %b, %l : !pto.tile<1x32xf32, vec>
  // CHECK-NEXT:  %r = pto.reshape %m : !pto.tile<1x32xf32, vec> -> !pto.tile<1x32xf32, vec>
  func.func @after_transposes(%qk: !pto.tile<1x32xf32, acc>, %x: !pto.tensor<1x32xf32>, %out: !pto.tensor<1x32xf32> {pto.out}) -> !pto.tensor<1x32xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<1x32xf32, acc> -> !pto.tile<1x32xf32, vec>
    %t = pto.transpose %v : !pto.tile<1x32xf32, vec> -> !pto.tile<32x1xf32, vec>
    %c = arith.constant -0.5 : f32
    %h = pto.muls %t, %c : !pto.tile<32x1xf32, vec>, f32
    %b = pto.transpose %h : !pto.tile<32x1xf32, vec> -> !pto.tile<1x32xf32, vec>
    %l = pto.load %x[0, 0] : !pto.tensor<1x32xf32> -> !pto.tile<1x32xf32, vec>
    %m = pto.min %b, %l : !pto.tile<1x32xf32, vec>
    %r = pto.reshape %m : !pto.tile<1x32xf32, vec> -> !pto.tile<1x32xf32, vec>
    %o = pto.store %r, %out[0, 0] : !pto.tile<1x32xf32, vec>, !pto.tensor<1x32xf32>
    func.return %o : !pto.tensor<1x32xf32>
  }
}
