// RUN: pypto-opt %s --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'

// Still refused beside singleton_lane_parts.mlir, on both targets: a [1, N] vec *parameter* meeting a singleton
// shard.  A value computed in the kernel gives the shard's lane part; a full-width parameter is never lane-sliced
// (as for any split extent: reference_pr2585_fullwidth_reshape_gather.mlir).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @singleton_param(%qk: !pto.tile<1x32xf32, acc>, %p: !pto.tile<1x32xf32, vec>, %out: !pto.tensor<1x32xf32> {pto.out}) -> !pto.tensor<1x32xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<1x32xf32, acc> -> !pto.tile<1x32xf32, vec>
    // expected-error@+1 {{LowerAutoVectorSplit: 'pto.add' cannot be halved along the split axis: its operand(s) 's' are per-lane halves but 'p' stay full width}}
    %a = pto.add %s, %p : !pto.tile<1x32xf32, vec>
    %o = pto.store %a, %out[0, 0] : !pto.tile<1x32xf32, vec>, !pto.tensor<1x32xf32>
    func.return %o : !pto.tensor<1x32xf32>
  }
}
