// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-opt %s --lower-auto-vector-split '--expand-mixed-kernel{ring-depth=fixed}' | filecheck %s --check-prefix=FIXED
// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel --split-report=%t.a2a3.txt > /dev/null
// RUN: filecheck %s --check-prefix=REPORT-A2A3 --input-file %t.a2a3.txt
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split --expand-mixed-kernel --split-report=%t.a5.txt > /dev/null
// RUN: filecheck %s --check-prefix=REPORT-A5 --input-file %t.a5.txt
// The chosen depths keep the results: each kernel runs before and after the pipeline on both targets.
// RUN: pypto-run --quiet --entry phase_incore_0 --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry phase_big_incore_0 --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --entry phase_incore_0 --check-pipeline lower-auto-vector-split,expand-mixed-kernel -
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --entry phase_big_incore_0 --check-pipeline lower-auto-vector-split,expand-mixed-kernel -

// Ring depth chosen by the timing model (docs/timing-model.md): a kernel that sets no pto.slot_num gets the
// shallowest depth, from the default 2 up to PTOAS's implicit 8 (one direction), with the best modelled
// makespan among the depths whose ring still fits the consumer's memory.  `ring-depth=fixed` keeps 2.
//
// @phase: the cube is light in the first half of the loop and heavy in the second (two more GM loads and
// matmuls); the vector lanes are heavy first (a long tail) and light after.  A third slot lets the cube run
// ahead through its light half, so the model shortens the run on both targets: depth 3, reserve 3 x 8192 B.
// CHECK-LABEL: func.func @phase_incore_0_aic
// CHECK:         pto.aic_initialize_pipe {{.*}} {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 3 : i64}
// CHECK-LABEL: func.func @phase_incore_0_aiv
// CHECK:         pto.reserve_buffer {name = "phase_incore_0_c2v_slot_buffer", size = 24576 : i64, base = -1 : i64}
// CHECK:         pto.aiv_initialize_pipe {{.*}} {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 3 : i64}
// FIXED-LABEL: func.func @phase_incore_0_aic
// FIXED:         pto.aic_initialize_pipe {{.*}} {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64}
// FIXED-LABEL: func.func @phase_incore_0_aiv
// FIXED:         pto.reserve_buffer {name = "phase_incore_0_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64}
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @phase_incore_0(%a: !pto.tensor<256x64xbf16>, %b: !pto.tensor<64x64xbf16>, %out_0: !pto.tensor<256x64xf32> {pto.out}) -> !pto.tensor<256x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x64xbf16> -> !pto.tile<64x64xbf16, mat>
    %b_right = pto.move %b_mat : !pto.tile<64x64xbf16, mat> -> !pto.tile<64x64xbf16, right>
    %res = scf.for %i = %c0 to %c8 step %c1 iter_args(%o = %out_0) -> (!pto.tensor<256x64xf32>) {
      %row = arith.muli %i, %c32 : index
      %late = arith.cmpi sge, %i, %c4 : index
      %a_mat = pto.load %a[%row, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
      %a_left = pto.move %a_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
      %p0 = pto.matmul %a_left, %b_right : !pto.tile<32x64xbf16, left>, !pto.tile<64x64xbf16, right> -> !pto.tile<32x64xf32, acc>
      %p = scf.if %late -> (!pto.tile<32x64xf32, acc>) {
        %a2 = pto.load %a[%row, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
        %a3 = pto.load %a[%row, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
        %a2l = pto.move %a2 : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
        %p1 = pto.matmul_acc %p0, %a2l, %b_right : !pto.tile<32x64xf32, acc>, !pto.tile<32x64xbf16, left>, !pto.tile<64x64xbf16, right> -> !pto.tile<32x64xf32, acc>
        %a3l = pto.move %a3 : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
        %p2 = pto.matmul_acc %p1, %a3l, %b_right : !pto.tile<32x64xf32, acc>, !pto.tile<32x64xbf16, left>, !pto.tile<64x64xbf16, right> -> !pto.tile<32x64xf32, acc>
        scf.yield %p2 : !pto.tile<32x64xf32, acc>
      } else {
        scf.yield %p0 : !pto.tile<32x64xf32, acc>
      }
      %v = pto.move %p : !pto.tile<32x64xf32, acc> -> !pto.tile<32x64xf32, vec>
      %t = scf.if %late -> (!pto.tile<32x64xf32, vec>) {
        scf.yield %v : !pto.tile<32x64xf32, vec>
      } else {
        %e1 = pto.exp %v : !pto.tile<32x64xf32, vec>
        %e2 = pto.exp %e1 : !pto.tile<32x64xf32, vec>
        %e3 = pto.exp %e2 : !pto.tile<32x64xf32, vec>
        %e4 = pto.exp %e3 : !pto.tile<32x64xf32, vec>
        %e5 = pto.exp %e4 : !pto.tile<32x64xf32, vec>
        %e6 = pto.exp %e5 : !pto.tile<32x64xf32, vec>
        %e7 = pto.recip %e6 : !pto.tile<32x64xf32, vec>
        %e8 = pto.recip %e7 : !pto.tile<32x64xf32, vec>
        scf.yield %e8 : !pto.tile<32x64xf32, vec>
      }
      %o2 = pto.store %t, %o[%row, 0] : !pto.tile<32x64xf32, vec>, !pto.tensor<256x64xf32>
      scf.yield %o2 : !pto.tensor<256x64xf32>
    }
    func.return %res : !pto.tensor<256x64xf32>
  }

  // @phase_given: the same kernel with an explicit pto.slot_num = 2: the author's depth stays as written.
  // CHECK-LABEL: func.func @phase_given_incore_0_aic
  // CHECK:         pto.aic_initialize_pipe {{.*}} slot_num = 2 : i64}
  // CHECK-LABEL: func.func @phase_given_incore_0_aiv
  // CHECK:         pto.reserve_buffer {name = "phase_given_incore_0_c2v_slot_buffer", size = 16384 : i64
  func.func @phase_given_incore_0(%a: !pto.tensor<256x64xbf16>, %b: !pto.tensor<64x64xbf16>, %out_0: !pto.tensor<256x64xf32> {pto.out}) -> !pto.tensor<256x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.slot_num = 2 : i64, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x64xbf16> -> !pto.tile<64x64xbf16, mat>
    %b_right = pto.move %b_mat : !pto.tile<64x64xbf16, mat> -> !pto.tile<64x64xbf16, right>
    %res = scf.for %i = %c0 to %c8 step %c1 iter_args(%o = %out_0) -> (!pto.tensor<256x64xf32>) {
      %row = arith.muli %i, %c32 : index
      %late = arith.cmpi sge, %i, %c4 : index
      %a_mat = pto.load %a[%row, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
      %a_left = pto.move %a_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
      %p0 = pto.matmul %a_left, %b_right : !pto.tile<32x64xbf16, left>, !pto.tile<64x64xbf16, right> -> !pto.tile<32x64xf32, acc>
      %p = scf.if %late -> (!pto.tile<32x64xf32, acc>) {
        %a2 = pto.load %a[%row, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
        %a3 = pto.load %a[%row, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
        %a2l = pto.move %a2 : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
        %p1 = pto.matmul_acc %p0, %a2l, %b_right : !pto.tile<32x64xf32, acc>, !pto.tile<32x64xbf16, left>, !pto.tile<64x64xbf16, right> -> !pto.tile<32x64xf32, acc>
        %a3l = pto.move %a3 : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
        %p2 = pto.matmul_acc %p1, %a3l, %b_right : !pto.tile<32x64xf32, acc>, !pto.tile<32x64xbf16, left>, !pto.tile<64x64xbf16, right> -> !pto.tile<32x64xf32, acc>
        scf.yield %p2 : !pto.tile<32x64xf32, acc>
      } else {
        scf.yield %p0 : !pto.tile<32x64xf32, acc>
      }
      %v = pto.move %p : !pto.tile<32x64xf32, acc> -> !pto.tile<32x64xf32, vec>
      %t = scf.if %late -> (!pto.tile<32x64xf32, vec>) {
        scf.yield %v : !pto.tile<32x64xf32, vec>
      } else {
        %e1 = pto.exp %v : !pto.tile<32x64xf32, vec>
        %e2 = pto.exp %e1 : !pto.tile<32x64xf32, vec>
        %e3 = pto.exp %e2 : !pto.tile<32x64xf32, vec>
        %e4 = pto.exp %e3 : !pto.tile<32x64xf32, vec>
        %e5 = pto.exp %e4 : !pto.tile<32x64xf32, vec>
        %e6 = pto.exp %e5 : !pto.tile<32x64xf32, vec>
        %e7 = pto.recip %e6 : !pto.tile<32x64xf32, vec>
        %e8 = pto.recip %e7 : !pto.tile<32x64xf32, vec>
        scf.yield %e8 : !pto.tile<32x64xf32, vec>
      }
      %o2 = pto.store %t, %o[%row, 0] : !pto.tile<32x64xf32, vec>, !pto.tensor<256x64xf32>
      scf.yield %o2 : !pto.tensor<256x64xf32>
    }
    func.return %res : !pto.tensor<256x64xf32>
  }

  // @phase_big: the same loop while the lanes keep a 160 KiB half of %big live in UB.  On a2a3 (192 KiB of UB)
  // no deeper ring fits beside it, so the default stays; a5's 256 KiB UB holds more, and the deeper ring pays:
  // depth 6 (pto-isa's producer waits once per 3 tiles there, once per 2 at depth 4); the odd depths 5 and 7,
  // which let a push refill a slot before waiting for its free (docs/timing-model.md), are not candidates.
  // CHECK-LABEL: func.func @phase_big_incore_0_aiv
  // A2A3:          pto.reserve_buffer {name = "phase_big_incore_0_c2v_slot_buffer", size = 16384 : i64
  // A2A3:          pto.aiv_initialize_pipe {{.*}} slot_num = 2 : i64}
  // A5:            pto.reserve_buffer {name = "phase_big_incore_0_c2v_slot_buffer", size = 49152 : i64
  // A5:            pto.aiv_initialize_pipe {{.*}} slot_num = 6 : i64}

  // The split report says why, with the modelled cycles per candidate depth.
  // REPORT-A2A3-LABEL: kernel @phase_incore_0:
  // REPORT-A2A3:       ring depth 3: the shallowest depth with the best modelled makespan (modelled cycles per depth: 2: [[#]], 3: [[#]], 4:
  // REPORT-A2A3-LABEL: kernel @phase_given_incore_0:
  // REPORT-A2A3-NOT:   ring depth
  // REPORT-A2A3:       result:
  // REPORT-A2A3-LABEL: kernel @phase_big_incore_0:
  // REPORT-A2A3:       ring depth 2: no deeper ring fits the memory budget (modelled cycles per depth: 2: [[#]])
  // REPORT-A5-LABEL:   kernel @phase_big_incore_0:
  // REPORT-A5:         ring depth 6: the shallowest depth with the best modelled makespan (modelled cycles per depth: 2: [[#]], 3: [[#]], 4: [[#]], 5: deadlock or unguarded, 6: [[#]], 7: deadlock or unguarded, 8: [[#]])
  func.func @phase_big_incore_0(%big: !pto.tensor<320x256xf32>, %big_out: !pto.tensor<320x256xf32> {pto.out}, %a: !pto.tensor<256x64xbf16>, %b: !pto.tensor<64x64xbf16>, %out_0: !pto.tensor<256x64xf32> {pto.out}) -> !pto.tensor<256x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %keep = pto.load %big[0, 0] : !pto.tensor<320x256xf32> -> !pto.tile<320x256xf32, vec>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x64xbf16> -> !pto.tile<64x64xbf16, mat>
    %b_right = pto.move %b_mat : !pto.tile<64x64xbf16, mat> -> !pto.tile<64x64xbf16, right>
    %res = scf.for %i = %c0 to %c8 step %c1 iter_args(%o = %out_0) -> (!pto.tensor<256x64xf32>) {
      %row = arith.muli %i, %c32 : index
      %late = arith.cmpi sge, %i, %c4 : index
      %a_mat = pto.load %a[%row, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
      %a_left = pto.move %a_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
      %p0 = pto.matmul %a_left, %b_right : !pto.tile<32x64xbf16, left>, !pto.tile<64x64xbf16, right> -> !pto.tile<32x64xf32, acc>
      %p = scf.if %late -> (!pto.tile<32x64xf32, acc>) {
        %a2 = pto.load %a[%row, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
        %a3 = pto.load %a[%row, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
        %a2l = pto.move %a2 : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
        %p1 = pto.matmul_acc %p0, %a2l, %b_right : !pto.tile<32x64xf32, acc>, !pto.tile<32x64xbf16, left>, !pto.tile<64x64xbf16, right> -> !pto.tile<32x64xf32, acc>
        %a3l = pto.move %a3 : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
        %p2 = pto.matmul_acc %p1, %a3l, %b_right : !pto.tile<32x64xf32, acc>, !pto.tile<32x64xbf16, left>, !pto.tile<64x64xbf16, right> -> !pto.tile<32x64xf32, acc>
        scf.yield %p2 : !pto.tile<32x64xf32, acc>
      } else {
        scf.yield %p0 : !pto.tile<32x64xf32, acc>
      }
      %v = pto.move %p : !pto.tile<32x64xf32, acc> -> !pto.tile<32x64xf32, vec>
      %t = scf.if %late -> (!pto.tile<32x64xf32, vec>) {
        scf.yield %v : !pto.tile<32x64xf32, vec>
      } else {
        %e1 = pto.exp %v : !pto.tile<32x64xf32, vec>
        %e2 = pto.exp %e1 : !pto.tile<32x64xf32, vec>
        %e3 = pto.exp %e2 : !pto.tile<32x64xf32, vec>
        %e4 = pto.exp %e3 : !pto.tile<32x64xf32, vec>
        %e5 = pto.exp %e4 : !pto.tile<32x64xf32, vec>
        %e6 = pto.exp %e5 : !pto.tile<32x64xf32, vec>
        %e7 = pto.recip %e6 : !pto.tile<32x64xf32, vec>
        %e8 = pto.recip %e7 : !pto.tile<32x64xf32, vec>
        scf.yield %e8 : !pto.tile<32x64xf32, vec>
      }
      %o2 = pto.store %t, %o[%row, 0] : !pto.tile<32x64xf32, vec>, !pto.tensor<256x64xf32>
      scf.yield %o2 : !pto.tensor<256x64xf32>
    }
    %kept = pto.store %keep, %big_out[0, 0] : !pto.tile<320x256xf32, vec>, !pto.tensor<320x256xf32>
    func.return %res : !pto.tensor<256x64xf32>
  }
}
