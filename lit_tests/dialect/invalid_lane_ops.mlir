// Verifier errors of the lane cooperation ops (lane_workspace, lane_barrier; beyond the contract): one case per
// check, reported at the op.

// RUN: pypto-opt %s --split-input-file --verify-diagnostics

func.func @f() {
  // A workspace is allocated by the runtime before the kernel runs: its shape must be static.
  // expected-error@+1 {{lane_workspace must have a static shape of rank at least 1 (the runtime allocates it before the kernel runs), got !pto.tensor<2x?xf32>}}
  %ws = pto.lane_workspace : !pto.tensor<2x?xf32>
  func.return
}

// -----

func.func @f() {
  // A workspace is a GM tensor, not a tile.
  // expected-error@+1 {{result 'result' must be of type !pto.tensor, got !pto.tile<16x16xf32, vec>}}
  %ws = "pto.lane_workspace"() : () -> !pto.tile<16x16xf32, vec>
  func.return
}

// -----

func.func @f(%t: !pto.tensor<2x16xf32>) {
  // The barrier takes no operand and has no result.
  // expected-error@+1 {{Expected 0 operands, but got 1}}
  "pto.lane_barrier"(%t) : (!pto.tensor<2x16xf32>) -> ()
  func.return
}
