// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5

// Cross-core dependences through GM (analysis/hazards.py), one kernel per hazard class of issue 15 and per
// direction: each is fenced by a tpush/tpop handshake on the kernel's pipe, the push right after the first
// access (or the op holding it), the pop as late as possible before the second one.  The reference fences
// none of them (it needs a single cube store followed by a vector load in the same block).  These kernels are
// also run before and after the pass, in both schedule orders, by tests/interpreter/test_interp_pipeline.py.
builtin.module attributes {pto.target = #pto.target<a2a3>} {

  // Class 1, WAR on a scratch tensor reused across iterations: the cube stores iteration k+1's tile into %ws
  // while the vector side may still have to load iteration k's.  C->V fence (RAW within the iteration) plus a
  // V->C acknowledgement after the vector load, popped by the cube at the end of its iteration (the next
  // store comes after it).  The V->C direction is added to the pipe (dir_mask 3).
  // CHECK-LABEL: func.func @war_scratch_aic(
  // CHECK:        pto.aic_initialize_pipe {{.*}}dir_mask = 3 : i64
  // CHECK:        scf.for
  // CHECK:          %ws_1 = pto.store %y, %ws[0, 0]
  // CHECK-NEXT:     pto.tpush_to_aiv %y {split = 0 : i64} : !pto.tile<16x128xf32, acc>
  // CHECK-NEXT:     %ws_gm_sync = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x128xf32, mat>
  // CHECK-NEXT:     pto.tfree_to_aiv %ws_gm_sync
  // CHECK-NEXT:   }
  // CHECK-LABEL: func.func @war_scratch_aiv(
  // CHECK:        scf.for
  // CHECK:          %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT:     pto.tfree_to_aic %ws_gm_sync
  // CHECK-NEXT:     %v = pto.load %ws[0, 0]
  // A2A3-NEXT:      pto.tpush_to_aic %v {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  // A5-NEXT:        %v_nz = pto.move %v
  // A5-NEXT:        pto.tpush_to_aic %v_nz {split = 0 : i64}
  // CHECK-NEXT:     %e = pto.exp %v
  func.func @war_scratch(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                         %ws: !pto.tensor<16x128xf32> {pto.inout},
                         %out: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %res = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %out) -> (!pto.tensor<64x128xf32>) {
      %r = arith.muli %i, %c16 : index
      %x_mat = pto.load %x[%r, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<16x128xbf16, mat>
      %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
      %y = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
      %ws_1 = pto.store %y, %ws[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
      %v = pto.load %ws_1[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
      %e = pto.exp %v : !pto.tile<16x128xf32, vec>
      %o2 = pto.store %e, %o[%r, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<64x128xf32>
      scf.yield %o2 : !pto.tensor<64x128xf32>
    }
    func.return %res : !pto.tensor<64x128xf32>
  }

  // Class 2, several cube stores to one scratch tensor, then a vector load: one fence after the last store
  // (it orders both), popped right before the load.
  // CHECK-LABEL: func.func @multi_store_aic(
  // CHECK:        pto.store %y0, %ws[0, 0]
  // CHECK-NOT:    pto.tpush_to_aiv
  // CHECK:        pto.store %y1, %ws_1[16, 0]
  // CHECK-NEXT:   pto.tpush_to_aiv %y1 {split = 0 : i64}
  // CHECK-NEXT:   func.return
  // CHECK-LABEL: func.func @multi_store_aiv(
  // CHECK:        %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT:   pto.tfree_to_aic %ws_gm_sync
  // CHECK-NEXT:   %v = pto.load %ws[0, 0] : !pto.tensor<32x128xf32> -> !pto.tile<32x128xf32, vec>
  func.func @multi_store(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                         %ws: !pto.tensor<32x128xf32> {pto.inout},
                         %out: !pto.tensor<32x128xf32> {pto.out}) -> !pto.tensor<32x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %x0_mat = pto.load %x[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x0_left = pto.move %x0_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %y0 = pto.matmul %x0_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %ws_1 = pto.store %y0, %ws[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<32x128xf32>
    %x1_mat = pto.load %x[16, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x1_left = pto.move %x1_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %y1 = pto.matmul %x1_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %ws_2 = pto.store %y1, %ws_1[16, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<32x128xf32>
    %v = pto.load %ws_2[0, 0] : !pto.tensor<32x128xf32> -> !pto.tile<32x128xf32, vec>
    %e = pto.exp %v : !pto.tile<32x128xf32, vec>
    %out_1 = pto.store %e, %out[0, 0] : !pto.tile<32x128xf32, vec>, !pto.tensor<32x128xf32>
    func.return %out_1 : !pto.tensor<32x128xf32>
  }

  // Class 3, a vector load that reads the previous iteration's cube store (the load comes first in the body):
  // loop-carried RAW, fenced C->V at the end of the iteration (after the store), and the WAR of the same
  // iteration (load, then store) fenced V->C before the store.
  // CHECK-LABEL: func.func @prev_iter_aic(
  // CHECK:        scf.for
  // CHECK:          %ws_gm_sync = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x128xf32, mat>
  // CHECK-NEXT:     pto.tfree_to_aiv %ws_gm_sync
  // CHECK:          %ws_1 = pto.store %y, %ws[0, 0]
  // CHECK-NEXT:     pto.tpush_to_aiv %y {split = 0 : i64}
  // CHECK-NEXT:   }
  // CHECK-LABEL: func.func @prev_iter_aiv(
  // CHECK:        scf.for
  // CHECK:          %v = pto.load %ws[0, 0]
  // A2A3-NEXT:      pto.tpush_to_aic %v {split = 0 : i64}
  // A5-NEXT:        %v_nz = pto.move %v
  // A5-NEXT:        pto.tpush_to_aic %v_nz {split = 0 : i64}
  // CHECK:          %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT:     pto.tfree_to_aic %ws_gm_sync
  // CHECK-NEXT:     scf.yield
  func.func @prev_iter(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                       %ws: !pto.tensor<16x128xf32> {pto.inout},
                       %out: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %res = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %out) -> (!pto.tensor<64x128xf32>) {
      %r = arith.muli %i, %c16 : index
      %v = pto.load %ws[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
      %o2 = pto.store %v, %o[%r, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<64x128xf32>
      %x_mat = pto.load %x[%r, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<16x128xbf16, mat>
      %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
      %y = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
      %ws_1 = pto.store %y, %ws[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
      scf.yield %o2 : !pto.tensor<64x128xf32>
    }
    func.return %res : !pto.tensor<64x128xf32>
  }

  // V->C through GM: a vector store read back by a cube load.  The AIV pushes the stored tile right after the
  // store; the AIC pops (into `mat`) right before its load.
  // CHECK-LABEL: func.func @v2c_gm_aic(
  // CHECK:        %s_gm_sync = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x16xf32, mat>
  // CHECK-NEXT:   pto.tfree_to_aiv %s_gm_sync
  // CHECK-NEXT:   %m = pto.load %s[0, 0]
  // CHECK-LABEL: func.func @v2c_gm_aiv(
  // CHECK:        %s1 = pto.store %e, %s[0, 0]
  // A2A3-NEXT:    pto.tpush_to_aic %e {split = 0 : i64} : !pto.tile<16x16xf32, vec>
  // A5-NEXT:      %e_nz = pto.move %e
  // A5-NEXT:      pto.tpush_to_aic %e_nz {split = 0 : i64}
  func.func @v2c_gm(%x: !pto.tensor<16x16xf32>, %s: !pto.tensor<16x16xf32> {pto.inout},
                    %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %v = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    %e = pto.exp %v : !pto.tile<16x16xf32, vec>
    %s1 = pto.store %e, %s[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    %m = pto.load %s1[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %o2 = pto.store %m, %o[0, 0] : !pto.tile<16x16xf32, mat>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }

  // Cross-scope: the cube stores in a loop, the vector side loads after the loop.  One fence: a token pushed
  // after the loop (the store's tile is not in scope there: a pto.create of its shape), popped before the load.
  // CHECK-LABEL: func.func @after_loop_aic(
  // CHECK:        scf.for
  // CHECK:          pto.store %y, %ws[0, 0]
  // CHECK-NOT:      pto.tpush_to_aiv
  // CHECK:        }
  // CHECK-NEXT:   %gm_token = pto.create : !pto.tile<16x128xf32, acc>
  // CHECK-NEXT:   pto.tpush_to_aiv %gm_token {split = 0 : i64}
  // CHECK-LABEL: func.func @after_loop_aiv(
  // CHECK:        %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT:   pto.tfree_to_aic %ws_gm_sync
  // CHECK-NEXT:   %v = pto.load %ws[0, 0]
  func.func @after_loop(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                        %ws: !pto.tensor<16x128xf32> {pto.inout},
                        %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    scf.for %i = %c0 to %c4 step %c1 {
      %r = arith.muli %i, %c16 : index
      %x_mat = pto.load %x[%r, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<16x128xbf16, mat>
      %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
      %y = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
      %ws_1 = pto.store %y, %ws[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    }
    %v = pto.load %ws[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %v, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }

  // WAW: the cube writes %out, then the vector side overwrites the same rows; the vector store must land
  // last.  A data transfer between them (the C->V move of %y) already orders it: no fence.
  // CHECK-LABEL: func.func @waw_ordered_aic(
  // CHECK:        pto.store %y, %out[0, 0]
  // CHECK-NEXT:   pto.tpush_to_aiv %y {split = 0 : i64}
  // CHECK-NEXT:   func.return
  // CHECK-LABEL: func.func @waw_ordered_aiv(
  // CHECK-NOT:    _gm_sync
  // CHECK:        func.return
  func.func @waw_ordered(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                         %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %y = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %out_1 = pto.store %y, %out[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    %y_vec = pto.move %y : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %e = pto.exp %y_vec : !pto.tile<16x128xf32, vec>
    %out_2 = pto.store %e, %out_1[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_2 : !pto.tensor<16x128xf32>
  }
}
