// Round trip of the lane cooperation ops added beyond the contract (issue 43): lane_workspace (a GM buffer shared
// by both AIV lanes of a kernel instance) and lane_barrier (both lanes wait for each other), in the custom and
// the generic form.

// RUN: pypto-opt %s | filecheck %s
// RUN: pypto-opt %s | pypto-opt | filecheck %s
// RUN: pypto-opt %s --mlir-print-op-generic | pypto-opt | filecheck %s
// RUN: pypto-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

builtin.module attributes {pto.target = #pto.target<a5>} {
  // CHECK-LABEL: func.func @lane_ops
  // CHECK:      %ws = pto.lane_workspace : !pto.tensor<2x16x1xf32>
  // CHECK-NEXT: %wi = pto.lane_workspace : !pto.tensor<2x64xi32, dn>
  // CHECK-NEXT: pto.lane_barrier
  // CHECK-NEXT: pto.lane_barrier {note = "second"}
  // GENERIC: %ws = "pto.lane_workspace"() : () -> !pto.tensor<2x16x1xf32>
  // GENERIC: "pto.lane_barrier"() : () -> ()
  func.func @lane_ops() {
    %ws = pto.lane_workspace : !pto.tensor<2x16x1xf32>
    %wi = pto.lane_workspace : !pto.tensor<2x64xi32, dn>
    pto.lane_barrier
    pto.lane_barrier {note = "second"}
    func.return
  }
}
