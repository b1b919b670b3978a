// RUN: pypto-opt %s '--lower-auto-vector-split{fallback=error}' | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir '--lower-auto-vector-split{fallback=error}' | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-run --quiet --entry store_partitions_differ --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry store_partitions_differ --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir
// The barriers are needed: without them the interpreter's race detector reports the stores.
// RUN: pypto-opt %s '--lower-auto-vector-split{fallback=error}' | sed '/pto.lane_barrier/d' > %t.nobar.mlir
// RUN: not pypto-run --quiet --entry store_partitions_differ --compare-with %s %t.nobar.mlir 2>&1 | filecheck %s --check-prefix=RACE
// RACE: error: data race on GM tensor %out

// Per-lane stores of one tensor split on different tensor dims (issue 43, class 11): a LEFT_RIGHT reshape round trip
// [8, 16] -> [1, 128] -> [8, 16] regroups the split axis onto the rows, so %o1 cuts %out on its columns (lane l:
// columns 8l..8l+7) and %o2 on its rows (lane l: rows 4l..4l+3).  Lane 1's cells of one overlap lane 0's of the
// other, and the lanes' stores had no order, so this was refused.  Each lane's own stores are in program order; a
// pto.lane_barrier right before the later store, when the partition changes, has both lanes' earlier stores land
// before either lane's later one, so the cells end with the later store's values as in the unsplit kernel
// (SplitLowering._order_repartitioned_store).  %o3 changes back to columns: a second barrier.  Still refused: a
// store repeated by a loop (a barrier before it does not order the next iteration's earlier store) and the region
// path (errors.mlir).  The IR after the pass is the same on both targets (the prefixes only check the target);
// checked by execution on a2a3 and a5, and without the barriers the interpreter reports the race.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // A2A3: module attributes {pto.target = #pto.target<a2a3>}
  // A5: module attributes {pto.target = #pto.target<a5>}

  // CHECK-LABEL: func.func @store_partitions_differ
  // CHECK:       %[[COL:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:       %[[ROW:.*]] = arith.muli %subblock_idx, %c4 : index
  // CHECK:       %o1 = pto.store %{{.*}}, %out[0, %[[COL]]] : !pto.tile<8x8xf32, vec>, !pto.tensor<8x16xf32>
  // CHECK:       %y = pto.add %r2, %{{.*}} : !pto.tile<4x16xf32, vec>
  // CHECK-NEXT:  pto.lane_barrier
  // CHECK-NEXT:  %o2 = pto.store %y, %o1[%[[ROW]], 0] : !pto.tile<4x16xf32, vec>, !pto.tensor<8x16xf32>
  // CHECK-NEXT:  %z = pto.exp %{{.*}} : !pto.tile<8x8xf32, vec>
  // CHECK-NEXT:  pto.lane_barrier
  // CHECK-NEXT:  %o3 = pto.store %z, %o2[0, %[[COL]]] : !pto.tile<8x8xf32, vec>, !pto.tensor<8x16xf32>
  func.func @store_partitions_differ(%c: !pto.tile<8x16xf32, acc>, %scratch: !pto.tensor<8x16xf32> {pto.out},
                                     %out: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %o = pto.store %c, %scratch[0, 0] : !pto.tile<8x16xf32, acc>, !pto.tensor<8x16xf32>
    %x = pto.load %o[0, 0] : !pto.tensor<8x16xf32> -> !pto.tile<8x16xf32, vec>
    %o1 = pto.store %x, %out[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    %r = pto.reshape %x : !pto.tile<8x16xf32, vec> -> !pto.tile<1x128xf32, vec>
    %r2 = pto.reshape %r : !pto.tile<1x128xf32, vec> -> !pto.tile<8x16xf32, vec>
    %y = pto.add %r2, %x : !pto.tile<8x16xf32, vec>
    %o2 = pto.store %y, %o1[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    %z = pto.exp %x : !pto.tile<8x16xf32, vec>
    %o3 = pto.store %z, %o2[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    func.return %o3 : !pto.tensor<8x16xf32>
  }
}
