// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// The task id of the Group's call of the mixed kernel (pto.task_id, pypto's Submit TaskId) names one mixed task:
// both halves keep it, as its AIC and AIV subslots (docs/dialect.md, "Group members").
// RUN: sed 's/%result = func.call @compute_incore_0(%x, %y, %out_0) :/%result = func.call @compute_incore_0(%x, %y, %out_0) {pto.task_id = 5 : i64} :/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefix=TASK
// TASK: func.call @compute_incore_0_aic(%x, %y, %out) {pto.task_id = 5 : i64} :
// TASK-NEXT: %result = func.call @compute_incore_0_aiv(%x, %y, %out) {pto.task_id = 5 : i64} :

// Seed example 2: a Group (as made by OutlineClusterScopes) already calls the mixed kernel.  The Group is
// rewritten in place to call @compute_incore_0_aic then @compute_incore_0_aiv (whose result replaces the old
// call's); no wrapper named @compute_incore_0 is created, and the Orchestration code is unchanged.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @compute_incore_0(%x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>,
      %out_0: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %y_mat = pto.load %y[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %y_right = pto.move %y_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %z_tile = pto.matmul %x_left, %y_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %z_vec = pto.move %z_tile : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %z_vec, %out_0[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
  func.func @compute_group(%x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>,
      %out_0: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<group>} {
    %result = func.call @compute_incore_0(%x, %y, %out_0) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %result : !pto.tensor<16x128xf32>
  }
  func.func @main(%x: !pto.tensor<16x128xbf16>, %y: !pto.tensor<128x128xbf16>) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out_0 = pto.create_tensor : !pto.tensor<16x128xf32>
    %r = func.call @compute_group(%x, %y, %out_0) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// Both targets keep their pto.target (the target-specific lines of this file):
// A2A3: pto.target = #pto.target<a2a3>
// A5: pto.target = #pto.target<a5>
// CHECK-LABEL: func.func @compute_incore_0_aic(
// CHECK-SAME: attributes {pto.kind = #pto.kind<aic>}
// CHECK: pto.tpush_to_aiv %z_tile {split = 0 : i64}
// CHECK-LABEL: func.func @compute_incore_0_aiv(
// CHECK-SAME: attributes {pto.kind = #pto.kind<aiv>
// CHECK: %z_vec = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
// CHECK-NOT: func.func @compute_incore_0(
// CHECK-LABEL: func.func @compute_group(
// CHECK-SAME: attributes {pto.kind = #pto.kind<group>} {
// CHECK-NEXT: func.call @compute_incore_0_aic(%x, %y, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>) -> ()
// CHECK-NEXT: %result = func.call @compute_incore_0_aiv(%x, %y, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
// CHECK-NEXT: func.return %result
// CHECK-LABEL: func.func @main(
// CHECK-NEXT: pto.create_tensor
// CHECK-NEXT: %r = func.call @compute_group(%x, %y, %out)
// CHECK-NOT: func.func @compute_incore_0(
