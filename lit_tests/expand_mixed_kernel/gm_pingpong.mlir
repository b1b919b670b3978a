// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-run --quiet --check-pipeline expand-mixed-kernel %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline expand-mixed-kernel -
// RUN: sed 's/incore>}/incore>, pto.split = #pto.split<up_down>}/' %s | pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel -

// Ping-pong scratch tensors rotated through iter_args: the cube stores into %a, the vector side loads %b, and the
// yield swaps them (%b, store-result-of-%a).  On the AIV the store is pruned; its result is its destination %a
// (repair.py, forward_pruned_store_yields), so the AIV loop keeps rotating (yield %b, %a) instead of freezing %b
// with an identity yield and reading one buffer forever.  Executed before and after: a frozen rotation makes
// the AIV read %dst in every iteration and the output differs.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @k_aic(
  // CHECK:       scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %ws, %b = %dst)
  // CHECK:         %s1 = pto.store %y0, %a[0, 0]
  // CHECK:         scf.yield %b, %s1 : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
  // CHECK-LABEL: func.func @k_aiv(
  // A2A3-SAME:   pto.dual_aiv_dispatch
  // A5-NOT:      pto.dual_aiv_dispatch
  // CHECK:       scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %out, %a = %ws, %b = %dst)
  // CHECK:         %v = pto.load %b[0, 0]
  // CHECK:         scf.yield %o2, %b, %a : !pto.tensor<64x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
  func.func @k(%x: !pto.tensor<64x16xbf16>, %w: !pto.tensor<16x16xbf16>, %ws: !pto.tensor<16x16xf32> {pto.inout}, %dst: !pto.tensor<16x16xf32> {pto.inout},
               %out: !pto.tensor<64x16xf32> {pto.out}) -> !pto.tensor<64x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c5 = arith.constant 5 : index
    %wm = pto.load %w[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %wr = pto.move %wm : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, right>
    %f0 = arith.constant 0.0 : f32
    %res:3 = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %out, %a = %ws, %b = %dst) -> (!pto.tensor<64x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) {
      %r = arith.muli %i, %c16 : index
      %xm0 = pto.load %x[%r, 0] : !pto.tensor<64x16xbf16> -> !pto.tile<16x16xbf16, mat>
      %xl0 = pto.move %xm0 : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, left>
      %y0 = pto.matmul %xl0, %wr : !pto.tile<16x16xbf16, left>, !pto.tile<16x16xbf16, right> -> !pto.tile<16x16xf32, acc>
      %s1 = pto.store %y0, %a[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
      %v = pto.load %b[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
      %o2 = pto.store %v, %o[%r, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<64x16xf32>
      scf.yield %o2, %b, %s1 : !pto.tensor<64x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
    }
    func.return %res#0 : !pto.tensor<64x16xf32>
  }
  func.func @main(%x: !pto.tensor<64x16xbf16>, %w: !pto.tensor<16x16xbf16>, %ws: !pto.tensor<16x16xf32>, %dst: !pto.tensor<16x16xf32>) -> (!pto.tensor<64x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<64x16xf32>
    %r = func.call @k(%x, %w, %ws, %dst, %out) : (!pto.tensor<64x16xbf16>, !pto.tensor<16x16xbf16>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<64x16xf32>) -> !pto.tensor<64x16xf32>
    func.return %r, %ws, %dst : !pto.tensor<64x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
  }
}
