// RUN: pypto-opt %s --split-input-file --verify-diagnostics '--expand-mixed-kernel{ring-depth=fixed}' | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics '--expand-mixed-kernel{ring-depth=fixed}' | filecheck %s

// Ring depth without pto.local_slot_num under ring-depth=fixed (the reference's depth 2; beyond the reference,
// which leaves a device hang): after tfree placement, a side that holds more popped tiles of a pipe at once than
// the ring's slot_num is rejected at the pop that goes over.  The same on both targets.  With ring-depth=auto
// (the default) the same kernel gets the 3 slots it needs (ring_depth_held.mlir).

// Three C->V tiles are read together by the vector side, on the default ring of 2 slots.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @three_live(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                        %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %a = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %b = pto.matmul_acc %a, %x_left, %w_right : !pto.tile<16x128xf32, acc>, !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %c = pto.matmul_acc %b, %x_left, %w_right : !pto.tile<16x128xf32, acc>, !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %a_vec = pto.move %a : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %b_vec = pto.move %b : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    // expected-error@+1 {{AIV function 'three_live_aiv' holds 3 popped C2V slots at once here, but the ring has only 2 slots (the default slot_num, @three_live sets no pto.slot_num): the producer could never push this tile, so both cores would hang; release a slot (use the held tiles) before this pop or raise pto.slot_num; ring-depth=fixed keeps the reference's depth 2 (with ring-depth=auto the pass gives @three_live the 3 slots it needs)}}
    %c_vec = pto.move %c : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %s = pto.add %a_vec, %b_vec : !pto.tile<16x128xf32, vec>
    %s2 = pto.add %s, %c_vec : !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %s2, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
}

// -----

// The same kernel with pto.slot_num = 3 fits: each tile is freed after the add that reads it last.
// CHECK-LABEL: func.func @three_fit_aiv(
// CHECK:       pto.aiv_initialize_pipe {{.*}}slot_num = 3 : i64
// CHECK:       %a_vec = pto.tpop_from_aic
// CHECK-NEXT:  %b_vec = pto.tpop_from_aic
// CHECK-NEXT:  %c_vec = pto.tpop_from_aic
// CHECK-NEXT:  %s = pto.add %a_vec, %b_vec
// CHECK-NEXT:  pto.tfree_to_aic %a_vec
// CHECK-NEXT:  pto.tfree_to_aic %b_vec
// CHECK-NEXT:  %s2 = pto.add %s, %c_vec
// CHECK-NEXT:  pto.tfree_to_aic %c_vec
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @three_fit(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                       %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.slot_num = 3 : i64} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %a = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %b = pto.matmul_acc %a, %x_left, %w_right : !pto.tile<16x128xf32, acc>, !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %c = pto.matmul_acc %b, %x_left, %w_right : !pto.tile<16x128xf32, acc>, !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %a_vec = pto.move %a : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %b_vec = pto.move %b : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %c_vec = pto.move %c : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %s = pto.add %a_vec, %b_vec : !pto.tile<16x128xf32, vec>
    %s2 = pto.add %s, %c_vec : !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %s2, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
}
