// RUN: pypto-opt %s --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'
// RUN: not pypto-opt %s --split-input-file --expand-mixed-kernel 2>&1 | filecheck %s --check-prefix=EMK

// `#pto.split<auto>` under fallback=error (issue 43 part 3): a kernel that splits on neither axis is a located
// error at the op that stops up_down, giving both axes' reasons, with a note at the op that stops left_right.
// A random column (it spans up_down's axis) and a random row (left_right's): neither axis splits.
// EMK: split_auto_errors.mlir:[[# @LINE + 2]]:3: error: ExpandMixedKernel: kernel '@neither' requests pto.split<auto> but has not been lowered to the per-lane form (it has no pto.split_aiv): LowerAutoVectorSplit must run first
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @neither(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<16x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<auto>} {
    %v = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %c0 = arith.constant 0 : i32
    // expected-error@+1 {{LowerAutoVectorSplit: kernel 'neither' requests pto.split<auto>, but neither axis can be lane-split: up_down: 'pto.random' at}}
    %col = pto.random %c0 : i32 -> !pto.tile<16x1xf32, vec>
    %a = pto.row_expand_add %v, %col : !pto.tile<16x32xf32, vec>, !pto.tile<16x1xf32, vec>
    // expected-note@+1 {{left_right cannot be lane-split here: automatic split-axis halving of 'pto.random' is not supported}}
    %row = pto.random %c0 : i32 -> !pto.tile<1x32xf32, vec>
    %b = pto.col_expand_add %a, %row : !pto.tile<16x32xf32, vec>, !pto.tile<1x32xf32, vec>
    %o = pto.store %b, %out[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>
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
