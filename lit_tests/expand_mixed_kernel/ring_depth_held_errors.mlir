// RUN: pypto-opt %s --split-input-file --verify-diagnostics --expand-mixed-kernel
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics --expand-mixed-kernel

// What ExpandMixedKernel (ring-depth=auto) still rejects of a kernel that holds more popped slots at once than
// the default depth 2 (the kernels it accepts: ring_depth_held.mlir), at the pop that goes over, on both targets.

// The author's pto.slot_num is a contract: a kernel that holds 3 slots on a ring of pto.slot_num = 2 is rejected,
// and the message says how many slots it needs.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @given_two(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
      %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.slot_num = 2 : i64} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %m0 = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %m1 = pto.matmul_acc %m0, %x_left, %w_right : !pto.tile<16x128xf32, acc>, !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %m2 = pto.matmul_acc %m1, %x_left, %w_right : !pto.tile<16x128xf32, acc>, !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %v0 = pto.move %m0 : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %v1 = pto.move %m1 : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    // expected-error@+1 {{AIV function 'given_two_aiv' holds 3 popped C2V slots at once here, but the ring has only 2 slots (pto.slot_num = 2 on @given_two): the producer could never push this tile, so both cores would hang; @given_two needs 3 slots: raise pto.slot_num to 3, or release a slot (use the held tiles) before this pop}}
    %v2 = pto.move %m2 : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %s1 = pto.add %v0, %v1 : !pto.tile<16x128xf32, vec>
    %s2 = pto.add %s1, %v2 : !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %s2, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
}

// -----

// With no pto.slot_num the ring gets the depth the kernel holds, up to PTOAS's implicit depth: 4 for a pipe
// carrying both directions (the cube also reads a tile of the lanes here).  Five held C->V tiles are one too many.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @five_live(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %y: !pto.tensor<16x128xbf16>,
      %out: !pto.tensor<16x128xf32> {pto.out}, %out2: !pto.tensor<16x128xf32> {pto.out}) -> (!pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>)
      attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %y_vec = pto.load %y[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, vec>
    %y_left = pto.move %y_vec : !pto.tile<16x128xbf16, vec> -> !pto.tile<16x128xbf16, left>
    %yw = pto.matmul %y_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %out2_1 = pto.store %yw, %out2[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    %m0 = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %m1 = pto.matmul_acc %m0, %x_left, %w_right : !pto.tile<16x128xf32, acc>, !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %m2 = pto.matmul_acc %m1, %x_left, %w_right : !pto.tile<16x128xf32, acc>, !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %m3 = pto.matmul_acc %m2, %x_left, %w_right : !pto.tile<16x128xf32, acc>, !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %m4 = pto.matmul_acc %m3, %x_left, %w_right : !pto.tile<16x128xf32, acc>, !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %v0 = pto.move %m0 : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %v1 = pto.move %m1 : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %v2 = pto.move %m2 : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %v3 = pto.move %m3 : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    // expected-error@+1 {{AIV function 'five_live_aiv' holds 5 popped C2V slots at once here, but the ring has only 4 slots (the deepest ring the pass chooses when @five_live sets no pto.slot_num: PTOAS's implicit depth for a pipe carrying both directions): the producer could never push this tile, so both cores would hang; @five_live needs 5 slots: release a slot (use the held tiles) before this pop, or set pto.slot_num = 5}}
    %v4 = pto.move %m4 : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %s1 = pto.add %v0, %v1 : !pto.tile<16x128xf32, vec>
    %s2 = pto.add %s1, %v2 : !pto.tile<16x128xf32, vec>
    %s3 = pto.add %s2, %v3 : !pto.tile<16x128xf32, vec>
    %s4 = pto.add %s3, %v4 : !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %s4, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1, %out2_1 : !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>
  }
}
