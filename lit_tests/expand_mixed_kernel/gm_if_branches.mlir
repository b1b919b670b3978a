// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// The printed output, parsed again, passes the MixedKernelExpanded verifier, and the split keeps the results:
// RUN: pypto-opt %s --expand-mixed-kernel | pypto-opt --verify-mixed-kernel-expanded > /dev/null
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | pypto-opt --verify-mixed-kernel-expanded > /dev/null
// RUN: pypto-run --quiet --check-pipeline expand-mixed-kernel %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline expand-mixed-kernel -

// A GM dependence between the two branches of one scf.if inside a loop (analysis/hazards.py: loop-carried
// both ways), fenced by the pass and accepted by the MixedKernelExpanded verifier
// (verifier_gm.mlir has the same output with a fence removed, rejected).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // The cube stores %ws in the then-branch, the vector side loads it in the else-branch: no order within an
  // iteration, but the load of a later iteration must see the store (carried RAW, C->V) and the store of a later
  // iteration must wait for the load (carried WAR, V->C).  Both fences sit in the loop body after the if.  Each
  // side keeps its own copy of the if; the verifier pairs the two copies by their condition (the same
  // `arith.cmpi` of the loop index on both sides), so it sees the two branches of one if, ordered across
  // iterations only.  Before, it named an if without a transfer by the op itself and rejected this output.
  // CHECK-LABEL: func.func @k_aic(
  // CHECK:        scf.for %i
  // CHECK:          %even = arith.cmpi ult, %i, %c2 : index
  // CHECK-NEXT:     %o2 = scf.if %even
  // CHECK:            %s1 = pto.store %y0, %ws[0, 0]
  // CHECK:          } else {
  // CHECK-NEXT:       scf.yield %o
  // CHECK-NEXT:     }
  // CHECK-NEXT:     %gm_token = pto.create : !pto.tile<16x16xf32, acc>
  // CHECK-NEXT:     %ws_gm_sync = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x16xf32, mat>
  // CHECK-NEXT:     pto.tfree_to_aiv %ws_gm_sync
  // CHECK-NEXT:     pto.tpush_to_aiv %gm_token {split = 0 : i64} : !pto.tile<16x16xf32, acc>
  // CHECK-NEXT:     scf.yield %o2
  // CHECK-LABEL: func.func @k_aiv(
  // CHECK:        scf.for %i
  // CHECK:          %even = arith.cmpi ult, %i, %c2 : index
  // CHECK-NEXT:     %o2 = scf.if %even
  // CHECK-NEXT:       scf.yield %o
  // CHECK-NEXT:     } else {
  // CHECK-NEXT:       %v = pto.load %ws[0, 0]
  // CHECK:          }
  // CHECK-NEXT:     %gm_token = pto.create : !pto.tile<16x16xf32, vec>
  // A2A3-NEXT:      pto.tpush_to_aic %gm_token {split = 0 : i64} : !pto.tile<16x16xf32, vec>
  // A5-NEXT:        %gm_token_nz = pto.move %gm_token
  // A5-NEXT:        pto.tpush_to_aic %gm_token_nz {split = 0 : i64}
  // CHECK-NEXT:     %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:     pto.tfree_to_aic %ws_gm_sync
  // CHECK-NEXT:     scf.yield %o2
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
    %res = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %out) -> (!pto.tensor<64x16xf32>) {
      %r = arith.muli %i, %c16 : index
      %even = arith.cmpi ult, %i, %c2 : index
      %o2 = scf.if %even -> (!pto.tensor<64x16xf32>) {
        %xm0 = pto.load %x[%r, 0] : !pto.tensor<64x16xbf16> -> !pto.tile<16x16xbf16, mat>
        %xl0 = pto.move %xm0 : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, left>
        %y0 = pto.matmul %xl0, %wr : !pto.tile<16x16xbf16, left>, !pto.tile<16x16xbf16, right> -> !pto.tile<16x16xf32, acc>
        %s1 = pto.store %y0, %ws[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
        scf.yield %o : !pto.tensor<64x16xf32>
      } else {
        %v = pto.load %ws[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
        %o3 = pto.store %v, %o[%r, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<64x16xf32>
        scf.yield %o3 : !pto.tensor<64x16xf32>
      }
      scf.yield %o2 : !pto.tensor<64x16xf32>
    }
    func.return %res : !pto.tensor<64x16xf32>
  }
  // CHECK-LABEL: func.func @main(
  func.func @main(%x: !pto.tensor<64x16xbf16>, %w: !pto.tensor<16x16xbf16>, %ws: !pto.tensor<16x16xf32>, %dst: !pto.tensor<16x16xf32>) -> (!pto.tensor<64x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<64x16xf32>
    %r = func.call @k(%x, %w, %ws, %dst, %out) : (!pto.tensor<64x16xbf16>, !pto.tensor<16x16xbf16>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<64x16xf32>) -> !pto.tensor<64x16xf32>
    func.return %r, %ws, %dst : !pto.tensor<64x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
  }
}
