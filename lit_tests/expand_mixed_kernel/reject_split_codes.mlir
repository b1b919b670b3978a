// RUN: pypto-opt %s --split-input-file --verify-diagnostics --expand-mixed-kernel
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics --expand-mixed-kernel

// Split codes pto-isa cannot place are rejected at the boundary op, with the valid extents that would work.
// The kernels are in the per-lane form (hand-written transfers, pto.split_aiv), as after LowerAutoVectorSplit.

// 13 valid rows of 16 partitioned by the box half 8: lanes 8 and 5.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%a: !pto.tensor<16x128xf32>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %q = pto.load %a[0, 0] valid [13, 128] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, mat, valid = [13, 128]>
    // expected-error@+1 {{ExpandMixedKernel: the Cube -> Vector boundary tile's valid split-axis extent (13 of a 16-wide dim 0) leaves the two AIV lanes 8 and 5 cells (partitioned by the box half 8); pto-isa can place lane 1 only when it holds as many cells as lane 0, one fewer, or none. Make the valid extent one of 0..8, 15 or 16, or let LowerAutoVectorSplit balance the lanes with a lane_stride}}
    %h = pto.aiv_shard %q {split = 1 : i64} : !pto.tile<16x128xf32, mat, valid = [13, 128]> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
    %o2 = pto.store %h, %o[0, 0] : !pto.tile<8x128xf32, vec, valid = [?, 128]>, !pto.tensor<16x128xf32>
    func.return %o2 : !pto.tensor<16x128xf32>
  }
}

// -----

// A lane_stride must balance the extent it was made for: 10 valid rows by stride 7 leave lanes 7 and 3.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%a: !pto.tensor<16x128xf32>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %q = pto.load %a[0, 0] valid [10, 128] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, mat, valid = [10, 128]>
    // expected-error@+1 {{leaves the two AIV lanes 7 and 3 cells (partitioned by lane_stride 7)}}
    %h = pto.aiv_shard %q {split = 1 : i64, lane_stride = 7 : i64} : !pto.tile<16x128xf32, mat, valid = [10, 128]> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
    %o2 = pto.store %h, %o[0, 0] : !pto.tile<8x128xf32, vec, valid = [?, 128]>, !pto.tensor<16x128xf32>
    func.return %o2 : !pto.tensor<16x128xf32>
  }
}

// -----

// A gather has no odd form: 127 valid rows of 128 (lanes 64 and 63) cannot be placed.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%x: !pto.tensor<64x128xf16>, %o: !pto.tensor<128x128xf16> {pto.out}) -> !pto.tensor<128x128xf16>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %h = pto.load %x[0, 0] : !pto.tensor<64x128xf16> -> !pto.tile<64x128xf16, vec>
    // expected-error@+1 {{ExpandMixedKernel: the Vector -> Cube boundary tile's split axis (dim 0, 127 valid of 128) leaves the two AIV lanes 64 and 63 cells, and the gather has no odd form (the vector producer offsets by lane 1's own extent), so pto-isa cannot place lane 1. Make the valid extent one of 0..64 or 128, or gather an evenly split tile}}
    %g = pto.aic_gather %h {split = 1 : i64} : !pto.tile<64x128xf16, vec> -> !pto.tile<128x128xf16, mat, valid = [127, 128]>
    %o2 = pto.store %g, %o[0, 0] : !pto.tile<128x128xf16, mat, valid = [127, 128]>, !pto.tensor<128x128xf16>
    func.return %o2 : !pto.tensor<128x128xf16>
  }
}

// -----

// A valid extent known only at run time: the split code is fixed at compile time, and the even code of a 16-row
// box places only 0..8 or 16 valid rows (13 at run time would leave the lanes 8 and 5): rejected.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%a: !pto.tensor<16x128xf32>, %n: index, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %q = pto.load %a[0, 0] valid [%n, 128] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, mat, valid = [?, 128]>
    // expected-error@+1 {{ExpandMixedKernel: the Cube -> Vector boundary tile's valid split-axis extent is only known at run time (16-wide dim 0, partitioned by the box half 8), but the pto-isa split code of its transfer is fixed when the kernel is compiled: the even code places only a run-time extent of 0..8 or 16, and any other extent leaves the two AIV lanes cells no code can place (9 valid of 16 leave 8 and 1), a wrong result. Give the tile a static valid extent on dim 0, or do not split this kernel (pto.split = #pto.split<none>)}}
    %h = pto.aiv_shard %q {split = 1 : i64} : !pto.tile<16x128xf32, mat, valid = [?, 128]> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
    %o2 = pto.store %h, %o[0, 0] : !pto.tile<8x128xf32, vec, valid = [?, 128]>, !pto.tensor<16x128xf32>
    func.return %o2 : !pto.tensor<16x128xf32>
  }
}

// -----

// The same for a gather of a run-time valid extent (left_right, 15 columns would leave the lanes 8 and 7).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%x: !pto.tensor<16x16xf32>, %n: index, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>, pto.split_aiv} {
    %h = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x8xf32, vec>
    // expected-error@+1 {{ExpandMixedKernel: the Vector -> Cube boundary tile's valid split-axis extent is only known at run time (16-wide dim 1, partitioned by the box half 8), but the pto-isa split code of its transfer is fixed when the kernel is compiled: the even code places only a run-time extent of 0..8 or 16}}
    %g = pto.aic_gather %h {split = 2 : i64} : !pto.tile<16x8xf32, vec> -> !pto.tile<16x16xf32, mat, valid = [16, ?]>
    %o2 = pto.store %g, %o[0, 0] : !pto.tile<16x16xf32, mat, valid = [16, ?]>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
}
