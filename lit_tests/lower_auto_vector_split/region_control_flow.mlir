// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: pypto-opt %s --lower-auto-vector-split | pypto-opt | filecheck %s

// Regions are found and lowered inside scf.for / scf.if / scf.while; the control flow around them is kept,
// statements outside regions stay full width, and sibling regions of different modes are each lowered with
// their own lane binding.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @in_loops
  // CHECK:        %acc = pto.matmul
  // CHECK:        %o_loop = scf.for %i = %c0 to %c4 step %c1 iter_args(%o_it = %o) -> (!pto.tensor<16x128xf32>) {
  // CHECK-NEXT:     %aiv_id = pto.get_subblock_idx : index
  // CHECK-NEXT:     %h = pto.aiv_shard %acc {split = 1 : i64}
  // CHECK:          %o2 = pto.store %h, %o_it[%row, 0]
  // CHECK-NEXT:     scf.yield %o2 : !pto.tensor<16x128xf32>
  // CHECK-NEXT:   }
  // CHECK:        %o_if = scf.if %first -> (!pto.tensor<16x128xf32>) {
  // CHECK-NEXT:     %lane = pto.get_subblock_idx : index
  // CHECK-NEXT:     %x = pto.load %o_loop[%lane, 0]
  // CHECK:          scf.yield %o3 : !pto.tensor<16x128xf32>
  // CHECK-NEXT:   } else {
  // CHECK-NEXT:     scf.yield %o_loop : !pto.tensor<16x128xf32>
  // CHECK-NEXT:   }
  // CHECK:        %o_while = scf.while (%w = %o_if) : (!pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32> {
  // CHECK:        } do {
  // CHECK-NEXT:   ^{{.*}}(%w2: !pto.tensor<16x128xf32>):
  // CHECK-NEXT:     %aiv_id_1 = pto.get_subblock_idx : index
  // CHECK-NEXT:     %y = pto.load %w2[%aiv_id_1, 0]
  // CHECK-NOT:    pto.split_aiv_scope
  // CHECK:        func.return %o_while
  func.func @in_loops(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}, %first: i1) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %o_loop = scf.for %i = %c0 to %c4 step %c1 iter_args(%o_it = %o) -> (!pto.tensor<16x128xf32>) {
      %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
        %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
        %c8 = arith.constant 8 : index
        %row = arith.muli %aiv_id, %c8 : index
        %o2 = pto.store %h, %o_it[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
        pto.yield %o2 : !pto.tensor<16x128xf32>
      }
      scf.yield %r : !pto.tensor<16x128xf32>
    }
    %o_if = scf.if %first -> (!pto.tensor<16x128xf32>) {
      %r2 = pto.split_aiv_scope none (%lane) -> (!pto.tensor<16x128xf32>) {
        %x = pto.load %o_loop[%lane, 0] : !pto.tensor<16x128xf32> -> !pto.tile<1x128xf32, vec>
        %e = pto.exp %x : !pto.tile<1x128xf32, vec>
        %o3 = pto.store %e, %o_loop[%lane, 0] : !pto.tile<1x128xf32, vec>, !pto.tensor<16x128xf32>
        pto.yield %o3 : !pto.tensor<16x128xf32>
      }
      scf.yield %r2 : !pto.tensor<16x128xf32>
    } else {
      scf.yield %o_loop : !pto.tensor<16x128xf32>
    }
    %o_while = scf.while (%w = %o_if) : (!pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32> {
      scf.condition(%first) %w : !pto.tensor<16x128xf32>
    } do {
    ^bb0(%w2: !pto.tensor<16x128xf32>):
      %r3 = pto.split_aiv_scope none (%aiv_id) -> (!pto.tensor<16x128xf32>) {
        %y = pto.load %w2[%aiv_id, 0] : !pto.tensor<16x128xf32> -> !pto.tile<1x128xf32, vec>
        %n = pto.neg %y : !pto.tile<1x128xf32, vec>
        %o4 = pto.store %n, %w2[%aiv_id, 0] : !pto.tile<1x128xf32, vec>, !pto.tensor<16x128xf32>
        pto.yield %o4 : !pto.tensor<16x128xf32>
      }
      scf.yield %r3 : !pto.tensor<16x128xf32>
    }
    func.return %o_while : !pto.tensor<16x128xf32>
  }

  // Sibling regions of different modes (up_down, then left_right, then none) in one function: each is lowered
  // with its own mode and its own lane binding; the full-width load between them is untouched. The full-width
  // code reads and writes tensors no region stores (%x, %z): after a region the two lanes are not synchronised,
  // so a full-width access to a tensor a region's lanes store is rejected (region_errors.mlir).
  // CHECK-LABEL: func.func @siblings
  // CHECK:        %aiv_id = pto.get_subblock_idx : index
  // CHECK-NEXT:   %rows = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
  // CHECK:        %aiv_id_1 = pto.get_subblock_idx : index
  // CHECK-NEXT:   %cols = pto.aiv_shard %acc {split = 2 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<16x64xf32, vec>
  // CHECK:        %aiv_id_2 = pto.get_subblock_idx : index
  // CHECK-NEXT:   %all = pto.aiv_shard %acc {split = 0 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
  // CHECK-NOT:    pto.split_aiv_scope
  func.func @siblings(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %x: !pto.tensor<16x128xf32>, %o: !pto.tensor<16x128xf32> {pto.out}, %p: !pto.tensor<16x128xf32> {pto.out}, %q: !pto.tensor<16x128xf32> {pto.out}, %z: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r1 = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %rows = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
      %c8 = arith.constant 8 : index
      %row = arith.muli %aiv_id, %c8 : index
      %o2 = pto.store %rows, %o[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    %full = pto.load %x[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %r2 = pto.split_aiv_scope left_right (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %cols = pto.aiv_shard %acc {split = 2 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<16x64xf32, vec>
      %c64 = arith.constant 64 : index
      %col = arith.muli %aiv_id, %c64 : index
      %p2 = pto.store %cols, %p[0, %col] : !pto.tile<16x64xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %p2 : !pto.tensor<16x128xf32>
    }
    %r3 = pto.split_aiv_scope none (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %all = pto.aiv_shard %acc {split = 0 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
      %c8 = arith.constant 8 : index
      %row = arith.muli %aiv_id, %c8 : index
      %mine = pto.slice %all[%row, 0] : !pto.tile<16x128xf32, vec> -> !pto.tile<8x128xf32, vec>
      %s = pto.add %mine, %mine : !pto.tile<8x128xf32, vec>
      %q2 = pto.store %s, %q[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %q2 : !pto.tensor<16x128xf32>
    }
    %o3 = pto.store %full, %z[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %o3 : !pto.tensor<16x128xf32>
  }
}
