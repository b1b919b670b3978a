// RUN: pypto-opt %s --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=unsplit report=true}'
// RUN: pypto-opt %s --split-input-file -p 'lower-auto-vector-split{fallback=unsplit remarks=false},expand-mixed-kernel' | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file -p 'lower-auto-vector-split{fallback=unsplit remarks=false},expand-mixed-kernel' | filecheck %s --check-prefixes=CHECK,A5
// RUN: not pypto-opt %s --split-input-file '--lower-auto-vector-split{fallback=error}' 2>&1 | filecheck %s --check-prefix=ERR
// RUN: pypto-opt %s --split-input-file '--lower-auto-vector-split{fallback=unsplit}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: pypto-opt %s --split-input-file '--lower-auto-vector-split{fallback=unsplit remarks=false}' 2>&1 >/dev/null | filecheck %s --check-prefix=QUIET --allow-empty

// The fallback policy (issues 17, 27).  With fallback=error a kernel that cannot be lane-split is a located error
// naming the other policy (ERR); with fallback=unsplit (the default: default_unsplit.mlir) it compiles unsplit —
// pto.split<none>, body untouched — and a remark at the forcing op says why (REMARK; remarks=false, QUIET).
// ExpandMixedKernel expands it as any unsplit mixed kernel: on a2a3 its AIV gets pto.dual_aiv_dispatch (both lanes
// run it, lane 1 replays the handshakes), on a5 one lane runs it.  report=true adds a remark per kernel (func.func).

// A column reduction under UP_DOWN whose result has a run-time valid extent: its lanes' partials cannot be
// combined through the workspace (the other reductions over the split axis are split: cross_lane_reduce.mlir).
// ERR:        fallback.mlir:[[# @LINE + 15]]:5: error: LowerAutoVectorSplit: reduce op 'pto.col_sum' reduces over the split axis (dim 0){{.*}}; or compile the kernel unsplit instead (pto.split<none>, the vector work on one lane): --lower-auto-vector-split{fallback=unsplit}
// REMARK:     fallback.mlir:[[# @LINE + 14]]:5: remark: LowerAutoVectorSplit: kernel 'col_reduce' is compiled unsplit (fallback=unsplit, pto.split<none> instead of pto.split<up_down>) because 'pto.col_sum' here cannot be lane-split: reduce op 'pto.col_sum' reduces over the split axis (dim 0){{.*}}; to reject such a kernel instead: --lower-auto-vector-split{fallback=error}
// QUIET-NOT:  remark
// CHECK-LABEL: func.func @col_reduce_aiv
// CHECK-SAME:  pto.kind = #pto.kind<aiv>, pto.split = #pto.split<none>
// A2A3-SAME:   pto.dual_aiv_dispatch
// A5-NOT:      pto.dual_aiv_dispatch
// CHECK:       %s = pto.col_sum %w : !pto.tile<16x32xf32, vec, valid = [16, ?]> -> !pto.tile<1x32xf32, vec, valid = [1, ?]>
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // expected-remark@+1 {{LowerAutoVectorSplit report: kernel 'col_reduce' falls back to unsplit because of 'pto.col_sum' at}}
  func.func @col_reduce(%qk: !pto.tile<16x32xf32, acc>, %n: index, %out: !pto.tensor<1x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %w = pto.set_validshape %v valid [16, %n] : !pto.tile<16x32xf32, vec> -> !pto.tile<16x32xf32, vec, valid = [16, ?]>
    // expected-remark@+1 {{kernel 'col_reduce' is compiled unsplit (fallback=unsplit, pto.split<none> instead of pto.split<up_down>) because 'pto.col_sum' here cannot be lane-split}}
    %s = pto.col_sum %w : !pto.tile<16x32xf32, vec, valid = [16, ?]> -> !pto.tile<1x32xf32, vec, valid = [1, ?]>
    %o = pto.store %s, %out[0, 0] : !pto.tile<1x32xf32, vec, valid = [1, ?]>, !pto.tensor<1x32xf32>
    func.return
  }
}

// -----

// A position-dependent generator on the split axis (E-GEN: pto.random; pto.ci is split, ci_lane_start.mlir) forces the fallback too; the report also lists the
// kernels that are split and those left alone.
// ERR:        fallback.mlir:[[# @LINE + 12]]:5: error: LowerAutoVectorSplit: automatic split-axis halving of 'pto.random'{{.*}}--lower-auto-vector-split{fallback=unsplit}
// CHECK-LABEL: func.func @generator_aiv
// CHECK-SAME:  pto.split = #pto.split<none>
// CHECK-LABEL: func.func @split_ok_aiv
// CHECK-SAME:  pto.split = #pto.split<up_down>, pto.split_aiv
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // expected-remark@+1 {{kernel 'generator' falls back to unsplit because of 'pto.random'}}
  func.func @generator(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<16x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %c0 = arith.constant 0 : i32
    // expected-remark@+1 {{because 'pto.random' here cannot be lane-split: automatic split-axis halving of 'pto.random' is not supported}}
    %i = pto.random %c0 : i32 -> !pto.tile<16x32xf32, vec>
    %s = pto.add %v, %i : !pto.tile<16x32xf32, vec>
    %o = pto.store %s, %out[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>
    func.return
  }
  // expected-remark@+1 {{LowerAutoVectorSplit report: kernel 'split_ok' is lane-split up_down (box partition)}}
  func.func @split_ok(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<16x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %o = pto.store %v, %out[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>
    func.return
  }
  // expected-remark@+1 {{LowerAutoVectorSplit report: kernel 'not_split' is left alone: no split requested}}
  func.func @not_split(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<16x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>} {
    %v = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %o = pto.store %v, %out[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>
    func.return
  }
  // expected-remark@+1 {{LowerAutoVectorSplit report: kernel 'pure_vector' is left alone: pto.split<up_down> is requested but the body is not a mixed cube/vector kernel}}
  func.func @pure_vector(%x: !pto.tensor<16x32xf32>, %out: !pto.tensor<16x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.load %x[0, 0] : !pto.tensor<16x32xf32> -> !pto.tile<16x32xf32, vec>
    %o = pto.store %v, %out[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>
    func.return
  }
}
