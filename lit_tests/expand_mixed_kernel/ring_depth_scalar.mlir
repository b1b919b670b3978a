// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split --expand-mixed-kernel | filecheck %s
// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel --split-report=%t.a2a3.txt > /dev/null
// RUN: filecheck %s --check-prefix=REPORT --input-file %t.a2a3.txt
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split --expand-mixed-kernel --split-report=%t.a5.txt > /dev/null
// RUN: filecheck %s --check-prefix=REPORT --input-file %t.a5.txt
// The chosen depth keeps the results: @main runs the kernel for 8 trips before and after, on both targets.
// RUN: pypto-run --quiet --entry main --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --entry main --check-pipeline lower-auto-vector-split,expand-mixed-kernel -

// A kernel whose trip count is a scalar parameter is timed too (docs/timing-model.md "Kernels with scalar
// parameters"; passes/expand_mixed_kernel/scalar_values.py): %n only bounds the loop, so the ring-depth
// choice runs the Group at %n = 0, 1, 2 and 8 and keeps the depth with the least summed modelled makespan.
// The body is ring_depth_chosen.mlir's phased loop (@phase_incore_0, 8 trips there): a third slot lets the cube
// run ahead through its light half, so the choice gives depth 3 on both targets, as for the constant trip count.
// CHECK-LABEL: func.func @trips_incore_0_aic
// CHECK:         pto.aic_initialize_pipe {{.*}} {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 3 : i64}
// CHECK-LABEL: func.func @trips_incore_0_aiv
// CHECK:         pto.reserve_buffer {name = "trips_incore_0_c2v_slot_buffer", size = 24576 : i64, base = -1 : i64}
// CHECK:         pto.aiv_initialize_pipe {{.*}} {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 3 : i64}
// CHECK:         scf.for %i = %c0 to %n step %c1
// REPORT-LABEL: kernel @trips_incore_0:
// REPORT:         ring depth 3: the shallowest depth with the best modelled makespan, summed over 4 runs at the stated scalar values (modelled cycles per depth: 2: [[#]], 3: [[#]],
// REPORT-NEXT:      scalar parameters %n (control: bound); timed at %n = 0; %n = 1; %n = 2; %n = 8
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @trips_incore_0(%a: !pto.tensor<256x64xbf16>, %b: !pto.tensor<64x64xbf16>, %n: index, %out_0: !pto.tensor<256x64xf32> {pto.out}) -> !pto.tensor<256x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x64xbf16> -> !pto.tile<64x64xbf16, mat>
    %b_right = pto.move %b_mat : !pto.tile<64x64xbf16, mat> -> !pto.tile<64x64xbf16, right>
    %res = scf.for %i = %c0 to %n step %c1 iter_args(%o = %out_0) -> (!pto.tensor<256x64xf32>) {
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
  func.func @main(%a: !pto.tensor<256x64xbf16>, %b: !pto.tensor<64x64xbf16>) -> !pto.tensor<256x64xf32>
      attributes {pto.kind = #pto.kind<orchestration>} {
    %c8 = arith.constant 8 : index
    %o = pto.create_tensor : !pto.tensor<256x64xf32>
    %r = func.call @trips_incore_0(%a, %b, %c8, %o) : (!pto.tensor<256x64xbf16>, !pto.tensor<64x64xbf16>, index, !pto.tensor<256x64xf32>) -> !pto.tensor<256x64xf32>
    func.return %r : !pto.tensor<256x64xf32>
  }
}
