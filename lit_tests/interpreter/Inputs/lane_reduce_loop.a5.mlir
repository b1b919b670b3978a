// The column normalisation of lane_reduce_region.a2a3.mlir in the form LowerAutoVectorSplit gives a split kernel
// (pto.split_aiv, the lane id from pto.get_subblock_idx), over two column blocks in a loop that reuses one
// pto.lane_workspace: the first pto.lane_barrier keeps a lane from overwriting its row while the other lane may
// still read the previous block's partial (write after read), the second makes both partials visible before
// they are loaded (read after write).  Used by lit_tests/interpreter/lane_ops.mlir and
// tests/interpreter/test_interp_lane_ops.py (which mutate it).
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @colnorm_loop(%x: !pto.tensor<16x256xf32>, %o: !pto.tensor<16x256xf32> {pto.out}) -> !pto.tensor<16x256xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %lane = pto.get_subblock_idx : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %row = arith.muli %lane, %c8 : index
    %ws = pto.lane_workspace : !pto.tensor<2x1x128xf32>
    %r = scf.for %j = %c0 to %c2 step %c1 iter_args(%acc = %o) -> (!pto.tensor<16x256xf32>) {
      %col = arith.muli %j, %c128 : index
      %h = pto.load %x[%row, %col] : !pto.tensor<16x256xf32> -> !pto.tile<8x128xf32, vec>
      %part = pto.col_sum %h : !pto.tile<8x128xf32, vec> -> !pto.tile<1x128xf32, vec>
      pto.lane_barrier
      %ws1 = pto.store %part, %ws[%lane, 0, 0] : !pto.tile<1x128xf32, vec>, !pto.tensor<2x1x128xf32>
      pto.lane_barrier
      %p0 = pto.load %ws1[0, 0, 0] : !pto.tensor<2x1x128xf32> -> !pto.tile<1x128xf32, vec>
      %p1 = pto.load %ws1[1, 0, 0] : !pto.tensor<2x1x128xf32> -> !pto.tile<1x128xf32, vec>
      %tot = pto.add %p0, %p1 : !pto.tile<1x128xf32, vec>
      %n = pto.col_expand_div %h, %tot : !pto.tile<8x128xf32, vec>, !pto.tile<1x128xf32, vec>
      %o2 = pto.store %n, %acc[%row, %col] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x256xf32>
      scf.yield %o2 : !pto.tensor<16x256xf32>
    }
    func.return %r : !pto.tensor<16x256xf32>
  }
}
