// RUN: pypto-opt %s --split-input-file --verify-diagnostics --expand-mixed-kernel
// RUN: pypto-opt %s --split-input-file --verify-diagnostics --insert-gm-fences
// RUN: pypto-opt %s --split-input-file --verify-diagnostics --split-mixed-kernel
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics --expand-mixed-kernel
// RUN: pypto-opt %s --split-input-file --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// (These are input checks of the pass: its first phase, --insert-gm-fences, makes them, and --split-mixed-kernel
// makes them too when run alone; the messages are the same.)

// ExpandMixedKernel requires a mixed kernel with a split mode in the per-lane form LowerAutoVectorSplit gives it
// (`pto.split_aiv`). Run alone on the source form, the pass rejects the kernel at its func.func, naming the
// skipped step: split as it is, the AIV half would carry neither pto.split_aiv nor pto.dual_aiv_dispatch, so on
// a2a3 lane 1 would repeat lane 0's transfers and stores, and on a5 the split would be dropped silently.
// With LowerAutoVectorSplit first (the last two RUN lines), the same kernels expand into two real lanes.

// A full-width AUTO kernel (a C->V pto.move).
// CHECK-LABEL: func.func @full_width_aiv(
// CHECK-SAME:  pto.split = #pto.split<up_down>, pto.split_aiv
// CHECK:       pto.tpop_from_aic {split = 1 : i64} : !pto.tile<8x128xf32, vec>
// CHECK-LABEL: func.func @full_width(
// CHECK-SAME:  pto.kind = #pto.kind<group>
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // expected-error@+1 {{ExpandMixedKernel: kernel '@full_width' requests pto.split<up_down> but has not been lowered to the per-lane form (it has no pto.split_aiv): LowerAutoVectorSplit must run first, so run --lower-auto-vector-split before --expand-mixed-kernel}}
  func.func @full_width(%q: !pto.tensor<16x128xf32>, %w: !pto.tensor<128x128xf32>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %qm = pto.load %q[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, mat>
    %wm = pto.load %w[0, 0] : !pto.tensor<128x128xf32> -> !pto.tile<128x128xf32, mat>
    %l = pto.move %qm : !pto.tile<16x128xf32, mat> -> !pto.tile<16x128xf32, left>
    %r = pto.move %wm : !pto.tile<128x128xf32, mat> -> !pto.tile<128x128xf32, right>
    %c = pto.matmul %l, %r : !pto.tile<16x128xf32, left>, !pto.tile<128x128xf32, right> -> !pto.tile<16x128xf32, acc>
    %v = pto.move %c : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %e = pto.exp %v : !pto.tile<16x128xf32, vec>
    %o2 = pto.store %e, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %o2 : !pto.tensor<16x128xf32>
  }
}

// -----

// A left_right kernel with hand-written per-lane code (a C->V shard, the store offset by the lane) but no
// pto.split_aiv: still the source form, which LowerAutoVectorSplit takes as it is and marks.
// CHECK-LABEL: func.func @shard_aiv(
// CHECK-SAME:  pto.split = #pto.split<left_right>, pto.split_aiv
// CHECK:       %h = pto.tpop_from_aic {split = 2 : i64} : !pto.tile<16x8xf32, vec>
// CHECK:       pto.store %h, %o[0, %col]
// A2A3-NOT:    pto.dual_aiv_dispatch
// A5-NOT:      pto.dual_aiv_dispatch
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // expected-error@+1 {{ExpandMixedKernel: kernel '@shard' requests pto.split<left_right> but has not been lowered}}
  func.func @shard(%q: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %qm = pto.load %q[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %h = pto.aiv_shard %qm {split = 2 : i64} : !pto.tile<16x16xf32, mat> -> !pto.tile<16x8xf32, vec>
    %lane = pto.get_subblock_idx : index
    %c8 = arith.constant 8 : index
    %col = arith.muli %lane, %c8 : index
    %o2 = pto.store %h, %o[0, %col] : !pto.tile<16x8xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
}
