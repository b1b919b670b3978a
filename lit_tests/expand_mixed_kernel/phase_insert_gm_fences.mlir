// RUN: pypto-opt %s --insert-gm-fences | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --insert-gm-fences | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-opt %s --insert-gm-fences --insert-gm-fences | filecheck %s --check-prefixes=CHECK,A2A3
// The IR between phases is valid but not runnable; the interpreter checks the phases as one sequence:
// RUN: pypto-run --quiet --check-pipeline insert-gm-fences,split-mixed-kernel,insert-tfree,setup-pipes,normalize-group-abi,adapt-manual-pushes,verify-mixed-kernel-expanded,choose-ring-depth %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline insert-gm-fences,split-mixed-kernel,insert-tfree,setup-pipes,normalize-group-abi,adapt-manual-pushes,verify-mixed-kernel-expanded,choose-ring-depth -

// Phase 1 of expand-mixed-kernel, run alone. Its input is the pass's input: a mixed incore kernel (here the cube
// stores %y to the workspace %ws, and the vector side loads it back: a C->V RAW through GM). Its output: the
// same incore kernel with the dependence fenced in the mixed body (a tpush_to_aiv of the stored tile right
// after the store, its %ws_gm_sync pop right before the load); the cube->vector move %y_vec is still a move
// (the split lowers it), the kernel is still incore, and nothing else changes. A second run adds nothing: the
// fenced dependence is ordered. The same on both targets.
// A2A3: pto.target = #pto.target<a2a3>
// A5: pto.target = #pto.target<a5>
// CHECK-LABEL: func.func @k(
// CHECK-SAME:  attributes {pto.kind = #pto.kind<incore>} {
// CHECK:       %ws_1 = pto.store %y, %ws[0, 0]
// CHECK-NEXT:  pto.tpush_to_aiv %y {split = 0 : i64} : !pto.tile<16x128xf32, acc>
// CHECK-NEXT:  %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
// CHECK-NEXT:  %v = pto.load %ws_1[0, 0]
// CHECK-NEXT:  %y_vec = pto.move %y : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
// CHECK-NOT:   pto.tpush
// CHECK-NOT:   pto.tfree
// CHECK:       func.return %out_1
// CHECK-LABEL: func.func @main(
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
               %ws: !pto.tensor<16x128xf32> {pto.inout},
               %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %y = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %ws_1 = pto.store %y, %ws[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    %v = pto.load %ws_1[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %y_vec = pto.move %y : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %s = pto.add %v, %y_vec : !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %s, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
  func.func @main(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<16x128xf32>
    %r = func.call @k(%x, %w, %ws, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %r : !pto.tensor<16x128xf32>
  }
}
