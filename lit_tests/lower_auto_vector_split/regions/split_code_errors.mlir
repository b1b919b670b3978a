// RUN: pypto-opt %s --split-input-file --verify-diagnostics --lower-auto-vector-split --expand-mixed-kernel
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics --lower-auto-vector-split --expand-mixed-kernel

// Split codes that pto-isa cannot place are rejected at the boundary op of the region kernel, on both targets.

// (A static ragged extent is no longer rejected here: 12 valid rows of an odd 15-row box, lanes 8 and 4, is
// carried with its valid extent widened to the box, code 3: lit_tests/lower_auto_vector_split/widened_transfer.mlir.)

// A gather has no odd form: re-joining 8 + 7 columns (15, left_right) is rejected.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @odd_gather(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x15xbf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x15xbf16> -> !pto.tile<64x15xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x15xbf16, mat> -> !pto.tile<64x15xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x15xbf16, right> -> !pto.tile<16x15xf32, acc>
    %g_full = pto.split_aiv_scope left_right (%aiv_id) -> (!pto.tile<16x16xf32, mat, valid = [16, 15]>) {
      %h = pto.aiv_shard %acc {split = 2 : i64} : !pto.tile<16x15xf32, acc> -> !pto.tile<16x8xf32, vec>
      %e = pto.exp %h : !pto.tile<16x8xf32, vec>
      // expected-error@+1 {{the gather has no odd form}}
      %g = pto.aic_gather %e {split = 2 : i64} : !pto.tile<16x8xf32, vec> -> !pto.tile<16x16xf32, mat, valid = [16, 15]>
      pto.yield %g : !pto.tile<16x16xf32, mat, valid = [16, 15]>
    }
    %o2 = pto.store %g_full, %o[0, 0] : !pto.tile<16x16xf32, mat, valid = [16, 15]>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
}

// -----

// A run-time valid row count (%n): the split code is fixed at compile time, and the even code places only 0..8 or
// 16 of the 16 rows (13 at run time would leave the lanes 8 and 5, which no code places); the boundary cannot be
// carried whole either (the lane slice would need the run-time extent as a value).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @dynamic(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}, %n: index) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] valid [%n, 64] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat, valid = [?, 64]>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat, valid = [?, 64]> -> !pto.tile<16x64xbf16, left, valid = [?, 64]>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left, valid = [?, 64]>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc, valid = [?, 128]>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      // expected-error@+1 {{ExpandMixedKernel: the Cube -> Vector boundary tile's valid split-axis extent is only known at run time (16-wide dim 0, partitioned by the box half 8), but the pto-isa split code of its transfer is fixed when the kernel is compiled: the even code places only a run-time extent of 0..8 or 16, and any other extent leaves the two AIV lanes cells no code can place (9 valid of 16 leave 8 and 1), a wrong result.}}
      %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc, valid = [?, 128]> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
      %c8 = arith.constant 8 : index
      %row = arith.muli %aiv_id, %c8 : index
      %o2 = pto.store %h, %o[%row, 0] : !pto.tile<8x128xf32, vec, valid = [?, 128]>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}
