// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefix=EMK
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefix=EMK
// RUN: pypto-run --quiet --entry ragged_odd_with_load --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry ragged_odd_with_load --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry region_rows --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry region_rows --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry region_cols --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry region_cols --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir

// C->V boundaries on an odd box whose lanes no split code places and that cannot be carried whole either (lane
// 1's window passes the box), carried with their valid split-axis extent widened (issue 17; docs/lower-auto-
// vector-split.md, class 1(c)).  A pto.set_validshape on the cube side widens V to the smallest extent a code
// places (here the whole box: lanes 8 and 7, the odd code 3 / 4), and one on the vector side narrows each lane's
// part back to clamp(V - sub*8, 0, 8): each lane's window starts where it did, so the lane holds exactly the
// cells it would have.  The split code and the IR are the same on a2a3 and a5 (the EMK prefix runs on both).
// Every kernel is checked by execution before and after the whole pipeline, on a2a3 and on a5.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // AUTO: 13 valid rows of 15 beside an independent fully valid load (a lane_stride of 7 would leave row 14 of
  // the load to no lane, so the box partition stays: lanes 8 and 5).
  // CHECK-LABEL: func.func @ragged_odd_with_load
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK:       %[[V:.*]] = arith.minsi %{{.*}}, %c8 : index
  // CHECK:       %qk_wide = pto.set_validshape %qk valid [15, 32] : !pto.tile<15x32xf32, acc, valid = [13, 32]> -> !pto.tile<15x32xf32, acc>
  // CHECK-NEXT:  %v_wide = pto.aiv_shard %qk_wide {split = 1 : i64} : !pto.tile<15x32xf32, acc> -> !pto.tile<8x32xf32, vec, valid = [?, 32]>
  // CHECK-NEXT:  %v = pto.set_validshape %v_wide valid [%[[V]], 32] : !pto.tile<8x32xf32, vec, valid = [?, 32]> -> !pto.tile<8x32xf32, vec, valid = [?, 32]>
  // CHECK-NEXT:  %e = pto.exp %v
  // CHECK:       pto.store %e, %o[%[[L]], 0]
  // EMK-LABEL:   func.func @ragged_odd_with_load_aic
  // EMK:         %qk_wide = pto.set_validshape %qk valid [15, 32] : !pto.tile<15x32xf32, acc, valid = [13, 32]> -> !pto.tile<15x32xf32, acc>
  // EMK-NEXT:    pto.tpush_to_aiv %qk_wide {split = 3 : i64} : !pto.tile<15x32xf32, acc>
  // EMK-LABEL:   func.func @ragged_odd_with_load_aiv
  // EMK:         %v_wide = pto.tpop_from_aic {split = 3 : i64} : !pto.tile<8x32xf32, vec, valid = [?, 32]>
  // EMK-NEXT:    %v = pto.set_validshape %v_wide valid [%{{.*}}, 32]
  // EMK:         pto.tfree_to_aic %v_wide
  func.func @ragged_odd_with_load(%a: !pto.tensor<15x64xbf16>, %b: !pto.tensor<64x32xbf16>, %x: !pto.tensor<15x32xf32>,
                                  %o: !pto.tensor<15x32xf32> {pto.out}) -> !pto.tensor<15x32xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %a_mat = pto.load %a[0, 0] valid [13, 64] : !pto.tensor<15x64xbf16> -> !pto.tile<15x64xbf16, mat, valid = [13, 64]>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x32xbf16> -> !pto.tile<64x32xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<15x64xbf16, mat, valid = [13, 64]> -> !pto.tile<15x64xbf16, left, valid = [13, 64]>
    %b_r = pto.move %b_mat : !pto.tile<64x32xbf16, mat> -> !pto.tile<64x32xbf16, right>
    %qk = pto.matmul %a_l, %b_r : !pto.tile<15x64xbf16, left, valid = [13, 64]>, !pto.tile<64x32xbf16, right> -> !pto.tile<15x32xf32, acc, valid = [13, 32]>
    %v = pto.move %qk : !pto.tile<15x32xf32, acc, valid = [13, 32]> -> !pto.tile<15x32xf32, vec, valid = [13, 32]>
    %e = pto.exp %v : !pto.tile<15x32xf32, vec, valid = [13, 32]>
    %o1 = pto.store %e, %o[0, 0] : !pto.tile<15x32xf32, vec, valid = [13, 32]>, !pto.tensor<15x32xf32>
    %l = pto.load %x[0, 0] : !pto.tensor<15x32xf32> -> !pto.tile<15x32xf32, vec>
    %n = pto.neg %l : !pto.tile<15x32xf32, vec>
    %o2 = pto.store %n, %x[0, 0] : !pto.tile<15x32xf32, vec>, !pto.tensor<15x32xf32>
    func.return %o1 : !pto.tensor<15x32xf32>
  }

  // Region: an explicit up_down aiv_shard of 12 valid rows of 15 (lanes 8 and 4), the author's store at
  // aiv_id * 8.
  // CHECK-LABEL: func.func @region_rows
  // CHECK:       %acc_wide = pto.set_validshape %acc valid [15, 128] : !pto.tile<15x128xf32, acc, valid = [12, 128]> -> !pto.tile<15x128xf32, acc>
  // CHECK-NEXT:  %h_wide = pto.aiv_shard %acc_wide {split = 1 : i64} : !pto.tile<15x128xf32, acc> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
  // CHECK-NEXT:  %h = pto.set_validshape %h_wide valid [%{{.*}}, 128] : !pto.tile<8x128xf32, vec, valid = [?, 128]> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
  // EMK-LABEL:   func.func @region_rows_aic
  // EMK:         pto.tpush_to_aiv %acc_wide {split = 3 : i64} : !pto.tile<15x128xf32, acc>
  // EMK-LABEL:   func.func @region_rows_aiv
  // EMK:         %h_wide = pto.tpop_from_aic {split = 3 : i64} : !pto.tile<8x128xf32, vec, valid = [?, 128]>
  // EMK-NEXT:    %h = pto.set_validshape %h_wide valid [%{{.*}}, 128]
  // EMK:         pto.tfree_to_aic %h_wide
  func.func @region_rows(%a: !pto.tensor<15x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<15x128xf32> {pto.out}) -> !pto.tensor<15x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<15x64xbf16> -> !pto.tile<15x64xbf16, mat, valid = [12, 64]>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<15x64xbf16, mat, valid = [12, 64]> -> !pto.tile<15x64xbf16, left, valid = [12, 64]>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<15x64xbf16, left, valid = [12, 64]>, !pto.tile<64x128xbf16, right> -> !pto.tile<15x128xf32, acc, valid = [12, 128]>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<15x128xf32>) {
      %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<15x128xf32, acc, valid = [12, 128]> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
      %e = pto.exp %h : !pto.tile<8x128xf32, vec, valid = [?, 128]>
      %c8 = arith.constant 8 : index
      %row = arith.muli %aiv_id, %c8 : index
      %o2 = pto.store %e, %o[%row, 0] : !pto.tile<8x128xf32, vec, valid = [?, 128]>, !pto.tensor<15x128xf32>
      pto.yield %o2 : !pto.tensor<15x128xf32>
    }
    func.return %r : !pto.tensor<15x128xf32>
  }

  // Region, left_right: 12 valid columns of 15 (lanes 8 and 4), widened to 15: the odd column code 4.
  // CHECK-LABEL: func.func @region_cols
  // CHECK:       %acc_wide = pto.set_validshape %acc valid [16, 15] : !pto.tile<16x15xf32, acc, valid = [16, 12]> -> !pto.tile<16x15xf32, acc>
  // CHECK-NEXT:  %h_wide = pto.aiv_shard %acc_wide {split = 2 : i64} : !pto.tile<16x15xf32, acc> -> !pto.tile<16x8xf32, vec, valid = [16, ?]>
  // CHECK-NEXT:  %h = pto.set_validshape %h_wide valid [16, %{{.*}}] : !pto.tile<16x8xf32, vec, valid = [16, ?]> -> !pto.tile<16x8xf32, vec, valid = [16, ?]>
  // EMK-LABEL:   func.func @region_cols_aic
  // EMK:         pto.tpush_to_aiv %acc_wide {split = 4 : i64} : !pto.tile<16x15xf32, acc>
  // EMK-LABEL:   func.func @region_cols_aiv
  // EMK:         %h_wide = pto.tpop_from_aic {split = 4 : i64} : !pto.tile<16x8xf32, vec, valid = [16, ?]>
  // EMK-NEXT:    %h = pto.set_validshape %h_wide valid [16, %{{.*}}]
  // EMK:         pto.tfree_to_aic %h_wide
  func.func @region_cols(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x15xbf16>, %o: !pto.tensor<16x15xf32> {pto.out}) -> !pto.tensor<16x15xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] valid [64, 12] : !pto.tensor<64x15xbf16> -> !pto.tile<64x15xbf16, mat, valid = [64, 12]>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x15xbf16, mat, valid = [64, 12]> -> !pto.tile<64x15xbf16, right, valid = [64, 12]>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x15xbf16, right, valid = [64, 12]> -> !pto.tile<16x15xf32, acc, valid = [16, 12]>
    %r = pto.split_aiv_scope left_right (%aiv_id) -> (!pto.tensor<16x15xf32>) {
      %h = pto.aiv_shard %acc {split = 2 : i64} : !pto.tile<16x15xf32, acc, valid = [16, 12]> -> !pto.tile<16x8xf32, vec, valid = [16, ?]>
      %e = pto.exp %h : !pto.tile<16x8xf32, vec, valid = [16, ?]>
      %c8 = arith.constant 8 : index
      %col = arith.muli %aiv_id, %c8 : index
      %o2 = pto.store %e, %o[0, %col] : !pto.tile<16x8xf32, vec, valid = [16, ?]>, !pto.tensor<16x15xf32>
      pto.yield %o2 : !pto.tensor<16x15xf32>
    }
    func.return %r : !pto.tensor<16x15xf32>
  }
}
