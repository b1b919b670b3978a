// RUN: pypto-opt %s --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'
// RUN: not pypto-opt %s --split-input-file --expand-mixed-kernel 2>&1 | filecheck %s --check-prefix=EMK

// `#pto.split<auto>` under fallback=error (issue 43 part 3): a kernel that splits on neither axis is a located
// error at the op that stops up_down, giving both axes' reasons, with a note at the op that stops left_right.
// A row and a column reduction of the same tile: col_sum reduces over up_down's axis, row_sum over left_right's.
// EMK: split_auto_errors.mlir:[[# @LINE + 2]]:3: error: ExpandMixedKernel: kernel '@neither' requests pto.split<auto> but has not been lowered to the per-lane form (it has no pto.split_aiv): LowerAutoVectorSplit must run first
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @neither(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<16x1xf32> {pto.out},
                     %out2: !pto.tensor<1x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<auto>} {
    %v = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    // expected-note@+1 {{left_right cannot be lane-split here: reduce op 'pto.row_sum' reduces on the split axis (dim 1)}}
    %r = pto.row_sum %v : !pto.tile<16x32xf32, vec> -> !pto.tile<16x1xf32, vec>
    // expected-error@+1 {{LowerAutoVectorSplit: kernel 'neither' requests pto.split<auto>, but neither axis can be lane-split: up_down: 'pto.col_sum' at}}
    %c = pto.col_sum %v : !pto.tile<16x32xf32, vec> -> !pto.tile<1x32xf32, vec>
    %o = pto.store %r, %out[0, 0] : !pto.tile<16x1xf32, vec>, !pto.tensor<16x1xf32>
    %o2 = pto.store %c, %out2[0, 0] : !pto.tile<1x32xf32, vec>, !pto.tensor<1x32xf32>
    func.return
  }
}

// -----

// The same under the default fallback=unsplit is a kernel compiled unsplit (split_auto.mlir); a split_aiv_scope
// region states its own mode: `auto` is a kernel's request only.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @region(%x: !pto.tensor<16x32xf32>)
      attributes {pto.kind = #pto.kind<incore>} {
    // expected-error@+1 {{split_aiv_scope mode 'auto' is a kernel's request, not a region's mode}}
    "pto.split_aiv_scope"() ({
    ^bb0(%aiv_id: index):
      "pto.yield"() : () -> ()
    }) {mode = #pto.split<auto>} : () -> ()
    func.return
  }
}
