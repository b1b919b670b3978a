// RUN: pypto-run %s | filecheck %s --check-prefix=OUT
// RUN: pypto-run --compare-with %S/Inputs/execute_region.inlined.mlir %s | filecheck %s
// RUN: pypto-run --compare-with %S/Inputs/execute_region.expanded.a2a3.mlir %s | filecheck %s
// RUN: not pypto-run --compare-with %S/Inputs/execute_region.swapped.mlir %s 2>&1 | filecheck %s --check-prefix=SWAP

// scf.execute_region runs its one block once and its results are the values its scf.yield gives (here a cube
// tile and a vector tile out of one region, and a region nested in a loop body): the program computes what the
// same program with every region inlined by hand computes, and what a hand-written AIC/AIV/Group expansion
// with execute_regions on both sides (the tpop and tfree inside one) computes. The fourth run shows the check
// can fail: a twin whose region yields its two vector results in the other order (inputs to a pto.sub)
// computes a different output.
// OUT: result#0: [64, 128] float32
// OUT: %q: [64, 128] float32
// CHECK: passed: 3 output(s) match
// SWAP: FAILED (compare)
// SWAP: output result#0 differs at [0, 0]
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%q: !pto.tensor<64x128xf32>, %kt: !pto.tensor<128x128xf32>, %d: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %q_mat = pto.load %q[0, 0] : !pto.tensor<64x128xf32> -> !pto.tile<64x128xf32, mat>
    %k_mat = pto.load %kt[0, 0] : !pto.tensor<128x128xf32> -> !pto.tile<128x128xf32, mat>
    %sv, %sc = scf.execute_region -> (!pto.tile<64x128xf32, vec>, !pto.tile<64x128xf32, acc>) {
      %q_left = pto.move %q_mat : !pto.tile<64x128xf32, mat> -> !pto.tile<64x128xf32, left>
      %k_right = pto.move %k_mat : !pto.tile<128x128xf32, mat> -> !pto.tile<128x128xf32, right>
      %mm = pto.matmul %q_left, %k_right : !pto.tile<64x128xf32, left>, !pto.tile<128x128xf32, right> -> !pto.tile<64x128xf32, acc>
      %mv = pto.move %mm : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
      scf.yield %mv, %mm : !pto.tile<64x128xf32, vec>, !pto.tile<64x128xf32, acc>
    }
    %acc = scf.for %i = %c0 to %c2 step %c1 iter_args(%s = %sv) -> (!pto.tile<64x128xf32, vec>) {
      %e, %x = scf.execute_region -> (!pto.tile<64x128xf32, vec>, !pto.tile<64x128xf32, vec>) {
        %ex = pto.relu %s : !pto.tile<64x128xf32, vec>
        %ld = pto.load %q[0, 0] : !pto.tensor<64x128xf32> -> !pto.tile<64x128xf32, vec>
        scf.yield %ex, %ld : !pto.tile<64x128xf32, vec>, !pto.tile<64x128xf32, vec>
      }
      %n = pto.sub %e, %x : !pto.tile<64x128xf32, vec>
      scf.yield %n : !pto.tile<64x128xf32, vec>
    }
    %d_1 = pto.store %acc, %d[0, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<64x128xf32>
    func.return %d_1 : !pto.tensor<64x128xf32>
  }
  func.func @main(%q: !pto.tensor<64x128xf32>, %kt: !pto.tensor<128x128xf32>) -> !pto.tensor<64x128xf32>
      attributes {pto.kind = #pto.kind<orchestration>} {
    %d = pto.create_tensor : !pto.tensor<64x128xf32>
    %r = func.call @k(%q, %kt, %d) : (!pto.tensor<64x128xf32>, !pto.tensor<128x128xf32>, !pto.tensor<64x128xf32>) -> !pto.tensor<64x128xf32>
    func.return %r : !pto.tensor<64x128xf32>
  }
}
