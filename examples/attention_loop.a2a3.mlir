// An attention-like loop over 8 KV blocks: per block, S = Q K^T on the cube, P = exp(S - rowmax(S)) on the
// vector lanes (UP_DOWN split: each lane takes half the rows), P V on the cube, added into O on the vector side
// (as flash-attention kernels update O on the vector unit); l += rowsum(P) also carried there.  After the loop
// the lanes divide O by l and store it.  Every iteration crosses the cores both ways (S and P V: cube -> vector,
// P: vector -> cube): a round trip.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @flash_incore_0(%q: !pto.tensor<64x128xbf16>, %kt: !pto.tensor<128x512xbf16>,
                            %v: !pto.tensor<512x128xbf16>,
                            %out_0: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %q_mat = pto.load %q[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %q_left = pto.move %q_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, left>
    %o_init = pto.full %zero : f32 -> !pto.tile<64x128xf32, vec>
    %l_init = pto.full %zero : f32 -> !pto.tile<64x1xf32, vec>
    %o, %l = scf.for %j = %c0 to %c512 step %c64 iter_args(%o_acc = %o_init, %l_acc = %l_init)
        -> (!pto.tile<64x128xf32, vec>, !pto.tile<64x1xf32, vec>) {
      %k_mat = pto.load %kt[0, %j] : !pto.tensor<128x512xbf16> -> !pto.tile<128x64xbf16, mat>
      %k_right = pto.move %k_mat : !pto.tile<128x64xbf16, mat> -> !pto.tile<128x64xbf16, right>
      %s_acc = pto.matmul %q_left, %k_right : !pto.tile<64x128xbf16, left>, !pto.tile<128x64xbf16, right> -> !pto.tile<64x64xf32, acc>
      %s = pto.move %s_acc : !pto.tile<64x64xf32, acc> -> !pto.tile<64x64xf32, vec>
      %m = pto.row_max %s : !pto.tile<64x64xf32, vec> -> !pto.tile<64x1xf32, vec>
      %d = pto.row_expand_sub %s, %m : !pto.tile<64x64xf32, vec>, !pto.tile<64x1xf32, vec>
      %p = pto.exp %d : !pto.tile<64x64xf32, vec>
      %rs = pto.row_sum %p : !pto.tile<64x64xf32, vec> -> !pto.tile<64x1xf32, vec>
      %l_next = pto.add %l_acc, %rs : !pto.tile<64x1xf32, vec>
      %p_bf = pto.cast %p : !pto.tile<64x64xf32, vec> -> !pto.tile<64x64xbf16, vec>
      %p_left = pto.move %p_bf : !pto.tile<64x64xbf16, vec> -> !pto.tile<64x64xbf16, left>
      %v_mat = pto.load %v[%j, 0] : !pto.tensor<512x128xbf16> -> !pto.tile<64x128xbf16, mat>
      %v_right = pto.move %v_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
      %pv_acc = pto.matmul %p_left, %v_right : !pto.tile<64x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<64x128xf32, acc>
      %pv = pto.move %pv_acc : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
      %o_next = pto.add %o_acc, %pv : !pto.tile<64x128xf32, vec>
      scf.yield %o_next, %l_next : !pto.tile<64x128xf32, vec>, !pto.tile<64x1xf32, vec>
    }
    %res = pto.row_expand_div %o, %l : !pto.tile<64x128xf32, vec>, !pto.tile<64x1xf32, vec>
    %out_1 = pto.store %res, %out_0[0, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<64x128xf32>
    func.return %out_1 : !pto.tensor<64x128xf32>
  }
  func.func @main(%q: !pto.tensor<64x128xbf16>, %kt: !pto.tensor<128x512xbf16>, %v: !pto.tensor<512x128xbf16>)
      -> !pto.tensor<64x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %out_0 = pto.create_tensor : !pto.tensor<64x128xf32>
    %r = func.call @flash_incore_0(%q, %kt, %v, %out_0) : (!pto.tensor<64x128xbf16>, !pto.tensor<128x512xbf16>, !pto.tensor<512x128xbf16>, !pto.tensor<64x128xf32>) -> !pto.tensor<64x128xf32>
    func.return %r : !pto.tensor<64x128xf32>
  }
}
