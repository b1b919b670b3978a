// RUN: pypto-opt %s --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'

// What is still refused around a window taken whole (odd_window_whole.mlir) or a loop carrying a whole value
// (carried_whole_init.mlir), on both targets: a whole odd value has no lane part (lane 1's part would pass its
// box: pto has no padded slice), so it cannot meet per-lane data, and both lanes cannot store it into a tensor
// another store writes too (the lanes' stores have no order).

// The whole 7-row window added to per-lane rows (a load of 7 rows, halved into 4 + 3).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @meets_per_lane(%qk: !pto.tile<16x16xf32, acc>, %x: !pto.tensor<7x16xf32>, %out: !pto.tensor<7x16xf32> {pto.out}) -> !pto.tensor<7x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %w = pto.slice %s[9, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<7x16xf32, vec>
    %l = pto.load %x[0, 0] : !pto.tensor<7x16xf32> -> !pto.tile<7x16xf32, vec>
    // expected-error@+1 {{LowerAutoVectorSplit: 'pto.add' reads 'w' (!pto.tile<7x16xf32, vec>), which this pass computes whole on both lanes}}
    %a = pto.add %l, %w : !pto.tile<7x16xf32, vec>
    %o = pto.store %a, %out[0, 0] : !pto.tile<7x16xf32, vec>, !pto.tensor<7x16xf32>
    func.return %o : !pto.tensor<7x16xf32>
  }
}

// -----

// A loop carrying a whole value with no lane part (15 rows, all valid: carried whole, carried_whole_init.mlir)
// whose body combines it with per-lane rows (a 15-row load, halved into 8 + 7).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @carried_odd_meets_per_lane(%qk: !pto.tile<15x16xf32, acc>, %x: !pto.tensor<15x16xf32>, %out: !pto.tensor<15x16xf32> {pto.out}, %side: !pto.tensor<4x16xf32> {pto.out}) -> (!pto.tensor<15x16xf32>, !pto.tensor<4x16xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<15x16xf32, acc> -> !pto.tile<15x16xf32, vec>
    %w = pto.slice %s[2, 0] : !pto.tile<15x16xf32, vec> -> !pto.tile<4x16xf32, vec>
    %p = pto.store %w, %side[0, 0] : !pto.tile<4x16xf32, vec>, !pto.tensor<4x16xf32>
    %l = pto.load %x[0, 0] : !pto.tensor<15x16xf32> -> !pto.tile<15x16xf32, vec>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %acc = scf.for %k = %c0 to %c2 step %c1 iter_args(%sum = %s) -> (!pto.tile<15x16xf32, vec>) {
      // expected-error@+1 {{LowerAutoVectorSplit: 'pto.add' reads 'sum' (!pto.tile<15x16xf32, vec>), which this pass computes whole on both lanes}}
      %a = pto.add %sum, %l : !pto.tile<15x16xf32, vec>
      scf.yield %a : !pto.tile<15x16xf32, vec>
    }
    %o = pto.store %acc, %out[0, 0] : !pto.tile<15x16xf32, vec>, !pto.tensor<15x16xf32>
    func.return %o, %p : !pto.tensor<15x16xf32>, !pto.tensor<4x16xf32>
  }
}
