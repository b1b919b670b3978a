// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: pypto-opt %s --lower-auto-vector-split | pypto-opt | filecheck %s

// Task-parallel (mode none) regions are spliced unchanged: no halving, no %subblock_idx; the region's %aiv_id
// becomes a pto.get_subblock_idx placed first, yields become the region's results, and the function is marked
// pto.split_aiv + pto.split_aiv_region_validated (nothing else).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @task
  // CHECK-SAME: attributes {pto.kind = #pto.kind<incore>, pto.split_aiv, pto.split_aiv_region_validated}
  // CHECK-NEXT:   %aiv_id = pto.get_subblock_idx : index
  // CHECK-NEXT:   %c64 = arith.constant 64 : index
  // CHECK-NEXT:   %base = arith.muli %aiv_id, %c64 : index
  // CHECK-NEXT:   %x = pto.load %a[%base, 0] : !pto.tensor<128x128xf32> -> !pto.tile<64x128xf32, vec>
  // CHECK-NEXT:   %e = pto.exp %x : !pto.tile<64x128xf32, vec>
  // CHECK-NEXT:   %c2 = pto.store %e, %c[%base, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<128x128xf32>
  // CHECK-NEXT:   func.return %c2 : !pto.tensor<128x128xf32>
  // CHECK-NOT: pto.split_aiv_scope
  func.func @task(%a: !pto.tensor<128x128xf32>, %c: !pto.tensor<128x128xf32> {pto.out}) -> !pto.tensor<128x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %r = pto.split_aiv_scope none (%aiv_id) -> (!pto.tensor<128x128xf32>) {
      %c64 = arith.constant 64 : index
      %base = arith.muli %aiv_id, %c64 : index
      %x = pto.load %a[%base, 0] : !pto.tensor<128x128xf32> -> !pto.tile<64x128xf32, vec>
      %e = pto.exp %x : !pto.tile<64x128xf32, vec>
      %c2 = pto.store %e, %c[%base, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<128x128xf32>
      pto.yield %c2 : !pto.tensor<128x128xf32>
    }
    func.return %r : !pto.tensor<128x128xf32>
  }

  // A shard/gather with split = 0 in a task-parallel region keeps the full shape; the cube part outside the
  // region stays as written, and each lane picks its rows with %aiv_id.
  // CHECK-LABEL: func.func @task_shard
  // CHECK:        %acc = pto.matmul
  // CHECK-NEXT:   %lane = pto.get_subblock_idx : index
  // CHECK-NEXT:   %v = pto.aiv_shard %acc {split = 0 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
  // CHECK:        %mine = pto.slice %v[%row, 0] : !pto.tile<16x128xf32, vec> -> !pto.tile<8x128xf32, vec>
  // CHECK:        %o2 = pto.store %e, %o[%row, 0]
  // CHECK-NEXT:   func.return %o2
  func.func @task_shard(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r = pto.split_aiv_scope none (%lane) -> (!pto.tensor<16x128xf32>) {
      %v = pto.aiv_shard %acc {split = 0 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
      %c8 = arith.constant 8 : index
      %row = arith.muli %lane, %c8 : index
      %mine = pto.slice %v[%row, 0] : !pto.tile<16x128xf32, vec> -> !pto.tile<8x128xf32, vec>
      %e = pto.exp %mine : !pto.tile<8x128xf32, vec>
      %o2 = pto.store %e, %o[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }

  // Not an incore function: the region is left alone (the pass only lowers incore kernels).
  // CHECK-LABEL: func.func @not_incore
  // CHECK: pto.split_aiv_scope none
  func.func @not_incore(%c: !pto.tensor<128x128xf32>) -> !pto.tensor<128x128xf32>
      attributes {pto.kind = #pto.kind<opaque>} {
    %r = pto.split_aiv_scope none (%aiv_id) -> (!pto.tensor<128x128xf32>) {
      pto.yield %c : !pto.tensor<128x128xf32>
    }
    func.return %r : !pto.tensor<128x128xf32>
  }
}
