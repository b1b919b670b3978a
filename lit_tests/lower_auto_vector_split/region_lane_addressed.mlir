// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split | filecheck %s
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel -

// Lane-addressed ops in an explicit-boundary region (reference `ValidateMixedExplicitRegion`, `AddressArgs`):
// a pto.extract whose (row, col) offset, or a pto.gather_row whose source row offset, uses the lane id is
// per-lane, so the region is accepted and spliced unchanged (no halving, no injected %subblock_idx).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @lane_addressed
  // CHECK-SAME:  pto.split_aiv_region_validated
  // CHECK:       %aiv_id = pto.get_subblock_idx : index
  // CHECK-NEXT:  %h = pto.aiv_shard %am {split = 1 : i64} : !pto.tile<16x16xf32, acc> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %c8 = arith.constant 8 : index
  // CHECK-NEXT:  %row = arith.muli %aiv_id, %c8 : index
  // CHECK-NEXT:  %e = pto.extract %b[%row, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %c0_i32 = arith.constant 0 : i32
  // CHECK-NEXT:  %idx = pto.ci %c0_i32 : i32 -> !pto.tile<8x1xi32, vec>
  // CHECK-NEXT:  %g = pto.gather_row %b, %idx[%row] : !pto.tile<16x16xf32, vec>, !pto.tile<8x1xi32, vec> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %s = pto.add %h, %e : !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %t = pto.add %s, %g : !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %o2 = pto.store %t, %o[%row, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<16x16xf32>
  // CHECK-NOT:   pto.get_subblock_idx
  func.func @lane_addressed(%a: !pto.tensor<16x16xf32>, %bt: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out})
      -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %am0 = pto.load %a[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %al = pto.move %am0 : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
    %ar = pto.move %am0 : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, right>
    %am = pto.matmul %al, %ar : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>
    %b = pto.load %bt[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x16xf32>) {
      %h = pto.aiv_shard %am {split = 1 : i64} : !pto.tile<16x16xf32, acc> -> !pto.tile<8x16xf32, vec>
      %c8 = arith.constant 8 : index
      %row = arith.muli %aiv_id, %c8 : index
      %e = pto.extract %b[%row, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>
      %c0_i32 = arith.constant 0 : i32
      %idx = pto.ci %c0_i32 : i32 -> !pto.tile<8x1xi32, vec>
      %g = pto.gather_row %b, %idx[%row] : !pto.tile<16x16xf32, vec>, !pto.tile<8x1xi32, vec> -> !pto.tile<8x16xf32, vec>
      %s = pto.add %h, %e : !pto.tile<8x16xf32, vec>
      %t = pto.add %s, %g : !pto.tile<8x16xf32, vec>
      %o2 = pto.store %t, %o[%row, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<16x16xf32>
      pto.yield %o2 : !pto.tensor<16x16xf32>
    }
    func.return %r : !pto.tensor<16x16xf32>
  }
  func.func @main(%a: !pto.tensor<16x16xf32>, %bt: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<orchestration>} {
    %o = pto.create_tensor : !pto.tensor<16x16xf32>
    %r = func.call @lane_addressed(%a, %bt, %o) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    func.return %r : !pto.tensor<16x16xf32>
  }
}
