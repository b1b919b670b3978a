// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: pypto-opt %s --lower-auto-vector-split | pypto-opt | filecheck %s

// Full-width data-parallel regions (up_down / left_right, no explicit boundary op) are halved in place by the
// AUTO path's machinery with region-local tracking: each region gets its own %subblock_idx (placed before the
// %aiv_id binding, fresh names for siblings), C->V moves become pto.aiv_shard, V->C moves get a pto.aic_gather,
// vector tiles are halved and store offsets localized; code outside the regions stays full width.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @up_down
  // CHECK-SAME: pto.split = #pto.split<up_down>, pto.split_aiv, pto.split_aiv_region_validated
  // CHECK:        %acc = pto.matmul
  // CHECK-NEXT:   %subblock_idx = pto.get_subblock_idx : index
  // CHECK-NEXT:   %aiv_id = pto.get_subblock_idx : index
  // CHECK:        %[[OFF:.+]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:        %s = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
  // CHECK-NEXT:   %e = pto.exp %s : !pto.tile<8x128xf32, vec>
  // CHECK-NEXT:   %m = pto.row_max %e : !pto.tile<8x128xf32, vec> -> !pto.tile<8x1xf32, vec>
  // CHECK-NEXT:   %d = pto.row_expand_sub %e, %m : !pto.tile<8x128xf32, vec>, !pto.tile<8x1xf32, vec>
  // CHECK-NEXT:   %o2 = pto.store %d, %o[%[[OFF]], 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
  // CHECK-NEXT:   func.return %o2
  func.func @up_down(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %s = pto.move %acc : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
      %e = pto.exp %s : !pto.tile<16x128xf32, vec>
      %m = pto.row_max %e : !pto.tile<16x128xf32, vec> -> !pto.tile<16x1xf32, vec>
      %d = pto.row_expand_sub %e, %m : !pto.tile<16x128xf32, vec>, !pto.tile<16x1xf32, vec>
      %o2 = pto.store %d, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }

  // Two sibling data-parallel regions of different modes: distinct %subblock_idx names, each region halves
  // along its own axis (rows, then columns), and the tracking of the first does not leak into the second.
  // A vec -> cube move inside the second region becomes pto.aic_gather (%<dest>_mat) + the placement move;
  // the gathered full tile leaves the region for the cube op after it.
  // CHECK-LABEL: func.func @siblings
  // CHECK-NOT:    pto.split =
  // CHECK:        %subblock_idx = pto.get_subblock_idx : index
  // CHECK-NEXT:   %aiv_id = pto.get_subblock_idx : index
  // CHECK:        %x = pto.load %p[%{{.+}}, 0] : !pto.tensor<16x64xf32> -> !pto.tile<8x64xf32, vec>
  // CHECK:        %subblock_idx__ssa_v0 = pto.get_subblock_idx : index
  // CHECK-NEXT:   %aiv_id_1 = pto.get_subblock_idx : index
  // CHECK:        %y = pto.load %p[0, %{{.+}}] : !pto.tensor<16x64xf32> -> !pto.tile<16x32xf32, vec>
  // CHECK-NEXT:   %z = pto.muls %y, %f
  // CHECK-NEXT:   %zb_mat = pto.aic_gather %z {split = 2 : i64} : !pto.tile<16x32xf32, vec> -> !pto.tile<16x64xf32, mat>
  // CHECK-NEXT:   %zb = pto.move %zb_mat : !pto.tile<16x64xf32, mat> -> !pto.tile<16x64xf32, mat>
  // CHECK:        %zl = pto.move %zb : !pto.tile<16x64xf32, mat> -> !pto.tile<16x64xf32, left>
  func.func @siblings(%p: !pto.tensor<16x64xf32>, %q: !pto.tensor<16x64xf32> {pto.out}, %f: f32) -> !pto.tensor<16x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %r1 = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x64xf32>) {
      %x = pto.load %p[0, 0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
      %xe = pto.exp %x : !pto.tile<16x64xf32, vec>
      %q2 = pto.store %xe, %q[0, 0] : !pto.tile<16x64xf32, vec>, !pto.tensor<16x64xf32>
      pto.yield %q2 : !pto.tensor<16x64xf32>
    }
    %zb_full = pto.split_aiv_scope left_right (%aiv_id) -> (!pto.tile<16x64xf32, mat>) {
      %y = pto.load %p[0, 0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
      %z = pto.muls %y, %f : !pto.tile<16x64xf32, vec>, f32
      %zb = pto.move %z : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xf32, mat>
      pto.yield %zb : !pto.tile<16x64xf32, mat>
    }
    %zl = pto.move %zb_full : !pto.tile<16x64xf32, mat> -> !pto.tile<16x64xf32, left>
    func.return %r1 : !pto.tensor<16x64xf32>
  }

  // A data-parallel region inside a loop, with an inner region nested in it (lowered by recursion, with its
  // own lane binding); the loop-carried tensor is kept.  The inner region writes row 8 * lane, inside the rows
  // the same lane stored in the outer region: the lanes are not synchronized, so a lane must not touch GM
  // rows the other lane's half wrote.
  // CHECK-LABEL: func.func @nested
  // CHECK:        scf.for %i = %c0 to %c2 step %c1 iter_args(%t = %q) -> (!pto.tensor<16x64xf32>) {
  // CHECK-NEXT:     %subblock_idx = pto.get_subblock_idx : index
  // CHECK-NEXT:     %aiv_id = pto.get_subblock_idx : index
  // CHECK:          %x = pto.load %p[%{{.+}}, 0] : !pto.tensor<16x64xf32> -> !pto.tile<8x64xf32, vec>
  // CHECK:          %inner_lane = pto.get_subblock_idx : index
  // CHECK:          %mine = arith.muli %inner_lane, %c8{{.*}} : index
  // CHECK-NEXT:     %w = pto.load %p[%mine, 0] : !pto.tensor<16x64xf32> -> !pto.tile<1x64xf32, vec>
  // CHECK:          scf.yield
  // CHECK-NOT:    pto.split_aiv_scope
  func.func @nested(%p: !pto.tensor<16x64xf32>, %q: !pto.tensor<16x64xf32> {pto.out}) -> !pto.tensor<16x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %res = scf.for %i = %c0 to %c2 step %c1 iter_args(%t = %q) -> (!pto.tensor<16x64xf32>) {
      %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x64xf32>) {
        %x = pto.load %p[0, 0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
        %xe = pto.relu %x : !pto.tile<16x64xf32, vec>
        %t2 = pto.store %xe, %t[0, 0] : !pto.tile<16x64xf32, vec>, !pto.tensor<16x64xf32>
        %t3 = pto.split_aiv_scope none (%inner_lane) -> (!pto.tensor<16x64xf32>) {
          %c8 = arith.constant 8 : index
          %mine = arith.muli %inner_lane, %c8 : index
          %w = pto.load %p[%mine, 0] : !pto.tensor<16x64xf32> -> !pto.tile<1x64xf32, vec>
          %wn = pto.neg %w : !pto.tile<1x64xf32, vec>
          %t4 = pto.store %wn, %t2[%mine, 0] : !pto.tile<1x64xf32, vec>, !pto.tensor<16x64xf32>
          pto.yield %t4 : !pto.tensor<16x64xf32>
        }
        pto.yield %t3 : !pto.tensor<16x64xf32>
      }
      scf.yield %r : !pto.tensor<16x64xf32>
    }
    func.return %res : !pto.tensor<16x64xf32>
  }
}
