// RUN: pypto-opt %s -p 'lower-auto-vector-split,expand-mixed-kernel' | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir -p 'lower-auto-vector-split,expand-mixed-kernel' | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-opt %s '--lower-auto-vector-split{report=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REPORT
// RUN: pypto-opt %t.a5.mlir '--lower-auto-vector-split{report=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REPORT
// RUN: pypto-opt %s '--lower-auto-vector-split{split-policy=always}' | filecheck %s --check-prefix=ALWAYS
// RUN: pypto-opt %s '--lower-auto-vector-split{fallback=error}' | filecheck %s --check-prefix=ALWAYS
// RUN: pypto-run --quiet --entry small --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry small --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry heavy --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry heavy --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir

// Split only when it pays (issue 43 part 4, the default split-policy=pays): a column sum over the up_down split
// axis splits with one cross-lane combine (a float sum: each lane's half of the source through a GM workspace between
// lane barriers, then both lanes sum the whole source in the unsplit order), so
// the pass times the split and the unsplit kernel (each through ExpandMixedKernel, its Group run and replayed by
// the timing model) and keeps the faster.  @small: the round trip costs more than half a 16x32 sum saves, so
// the kernel stays unsplit (pto.split<none>, the body as written).  @heavy: seven exps on 64x128 first, halved
// on the lanes, pay for it: split.  split-policy=always and fallback=error (the split as a contract) split both
// without timing (ALWAYS).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @small_aiv
  // CHECK-SAME:  pto.split = #pto.split<none>
  // A2A3-SAME:   pto.dual_aiv_dispatch
  // A5-NOT:      pto.dual_aiv_dispatch
  // CHECK:       pto.col_sum {{.*}} : !pto.tile<16x32xf32, vec> -> !pto.tile<1x32xf32, vec>
  // CHECK-NOT:   pto.lane_barrier
  // CHECK-LABEL: func.func @small
  // REPORT:      remark: LowerAutoVectorSplit report: kernel 'small' is compiled unsplit: the split needs 1 cross-lane combine and is slower: modelled {{[0-9]+}} cycles split, {{[0-9]+}} unsplit
  // ALWAYS-LABEL: func.func @small
  // ALWAYS-SAME:  pto.split = #pto.split<up_down>, pto.split_aiv
  // ALWAYS:       pto.lane_barrier
  func.func @small(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<1x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %s = pto.col_sum %v : !pto.tile<16x32xf32, vec> -> !pto.tile<1x32xf32, vec>
    %o = pto.store %s, %out[0, 0] : !pto.tile<1x32xf32, vec>, !pto.tensor<1x32xf32>
    func.return
  }

  // CHECK-LABEL: func.func @heavy_aiv
  // CHECK-SAME:  pto.split = #pto.split<up_down>, pto.split_aiv
  // CHECK:       pto.exp {{.*}} : !pto.tile<32x128xf32, vec>
  // CHECK:       pto.lane_barrier
  // CHECK:       pto.col_sum {{.*}} : !pto.tile<64x128xf32, vec> -> !pto.tile<1x128xf32, vec>
  // REPORT:      remark: LowerAutoVectorSplit report: kernel 'heavy' is lane-split up_down (box partition), 1 reduction(s) combined across the lanes; the split needs 1 cross-lane combine and still pays: modelled {{[0-9]+}} cycles split, {{[0-9]+}} unsplit
  // ALWAYS-LABEL: func.func @heavy
  // ALWAYS-SAME:  pto.split = #pto.split<up_down>, pto.split_aiv
  func.func @heavy(%qk: !pto.tile<64x128xf32, acc>, %out: !pto.tensor<1x128xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
    %e = pto.exp %v : !pto.tile<64x128xf32, vec>
    %f = pto.exp %e : !pto.tile<64x128xf32, vec>
    %g = pto.exp %f : !pto.tile<64x128xf32, vec>
    %g2 = pto.exp %g : !pto.tile<64x128xf32, vec>
    %g3 = pto.exp %g2 : !pto.tile<64x128xf32, vec>
    %g4 = pto.exp %g3 : !pto.tile<64x128xf32, vec>
    %h = pto.exp %g4 : !pto.tile<64x128xf32, vec>
    %s = pto.col_sum %h : !pto.tile<64x128xf32, vec> -> !pto.tile<1x128xf32, vec>
    %o = pto.store %s, %out[0, 0] : !pto.tile<1x128xf32, vec>, !pto.tensor<1x128xf32>
    func.return
  }
}
