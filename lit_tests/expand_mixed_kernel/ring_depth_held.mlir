// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s
// RUN: pypto-opt %s --expand-mixed-kernel --split-report=%t.a2a3.txt > /dev/null
// RUN: filecheck %s --check-prefix=REPORT --input-file %t.a2a3.txt
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel --split-report=%t.a5.txt > /dev/null
// RUN: filecheck %s --check-prefix=REPORT --input-file %t.a5.txt
// The depths keep the results: each kernel runs before and after the pass on both targets.
// RUN: pypto-run --quiet --entry three_live --check-pipeline expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry hold_four --check-pipeline expand-mixed-kernel %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --entry three_live --check-pipeline expand-mixed-kernel -
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --entry hold_four --check-pipeline expand-mixed-kernel -

// A kernel that holds more popped slots at once than the default depth 2, and sets no pto.slot_num, gets the
// depth it needs (ExpandMixedKernel, ring-depth=auto; docs/timing-model.md "Ring depth chosen by the model"):
// setup-pipes sizes the ring by the most popped slots a side holds at once, and the ring-depth choice tries
// the depths from there up to PTOAS's implicit depth (8 for one direction).  Under ring-depth=fixed the same
// kernels are rejected at the third pop (protocol_ring_depth_fixed.mlir).

// @three_live: the vector side reads three C->V tiles together (3 slots held), once: the ring carries 3 tiles
// per run, so no push waits at depth 3 and the kernel is not timed.  Depth 3, reserve 3 x 8192 B.
// CHECK-LABEL: func.func @three_live_aic
// CHECK:         pto.aic_initialize_pipe {{.*}} {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 3 : i64}
// CHECK-LABEL: func.func @three_live_aiv
// CHECK:         pto.reserve_buffer {name = "three_live_c2v_slot_buffer", size = 24576 : i64, base = -1 : i64}
// CHECK:         pto.aiv_initialize_pipe {{.*}} {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 3 : i64}
// CHECK:         %a_vec = pto.tpop_from_aic
// CHECK-NEXT:    %b_vec = pto.tpop_from_aic
// CHECK-NEXT:    %c_vec = pto.tpop_from_aic
// CHECK-NEXT:    %s = pto.add %a_vec, %b_vec
// CHECK-NEXT:    pto.tfree_to_aic %a_vec
// CHECK-NEXT:    pto.tfree_to_aic %b_vec
// CHECK-NEXT:    %s2 = pto.add %s, %c_vec
// CHECK-NEXT:    pto.tfree_to_aic %c_vec
// REPORT-LABEL: kernel @three_live
// REPORT:         ring depth 3 (the least the kernel runs at, not chosen): each ring carries at most 3 tiles per run, so no push waits for a slot at depth 3 (the 3 slots the kernel holds at once)
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
    %c_vec = pto.move %c : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %s = pto.add %a_vec, %b_vec : !pto.tile<16x128xf32, vec>
    %s2 = pto.add %s, %c_vec : !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %s2, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }

// @hold_four: per iteration the cube hands four tiles to the vector side, which reads all four together (4
// slots held); 4 iterations push 16 tiles, so the choice times the depths 4 to 8 and keeps the shallowest
// with the best modelled makespan: 4 on both targets (the cube's four matmuls per iteration outlast the lanes'
// adds, so a deeper ring does not help; the report lists the candidates, 5 and 7 leave a slot reuse unguarded).
// CHECK-LABEL: func.func @hold_four_aic
// CHECK:         pto.aic_initialize_pipe {{.*}} {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 4 : i64}
// CHECK-LABEL: func.func @hold_four_aiv
// CHECK:         pto.reserve_buffer {name = "hold_four_c2v_slot_buffer", size = 32768 : i64, base = -1 : i64}
// CHECK:         pto.aiv_initialize_pipe {{.*}} {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 4 : i64}
// CHECK:         %p0 = pto.tpop_from_aic
// CHECK-NEXT:    %p1 = pto.tpop_from_aic
// CHECK-NEXT:    %p2 = pto.tpop_from_aic
// CHECK-NEXT:    %p3 = pto.tpop_from_aic
// REPORT-LABEL: kernel @hold_four
// REPORT:         ring depth 4: deeper rings do not shorten the modelled makespan (modelled cycles per depth: 4: {{[0-9]+}}, 5: deadlock or unguarded, 6: {{.*}}, 7: deadlock or unguarded, 8: {{[0-9]+}})
  func.func @hold_four(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                       %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %init = pto.full %zero : f32 -> !pto.tile<16x128xf32, vec>
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%sum = %init) -> (!pto.tile<16x128xf32, vec>) {
      %m0 = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
      %m1 = pto.matmul_acc %m0, %x_left, %w_right : !pto.tile<16x128xf32, acc>, !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
      %m2 = pto.matmul_acc %m1, %x_left, %w_right : !pto.tile<16x128xf32, acc>, !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
      %m3 = pto.matmul_acc %m2, %x_left, %w_right : !pto.tile<16x128xf32, acc>, !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
      %p0 = pto.move %m0 : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
      %p1 = pto.move %m1 : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
      %p2 = pto.move %m2 : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
      %p3 = pto.move %m3 : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
      %s0 = pto.add %p3, %p2 : !pto.tile<16x128xf32, vec>
      %s1 = pto.add %s0, %p1 : !pto.tile<16x128xf32, vec>
      %s2 = pto.add %s1, %p0 : !pto.tile<16x128xf32, vec>
      %e = pto.exp %s2 : !pto.tile<16x128xf32, vec>
      %next = pto.add %sum, %e : !pto.tile<16x128xf32, vec>
      scf.yield %next : !pto.tile<16x128xf32, vec>
    }
    %out_1 = pto.store %r, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
}
