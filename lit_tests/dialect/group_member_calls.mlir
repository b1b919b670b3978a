// The call attributes of Group members (docs/dialect.md, "Group members"): pto.task_id (the runtime task a
// member call is submitted as) and pto.no_dep (arguments without dependency tracking) parse, print back in the
// same form, and survive the generic form.  The AIC and the AIV call of @g2 share a task id: the two subslots of
// one mixed task.  Their rejections: invalid_group_calls.mlir.

// RUN: pypto-opt %s | filecheck %s
// RUN: pypto-opt %s | pypto-opt | filecheck %s
// RUN: pypto-opt %s --mlir-print-op-generic | pypto-opt | filecheck %s

builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @c(%a: !pto.tensor<16x16xf32>, %w: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<aic>} {
    func.return %w : !pto.tensor<16x16xf32>
  }
  func.func @v(%a: !pto.tensor<16x16xf32>, %w: !pto.tensor<16x16xf32> {pto.out}) attributes {pto.kind = #pto.kind<aiv>} {
    func.return
  }
  // CHECK-LABEL: func.func @g(%x: !pto.tensor<16x16xf32>, %ws: !pto.tensor<16x16xf32> {pto.out})
  // CHECK-NEXT:  %w = func.call @c(%x, %ws) {pto.task_id = 0 : i64, pto.no_dep = array<i64: 1>} : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
  // CHECK-NEXT:  func.call @v(%x, %ws) {pto.task_id = 1 : i64} : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> ()
  func.func @g(%x: !pto.tensor<16x16xf32>, %ws: !pto.tensor<16x16xf32> {pto.out}) attributes {pto.kind = #pto.kind<group>} {
    %w = func.call @c(%x, %ws) {pto.task_id = 0 : i64, pto.no_dep = array<i64: 1>} : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    func.call @v(%x, %ws) {pto.task_id = 1 : i64} : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> ()
    func.return
  }
  // CHECK-LABEL: func.func @g2(%x: !pto.tensor<16x16xf32>, %ws: !pto.tensor<16x16xf32> {pto.out})
  // CHECK-NEXT:  %w = func.call @c(%x, %ws) {pto.task_id = 4 : i64} : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
  // CHECK-NEXT:  func.call @v(%x, %ws) {pto.task_id = 4 : i64} : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> ()
  func.func @g2(%x: !pto.tensor<16x16xf32>, %ws: !pto.tensor<16x16xf32> {pto.out}) attributes {pto.kind = #pto.kind<group>} {
    %w = func.call @c(%x, %ws) {pto.task_id = 4 : i64} : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    func.call @v(%x, %ws) {pto.task_id = 4 : i64} : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> ()
    func.return
  }
}
