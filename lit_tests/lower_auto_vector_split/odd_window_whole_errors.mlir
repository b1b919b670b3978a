// RUN: pypto-opt %s --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'

// What is still refused around a window taken whole (odd_window_whole.mlir), on both targets: the whole odd
// window has no lane part (lane 1's part would pass its box: pto has no padded slice), so it cannot meet per-lane
// data, and both lanes cannot store it into a tensor another store writes too (the lanes' stores have no order).

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

// The whole window stored into a tensor that a per-lane store writes too.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @shared_tensor(%qk: !pto.tile<16x16xf32, acc>, %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %w = pto.slice %s[9, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<7x16xf32, vec>
    %o1 = pto.store %s, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    // expected-error@+1 {{LowerAutoVectorSplit: this pto.store writes 'w' (!pto.tile<7x16xf32, vec>), which this pass computes whole on both lanes}}
    %o = pto.store %w, %o1[9, 0] : !pto.tile<7x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }
}
