// RUN: pypto-opt %s --split-input-file --verify-diagnostics --expand-mixed-kernel

// A kernel that holds 3 popped slots at once and sets no pto.slot_num needs a ring of 3 slots; when that ring
// does not fit the consumer's memory beside its live tiles (docs/memory-budget.md), the ring-depth choice rejects
// the kernel, at the kernel, with the room left.  One module per target (UB: 192 KiB on a2a3, 256 KiB on a5).

// a2a3: UB holds 192 KiB; a 40x1024xf32 tile live across the pops leaves 16384 bytes of UB beside the tiles.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // expected-error@+1 {{ExpandMixedKernel: @big_a2a3 holds 3 popped slots of its pipe at once, so its ring needs 3 slots, but a ring of 3 x 8192 bytes does not fit in the vec memory of @big_a2a3_aiv beside its live tiles (16384 bytes left); release a slot earlier (use the held tiles before the next pop) or move smaller tiles}}
  func.func @big_a2a3(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %g: !pto.tensor<40x1024xf32>,
      %out: !pto.tensor<16x128xf32> {pto.out}, %out2: !pto.tensor<40x1xf32> {pto.out}) -> (!pto.tensor<16x128xf32>, !pto.tensor<40x1xf32>)
      attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %big = pto.load %g[0, 0] : !pto.tensor<40x1024xf32> -> !pto.tile<40x1024xf32, vec>
    %m0 = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %m1 = pto.matmul_acc %m0, %x_left, %w_right : !pto.tile<16x128xf32, acc>, !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %m2 = pto.matmul_acc %m1, %x_left, %w_right : !pto.tile<16x128xf32, acc>, !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %v0 = pto.move %m0 : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %v1 = pto.move %m1 : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %v2 = pto.move %m2 : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %s1 = pto.add %v0, %v1 : !pto.tile<16x128xf32, vec>
    %s2 = pto.add %s1, %v2 : !pto.tile<16x128xf32, vec>
    %bs = pto.row_sum %big : !pto.tile<40x1024xf32, vec> -> !pto.tile<40x1xf32, vec>
    %out2_1 = pto.store %bs, %out2[0, 0] : !pto.tile<40x1xf32, vec>, !pto.tensor<40x1xf32>
    %out_1 = pto.store %s2, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1, %out2_1 : !pto.tensor<16x128xf32>, !pto.tensor<40x1xf32>
  }
}

// -----

// a5: UB holds 256 KiB; a 56x1024xf32 tile live across the pops leaves 16384 bytes of UB beside the tiles.
builtin.module attributes {pto.target = #pto.target<a5>} {
  // expected-error@+1 {{ExpandMixedKernel: @big_a5 holds 3 popped slots of its pipe at once, so its ring needs 3 slots, but a ring of 3 x 8192 bytes does not fit in the vec memory of @big_a5_aiv beside its live tiles (16384 bytes left); release a slot earlier (use the held tiles before the next pop) or move smaller tiles}}
  func.func @big_a5(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %g: !pto.tensor<56x1024xf32>,
      %out: !pto.tensor<16x128xf32> {pto.out}, %out2: !pto.tensor<56x1xf32> {pto.out}) -> (!pto.tensor<16x128xf32>, !pto.tensor<56x1xf32>)
      attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %big = pto.load %g[0, 0] : !pto.tensor<56x1024xf32> -> !pto.tile<56x1024xf32, vec>
    %m0 = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %m1 = pto.matmul_acc %m0, %x_left, %w_right : !pto.tile<16x128xf32, acc>, !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %m2 = pto.matmul_acc %m1, %x_left, %w_right : !pto.tile<16x128xf32, acc>, !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %v0 = pto.move %m0 : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %v1 = pto.move %m1 : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %v2 = pto.move %m2 : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %s1 = pto.add %v0, %v1 : !pto.tile<16x128xf32, vec>
    %s2 = pto.add %s1, %v2 : !pto.tile<16x128xf32, vec>
    %bs = pto.row_sum %big : !pto.tile<56x1024xf32, vec> -> !pto.tile<56x1xf32, vec>
    %out2_1 = pto.store %bs, %out2[0, 0] : !pto.tile<56x1xf32, vec>, !pto.tensor<56x1xf32>
    %out_1 = pto.store %s2, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1, %out2_1 : !pto.tensor<16x128xf32>, !pto.tensor<56x1xf32>
  }
}
