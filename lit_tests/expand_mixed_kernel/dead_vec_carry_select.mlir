// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s | filecheck %s --check-prefix=EXEC
// RUN: sed 's/a2a3/a5/' %s | pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel - | filecheck %s --check-prefix=EXEC

// A vec loop carry whose init is a generator LowerAutoVectorSplit narrows per lane (13 of 16 rows, lane_stride 7:
// `pto.full` of the lane's box and a `pto.set_validshape` to the lane extent computed from %subblock_idx), and an
// scf.if after the loop that selects between the init and the loop's result.  On the AIC every consumer of the
// selection is pruned (the store is vector), but the scf.if itself, a region op, used to survive DCE and keep
// the loop's vec carry alive, so the AIC re-created the carry's init chain and read %subblock_idx, which exists
// on the AIV only ("%subblock_idx is computed only on the AIV (vector) side"). ExpandMixedKernel's DCE now
// erases an scf.if whose results are unused and whose branches have no effects; the carry is then dead on
// the AIC and stripped, and its init chain with it.  The AIV keeps the narrowed init, the carry and the if.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @select_after(%q: !pto.tensor<16x64xf32>, %o: !pto.tensor<16x64xf32> {pto.out}) -> !pto.tensor<16x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %zero = arith.constant 0.0 : f32
    %init = pto.full %zero : f32 -> !pto.tile<16x64xf32, vec, valid = [13, 64]>
    %acc = scf.for %kk = %c0 to %c2 step %c1 iter_args(%sum = %init) -> (!pto.tile<16x64xf32, vec, valid = [13, 64]>) {
      %qm = pto.load %q[0, 0] valid [13, 64] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, mat, valid = [13, 64]>
      %qv = pto.move %qm : !pto.tile<16x64xf32, mat, valid = [13, 64]> -> !pto.tile<16x64xf32, vec, valid = [13, 64]>
      %s = pto.add %sum, %qv : !pto.tile<16x64xf32, vec, valid = [13, 64]>
      scf.yield %s : !pto.tile<16x64xf32, vec, valid = [13, 64]>
    }
    %never = arith.cmpi slt, %c2, %c1 : index
    %sel = scf.if %never -> (!pto.tile<16x64xf32, vec, valid = [13, 64]>) {
      scf.yield %init : !pto.tile<16x64xf32, vec, valid = [13, 64]>
    } else {
      scf.yield %acc : !pto.tile<16x64xf32, vec, valid = [13, 64]>
    }
    %o2 = pto.store %sel, %o[0, 0] : !pto.tile<16x64xf32, vec, valid = [13, 64]>, !pto.tensor<16x64xf32>
    func.return %o2 : !pto.tensor<16x64xf32>
  }
}

// The AIC: the loop keeps its cube work (the load and the push of the ragged C->V move) and no carry; no lane
// id, no generator, no scf.if.
// CHECK-LABEL: func.func @select_after_aic(
// A2A3-SAME: pto.kind = #pto.kind<aic>
// A5-SAME: pto.kind = #pto.kind<aic>
// CHECK-NOT: pto.get_subblock_idx
// CHECK-NOT: pto.full
// CHECK: scf.for %kk = %c0 to %c2 step %c1 {
// CHECK-NEXT: %qm = pto.load %q[0, 0] valid [13, 64]
// CHECK-NEXT: pto.tpush_to_aiv %qm {split = 3 : i64, lane_stride = 7 : i64}
// CHECK-NEXT: }
// CHECK-NOT: scf.if
// CHECK: func.return
// CHECK-NEXT: }

// The AIV: the lane's narrowed init carried through the loop and selected by the scf.if, as LowerAutoVectorSplit
// made it.
// CHECK-LABEL: func.func @select_after_aiv(
// CHECK: %subblock_idx = pto.get_subblock_idx : index
// CHECK: %init_box = pto.full %zero : f32 -> !pto.tile<8x64xf32, vec>
// CHECK-NEXT: %init = pto.set_validshape %init_box valid [%{{.*}}, 64] : !pto.tile<8x64xf32, vec> -> !pto.tile<8x64xf32, vec, valid = [?, 64]>
// CHECK-NEXT: %acc = scf.for %kk = %c0 to %c2 step %c1 iter_args(%sum = %init) -> (!pto.tile<8x64xf32, vec, valid = [?, 64]>) {
// CHECK: %s = pto.add %sum, %qv
// CHECK: %sel = scf.if %never -> (!pto.tile<8x64xf32, vec, valid = [?, 64]>) {
// CHECK-NEXT: scf.yield %init
// CHECK: scf.yield %acc
// CHECK: pto.store %sel, %o[%{{.*}}, 0]
// CHECK-LABEL: func.func @select_after(
// CHECK-SAME: pto.kind = #pto.kind<group>

// EXEC: check of pipeline 'lower-auto-vector-split,expand-mixed-kernel' passed
