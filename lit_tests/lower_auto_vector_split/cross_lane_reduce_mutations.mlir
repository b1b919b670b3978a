// RUN: pypto-opt %s '--lower-auto-vector-split{fallback=error}' > %t.split.mlir
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir '--lower-auto-vector-split{fallback=error}' > %t.a5.split.mlir
// RUN: pypto-run --quiet --entry softmax %s --compare-with %t.split.mlir
// RUN: pypto-run --quiet --entry softmax %t.a5.mlir --compare-with %t.a5.split.mlir
// RUN: pypto-run --quiet --entry loop %s --compare-with %t.split.mlir
// RUN: pypto-run --quiet --entry loop %t.a5.mlir --compare-with %t.a5.split.mlir

// The checks see a wrong cross-lane combine (cross_lane_reduce.mlir).  The lowered kernels above compute what the
// input computes (both lanes of the split kernel run in the interpreter, on random, non-uniform data: each lane's
// half differs); each RUN line below breaks one part of the lowered IR with sed and shows that running it
// against the input fails, on both targets.

// 1. No barrier between the partial stores and the loads: the race detector reports the load of a row the other
//    lane stores with nothing ordering the two.
// RUN: sed '/pto.lane_barrier/d' %t.split.mlir > %t.nobarrier.mlir
// RUN: not pypto-run --quiet --entry softmax %s --compare-with %t.nobarrier.mlir 2>&1 | filecheck %s --check-prefix=RACE
// RUN: sed '/pto.lane_barrier/d' %t.a5.split.mlir > %t.a5.nobarrier.mlir
// RUN: not pypto-run --quiet --entry softmax %t.a5.mlir --compare-with %t.a5.nobarrier.mlir 2>&1 | filecheck %s --check-prefix=RACE
// RACE: {{race|barrier|not written}}

// 2. Only the write-after-read barrier of the loop dropped (the first barrier of the file, in @loop): the next
//    iteration's store overwrites a row the other lane may still be loading.
// RUN: sed '0,/pto.lane_barrier/{/pto.lane_barrier/d}' %t.split.mlir > %t.nowar.mlir
// RUN: not pypto-run --quiet --entry loop %s --compare-with %t.nowar.mlir 2>&1 | filecheck %s --check-prefix=RACE
// RUN: sed '0,/pto.lane_barrier/{/pto.lane_barrier/d}' %t.a5.split.mlir > %t.a5.nowar.mlir
// RUN: not pypto-run --quiet --entry loop %t.a5.mlir --compare-with %t.a5.nowar.mlir 2>&1 | filecheck %s --check-prefix=RACE

// 3. The wrong combine (max instead of the row sum's add): the outputs differ.
// RUN: sed 's/pto.add %z_lo, %z_hi/pto.max %z_lo, %z_hi/' %t.split.mlir > %t.combine.mlir
// RUN: not pypto-run --quiet --entry softmax %s --compare-with %t.combine.mlir 2>&1 | filecheck %s --check-prefix=DIFF
// RUN: sed 's/pto.add %z_lo, %z_hi/pto.max %z_lo, %z_hi/' %t.a5.split.mlir > %t.a5.combine.mlir
// RUN: not pypto-run --quiet --entry softmax %t.a5.mlir --compare-with %t.a5.combine.mlir 2>&1 | filecheck %s --check-prefix=DIFF
// DIFF: output {{.*}} differs

// 4. The rows of the row sum (softmax does not depend on the max it subtracts, so a wrong max row would not show
//    in its output): both loads read lane 0's row (lane 1's partial is lost) ...
// RUN: sed 's/%z_hi = pto.load %z_row\[1, 0, 0\]/%z_hi = pto.load %z_row[0, 0, 0]/' %t.split.mlir > %t.onerow.mlir
// RUN: not pypto-run --quiet --entry softmax %s --compare-with %t.onerow.mlir 2>&1 | filecheck %s --check-prefix=DIFF
// RUN: sed 's/%z_hi = pto.load %z_row\[1, 0, 0\]/%z_hi = pto.load %z_row[0, 0, 0]/' %t.a5.split.mlir > %t.a5.onerow.mlir
// RUN: not pypto-run --quiet --entry softmax %t.a5.mlir --compare-with %t.a5.onerow.mlir 2>&1 | filecheck %s --check-prefix=DIFF
// ... and both lanes store to row 0 (lane 1's row is never written: the workspace's undefined contents are read,
// or the two stores race).
// RUN: sed 's/%z_ws\[%%subblock_idx, 0, 0\]/%z_ws[0, 0, 0]/' %t.split.mlir > %t.samerow.mlir
// RUN: not pypto-run --quiet --entry softmax %s --compare-with %t.samerow.mlir 2>&1 | filecheck %s --check-prefix=ANY
// RUN: sed 's/%z_ws\[%%subblock_idx, 0, 0\]/%z_ws[0, 0, 0]/' %t.a5.split.mlir > %t.a5.samerow.mlir
// RUN: not pypto-run --quiet --entry softmax %t.a5.mlir --compare-with %t.a5.samerow.mlir 2>&1 | filecheck %s --check-prefix=ANY
// ANY: {{race|differs|not written}}
// Swapping the rows the lanes store to (lane l to row 1 - l) is not a mutation that can fail: both lanes load
// both rows and the combines are commutative, so the result is the same (bit for bit).

builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @loop(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<16x32xf32> {pto.out})
      -> !pto.tensor<16x32xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c1f = arith.constant 1.0 : f32
    %acc = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %s) -> (!pto.tile<16x32xf32, vec>) {
      %y = pto.row_max %x : !pto.tile<16x32xf32, vec> -> !pto.tile<16x1xf32, vec>
      %w = pto.row_expand_sub %x, %y : !pto.tile<16x32xf32, vec>, !pto.tile<16x1xf32, vec>
      %v = pto.adds %w, %c1f : !pto.tile<16x32xf32, vec>, f32
      scf.yield %v : !pto.tile<16x32xf32, vec>
    }
    %o = pto.store %acc, %out[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>
    func.return %o : !pto.tensor<16x32xf32>
  }

  func.func @softmax(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<16x32xf32> {pto.out})
      -> !pto.tensor<16x32xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %m = pto.row_max %s : !pto.tile<16x32xf32, vec> -> !pto.tile<16x1xf32, vec>
    %d = pto.row_expand_sub %s, %m : !pto.tile<16x32xf32, vec>, !pto.tile<16x1xf32, vec>
    %e = pto.exp %d : !pto.tile<16x32xf32, vec>
    %z = pto.row_sum %e : !pto.tile<16x32xf32, vec> -> !pto.tile<16x1xf32, vec>
    %p = pto.row_expand_div %e, %z : !pto.tile<16x32xf32, vec>, !pto.tile<16x1xf32, vec>
    %o = pto.store %p, %out[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>
    func.return %o : !pto.tensor<16x32xf32>
  }
}
