// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-run --quiet --check-pipeline expand-mixed-kernel %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline expand-mixed-kernel -

// Placement of the communication ops when a mixed kernel is split (docs/expand-mixed-kernel.md,
// "Communication ops"): tile_put/tile_get are vector ops (AIV); wait is shared and runs on both sides (the cube
// must not run ahead of the signal either); notify is shared but no-duplicate, so it is placed on the AIV only
// (never on the cube, whose copy could release the peer before the vector side's put has landed) - also inside
// a loop that is copied to both sides.  The program runs before and after the pass on a single device (peer 0):
// a duplicated notify would leave 2 in the signal instead of 1 and fail the check.
// This is the rule of reference compiler PR #2715 (after the version ../shared/spec/expand-mixed-kernel.reference.md
// describes): notify without duplication on the AIV only, wait on both (docs/expand-mixed-kernel.md, "Reference
// rules after the described version"); with an AUTO split, lit_tests/lower_auto_vector_split/comm_ops.mlir.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @exchange_aic
  // CHECK:       pto.wait %sig[0] : !pto.tensor<4xi32>
  // CHECK:       pto.matmul
  // CHECK-NOT:   pto.notify
  // CHECK-NOT:   pto.tile_put
  // CHECK:       pto.tpush_to_aiv %z
  // CHECK-NOT:   pto.notify
  // CHECK:       func.return
  // CHECK-LABEL: func.func @exchange_aiv
  // A2A3-SAME:   pto.dual_aiv_dispatch
  // A5-NOT:      pto.dual_aiv_dispatch
  // CHECK:       pto.wait %sig[0] : !pto.tensor<4xi32>
  // CHECK:       %zv = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:  %o2 = pto.tile_put %zv, %out[0, 0] to %peer : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
  // CHECK:       pto.notify %sig[1] to %peer : !pto.tensor<4xi32>
  // CHECK:       scf.for
  // CHECK:         pto.notify %sig[2] to %peer : !pto.tensor<4xi32>
  // CHECK:       func.return
  func.func @exchange(%x: !pto.tensor<16x16xf32>, %out: !pto.tensor<16x16xf32> {pto.out}, %sig: !pto.tensor<4xi32> {pto.inout},
                      %peer: index) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<incore>} {
    pto.wait %sig[0] : !pto.tensor<4xi32>
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xl = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
    %xr = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, right>
    %z = pto.matmul %xl, %xr : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>
    %zv = pto.move %z : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %o2 = pto.tile_put %zv, %out[0, 0] to %peer : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    pto.notify %sig[1] to %peer : !pto.tensor<4xi32>
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %c3 step %c1 {
      %zz = pto.matmul %xl, %xr : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>
      pto.notify %sig[2] to %peer : !pto.tensor<4xi32>
    }
    func.return %o2 : !pto.tensor<16x16xf32>
  }
  // The orchestration code releases the kernel's wait first, then launches it.
  // CHECK-LABEL: func.func @main
  // CHECK:       pto.notify %sig[0] to %peer : !pto.tensor<4xi32>
  func.func @main(%x: !pto.tensor<16x16xf32>) -> (!pto.tensor<16x16xf32>, !pto.tensor<4xi32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<16x16xf32>
    %sig = pto.create_tensor : !pto.tensor<4xi32>
    %peer = arith.constant 0 : index
    pto.notify %sig[0] to %peer : !pto.tensor<4xi32>
    %r = func.call @exchange(%x, %out, %sig, %peer) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<4xi32>, index) -> !pto.tensor<16x16xf32>
    func.return %r, %sig : !pto.tensor<16x16xf32>, !pto.tensor<4xi32>
  }
}
