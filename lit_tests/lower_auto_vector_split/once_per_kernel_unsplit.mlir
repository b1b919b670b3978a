// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel 2>/dev/null | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir --lower-auto-vector-split --expand-mixed-kernel 2>/dev/null | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir

// Issue 40, class 1, the unsplit paths: a kernel the split falls back from (fallback=unsplit, the default: a
// random tile spanning the up_down split axis, E-GEN; a column sum over the split axis alone is split now, its
// lanes' partials combined, issue 43) keeps its atomic store, tensor_put and notify as written, unguarded.
// On a2a3 its AIV half gets pto.dual_aiv_dispatch: both lanes run it, and lane 1 replays the handshakes only (its
// stores, puts and notifies are suppressed: docs/expand-mixed-kernel-protocol.md), so each effect happens once;
// on a5 it runs on one lane.  Checked by execution on both targets (outputs start at zero).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @fallen_back_aiv
  // A2A3-SAME:   pto.dual_aiv_dispatch
  // A5-NOT:      pto.dual_aiv_dispatch
  // CHECK-NOT:   scf.if
  // CHECK:       %o = pto.store %cs, %out[0, 0] {atomic = 1 : i64} : !pto.tile<1x16xf32, vec>, !pto.tensor<1x16xf32>
  // CHECK-NEXT:  %d = pto.tensor_put %src, %dst to %peer : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
  // CHECK-NEXT:  pto.notify %sig[0] to %peer : !pto.tensor<2xi32>
  func.func @fallen_back(%qk: !pto.tile<16x16xf32, acc>, %out: !pto.tensor<1x16xf32> {pto.inout}, %src: !pto.tensor<16x16xf32>,
                         %dst: !pto.tensor<16x16xf32> {pto.inout}, %sig: !pto.tensor<2xi32> {pto.inout}, %peer: index)
      -> (!pto.tensor<1x16xf32>, !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %c0 = arith.constant 0 : i32
    %g = pto.random %c0 : i32 -> !pto.tile<16x16xf32, vec>
    %w = pto.add %v, %g : !pto.tile<16x16xf32, vec>
    %cs = pto.col_sum %w : !pto.tile<16x16xf32, vec> -> !pto.tile<1x16xf32, vec>
    %o = pto.store %cs, %out[0, 0] {atomic = 1 : i64} : !pto.tile<1x16xf32, vec>, !pto.tensor<1x16xf32>
    %d = pto.tensor_put %src, %dst to %peer : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
    pto.notify %sig[0] to %peer : !pto.tensor<2xi32>
    func.return %o, %d : !pto.tensor<1x16xf32>, !pto.tensor<16x16xf32>
  }
  func.func @main(%x: !pto.tensor<16x16xf32>, %src: !pto.tensor<16x16xf32>) -> (!pto.tensor<1x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<2xi32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<1x16xf32>
    %dst = pto.create_tensor : !pto.tensor<16x16xf32>
    %sig = pto.create_tensor : !pto.tensor<2xi32>
    %peer = arith.constant 0 : index
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, acc>
    %r:2 = func.call @fallen_back(%xm, %out, %src, %dst, %sig, %peer) : (!pto.tile<16x16xf32, acc>, !pto.tensor<1x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<2xi32>, index) -> (!pto.tensor<1x16xf32>, !pto.tensor<16x16xf32>)
    func.return %r#0, %r#1, %sig : !pto.tensor<1x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<2xi32>
  }
}
