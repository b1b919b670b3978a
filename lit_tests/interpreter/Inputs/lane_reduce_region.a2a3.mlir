// A column normalisation whose sum runs over the split rows (issue 43): in a task-parallel split_aiv_scope each
// lane sums its 8 rows, stores the partial to its row of a pto.lane_workspace, waits at a pto.lane_barrier for the
// other lane's partial, loads both, adds them and divides its rows by the column totals.  Used by
// lit_tests/interpreter/lane_ops.mlir and tests/interpreter/test_interp_lane_ops.py (which mutate it).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @colnorm(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r = pto.split_aiv_scope none (%lane) -> (!pto.tensor<16x128xf32>) {
      %v = pto.aiv_shard %acc {split = 0 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
      %c8 = arith.constant 8 : index
      %row = arith.muli %lane, %c8 : index
      %h = pto.slice %v[%row, 0] : !pto.tile<16x128xf32, vec> -> !pto.tile<8x128xf32, vec>
      %part = pto.col_sum %h : !pto.tile<8x128xf32, vec> -> !pto.tile<1x128xf32, vec>
      %ws = pto.lane_workspace : !pto.tensor<2x1x128xf32>
      %ws1 = pto.store %part, %ws[%lane, 0, 0] : !pto.tile<1x128xf32, vec>, !pto.tensor<2x1x128xf32>
      pto.lane_barrier
      %p0 = pto.load %ws1[0, 0, 0] : !pto.tensor<2x1x128xf32> -> !pto.tile<1x128xf32, vec>
      %p1 = pto.load %ws1[1, 0, 0] : !pto.tensor<2x1x128xf32> -> !pto.tile<1x128xf32, vec>
      %tot = pto.add %p0, %p1 : !pto.tile<1x128xf32, vec>
      %n = pto.col_expand_div %h, %tot : !pto.tile<8x128xf32, vec>, !pto.tile<1x128xf32, vec>
      %o2 = pto.store %n, %o[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}
