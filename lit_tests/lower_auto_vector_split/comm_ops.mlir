// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split | filecheck %s
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel -

// Communication ops in a split kernel (both targets): pto.tile_get is halved and lane-offset like a load,
// pto.tile_put of a per-lane tile is lane-offset like a store; wait is a shared scalar op and stays as it is.
// notify must signal once per kernel (OncePerKernel): both lanes run it whole, so it runs under
// `scf.if %is_lane0` (lane 0 signals; after ExpandMixedKernel it is on the AIV only), and the signal ends at 1
// before and after the passes (without the guard the interpreter reports a duplicated GM effect).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @split_put
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:       %is_lane0 = arith.cmpi eq, %subblock_idx, %c0 : index
  // CHECK:       pto.wait %sig[0] : !pto.tensor<2xi32>
  // CHECK:       %zv = pto.aiv_shard %z {split = 1 : i64} : !pto.tile<16x16xf32, acc> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %g = pto.tile_get %y[%[[L]], 0] from %peer : !pto.tensor<16x16xf32> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %s = pto.add %zv, %g : !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %o2 = pto.tile_put %s, %out[%[[L]], 0] to %peer : !pto.tile<8x16xf32, vec>, !pto.tensor<16x16xf32>
  // CHECK-NEXT:  scf.if %is_lane0 {
  // CHECK-NEXT:    pto.notify %sig[1] to %peer : !pto.tensor<2xi32>
  // CHECK-NEXT:  }
  func.func @split_put(%x: !pto.tensor<16x16xf32>, %y: !pto.tensor<16x16xf32>, %out: !pto.tensor<16x16xf32> {pto.out},
                       %sig: !pto.tensor<2xi32> {pto.inout}, %peer: index) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    pto.wait %sig[0] : !pto.tensor<2xi32>
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xl = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
    %xr = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, right>
    %z = pto.matmul %xl, %xr : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>
    %zv = pto.move %z : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %g = pto.tile_get %y[0, 0] from %peer : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    %s = pto.add %zv, %g : !pto.tile<16x16xf32, vec>
    %o2 = pto.tile_put %s, %out[0, 0] to %peer : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    pto.notify %sig[1] to %peer : !pto.tensor<2xi32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
  func.func @main(%x: !pto.tensor<16x16xf32>, %y: !pto.tensor<16x16xf32>) -> (!pto.tensor<16x16xf32>, !pto.tensor<2xi32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<16x16xf32>
    %sig = pto.create_tensor : !pto.tensor<2xi32>
    %peer = arith.constant 0 : index
    pto.notify %sig[0] to %peer : !pto.tensor<2xi32>
    %r = func.call @split_put(%x, %y, %out, %sig, %peer) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<2xi32>, index) -> !pto.tensor<16x16xf32>
    func.return %r, %sig : !pto.tensor<16x16xf32>, !pto.tensor<2xi32>
  }
}
