// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// The printed output, parsed again, passes the MixedKernelExpanded verifier (its GM check sees the same accesses):
// RUN: pypto-opt %s --expand-mixed-kernel | pypto-opt --verify-mixed-kernel-expanded > /dev/null
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | pypto-opt --verify-mixed-kernel-expanded > /dev/null

// Cross-core GM dependences through the communication ops (analysis/hazards.py takes every access from the
// ops' `GmAccess` trait): a tile_get reads its source, a tile_put writes its destination, a tensor_put reads
// its source and writes its destination, a tensor_get reads its (peer's) source and writes its destination;
// the tensor is matched by name whatever the peer (peer 0 is this device).  Each kernel is fenced like the
// load/store kernels of gm_hazards.mlir, in both directions.  Before, these accesses were not seen: the C->V
// kernels gave different outputs after the split and the V->C ones were rejected.  Every kernel is also run
// before and after the pass, on both targets and in both schedule orders, by
// tests/passes/expand_mixed_kernel/test_emk_gm_hazards.py.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // C->V, a tile_get (peer 0) of the tensor the cube just stored, in a loop: the RAW of the iteration is fenced
  // by the stored tile (pushed right after the store, popped right before the tile_get), and the carried WAR
  // (this iteration's tile_get, the next one's store) by the tile the tile_get read, pushed V->C right after
  // it and popped by the cube at the end of its iteration.
  // CHECK-LABEL: func.func @c2v_tile_get_aic(
  // CHECK:        pto.aic_initialize_pipe {{.*}}dir_mask = 3 : i64
  // CHECK:        scf.for
  // CHECK:          %ws_1 = pto.store %m, %ws[0, 0]
  // CHECK-NEXT:     pto.tpush_to_aiv %m {split = 0 : i64} : !pto.tile<16x16xf32, mat>
  // CHECK-NEXT:     %ws_gm_sync = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x16xf32, mat>
  // CHECK-NEXT:     pto.tfree_to_aiv %ws_gm_sync
  // CHECK-NEXT:   }
  // CHECK-LABEL: func.func @c2v_tile_get_aiv(
  // CHECK:        scf.for
  // CHECK:          %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:     pto.tfree_to_aic %ws_gm_sync
  // CHECK-NEXT:     %v = pto.tile_get %ws[0, 0] from %c0
  // A2A3-NEXT:      pto.tpush_to_aic %v {split = 0 : i64} : !pto.tile<16x16xf32, vec>
  // A5-NEXT:        %v_nz = pto.move %v
  // A5-NEXT:        pto.tpush_to_aic %v_nz {split = 0 : i64}
  // CHECK-NEXT:     %e = pto.exp %v
  func.func @c2v_tile_get(%x: !pto.tensor<32x16xf32>, %ws: !pto.tensor<16x16xf32> {pto.inout},
                          %out: !pto.tensor<32x16xf32> {pto.out}) -> !pto.tensor<32x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %res = scf.for %i = %c0 to %c2 step %c1 iter_args(%o = %out) -> (!pto.tensor<32x16xf32>) {
      %r = arith.muli %i, %c16 : index
      %m = pto.load %x[%r, 0] : !pto.tensor<32x16xf32> -> !pto.tile<16x16xf32, mat>
      %ws_1 = pto.store %m, %ws[0, 0] : !pto.tile<16x16xf32, mat>, !pto.tensor<16x16xf32>
      %v = pto.tile_get %ws_1[0, 0] from %c0 : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
      %e = pto.exp %v : !pto.tile<16x16xf32, vec>
      %o2 = pto.store %e, %o[%r, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<32x16xf32>
      scf.yield %o2 : !pto.tensor<32x16xf32>
    }
    func.return %res : !pto.tensor<32x16xf32>
  }

  // C->V, a tensor_put that reads the tensor the cube just stored: fenced like a load.  The carried WAR (the
  // tensor_put reads, the next iteration's store writes) starts at an access that moves no tile: its token is
  // a 16x16 f16 `pto.create` (one fractal), pushed V->C right after the tensor_put, popped by the cube (`mat`).
  // CHECK-LABEL: func.func @c2v_tensor_put_aic(
  // CHECK:        scf.for
  // CHECK:          %ws_1 = pto.store %m, %ws[0, 0]
  // CHECK-NEXT:     pto.tpush_to_aiv %m {split = 0 : i64} : !pto.tile<16x16xf32, mat>
  // CHECK-NEXT:     %ws_gm_sync = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x16xf16, mat>
  // CHECK-NEXT:     pto.tfree_to_aiv %ws_gm_sync
  // CHECK-NEXT:   }
  // CHECK-LABEL: func.func @c2v_tensor_put_aiv(
  // CHECK:        scf.for
  // CHECK:          %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:     pto.tfree_to_aic %ws_gm_sync
  // CHECK-NEXT:     %cp = pto.tensor_put %ws, %dst to %c0
  // CHECK-NEXT:     %gm_token = pto.create : !pto.tile<16x16xf16, vec>
  // A2A3-NEXT:      pto.tpush_to_aic %gm_token {split = 0 : i64} : !pto.tile<16x16xf16, vec>
  // A5-NEXT:        %gm_token_nz = pto.move %gm_token
  // A5-NEXT:        pto.tpush_to_aic %gm_token_nz {split = 0 : i64}
  // CHECK-NEXT:     %v = pto.load %cp[0, 0]
  func.func @c2v_tensor_put(%x: !pto.tensor<32x16xf32>, %ws: !pto.tensor<16x16xf32> {pto.inout},
                            %dst: !pto.tensor<16x16xf32> {pto.inout},
                            %out: !pto.tensor<32x16xf32> {pto.out}) -> !pto.tensor<32x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %res = scf.for %i = %c0 to %c2 step %c1 iter_args(%o = %out) -> (!pto.tensor<32x16xf32>) {
      %r = arith.muli %i, %c16 : index
      %m = pto.load %x[%r, 0] : !pto.tensor<32x16xf32> -> !pto.tile<16x16xf32, mat>
      %ws_1 = pto.store %m, %ws[0, 0] : !pto.tile<16x16xf32, mat>, !pto.tensor<16x16xf32>
      %cp = pto.tensor_put %ws_1, %dst to %c0 : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
      %v = pto.load %cp[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
      %o2 = pto.store %v, %o[%r, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<32x16xf32>
      scf.yield %o2 : !pto.tensor<32x16xf32>
    }
    func.return %res : !pto.tensor<32x16xf32>
  }

  // C->V, a tensor_get whose source is the tensor the cube just stored (the peer's copy; peer 0 is this
  // device): fenced before the tensor_get.
  // CHECK-LABEL: func.func @c2v_tensor_get_aic(
  // CHECK:        %ws_1 = pto.store %m, %ws[0, 0]
  // CHECK-NEXT:   pto.tpush_to_aiv %m {split = 0 : i64} : !pto.tile<16x16xf32, mat>
  // CHECK-NEXT:   func.return
  // CHECK-LABEL: func.func @c2v_tensor_get_aiv(
  // CHECK:        %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:   pto.tfree_to_aic %ws_gm_sync
  // CHECK-NEXT:   %g = pto.tensor_get %ws, %dst from %c0
  func.func @c2v_tensor_get(%x: !pto.tensor<16x16xf32>, %ws: !pto.tensor<16x16xf32> {pto.inout},
                            %dst: !pto.tensor<16x16xf32> {pto.inout},
                            %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %m = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %ws_1 = pto.store %m, %ws[0, 0] : !pto.tile<16x16xf32, mat>, !pto.tensor<16x16xf32>
    %g = pto.tensor_get %ws_1, %dst from %c0 : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
    %v = pto.load %g[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    %out_1 = pto.store %v, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %out_1 : !pto.tensor<16x16xf32>
  }

  // C->V WAR: the cube loads %ws, then a vector tile_put overwrites it.  The loaded tile is the token, pushed
  // right after the load; the AIV pops it as late as possible, right before the tile_put.
  // CHECK-LABEL: func.func @c2v_tile_put_war_aic(
  // CHECK:        %m = pto.load %ws[0, 0]
  // CHECK-NEXT:   pto.tpush_to_aiv %m {split = 0 : i64} : !pto.tile<16x16xf32, mat>
  // CHECK-NEXT:   %out_1 = pto.store %m, %out[0, 0]
  // CHECK-LABEL: func.func @c2v_tile_put_war_aiv(
  // CHECK:        %e = pto.exp %v
  // CHECK-NEXT:   %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:   pto.tfree_to_aic %ws_gm_sync
  // CHECK-NEXT:   %ws_1 = pto.tile_put %e, %ws[0, 0] to %c0
  func.func @c2v_tile_put_war(%x: !pto.tensor<16x16xf32>, %ws: !pto.tensor<16x16xf32> {pto.inout},
                              %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %m = pto.load %ws[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %out_1 = pto.store %m, %out[0, 0] : !pto.tile<16x16xf32, mat>, !pto.tensor<16x16xf32>
    %v = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    %e = pto.exp %v : !pto.tile<16x16xf32, vec>
    %ws_1 = pto.tile_put %e, %ws[0, 0] to %c0 : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %out_1 : !pto.tensor<16x16xf32>
  }

  // V->C, a tile_put (peer 0) read back by a cube load: the put tile is the token.  Before, the AIC copy of the
  // load read the tile_put's result, which the split did not know to be %ws (rejected as a cross-side value).
  // CHECK-LABEL: func.func @v2c_tile_put_aic(
  // CHECK:        %ws_gm_sync = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x16xf32, mat>
  // CHECK-NEXT:   pto.tfree_to_aiv %ws_gm_sync
  // CHECK-NEXT:   %m = pto.load %ws[0, 0]
  // CHECK-LABEL: func.func @v2c_tile_put_aiv(
  // CHECK:        %ws_1 = pto.tile_put %e, %ws[0, 0] to %c0
  // A2A3-NEXT:    pto.tpush_to_aic %e {split = 0 : i64} : !pto.tile<16x16xf32, vec>
  // A5-NEXT:      %e_nz = pto.move %e
  // A5-NEXT:      pto.tpush_to_aic %e_nz {split = 0 : i64}
  // CHECK-NEXT:   func.return
  func.func @v2c_tile_put(%x: !pto.tensor<16x16xf32>, %ws: !pto.tensor<16x16xf32> {pto.inout},
                          %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %v = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    %e = pto.exp %v : !pto.tile<16x16xf32, vec>
    %ws_1 = pto.tile_put %e, %ws[0, 0] to %c0 : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    %m = pto.load %ws_1[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %out_1 = pto.store %m, %out[0, 0] : !pto.tile<16x16xf32, mat>, !pto.tensor<16x16xf32>
    func.return %out_1 : !pto.tensor<16x16xf32>
  }

  // V->C, a tensor_get into %ws read back by a cube load: no tile moves, so the token is a 16x16 f16
  // `pto.create`; the pipe's slot_size is that token's 512 bytes.
  // CHECK-LABEL: func.func @v2c_tensor_get_aic(
  // CHECK:        pto.aic_initialize_pipe {{.*}}dir_mask = 2 : i64, slot_size = 512 : i64
  // CHECK:        %ws_gm_sync = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x16xf16, mat>
  // CHECK-NEXT:   pto.tfree_to_aiv %ws_gm_sync
  // CHECK-NEXT:   %m = pto.load %ws[0, 0]
  // CHECK-LABEL: func.func @v2c_tensor_get_aiv(
  // CHECK:        %ws_1 = pto.tensor_get %x, %ws from %c0
  // CHECK-NEXT:   %gm_token = pto.create : !pto.tile<16x16xf16, vec>
  // A2A3-NEXT:    pto.tpush_to_aic %gm_token {split = 0 : i64} : !pto.tile<16x16xf16, vec>
  // A5-NEXT:      %gm_token_nz = pto.move %gm_token
  // A5-NEXT:      pto.tpush_to_aic %gm_token_nz {split = 0 : i64}
  // CHECK-NEXT:   func.return
  func.func @v2c_tensor_get(%x: !pto.tensor<16x16xf32>, %ws: !pto.tensor<16x16xf32> {pto.inout},
                            %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %ws_1 = pto.tensor_get %x, %ws from %c0 : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
    %m = pto.load %ws_1[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %out_1 = pto.store %m, %out[0, 0] : !pto.tile<16x16xf32, mat>, !pto.tensor<16x16xf32>
    func.return %out_1 : !pto.tensor<16x16xf32>
  }
}
