// RUN: pypto-opt %s --split-input-file --verify-diagnostics --verify-mixed-kernel-expanded

// The MixedKernelExpanded verifier checks every cross-core GM dependence of an AIC/AIV pair with the hazard
// analysis of the pass (analysis/hazards.py: check_split_pair): some transfer must order the two accesses
// within an iteration, and across iterations the other way when they share a loop.  Each case is the pass
// output of a kernel of gm_hazards*.mlir or gm_if_branches.mlir with its fence removed or moved by hand, rejected at the AIV access;
// case 7 is the pass output itself, accepted.

// 1. Issue 15 class 1 written by hand without the V->C acknowledgement: the cube may store iteration k+1's
// tile before the vector side loaded iteration k's.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @war_scratch_aic(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<64x128xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %war_scratch_v2c_slot_buffer = pto.reserve_buffer {name = "war_scratch_v2c_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
    %war_scratch_c2v_slot_buffer_import = pto.import_peer_buffer {name = "war_scratch_c2v_slot_buffer", peer_func = @war_scratch_aiv} : i32
    pto.aic_initialize_pipe %war_scratch_c2v_slot_buffer_import, %war_scratch_v2c_slot_buffer {dir_mask = 3 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
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
      pto.tpush_to_aiv %y {split = 0 : i64} : !pto.tile<16x128xf32, acc>
    }
    func.return
  }
  func.func @war_scratch_aiv(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32> attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
    %war_scratch_v2c_slot_buffer_import = pto.import_peer_buffer {name = "war_scratch_v2c_slot_buffer", peer_func = @war_scratch_aic} : i32
    %war_scratch_c2v_slot_buffer = pto.reserve_buffer {name = "war_scratch_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
    pto.aiv_initialize_pipe %war_scratch_c2v_slot_buffer, %war_scratch_v2c_slot_buffer_import {dir_mask = 3 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %res = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %out) -> (!pto.tensor<64x128xf32>) {
      %r = arith.muli %i, %c16 : index
      %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
      pto.tfree_to_aic %ws_gm_sync : !pto.tile<16x128xf32, vec>
      // expected-error@+1 {{unordered cross-core dependence across loop iterations (WAR, AIV -> AIC): the AIC 'pto.store' and this AIV 'pto.load' access one GM tensor}}
      %v = pto.load %ws[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
      %e = pto.exp %v : !pto.tile<16x128xf32, vec>
      %o2 = pto.store %e, %o[%r, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<64x128xf32>
      scf.yield %o2 : !pto.tensor<64x128xf32>
    }
    func.return %res : !pto.tensor<64x128xf32>
  }
  func.func @war_scratch(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32> attributes {pto.kind = #pto.kind<group>} {
    func.call @war_scratch_aic(%x, %w, %ws, %out) : (!pto.tensor<64x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<64x128xf32>) -> ()
    %0 = func.call @war_scratch_aiv(%x, %w, %ws, %out) : (!pto.tensor<64x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<64x128xf32>) -> !pto.tensor<64x128xf32>
    func.return %out : !pto.tensor<64x128xf32>
  }
}

// -----

// 2. V->C through GM without a fence (what the reference emits): the cube may load before the vector store.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @v2c_gm_aic(%x: !pto.tensor<16x16xf32>, %s: !pto.tensor<16x16xf32> {pto.inout}, %o: !pto.tensor<16x16xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %v2c_gm_v2c_slot_buffer = pto.reserve_buffer {name = "v2c_gm_v2c_slot_buffer", size = 2048 : i64, base = -1 : i64} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aic_initialize_pipe %c0_i32, %v2c_gm_v2c_slot_buffer {dir_mask = 2 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %m = pto.load %s[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %o2 = pto.store %m, %o[0, 0] : !pto.tile<16x16xf32, mat>, !pto.tensor<16x16xf32>
    func.return
  }
  func.func @v2c_gm_aiv(%x: !pto.tensor<16x16xf32>, %s: !pto.tensor<16x16xf32> {pto.inout}, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
    %v2c_gm_v2c_slot_buffer_import = pto.import_peer_buffer {name = "v2c_gm_v2c_slot_buffer", peer_func = @v2c_gm_aic} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %c0_i32, %v2c_gm_v2c_slot_buffer_import {dir_mask = 2 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %v = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    %e = pto.exp %v : !pto.tile<16x16xf32, vec>
    // expected-error@+1 {{unordered cross-core dependence: the AIC 'pto.load' and this AIV 'pto.store' access one GM tensor (one writes); no tpush/tpop pair runs after one access and before the other in their common block}}
    %s1 = pto.store %e, %s[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }
  func.func @v2c_gm(%x: !pto.tensor<16x16xf32>, %s: !pto.tensor<16x16xf32> {pto.inout}, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<group>} {
    func.call @v2c_gm_aic(%x, %s, %o) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> ()
    %0 = func.call @v2c_gm_aiv(%x, %s, %o) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }
}

// -----

// 3. The C->V fence popped after the load it should protect (moved below it by hand).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @war_scratch_aic(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<64x128xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %war_scratch_v2c_slot_buffer = pto.reserve_buffer {name = "war_scratch_v2c_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
    %war_scratch_c2v_slot_buffer_import = pto.import_peer_buffer {name = "war_scratch_c2v_slot_buffer", peer_func = @war_scratch_aiv} : i32
    pto.aic_initialize_pipe %war_scratch_c2v_slot_buffer_import, %war_scratch_v2c_slot_buffer {dir_mask = 3 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
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
      pto.tpush_to_aiv %y {split = 0 : i64} : !pto.tile<16x128xf32, acc>
      %ws_gm_sync = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x128xf32, mat>
      pto.tfree_to_aiv %ws_gm_sync : !pto.tile<16x128xf32, mat>
    }
    func.return
  }
  func.func @war_scratch_aiv(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32> attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
    %war_scratch_v2c_slot_buffer_import = pto.import_peer_buffer {name = "war_scratch_v2c_slot_buffer", peer_func = @war_scratch_aic} : i32
    %war_scratch_c2v_slot_buffer = pto.reserve_buffer {name = "war_scratch_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
    pto.aiv_initialize_pipe %war_scratch_c2v_slot_buffer, %war_scratch_v2c_slot_buffer_import {dir_mask = 3 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %res = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %out) -> (!pto.tensor<64x128xf32>) {
      %r = arith.muli %i, %c16 : index
      // expected-error@+1 {{unordered cross-core dependence: the AIC 'pto.store' and this AIV 'pto.load' access one GM tensor (one writes)}}
      %v = pto.load %ws[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
      %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
      pto.tfree_to_aic %ws_gm_sync : !pto.tile<16x128xf32, vec>
      pto.tpush_to_aic %v {split = 0 : i64} : !pto.tile<16x128xf32, vec>
      %e = pto.exp %v : !pto.tile<16x128xf32, vec>
      %o2 = pto.store %e, %o[%r, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<64x128xf32>
      scf.yield %o2 : !pto.tensor<64x128xf32>
    }
    func.return %res : !pto.tensor<64x128xf32>
  }
  func.func @war_scratch(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32> attributes {pto.kind = #pto.kind<group>} {
    func.call @war_scratch_aic(%x, %w, %ws, %out) : (!pto.tensor<64x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<64x128xf32>) -> ()
    %0 = func.call @war_scratch_aiv(%x, %w, %ws, %out) : (!pto.tensor<64x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<64x128xf32>) -> !pto.tensor<64x128xf32>
    func.return %out : !pto.tensor<64x128xf32>
  }
}

// -----

// 4. Communication ops access GM too (their `GmAccess` trait): the pass output of @c2v_tensor_get of
// gm_hazards_comm.mlir without its C->V fence; the tensor_get may read %ws before the cube stored it.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @c2v_tensor_get_aic(%x: !pto.tensor<16x16xf32>, %ws: !pto.tensor<16x16xf32> {pto.inout}, %dst: !pto.tensor<16x16xf32> {pto.inout}, %out: !pto.tensor<16x16xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %c2v_tensor_get_c2v_slot_buffer_import = pto.import_peer_buffer {name = "c2v_tensor_get_c2v_slot_buffer", peer_func = @c2v_tensor_get_aiv} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aic_initialize_pipe %c2v_tensor_get_c2v_slot_buffer_import, %c0_i32 {dir_mask = 1 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %m = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %ws_1 = pto.store %m, %ws[0, 0] : !pto.tile<16x16xf32, mat>, !pto.tensor<16x16xf32>
    func.return
  }
  func.func @c2v_tensor_get_aiv(%x: !pto.tensor<16x16xf32>, %ws: !pto.tensor<16x16xf32> {pto.inout}, %dst: !pto.tensor<16x16xf32> {pto.inout}, %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
    %c2v_tensor_get_c2v_slot_buffer = pto.reserve_buffer {name = "c2v_tensor_get_c2v_slot_buffer", size = 2048 : i64, base = -1 : i64} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %c2v_tensor_get_c2v_slot_buffer, %c0_i32 {dir_mask = 1 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{unordered cross-core dependence: the AIC 'pto.store' and this AIV 'pto.tensor_get' access one GM tensor (one writes); no tpush/tpop pair runs after one access and before the other in their common block}}
    %g = pto.tensor_get %ws, %dst from %c0 : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
    %v = pto.load %g[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    %out_1 = pto.store %v, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %out_1 : !pto.tensor<16x16xf32>
  }
  func.func @c2v_tensor_get(%x: !pto.tensor<16x16xf32>, %ws: !pto.tensor<16x16xf32> {pto.inout}, %dst: !pto.tensor<16x16xf32> {pto.inout}, %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<group>} {
    func.call @c2v_tensor_get_aic(%x, %ws, %dst, %out) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> ()
    %0 = func.call @c2v_tensor_get_aiv(%x, %ws, %dst, %out) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    func.return %out : !pto.tensor<16x16xf32>
  }
}

// -----

// 5. V->C: @v2c_tensor_get without its fence (a token, since a tensor_get moves no tile): the cube may load
// %ws before the tensor_get wrote it.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @v2c_tensor_get_aic(%x: !pto.tensor<16x16xf32>, %ws: !pto.tensor<16x16xf32> {pto.inout}, %out: !pto.tensor<16x16xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %v2c_tensor_get_v2c_slot_buffer = pto.reserve_buffer {name = "v2c_tensor_get_v2c_slot_buffer", size = 1024 : i64, base = -1 : i64} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aic_initialize_pipe %c0_i32, %v2c_tensor_get_v2c_slot_buffer {dir_mask = 2 : i64, slot_size = 512 : i64, slot_num = 2 : i64} : i32, i32
    %m = pto.load %ws[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %out_1 = pto.store %m, %out[0, 0] : !pto.tile<16x16xf32, mat>, !pto.tensor<16x16xf32>
    func.return
  }
  func.func @v2c_tensor_get_aiv(%x: !pto.tensor<16x16xf32>, %ws: !pto.tensor<16x16xf32> {pto.inout}, %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
    %v2c_tensor_get_v2c_slot_buffer_import = pto.import_peer_buffer {name = "v2c_tensor_get_v2c_slot_buffer", peer_func = @v2c_tensor_get_aic} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %c0_i32, %v2c_tensor_get_v2c_slot_buffer_import {dir_mask = 2 : i64, slot_size = 512 : i64, slot_num = 2 : i64} : i32, i32
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{unordered cross-core dependence: the AIC 'pto.load' and this AIV 'pto.tensor_get' access one GM tensor (one writes); no tpush/tpop pair runs after one access and before the other in their common block}}
    %ws_1 = pto.tensor_get %x, %ws from %c0 : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
    func.return %out : !pto.tensor<16x16xf32>
  }
  func.func @v2c_tensor_get(%x: !pto.tensor<16x16xf32>, %ws: !pto.tensor<16x16xf32> {pto.inout}, %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<group>} {
    func.call @v2c_tensor_get_aic(%x, %ws, %out) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> ()
    %0 = func.call @v2c_tensor_get_aiv(%x, %ws, %out) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    func.return %out : !pto.tensor<16x16xf32>
  }
}

// -----

// 6. @c2v_tile_get with only its carried V->C fence kept: the tile_get of an iteration may read %ws before the
// cube's store of the same iteration.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @c2v_tile_get_aic(%x: !pto.tensor<32x16xf32>, %ws: !pto.tensor<16x16xf32> {pto.inout}, %out: !pto.tensor<32x16xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %c2v_tile_get_v2c_slot_buffer = pto.reserve_buffer {name = "c2v_tile_get_v2c_slot_buffer", size = 2048 : i64, base = -1 : i64} : i32
    %c2v_tile_get_c2v_slot_buffer_import = pto.import_peer_buffer {name = "c2v_tile_get_c2v_slot_buffer", peer_func = @c2v_tile_get_aiv} : i32
    pto.aic_initialize_pipe %c2v_tile_get_c2v_slot_buffer_import, %c2v_tile_get_v2c_slot_buffer {dir_mask = 3 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    scf.for %i = %c0 to %c2 step %c1 {
      %r = arith.muli %i, %c16 : index
      %m = pto.load %x[%r, 0] : !pto.tensor<32x16xf32> -> !pto.tile<16x16xf32, mat>
      %ws_1 = pto.store %m, %ws[0, 0] : !pto.tile<16x16xf32, mat>, !pto.tensor<16x16xf32>
      %ws_gm_sync = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x16xf32, mat>
      pto.tfree_to_aiv %ws_gm_sync : !pto.tile<16x16xf32, mat>
    }
    func.return
  }
  func.func @c2v_tile_get_aiv(%x: !pto.tensor<32x16xf32>, %ws: !pto.tensor<16x16xf32> {pto.inout}, %out: !pto.tensor<32x16xf32> {pto.out}) -> !pto.tensor<32x16xf32> attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
    %c2v_tile_get_v2c_slot_buffer_import = pto.import_peer_buffer {name = "c2v_tile_get_v2c_slot_buffer", peer_func = @c2v_tile_get_aic} : i32
    %c2v_tile_get_c2v_slot_buffer = pto.reserve_buffer {name = "c2v_tile_get_c2v_slot_buffer", size = 2048 : i64, base = -1 : i64} : i32
    pto.aiv_initialize_pipe %c2v_tile_get_c2v_slot_buffer, %c2v_tile_get_v2c_slot_buffer_import {dir_mask = 3 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %res = scf.for %i = %c0 to %c2 step %c1 iter_args(%o = %out) -> (!pto.tensor<32x16xf32>) {
      %r = arith.muli %i, %c16 : index
      // expected-error@+1 {{unordered cross-core dependence: the AIC 'pto.store' and this AIV 'pto.tile_get' access one GM tensor (one writes); no tpush/tpop pair runs after one access and before the other in their common block}}
      %v = pto.tile_get %ws[0, 0] from %c0 : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
      pto.tpush_to_aic %v {split = 0 : i64} : !pto.tile<16x16xf32, vec>
      %e = pto.exp %v : !pto.tile<16x16xf32, vec>
      %o2 = pto.store %e, %o[%r, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<32x16xf32>
      scf.yield %o2 : !pto.tensor<32x16xf32>
    }
    func.return %res : !pto.tensor<32x16xf32>
  }
  func.func @c2v_tile_get(%x: !pto.tensor<32x16xf32>, %ws: !pto.tensor<16x16xf32> {pto.inout}, %out: !pto.tensor<32x16xf32> {pto.out}) -> !pto.tensor<32x16xf32> attributes {pto.kind = #pto.kind<group>} {
    func.call @c2v_tile_get_aic(%x, %ws, %out) : (!pto.tensor<32x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<32x16xf32>) -> ()
    %0 = func.call @c2v_tile_get_aiv(%x, %ws, %out) : (!pto.tensor<32x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<32x16xf32>) -> !pto.tensor<32x16xf32>
    func.return %out : !pto.tensor<32x16xf32>
  }
}

// -----

// 7. Accepted: the pass output of gm_hazards.mlir, every dependence fenced or ordered by a data transfer.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @war_scratch_aic(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<64x128xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %war_scratch_v2c_slot_buffer = pto.reserve_buffer {name = "war_scratch_v2c_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
    %war_scratch_c2v_slot_buffer_import = pto.import_peer_buffer {name = "war_scratch_c2v_slot_buffer", peer_func = @war_scratch_aiv} : i32
    pto.aic_initialize_pipe %war_scratch_c2v_slot_buffer_import, %war_scratch_v2c_slot_buffer {dir_mask = 3 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
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
      pto.tpush_to_aiv %y {split = 0 : i64} : !pto.tile<16x128xf32, acc>
      %ws_gm_sync = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x128xf32, mat>
      pto.tfree_to_aiv %ws_gm_sync : !pto.tile<16x128xf32, mat>
    }
    func.return
  }
  func.func @war_scratch_aiv(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32> attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
    %war_scratch_v2c_slot_buffer_import = pto.import_peer_buffer {name = "war_scratch_v2c_slot_buffer", peer_func = @war_scratch_aic} : i32
    %war_scratch_c2v_slot_buffer = pto.reserve_buffer {name = "war_scratch_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
    pto.aiv_initialize_pipe %war_scratch_c2v_slot_buffer, %war_scratch_v2c_slot_buffer_import {dir_mask = 3 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %res = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %out) -> (!pto.tensor<64x128xf32>) {
      %r = arith.muli %i, %c16 : index
      %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
      pto.tfree_to_aic %ws_gm_sync : !pto.tile<16x128xf32, vec>
      %v = pto.load %ws[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
      pto.tpush_to_aic %v {split = 0 : i64} : !pto.tile<16x128xf32, vec>
      %e = pto.exp %v : !pto.tile<16x128xf32, vec>
      %o2 = pto.store %e, %o[%r, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<64x128xf32>
      scf.yield %o2 : !pto.tensor<64x128xf32>
    }
    func.return %res : !pto.tensor<64x128xf32>
  }
  func.func @war_scratch(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32> attributes {pto.kind = #pto.kind<group>} {
    func.call @war_scratch_aic(%x, %w, %ws, %out) : (!pto.tensor<64x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<64x128xf32>) -> ()
    %0 = func.call @war_scratch_aiv(%x, %w, %ws, %out) : (!pto.tensor<64x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<64x128xf32>) -> !pto.tensor<64x128xf32>
    func.return %out : !pto.tensor<64x128xf32>
  }
  func.func @multi_store_aic(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<32x128xf32> {pto.inout}, %out: !pto.tensor<32x128xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %multi_store_c2v_slot_buffer_import = pto.import_peer_buffer {name = "multi_store_c2v_slot_buffer", peer_func = @multi_store_aiv} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aic_initialize_pipe %multi_store_c2v_slot_buffer_import, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
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
    pto.tpush_to_aiv %y1 {split = 0 : i64} : !pto.tile<16x128xf32, acc>
    func.return
  }
  func.func @multi_store_aiv(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<32x128xf32> {pto.inout}, %out: !pto.tensor<32x128xf32> {pto.out}) -> !pto.tensor<32x128xf32> attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
    %multi_store_c2v_slot_buffer = pto.reserve_buffer {name = "multi_store_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %multi_store_c2v_slot_buffer, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
    %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
    pto.tfree_to_aic %ws_gm_sync : !pto.tile<16x128xf32, vec>
    %v = pto.load %ws[0, 0] : !pto.tensor<32x128xf32> -> !pto.tile<32x128xf32, vec>
    %e = pto.exp %v : !pto.tile<32x128xf32, vec>
    %out_1 = pto.store %e, %out[0, 0] : !pto.tile<32x128xf32, vec>, !pto.tensor<32x128xf32>
    func.return %out_1 : !pto.tensor<32x128xf32>
  }
  func.func @multi_store(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<32x128xf32> {pto.inout}, %out: !pto.tensor<32x128xf32> {pto.out}) -> !pto.tensor<32x128xf32> attributes {pto.kind = #pto.kind<group>} {
    func.call @multi_store_aic(%x, %w, %ws, %out) : (!pto.tensor<64x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<32x128xf32>, !pto.tensor<32x128xf32>) -> ()
    %0 = func.call @multi_store_aiv(%x, %w, %ws, %out) : (!pto.tensor<64x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<32x128xf32>, !pto.tensor<32x128xf32>) -> !pto.tensor<32x128xf32>
    func.return %out : !pto.tensor<32x128xf32>
  }
  func.func @prev_iter_aic(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<64x128xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %prev_iter_v2c_slot_buffer = pto.reserve_buffer {name = "prev_iter_v2c_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
    %prev_iter_c2v_slot_buffer_import = pto.import_peer_buffer {name = "prev_iter_c2v_slot_buffer", peer_func = @prev_iter_aiv} : i32
    pto.aic_initialize_pipe %prev_iter_c2v_slot_buffer_import, %prev_iter_v2c_slot_buffer {dir_mask = 3 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
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
      %ws_gm_sync = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x128xf32, mat>
      pto.tfree_to_aiv %ws_gm_sync : !pto.tile<16x128xf32, mat>
      %ws_1 = pto.store %y, %ws[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
      pto.tpush_to_aiv %y {split = 0 : i64} : !pto.tile<16x128xf32, acc>
    }
    func.return
  }
  func.func @prev_iter_aiv(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32> attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
    %prev_iter_v2c_slot_buffer_import = pto.import_peer_buffer {name = "prev_iter_v2c_slot_buffer", peer_func = @prev_iter_aic} : i32
    %prev_iter_c2v_slot_buffer = pto.reserve_buffer {name = "prev_iter_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
    pto.aiv_initialize_pipe %prev_iter_c2v_slot_buffer, %prev_iter_v2c_slot_buffer_import {dir_mask = 3 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %res = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %out) -> (!pto.tensor<64x128xf32>) {
      %r = arith.muli %i, %c16 : index
      %v = pto.load %ws[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
      pto.tpush_to_aic %v {split = 0 : i64} : !pto.tile<16x128xf32, vec>
      %o2 = pto.store %v, %o[%r, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<64x128xf32>
      %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
      pto.tfree_to_aic %ws_gm_sync : !pto.tile<16x128xf32, vec>
      scf.yield %o2 : !pto.tensor<64x128xf32>
    }
    func.return %res : !pto.tensor<64x128xf32>
  }
  func.func @prev_iter(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32> attributes {pto.kind = #pto.kind<group>} {
    func.call @prev_iter_aic(%x, %w, %ws, %out) : (!pto.tensor<64x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<64x128xf32>) -> ()
    %0 = func.call @prev_iter_aiv(%x, %w, %ws, %out) : (!pto.tensor<64x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<64x128xf32>) -> !pto.tensor<64x128xf32>
    func.return %out : !pto.tensor<64x128xf32>
  }
  func.func @v2c_gm_aic(%x: !pto.tensor<16x16xf32>, %s: !pto.tensor<16x16xf32> {pto.inout}, %o: !pto.tensor<16x16xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %v2c_gm_v2c_slot_buffer = pto.reserve_buffer {name = "v2c_gm_v2c_slot_buffer", size = 2048 : i64, base = -1 : i64} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aic_initialize_pipe %c0_i32, %v2c_gm_v2c_slot_buffer {dir_mask = 2 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %s_gm_sync = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x16xf32, mat>
    pto.tfree_to_aiv %s_gm_sync : !pto.tile<16x16xf32, mat>
    %m = pto.load %s[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %o2 = pto.store %m, %o[0, 0] : !pto.tile<16x16xf32, mat>, !pto.tensor<16x16xf32>
    func.return
  }
  func.func @v2c_gm_aiv(%x: !pto.tensor<16x16xf32>, %s: !pto.tensor<16x16xf32> {pto.inout}, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
    %v2c_gm_v2c_slot_buffer_import = pto.import_peer_buffer {name = "v2c_gm_v2c_slot_buffer", peer_func = @v2c_gm_aic} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %c0_i32, %v2c_gm_v2c_slot_buffer_import {dir_mask = 2 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %v = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    %e = pto.exp %v : !pto.tile<16x16xf32, vec>
    %s1 = pto.store %e, %s[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    pto.tpush_to_aic %e {split = 0 : i64} : !pto.tile<16x16xf32, vec>
    func.return %o : !pto.tensor<16x16xf32>
  }
  func.func @v2c_gm(%x: !pto.tensor<16x16xf32>, %s: !pto.tensor<16x16xf32> {pto.inout}, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<group>} {
    func.call @v2c_gm_aic(%x, %s, %o) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> ()
    %0 = func.call @v2c_gm_aiv(%x, %s, %o) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }
  func.func @after_loop_aic(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<16x128xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %after_loop_c2v_slot_buffer_import = pto.import_peer_buffer {name = "after_loop_c2v_slot_buffer", peer_func = @after_loop_aiv} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aic_initialize_pipe %after_loop_c2v_slot_buffer_import, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
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
    %gm_token = pto.create : !pto.tile<16x128xf32, acc>
    pto.tpush_to_aiv %gm_token {split = 0 : i64} : !pto.tile<16x128xf32, acc>
    func.return
  }
  func.func @after_loop_aiv(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
    %after_loop_c2v_slot_buffer = pto.reserve_buffer {name = "after_loop_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %after_loop_c2v_slot_buffer, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
    %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
    pto.tfree_to_aic %ws_gm_sync : !pto.tile<16x128xf32, vec>
    %v = pto.load %ws[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %v, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
  func.func @after_loop(%x: !pto.tensor<64x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<group>} {
    func.call @after_loop_aic(%x, %w, %ws, %out) : (!pto.tensor<64x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> ()
    %0 = func.call @after_loop_aiv(%x, %w, %ws, %out) : (!pto.tensor<64x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %out : !pto.tensor<16x128xf32>
  }
  func.func @waw_ordered_aic(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %out: !pto.tensor<16x128xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %waw_ordered_c2v_slot_buffer_import = pto.import_peer_buffer {name = "waw_ordered_c2v_slot_buffer", peer_func = @waw_ordered_aiv} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aic_initialize_pipe %waw_ordered_c2v_slot_buffer_import, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %y = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %out_1 = pto.store %y, %out[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    pto.tpush_to_aiv %y {split = 0 : i64} : !pto.tile<16x128xf32, acc>
    func.return
  }
  func.func @waw_ordered_aiv(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
    %waw_ordered_c2v_slot_buffer = pto.reserve_buffer {name = "waw_ordered_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %waw_ordered_c2v_slot_buffer, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
    %y_vec = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
    %e = pto.exp %y_vec : !pto.tile<16x128xf32, vec>
    pto.tfree_to_aic %y_vec : !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %e, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
  func.func @waw_ordered(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<group>} {
    func.call @waw_ordered_aic(%x, %w, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>) -> ()
    %0 = func.call @waw_ordered_aiv(%x, %w, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %out : !pto.tensor<16x128xf32>
  }
}

// -----

// 8. The pass output of gm_if_branches.mlir (a store in the then-branch, a load in the else-branch of one
// scf.if in a loop; the verifier pairs the two copies of the if by their condition) without its V->C fence:
// the cube's store of a later iteration may overwrite %ws before the vector load of this one.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k_aic(%x: !pto.tensor<64x16xbf16>, %w: !pto.tensor<16x16xbf16>, %ws: !pto.tensor<16x16xf32> {pto.inout}, %dst: !pto.tensor<16x16xf32> {pto.inout}, %out: !pto.tensor<64x16xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %k_v2c_slot_buffer = pto.reserve_buffer {name = "k_v2c_slot_buffer", size = 2048 : i64, base = -1 : i64} : i32
    %k_c2v_slot_buffer_import = pto.import_peer_buffer {name = "k_c2v_slot_buffer", peer_func = @k_aiv} : i32
    pto.aic_initialize_pipe %k_c2v_slot_buffer_import, %k_v2c_slot_buffer {dir_mask = 3 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %wm = pto.load %w[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %wr = pto.move %wm : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, right>
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
        scf.yield %o : !pto.tensor<64x16xf32>
      }
      %gm_token = pto.create : !pto.tile<16x16xf32, acc>
      pto.tpush_to_aiv %gm_token {split = 0 : i64} : !pto.tile<16x16xf32, acc>
      scf.yield %o2 : !pto.tensor<64x16xf32>
    }
    func.return
  }
  func.func @k_aiv(%x: !pto.tensor<64x16xbf16>, %w: !pto.tensor<16x16xbf16>, %ws: !pto.tensor<16x16xf32> {pto.inout}, %dst: !pto.tensor<16x16xf32> {pto.inout}, %out: !pto.tensor<64x16xf32> {pto.out}) -> !pto.tensor<64x16xf32> attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
    %k_v2c_slot_buffer_import = pto.import_peer_buffer {name = "k_v2c_slot_buffer", peer_func = @k_aic} : i32
    %k_c2v_slot_buffer = pto.reserve_buffer {name = "k_c2v_slot_buffer", size = 2048 : i64, base = -1 : i64} : i32
    pto.aiv_initialize_pipe %k_c2v_slot_buffer, %k_v2c_slot_buffer_import {dir_mask = 3 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %res = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %out) -> (!pto.tensor<64x16xf32>) {
      %r = arith.muli %i, %c16 : index
      %even = arith.cmpi ult, %i, %c2 : index
      %o2 = scf.if %even -> (!pto.tensor<64x16xf32>) {
        scf.yield %o : !pto.tensor<64x16xf32>
      } else {
        // expected-error@+1 {{unordered cross-core dependence across loop iterations (WAR, AIV -> AIC): the AIC 'pto.store' and this AIV 'pto.load' access one GM tensor}}
        %v = pto.load %ws[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
        %o3 = pto.store %v, %o[%r, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<64x16xf32>
        scf.yield %o3 : !pto.tensor<64x16xf32>
      }
      %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x16xf32, vec>
      pto.tfree_to_aic %ws_gm_sync : !pto.tile<16x16xf32, vec>
      scf.yield %o2 : !pto.tensor<64x16xf32>
    }
    func.return %res : !pto.tensor<64x16xf32>
  }
  func.func @k(%x: !pto.tensor<64x16xbf16>, %w: !pto.tensor<16x16xbf16>, %ws: !pto.tensor<16x16xf32> {pto.inout}, %dst: !pto.tensor<16x16xf32> {pto.inout}, %out: !pto.tensor<64x16xf32> {pto.out}) -> !pto.tensor<64x16xf32> attributes {pto.kind = #pto.kind<group>} {
    func.call @k_aic(%x, %w, %ws, %dst, %out) : (!pto.tensor<64x16xbf16>, !pto.tensor<16x16xbf16>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<64x16xf32>) -> ()
    %0 = func.call @k_aiv(%x, %w, %ws, %dst, %out) : (!pto.tensor<64x16xbf16>, !pto.tensor<16x16xbf16>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<64x16xf32>) -> !pto.tensor<64x16xf32>
    func.return %out : !pto.tensor<64x16xf32>
  }
}

// -----

// 9. The same without its C->V fence: the vector load of a later iteration may read %ws before the cube's store.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k_aic(%x: !pto.tensor<64x16xbf16>, %w: !pto.tensor<16x16xbf16>, %ws: !pto.tensor<16x16xf32> {pto.inout}, %dst: !pto.tensor<16x16xf32> {pto.inout}, %out: !pto.tensor<64x16xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %k_v2c_slot_buffer = pto.reserve_buffer {name = "k_v2c_slot_buffer", size = 2048 : i64, base = -1 : i64} : i32
    %k_c2v_slot_buffer_import = pto.import_peer_buffer {name = "k_c2v_slot_buffer", peer_func = @k_aiv} : i32
    pto.aic_initialize_pipe %k_c2v_slot_buffer_import, %k_v2c_slot_buffer {dir_mask = 3 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %wm = pto.load %w[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %wr = pto.move %wm : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, right>
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
        scf.yield %o : !pto.tensor<64x16xf32>
      }
      %ws_gm_sync = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x16xf32, mat>
      pto.tfree_to_aiv %ws_gm_sync : !pto.tile<16x16xf32, mat>
      scf.yield %o2 : !pto.tensor<64x16xf32>
    }
    func.return
  }
  func.func @k_aiv(%x: !pto.tensor<64x16xbf16>, %w: !pto.tensor<16x16xbf16>, %ws: !pto.tensor<16x16xf32> {pto.inout}, %dst: !pto.tensor<16x16xf32> {pto.inout}, %out: !pto.tensor<64x16xf32> {pto.out}) -> !pto.tensor<64x16xf32> attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
    %k_v2c_slot_buffer_import = pto.import_peer_buffer {name = "k_v2c_slot_buffer", peer_func = @k_aic} : i32
    %k_c2v_slot_buffer = pto.reserve_buffer {name = "k_c2v_slot_buffer", size = 2048 : i64, base = -1 : i64} : i32
    pto.aiv_initialize_pipe %k_c2v_slot_buffer, %k_v2c_slot_buffer_import {dir_mask = 3 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %res = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %out) -> (!pto.tensor<64x16xf32>) {
      %r = arith.muli %i, %c16 : index
      %even = arith.cmpi ult, %i, %c2 : index
      %o2 = scf.if %even -> (!pto.tensor<64x16xf32>) {
        scf.yield %o : !pto.tensor<64x16xf32>
      } else {
        // expected-error@+1 {{unordered cross-core dependence across loop iterations (RAW, AIC -> AIV): the AIC 'pto.store' and this AIV 'pto.load' access one GM tensor}}
        %v = pto.load %ws[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
        %o3 = pto.store %v, %o[%r, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<64x16xf32>
        scf.yield %o3 : !pto.tensor<64x16xf32>
      }
      %gm_token = pto.create : !pto.tile<16x16xf32, vec>
      pto.tpush_to_aic %gm_token {split = 0 : i64} : !pto.tile<16x16xf32, vec>
      scf.yield %o2 : !pto.tensor<64x16xf32>
    }
    func.return %res : !pto.tensor<64x16xf32>
  }
  func.func @k(%x: !pto.tensor<64x16xbf16>, %w: !pto.tensor<16x16xbf16>, %ws: !pto.tensor<16x16xf32> {pto.inout}, %dst: !pto.tensor<16x16xf32> {pto.inout}, %out: !pto.tensor<64x16xf32> {pto.out}) -> !pto.tensor<64x16xf32> attributes {pto.kind = #pto.kind<group>} {
    func.call @k_aic(%x, %w, %ws, %dst, %out) : (!pto.tensor<64x16xbf16>, !pto.tensor<16x16xbf16>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<64x16xf32>) -> ()
    %0 = func.call @k_aiv(%x, %w, %ws, %dst, %out) : (!pto.tensor<64x16xbf16>, !pto.tensor<16x16xbf16>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<64x16xf32>) -> !pto.tensor<64x16xf32>
    func.return %out : !pto.tensor<64x16xf32>
  }
}

// -----

// The pass output of gm_aliases.mlir's @aliased without its fence: @main passes %s for both %wa and %wb
// (param_aliases follows the calls main -> Group -> AIC/AIV), so the cube's store and the vector load are one
// tensor, unordered.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @aliased_aic(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %wa: !pto.tensor<16x128xf32> {pto.inout}, %wb: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<16x128xf32> {pto.out}) attributes {pto.kind = #pto.kind<aic>} {
    %aliased_c2v_slot_buffer_import = pto.import_peer_buffer {name = "aliased_c2v_slot_buffer", peer_func = @aliased_aiv} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aic_initialize_pipe %aliased_c2v_slot_buffer_import, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %y = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %wa1 = pto.store %y, %wa[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    func.return
  }
  func.func @aliased_aiv(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %wa: !pto.tensor<16x128xf32> {pto.inout}, %wb: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
    %aliased_c2v_slot_buffer = pto.reserve_buffer {name = "aliased_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
    %c0_i32 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %aliased_c2v_slot_buffer, %c0_i32 {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
    // expected-error@+1 {{unordered cross-core dependence: the AIC 'pto.store' and this AIV 'pto.load' access one GM tensor (one writes)}}
    %v = pto.load %wb[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %e = pto.exp %v : !pto.tile<16x128xf32, vec>
    %o = pto.store %e, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %o : !pto.tensor<16x128xf32>
  }
  func.func @aliased(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %wa: !pto.tensor<16x128xf32> {pto.inout}, %wb: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<group>} {
    func.call @aliased_aic(%x, %w, %wa, %wb, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> ()
    %0 = func.call @aliased_aiv(%x, %w, %wa, %wb, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %out : !pto.tensor<16x128xf32>
  }
  func.func @main(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %s = pto.create_tensor : !pto.tensor<16x128xf32>
    %o1 = pto.create_tensor : !pto.tensor<16x128xf32>
    %r1 = func.call @aliased(%x, %w, %s, %s, %o1) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %r1 : !pto.tensor<16x128xf32>
  }
}
