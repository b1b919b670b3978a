// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir --lower-auto-vector-split | filecheck %s
// RUN: pypto-run --quiet --entry ud_carry --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry ud_carry --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry lr_yield_whole --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry lr_yield_whole --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry odd_carry --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry odd_carry --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir

// An scf.for carrying a value the pass computes whole on both lanes (issue 43): here the C->V boundary value,
// whole because a split-axis window of it is taken (slice_split_window.mlir), seeds a loop whose body adds it
// again.  Before, the carried block argument was neither per lane nor whole, so the body's add met the
// boundary's lane part and the kernel was refused ("its operand(s) ... are per-lane halves but ... stay full
// width").  Now the loop carries the init's lane part (SplitLowering._carry_whole_inits): the block argument and
// the result are per lane, the body's whole operands take their lane parts, and a body yielding a whole value
// yields its lane part.  An init with no lane part (an odd box) is carried whole instead.  The IR after the pass
// is the same on both targets; every kernel is checked by execution on a2a3 and a5 under fallback=error.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // UP_DOWN: the loop carries rows 8l of the whole boundary value; the window is taken from the whole value.
  // CHECK-LABEL: func.func @ud_carry
  // CHECK:       %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:  %[[PART:.*]] = pto.slice %s[%[[LANE:.*]], 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>
  // CHECK:       %w = pto.slice %s[%{{.*}}, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<4x16xf32, vec>
  // CHECK:       %acc = scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args(%sum = %[[PART]]) -> (!pto.tile<8x16xf32, vec>) {
  // CHECK-NEXT:    %a = pto.add %sum, %[[PART]] : !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:    scf.yield %a : !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  }
  // CHECK-NEXT:  %o = pto.store %acc, %out[%[[LANE]], 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<16x16xf32>
  func.func @ud_carry(%qk: !pto.tile<16x16xf32, acc>, %out: !pto.tensor<16x16xf32> {pto.out}, %side: !pto.tensor<8x16xf32> {pto.out}) -> (!pto.tensor<16x16xf32>, !pto.tensor<8x16xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %w = pto.slice %s[4, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>
    %p = pto.store %w, %side[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %acc = scf.for %k = %c0 to %c2 step %c1 iter_args(%sum = %s) -> (!pto.tile<16x16xf32, vec>) {
      %a = pto.add %sum, %s : !pto.tile<16x16xf32, vec>
      scf.yield %a : !pto.tile<16x16xf32, vec>
    }
    %o = pto.store %acc, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o, %p : !pto.tensor<16x16xf32>, !pto.tensor<8x16xf32>
  }
  // LEFT_RIGHT, two carries seeded by the whole value; the body yields the whole value itself as the second, so
  // the yield takes its lane part (columns 8l) as well.
  // CHECK-LABEL: func.func @lr_yield_whole
  // CHECK:       %[[PART:.*]] = pto.slice %s[0, %[[LANE:.*]]] : !pto.tile<16x16xf32, vec> -> !pto.tile<16x8xf32, vec>
  // CHECK:       %acc, %{{.*}} = scf.for %{{.*}} iter_args(%sum = %[[PART]], %prev = %[[PART]]) -> (!pto.tile<16x8xf32, vec>, !pto.tile<16x8xf32, vec>) {
  // CHECK-NEXT:    %a = pto.add %sum, %prev : !pto.tile<16x8xf32, vec>
  // CHECK-NEXT:    scf.yield %a, %[[PART]] : !pto.tile<16x8xf32, vec>, !pto.tile<16x8xf32, vec>
  // CHECK-NEXT:  }
  // CHECK-NEXT:  %o = pto.store %acc, %out[0, %[[LANE]]] : !pto.tile<16x8xf32, vec>, !pto.tensor<16x16xf32>
  func.func @lr_yield_whole(%qk: !pto.tile<16x16xf32, acc>, %out: !pto.tensor<16x16xf32> {pto.out}, %side: !pto.tensor<16x4xf32> {pto.out}) -> (!pto.tensor<16x16xf32>, !pto.tensor<16x4xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %w = pto.slice %s[0, 6] : !pto.tile<16x16xf32, vec> -> !pto.tile<16x4xf32, vec>
    %p = pto.store %w, %side[0, 0] : !pto.tile<16x4xf32, vec>, !pto.tensor<16x4xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %acc:2 = scf.for %k = %c0 to %c3 step %c1 iter_args(%sum = %s, %prev = %s) -> (!pto.tile<16x16xf32, vec>, !pto.tile<16x16xf32, vec>) {
      %a = pto.add %sum, %prev : !pto.tile<16x16xf32, vec>
      scf.yield %a, %s : !pto.tile<16x16xf32, vec>, !pto.tile<16x16xf32, vec>
    }
    %o = pto.store %acc#0, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o, %p : !pto.tensor<16x16xf32>, !pto.tensor<16x4xf32>
  }
  // An odd box (15 rows, all valid) has no lane part: the loop carries the whole value, runs whole on both
  // lanes, and its result is stored whole (both lanes write the same cells).
  // CHECK-LABEL: func.func @odd_carry
  // CHECK:       %acc = scf.for %{{.*}} iter_args(%sum = %s) -> (!pto.tile<15x16xf32, vec>) {
  // CHECK-NEXT:    %a = pto.add %sum, %s : !pto.tile<15x16xf32, vec>
  // CHECK:       %o = pto.store %acc, %out[0, 0] : !pto.tile<15x16xf32, vec>, !pto.tensor<15x16xf32>
  func.func @odd_carry(%qk: !pto.tile<15x16xf32, acc>, %out: !pto.tensor<15x16xf32> {pto.out}, %side: !pto.tensor<4x16xf32> {pto.out}) -> (!pto.tensor<15x16xf32>, !pto.tensor<4x16xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<15x16xf32, acc> -> !pto.tile<15x16xf32, vec>
    %w = pto.slice %s[2, 0] : !pto.tile<15x16xf32, vec> -> !pto.tile<4x16xf32, vec>
    %p = pto.store %w, %side[0, 0] : !pto.tile<4x16xf32, vec>, !pto.tensor<4x16xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %acc = scf.for %k = %c0 to %c2 step %c1 iter_args(%sum = %s) -> (!pto.tile<15x16xf32, vec>) {
      %a = pto.add %sum, %s : !pto.tile<15x16xf32, vec>
      scf.yield %a : !pto.tile<15x16xf32, vec>
    }
    %o = pto.store %acc, %out[0, 0] : !pto.tile<15x16xf32, vec>, !pto.tensor<15x16xf32>
    func.return %o, %p : !pto.tensor<15x16xf32>, !pto.tensor<4x16xf32>
  }
}
