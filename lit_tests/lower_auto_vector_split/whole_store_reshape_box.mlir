// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir --lower-auto-vector-split | filecheck %s
// RUN: pypto-run --quiet --entry store_chain_one_row --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry store_chain_one_row --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry reshape_ragged_lanes --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry reshape_ragged_lanes --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry store_once_one_row --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry store_once_one_row --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir

// Full-width stores and per-lane reshapes whose lanes differ (campaign seed 41, reproducers in
// tests/kernelgen/reproducers/lavs_whole_store_chain.mlir and lavs_reshape_ragged_lanes.mlir).

// A 1-row tile under up_down is never halved: both lanes load it whole.  Stored twice to the same tensor (a store,
// then a second store to the chained tensor), the lanes' stores had no order (lane 1's first store could land after
// lane 0's second one).  Each store now writes the lane part: lane 0 the row, lane 1 an empty copy (valid 0) at the
// lane offset, so every cell is written by lane 0 alone, in program order.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @store_chain_one_row
  // CHECK:       %subblock_idx = pto.get_subblock_idx : index
  // CHECK-NEXT:  %c1 = arith.constant 1 : index
  // CHECK-NEXT:  %[[L:.*]] = arith.muli %subblock_idx, %c1 : index
  // CHECK-NEXT:  %[[M:.*]] = arith.maxsi %c1, %[[L]] : index
  // CHECK-NEXT:  %[[D:.*]] = arith.subi %[[M]], %[[L]] : index
  // CHECK-NEXT:  %[[V:.*]] = arith.minsi %[[D]], %c1 : index
  // CHECK:       %x = pto.load %o[0, 0] : !pto.tensor<1x16xf32> -> !pto.tile<1x16xf32, vec>
  // CHECK-NEXT:  %x_1 = pto.slice %x[0, 0] valid [%[[V]], 16] : !pto.tile<1x16xf32, vec> -> !pto.tile<1x16xf32, vec, valid = [?, 16]>
  // CHECK-NEXT:  %o1 = pto.store %x_1, %out[%[[L]], 0] : !pto.tile<1x16xf32, vec, valid = [?, 16]>, !pto.tensor<1x16xf32>
  // CHECK-NEXT:  %y = pto.relu %x : !pto.tile<1x16xf32, vec>
  // CHECK-NEXT:  %y_1 = pto.slice %y[0, 0] valid [%[[V]], 16] : !pto.tile<1x16xf32, vec> -> !pto.tile<1x16xf32, vec, valid = [?, 16]>
  // CHECK-NEXT:  %o2 = pto.store %y_1, %o1[%[[L]], 0] : !pto.tile<1x16xf32, vec, valid = [?, 16]>, !pto.tensor<1x16xf32>
  func.func @store_chain_one_row(%c: !pto.tile<1x16xf32, acc>, %scratch: !pto.tensor<1x16xf32> {pto.out},
                                 %out: !pto.tensor<1x16xf32> {pto.out}) -> !pto.tensor<1x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %o = pto.store %c, %scratch[0, 0] : !pto.tile<1x16xf32, acc>, !pto.tensor<1x16xf32>
    %x = pto.load %o[0, 0] : !pto.tensor<1x16xf32> -> !pto.tile<1x16xf32, vec>
    %o1 = pto.store %x, %out[0, 0] : !pto.tile<1x16xf32, vec>, !pto.tensor<1x16xf32>
    %y = pto.relu %x : !pto.tile<1x16xf32, vec>
    %o2 = pto.store %y, %o1[0, 0] : !pto.tile<1x16xf32, vec>, !pto.tensor<1x16xf32>
    func.return %o2 : !pto.tensor<1x16xf32>
  }

  // A single store of the whole row to a tensor nothing else writes stays on both lanes (the same cells, the same
  // values: no order is needed).
  // CHECK-LABEL: func.func @store_once_one_row
  // CHECK:       %x = pto.load %o[0, 0] : !pto.tensor<1x16xf32> -> !pto.tile<1x16xf32, vec>
  // CHECK-NEXT:  %y = pto.relu %x : !pto.tile<1x16xf32, vec>
  // CHECK-NEXT:  %o1 = pto.store %y, %out[0, 0] : !pto.tile<1x16xf32, vec>, !pto.tensor<1x16xf32>
  func.func @store_once_one_row(%c: !pto.tile<1x16xf32, acc>, %scratch: !pto.tensor<1x16xf32> {pto.out},
                                %out: !pto.tensor<1x16xf32> {pto.out}) -> !pto.tensor<1x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %o = pto.store %c, %scratch[0, 0] : !pto.tile<1x16xf32, acc>, !pto.tensor<1x16xf32>
    %x = pto.load %o[0, 0] : !pto.tensor<1x16xf32> -> !pto.tile<1x16xf32, vec>
    %y = pto.relu %x : !pto.tile<1x16xf32, vec>
    %o1 = pto.store %y, %out[0, 0] : !pto.tile<1x16xf32, vec>, !pto.tensor<1x16xf32>
    func.return %o1 : !pto.tensor<1x16xf32>
  }

  // A reshape of a per-lane tile whose lanes hold different valid extents (31 columns under left_right: 16 and 15)
  // would need the result type valid = [1, ?], which a reshape (no valid operand) cannot state.  Each lane reshapes
  // its whole box between two set_validshapes: to the box, the reshape, back to the lane's valid extent.
  // CHECK-LABEL: func.func @reshape_ragged_lanes
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c16 : index
  // CHECK:       %[[V:.*]] = arith.minsi %{{.*}}, %c16 : index
  // CHECK:       %x = pto.load %o[0, %[[L]]] valid [1, %[[V]]] : !pto.tensor<1x31xf32> -> !pto.tile<1x16xf32, vec, valid = [1, ?]>
  // CHECK-NEXT:  %x_box = pto.set_validshape %x valid [1, 16] : !pto.tile<1x16xf32, vec, valid = [1, ?]> -> !pto.tile<1x16xf32, vec>
  // CHECK-NEXT:  %r_box = pto.reshape %x_box : !pto.tile<1x16xf32, vec> -> !pto.tile<1x16xf32, vec>
  // CHECK-NEXT:  %r = pto.set_validshape %r_box valid [1, %[[V]]] : !pto.tile<1x16xf32, vec> -> !pto.tile<1x16xf32, vec, valid = [1, ?]>
  // CHECK-NEXT:  %y = pto.add %r, %x : !pto.tile<1x16xf32, vec, valid = [1, ?]>
  // CHECK-NEXT:  %o1 = pto.store %y, %out[0, %[[L]]] : !pto.tile<1x16xf32, vec, valid = [1, ?]>, !pto.tensor<1x31xf32>
  func.func @reshape_ragged_lanes(%c: !pto.tile<1x31xf32, acc>, %scratch: !pto.tensor<1x31xf32> {pto.out},
                                  %out: !pto.tensor<1x31xf32> {pto.out}) -> !pto.tensor<1x31xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %o = pto.store %c, %scratch[0, 0] : !pto.tile<1x31xf32, acc>, !pto.tensor<1x31xf32>
    %x = pto.load %o[0, 0] : !pto.tensor<1x31xf32> -> !pto.tile<1x31xf32, vec>
    %r = pto.reshape %x : !pto.tile<1x31xf32, vec> -> !pto.tile<1x31xf32, vec>
    %y = pto.add %r, %x : !pto.tile<1x31xf32, vec>
    %o1 = pto.store %y, %out[0, 0] : !pto.tile<1x31xf32, vec>, !pto.tensor<1x31xf32>
    func.return %o1 : !pto.tensor<1x31xf32>
  }
}
