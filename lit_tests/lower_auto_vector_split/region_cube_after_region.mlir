// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s --check-prefix=LAVS
// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s | filecheck %s --check-prefix=EXEC
// RUN: sed 's/a2a3/a5/' %s | pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel - | filecheck %s --check-prefix=EXEC

// A cube access of a tensor after a split_aiv_scope region whose lanes each store their own rows of it is not a
// cross-lane race: the cube is not on the AIV lanes. LowerAutoVectorSplit's cross-lane GM order check asks each
// op's GmAccess trait and skips cube-side accesses (a pto.load into mat here); ExpandMixedKernel orders the
// load after both lanes' stores with a V->C GM fence (the cube's pop waits for the push of each lane). Execution
// (both schedule orders, race detector) agrees on both targets.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // LAVS-LABEL: func.func @cube_load_after_region
  // LAVS:         %o2 = pto.store %rows, %o[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
  // LAVS:         %full = pto.load %o2[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, mat>

  // CHECK-LABEL: func.func @cube_load_after_region_aic
  // CHECK:         pto.tpush_to_aiv %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc>
  // CHECK-NEXT:    %o_gm_sync = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<8x128xf32, mat>
  // CHECK-NEXT:    pto.tfree_to_aiv %o_gm_sync : !pto.tile<8x128xf32, mat>
  // CHECK-NEXT:    %full = pto.load %o[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, mat>
  // CHECK-LABEL: func.func @cube_load_after_region_aiv
  // CHECK:         %rows = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<8x128xf32, vec>
  // CHECK:         %o2 = pto.store %rows, %o[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
  // A2A3-NEXT:     pto.tpush_to_aic %rows {split = 0 : i64} : !pto.tile<8x128xf32, vec>
  // A5-NEXT:       %rows_nz = pto.move %rows : !pto.tile<8x128xf32, vec> -> !pto.tile<8x128xf32, vec, blayout = col_major, slayout = row_major>
  // A5-NEXT:       pto.tpush_to_aic %rows_nz {split = 0 : i64}
  // CHECK-NEXT:    pto.tfree_to_aic %rows : !pto.tile<8x128xf32, vec>

  // EXEC: check of pipeline 'lower-auto-vector-split,expand-mixed-kernel' passed
  func.func @cube_load_after_region(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}, %p: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
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
    %full = pto.load %r1[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, mat>
    %acc2 = pto.move %full : !pto.tile<16x128xf32, mat> -> !pto.tile<16x128xf32, acc>
    %p2 = pto.store %acc2, %p[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    func.return %p2 : !pto.tensor<16x128xf32>
  }
}
