// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-run --quiet --check-pipeline expand-mixed-kernel %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline expand-mixed-kernel -
// RUN: sed 's/incore>}/incore>, pto.split = #pto.split<up_down>}/' %s | pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel -
// RUN: sed -e 's/a2a3/a5/' -e 's/incore>}/incore>, pto.split = #pto.split<left_right>}/' %s | pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel -

// Communication ops write GM (this device's or a peer's) and declare unknown effects (dialects/pto_comm_ops.py),
// so the split's DCE (passes/expand_mixed_kernel/repair.py, which asks each op's effects) keeps them even when
// their result is never read; and a pto.notify (no-duplicate) stays on the AIV only when the kernel also has a
// GM exchange, after whose fences the pass recomputes the placement (pass_.py, placement_of).  The programs run
// before and after the pass: a dropped copy leaves its destination zero, a duplicated notify leaves 2 in %sig.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // tensor_get / tensor_put / tile_put with unused results: none is on the cube side, all three stay on the AIV.
  // CHECK-LABEL: func.func @unused_copies_aic
  // CHECK-NOT:   pto.tensor_get
  // CHECK-NOT:   pto.tensor_put
  // CHECK-NOT:   pto.tile_put
  // CHECK:       pto.tpush_to_aiv %c {split = 0 : i64} : !pto.tile<8x16xf32, acc>
  // CHECK-NEXT:  func.return
  // CHECK-LABEL: func.func @unused_copies_aiv
  // A2A3-SAME:   pto.dual_aiv_dispatch
  // A5-NOT:      pto.dual_aiv_dispatch
  // CHECK:       %g = pto.tensor_get %in, %got from %peer : !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>
  // CHECK-NEXT:  %p = pto.tensor_put %in, %put to %peer : !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>
  // CHECK-NEXT:  %v = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %t = pto.tile_put %v, %tp[0, 0] to %peer : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
  // CHECK-NEXT:  %o = pto.store %v, %out[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
  // CHECK:       func.return %o
  func.func @unused_copies(%a: !pto.tensor<8x16xbf16>, %w: !pto.tensor<16x16xbf16>, %out: !pto.tensor<8x16xf32> {pto.out},
               %in: !pto.tensor<8x16xf32>, %got: !pto.tensor<8x16xf32> {pto.out}, %put: !pto.tensor<8x16xf32> {pto.out},
               %tp: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %peer = arith.constant 0 : index
    %g = pto.tensor_get %in, %got from %peer : !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>
    %p = pto.tensor_put %in, %put to %peer : !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>
    %am = pto.load %a[0, 0] : !pto.tensor<8x16xbf16> -> !pto.tile<8x16xbf16, mat>
    %al = pto.move %am : !pto.tile<8x16xbf16, mat> -> !pto.tile<8x16xbf16, left>
    %wm = pto.load %w[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %wr = pto.move %wm : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, right>
    %c = pto.matmul %al, %wr : !pto.tile<8x16xbf16, left>, !pto.tile<16x16xbf16, right> -> !pto.tile<8x16xf32, acc>
    %v = pto.move %c : !pto.tile<8x16xf32, acc> -> !pto.tile<8x16xf32, vec>
    %t = pto.tile_put %v, %tp[0, 0] to %peer : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    %o = pto.store %v, %out[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    func.return %o : !pto.tensor<8x16xf32>
  }
  // The GM exchange through %scratch is fenced (a tpush/tpop of the stored tile), then the placement is
  // recomputed: both notifies (one in a loop) are on the AIV only, after the fence.
  // CHECK-LABEL: func.func @notify_after_fence_aic
  // CHECK:       %s = pto.store %c, %scratch[0, 0]
  // CHECK-NOT:   pto.notify
  // CHECK:       func.return
  // CHECK-LABEL: func.func @notify_after_fence_aiv
  // CHECK:       %scratch_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  pto.tfree_to_aic %scratch_gm_sync
  // CHECK:       pto.notify %sig[1] to %peer : !pto.tensor<2xi32>
  // CHECK:       scf.for
  // CHECK-NEXT:    pto.notify %sig[0] to %peer : !pto.tensor<2xi32>
  // CHECK:       func.return %o
  // CHECK-LABEL: func.func @notify_after_fence(
  // CHECK-NOT:   pto.notify
  // CHECK:       func.return
  func.func @notify_after_fence(%a: !pto.tensor<8x16xbf16>, %w: !pto.tensor<16x16xbf16>, %out: !pto.tensor<8x16xf32> {pto.out},
               %sig: !pto.tensor<2xi32> {pto.inout}, %scratch: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %am = pto.load %a[0, 0] : !pto.tensor<8x16xbf16> -> !pto.tile<8x16xbf16, mat>
    %al = pto.move %am : !pto.tile<8x16xbf16, mat> -> !pto.tile<8x16xbf16, left>
    %wm = pto.load %w[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %wr = pto.move %wm : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, right>
    %c = pto.matmul %al, %wr : !pto.tile<8x16xbf16, left>, !pto.tile<16x16xbf16, right> -> !pto.tile<8x16xf32, acc>
    %s = pto.store %c, %scratch[0, 0] : !pto.tile<8x16xf32, acc>, !pto.tensor<8x16xf32>
    %v = pto.load %s[0, 0] : !pto.tensor<8x16xf32> -> !pto.tile<8x16xf32, vec>
    %o = pto.store %v, %out[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    %peer = arith.constant 0 : index
    pto.notify %sig[1] to %peer : !pto.tensor<2xi32>
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %c2 step %c1 {
      pto.notify %sig[0] to %peer : !pto.tensor<2xi32>
    }
    func.return %o : !pto.tensor<8x16xf32>
  }
  func.func @main(%a: !pto.tensor<8x16xbf16>, %w: !pto.tensor<16x16xbf16>, %in: !pto.tensor<8x16xf32>)
      -> (!pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>, !pto.tensor<2xi32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<8x16xf32>
    %got = pto.create_tensor : !pto.tensor<8x16xf32>
    %put = pto.create_tensor : !pto.tensor<8x16xf32>
    %tp = pto.create_tensor : !pto.tensor<8x16xf32>
    %r = func.call @unused_copies(%a, %w, %out, %in, %got, %put, %tp) : (!pto.tensor<8x16xbf16>, !pto.tensor<16x16xbf16>, !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>) -> !pto.tensor<8x16xf32>
    %out2 = pto.create_tensor : !pto.tensor<8x16xf32>
    %sig = pto.create_tensor : !pto.tensor<2xi32>
    %scratch = pto.create_tensor : !pto.tensor<8x16xf32>
    %r2 = func.call @notify_after_fence(%a, %w, %out2, %sig, %scratch) : (!pto.tensor<8x16xbf16>, !pto.tensor<16x16xbf16>, !pto.tensor<8x16xf32>, !pto.tensor<2xi32>, !pto.tensor<8x16xf32>) -> !pto.tensor<8x16xf32>
    func.return %r, %got, %put, %tp, %r2, %sig : !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>, !pto.tensor<2xi32>
  }
}
