// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s

// GM-mediated sync (reference §6, from analysis/hazards.py): a cube store that the vector side later loads is
// fenced by a data-less handshake — `tpush_to_aiv` of the stored tile right after the store, a
// `%<origin>_gm_sync` token popped (and freed at once) right before the load, or before the op of the store's
// block that encloses a nested load (hoisted out of the loop).  Beyond the reference: the WAR of a scratch
// tensor reused by the next iteration, V->C exchanges and cross-scope pairs are fenced too (more in
// gm_hazards.mlir).  The same on both targets.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // Straight line: the workspace %ws is written by the cube and read back by the vector side.
  // CHECK-LABEL: func.func @straight_aic(
  // CHECK:      %ws_1 = pto.store %y, %ws[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
  // CHECK-NEXT: pto.tpush_to_aiv %y {split = 0 : i64} : !pto.tile<16x128xf32, acc>
  // CHECK-NEXT: func.return
  // CHECK-LABEL: func.func @straight_aiv(
  // CHECK-NEXT: pto.reserve_buffer {name = "straight_c2v_slot_buffer", size = 16384 : i64
  // CHECK:      %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: pto.tfree_to_aic %ws_gm_sync : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %v = pto.load %ws
  func.func @straight(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                      %ws: !pto.tensor<16x128xf32> {pto.inout},
                      %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %y = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %ws_1 = pto.store %y, %ws[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    %v = pto.load %ws_1[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %e = pto.exp %v : !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %e, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }

  // The load sits in a loop after the store: the token is popped once, before the loop (as often as the
  // push runs).
  // CHECK-LABEL: func.func @hoisted_aic(
  // CHECK:      pto.store %y, %ws[0, 0]
  // CHECK-NEXT: pto.tpush_to_aiv %y {split = 0 : i64} : !pto.tile<16x128xf32, acc>
  // CHECK-LABEL: func.func @hoisted_aiv(
  // CHECK:      %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: pto.tfree_to_aic %ws_gm_sync
  // CHECK-NEXT: %res = scf.for
  // CHECK-NOT:  pto.tpop_from_aic
  // CHECK:      %v = pto.load %ws
  // CHECK-NOT:  pto.tpop_from_aic
  // CHECK:      func.return
  func.func @hoisted(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                     %ws: !pto.tensor<16x128xf32> {pto.inout},
                     %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %y = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %ws_1 = pto.store %y, %ws[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    %res = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %out) -> (!pto.tensor<16x128xf32>) {
      %v = pto.load %ws_1[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
      %e = pto.exp %v : !pto.tile<16x128xf32, vec>
      %o2 = pto.store %e, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
      scf.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %res : !pto.tensor<16x128xf32>
  }

  // Store and load both inside the loop body: fenced inside the loop, every iteration; and the next iteration's
  // store must wait for this iteration's load (WAR): a V->C acknowledgement popped at the end of the iteration.
  // CHECK-LABEL: func.func @in_loop_aic(
  // CHECK:      scf.for
  // CHECK:        pto.store %y, %ws[0, 0]
  // CHECK-NEXT:   pto.tpush_to_aiv %y
  // CHECK-NEXT:   %ws_gm_sync = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x128xf32, mat>
  // CHECK-NEXT:   pto.tfree_to_aiv %ws_gm_sync
  // CHECK-LABEL: func.func @in_loop_aiv(
  // CHECK:      scf.for
  // CHECK:        %ws_gm_sync = pto.tpop_from_aic
  // CHECK-NEXT:   pto.tfree_to_aic %ws_gm_sync
  // CHECK-NEXT:   %v = pto.load %ws
  func.func @in_loop(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                     %ws: !pto.tensor<16x128xf32> {pto.inout},
                     %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %res = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %out) -> (!pto.tensor<16x128xf32>) {
      %y = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
      %ws_1 = pto.store %y, %ws[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
      %v = pto.load %ws_1[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
      %o2 = pto.store %v, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
      scf.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %res : !pto.tensor<16x128xf32>
  }

  // Not fenced by the reference, fenced here: a vector store read back by the cube (V->C through GM: the AIV
  // pushes its stored tile, the AIC pops before its load), and a cube store inside a loop whose load comes
  // after the loop (a token pushed after the loop, popped before the load).
  // CHECK-LABEL: func.func @unfenced_aic(
  // CHECK:      pto.aic_initialize_pipe {{.*}}dir_mask = 3 : i64
  // CHECK:      %ws_gm_sync = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x128xbf16, mat>
  // CHECK-NEXT: pto.tfree_to_aiv %ws_gm_sync
  // CHECK-NEXT: %m = pto.load %ws[0, 0]
  // CHECK:      scf.for
  // CHECK:      }
  // CHECK-NEXT: %gm_token = pto.create : !pto.tile<16x128xf32, acc>
  // CHECK-NEXT: pto.tpush_to_aiv %gm_token {split = 0 : i64}
  // CHECK-NEXT: func.return
  // CHECK-LABEL: func.func @unfenced_aiv(
  // CHECK:      %ws_1 = pto.store %x_vec, %ws[0, 0]
  // CHECK:      pto.tpush_to_aic
  // CHECK:      %ws2_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: pto.tfree_to_aic %ws2_gm_sync
  // CHECK-NEXT: %v = pto.load %ws2[0, 0]
  func.func @unfenced(%x: !pto.tensor<16x128xbf16>, %k: !pto.tensor<128x16xbf16>,
                      %r: !pto.tensor<16x16xf32> {pto.out}, %ws: !pto.tensor<16x128xbf16> {pto.inout},
                      %ws2: !pto.tensor<16x128xf32> {pto.inout},
                      %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %x_vec = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, vec>
    %ws_1 = pto.store %x_vec, %ws[0, 0] : !pto.tile<16x128xbf16, vec>, !pto.tensor<16x128xbf16>
    %m = pto.load %ws_1[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %a = pto.move %m : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %k_mat = pto.load %k[0, 0] : !pto.tensor<128x16xbf16> -> !pto.tile<128x16xbf16, mat>
    %k_right = pto.move %k_mat : !pto.tile<128x16xbf16, mat> -> !pto.tile<128x16xbf16, right>
    %y0 = pto.matmul %a, %k_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x16xbf16, right> -> !pto.tile<16x16xf32, acc>
    %r_1 = pto.store %y0, %r[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %y = pto.create : !pto.tile<16x128xf32, acc>
      %ws2_1 = pto.store %y, %ws2[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    }
    %v = pto.load %ws2[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %v, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }

  // The load sits in a branch after the store: the token is popped before the scf.if, whatever branch runs.
  // CHECK-LABEL: func.func @in_branch_aiv(
  // CHECK:      %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: pto.tfree_to_aic %ws_gm_sync
  // CHECK-NEXT: %res = scf.if
  func.func @in_branch(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                       %ws: !pto.tensor<16x128xf32> {pto.inout},
                       %out: !pto.tensor<16x128xf32> {pto.out}, %flag: i1) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %y = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %ws_1 = pto.store %y, %ws[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    %res = scf.if %flag -> (!pto.tensor<16x128xf32>) {
      %v = pto.load %ws_1[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
      %o2 = pto.store %v, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
      scf.yield %o2 : !pto.tensor<16x128xf32>
    } else {
      scf.yield %out : !pto.tensor<16x128xf32>
    }
    func.return %res : !pto.tensor<16x128xf32>
  }
}
