// RUN: pypto-opt %s --split-input-file --verify-diagnostics --split-mixed-kernel
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics --split-mixed-kernel
// RUN: not pypto-opt %s --split-input-file --insert-gm-fences --split-mixed-kernel 2>/dev/null | filecheck %s --check-prefix=FENCED

// split-mixed-kernel run alone checks what it expects of its input and says which pass to run first.
// (1) A cross-core GM dependence that no transfer orders: the cube stores %ws and the vector side loads it
// back, but insert-gm-fences has not run; the error is at the first access. With the fence phase first (third
// RUN line; the second module is still rejected there) the same kernel splits. (2) The input checks of the pipeline (checks.py), which insert-gm-fences
// makes in the pipeline, hold here too: a split request not lowered to the per-lane form is rejected at the
// kernel, naming the pass to run first. The same on both targets.
// FENCED-LABEL: func.func @k_aic(
// FENCED:       pto.tpush_to_aiv %y
// FENCED-LABEL: func.func @k_aiv(
// FENCED-NEXT:  %ws_gm_sync = pto.tpop_from_aic
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
               %ws: !pto.tensor<16x128xf32> {pto.inout},
               %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %y = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    // expected-error@+1 {{split-mixed-kernel: the mixed kernel '@k' has a cross-core GM dependence that no transfer orders (RAW: the AIC (cube) 'pto.store' must complete before the AIV (vector) 'pto.load' later in the same iteration), but this phase expects every such dependence fenced; run --insert-gm-fences before --split-mixed-kernel}}
    %ws_1 = pto.store %y, %ws[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    %v = pto.load %ws_1[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %y_vec = pto.move %y : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %s = pto.add %v, %y_vec : !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %s, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
  func.func @main(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<16x128xf32>
    %r = func.call @k(%x, %w, %ws, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // expected-error@+1 {{ExpandMixedKernel: kernel '@u' requests pto.split<up_down> but has not been lowered to the per-lane form (it has no pto.split_aiv): LowerAutoVectorSplit must run first, so run --lower-auto-vector-split before --expand-mixed-kernel}}
  func.func @u(%q: !pto.tensor<16x128xf32>, %w: !pto.tensor<128x128xf32>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %qm = pto.load %q[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, mat>
    %wm = pto.load %w[0, 0] : !pto.tensor<128x128xf32> -> !pto.tile<128x128xf32, mat>
    %l = pto.move %qm : !pto.tile<16x128xf32, mat> -> !pto.tile<16x128xf32, left>
    %r = pto.move %wm : !pto.tile<128x128xf32, mat> -> !pto.tile<128x128xf32, right>
    %c = pto.matmul %l, %r : !pto.tile<16x128xf32, left>, !pto.tile<128x128xf32, right> -> !pto.tile<16x128xf32, acc>
    %v = pto.move %c : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %o2 = pto.store %v, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %o2 : !pto.tensor<16x128xf32>
  }
}
