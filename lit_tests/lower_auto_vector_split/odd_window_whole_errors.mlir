// RUN: pypto-opt %s --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'

// What is still refused around a window taken whole (odd_window_whole.mlir) or a loop carrying a whole value
// (carried_whole_init.mlir), on both targets.  A whole odd value has no lane slice (lane 1's part would pass its
// box: pto has no padded slice); its lane part is taken through a GM workspace instead (gm_lane_parts.mlir), but
// not for a loop that carries the whole value (the body would yield a per-lane value for a whole carried one), nor in a split_aiv_scope region.
// (A store of it into a shared tensor is made by lane 0 alone between lane barriers: whole_store_one_writer.mlir.)

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

// -----

// An odd tile_get in a split_aiv_scope region: the region path builds no GM workspace (the region is the author's
// split), so the 15-row window, which has no lane window of a fully valid tile, is refused.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @tile_get_odd_region(%x: !pto.tensor<15x16xf32>, %q: !pto.tensor<15x16xf32> {pto.out}) -> !pto.tensor<15x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<15x16xf32>) {
      %c0 = arith.constant 0 : index
      // expected-error@+1 {{LowerAutoVectorSplit: pto.tile_get reads an odd split extent (15); the two lanes' windows would overlap. Read an even extent}}
      %g = pto.tile_get %x[0, 0] from %c0 : !pto.tensor<15x16xf32> -> !pto.tile<15x16xf32, vec>
      %q2 = pto.store %g, %q[0, 0] : !pto.tile<15x16xf32, vec>, !pto.tensor<15x16xf32>
      pto.yield %q2 : !pto.tensor<15x16xf32>
    }
    func.return %r : !pto.tensor<15x16xf32>
  }
}
