// RUN: pypto-opt %s --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'

// A per-lane slice of a full-width value must keep both lanes' windows inside the source (issue 14). On an odd
// extent the ceil-half box of lane 1 would overhang by one (the pass used to emit `pto.slice` windows [8, 16) of a
// 15-row tile, which the verifier rejects when written by hand); the lane box cannot be narrower on one lane
// only, so the pass rejects the value with a fix hint.

// A rank-1 scale [15] reshaped to [15, 1] under up_down.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @odd_reshape_up_down(%qk: !pto.tile<16x16xf32, acc>, %x: !pto.tensor<15xf32>,
                                 %out: !pto.tensor<15x1xf32> {pto.out}) -> !pto.tensor<15x1xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %a = pto.load %x[0] : !pto.tensor<15xf32> -> !pto.tile<15xf32, vec>
    // expected-error@+1 {{LowerAutoVectorSplit: the result of this pto.reshape is split into per-lane windows of 8 on dim 0, but lane 1's window [8, 16) lies outside the 15-wide source}}
    %b = pto.reshape %a : !pto.tile<15xf32, vec> -> !pto.tile<15x1xf32, vec>
    %e = pto.exp %b : !pto.tile<15x1xf32, vec>
    %o = pto.store %e, %out[0, 0] : !pto.tile<15x1xf32, vec>, !pto.tensor<15x1xf32>
    func.return %o : !pto.tensor<15x1xf32>
  }
}

// -----

// The same scale reshaped to [1, 31] under left_right.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @odd_reshape_left_right(%qk: !pto.tile<16x16xf32, acc>, %x: !pto.tensor<31xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %a = pto.load %x[0] : !pto.tensor<31xf32> -> !pto.tile<31xf32, vec>
    // expected-error@+1 {{lane 1's window [16, 32) lies outside the 31-wide source}}
    %b = pto.reshape %a : !pto.tile<31xf32, vec> -> !pto.tile<1x31xf32, vec>
    %e = pto.exp %b : !pto.tile<1x31xf32, vec>
    func.return
  }
}

// -----

// A slice of a full-width vec tile whose odd window ends at the source's edge.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @odd_slice_at_edge(%qk: !pto.tile<16x16xf32, acc>, %x: !pto.tile<16x16xf32, vec>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    // expected-error@+1 {{LowerAutoVectorSplit: this pto.slice is split into per-lane windows of 8 on dim 0, but lane 1's window [9, 17) lies outside the 16-wide source}}
    %t = pto.slice %x[1, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<15x16xf32, vec>
    %e = pto.exp %t : !pto.tile<15x16xf32, vec>
    func.return
  }
}

// -----

// An odd window with room below it in the source stays legal: lane 1 reads [8, 16) of the 16-row tile.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @odd_slice_with_room(%qk: !pto.tile<16x16xf32, acc>, %x: !pto.tile<16x16xf32, vec>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %t = pto.slice %x[0, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<15x16xf32, vec>
    %e = pto.exp %t : !pto.tile<15x16xf32, vec>
    func.return
  }
}
