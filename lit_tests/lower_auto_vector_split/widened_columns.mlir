// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir --lower-auto-vector-split | filecheck %s
// RUN: pypto-run --quiet --entry lr_cols --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry lr_cols --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry ud_rows_cols --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry ud_rows_cols --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir

// A C->V boundary that breaks the shard's valid-extent rules (reference CheckSplitBoundaryCarriesValid: under
// LEFT_RIGHT the valid columns must cover the box; under UP_DOWN per-lane rows cannot go with narrowed columns)
// on an odd box, where it cannot be carried whole and lane-sliced either (lane 1's window would pass the box).
// Before (issue 43), refused; now carried widened (class 1(c) of docs/lower-auto-vector-split.md, extended to the
// columns): a pto.set_validshape on the cube side widens the columns to the box (and the split axis to an extent
// a split code places), pto.aiv_shard carries it, and each lane narrows its part back to its own valid extent.
// The extra cells carried lie outside the source's valid region, which nothing reads after the narrowing.  The
// IR after the pass is the same on both targets; both kernels are checked by execution on a2a3 and a5.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // LEFT_RIGHT, 26 valid of 31 columns, beside a load of 31 valid columns (stored to a second output; it blocks
  // a balancing lane stride of 13): widened to 31 (lanes of 16 and 15, split code 3), narrowed back to clamp(26 - 16l, 0, 16) columns
  // (16 and 10).
  // CHECK-LABEL: func.func @lr_cols
  // CHECK:       %qk_wide = pto.set_validshape %qk valid [16, 31] : !pto.tile<16x31xf32, acc, valid = [16, 26]> -> !pto.tile<16x31xf32, acc>
  // CHECK-NEXT:  %s_wide = pto.aiv_shard %qk_wide {split = 2 : i64} : !pto.tile<16x31xf32, acc> -> !pto.tile<16x16xf32, vec, valid = [16, ?]>
  // CHECK-NEXT:  %s = pto.set_validshape %s_wide valid [16, %{{.*}}] : !pto.tile<16x16xf32, vec, valid = [16, ?]> -> !pto.tile<16x16xf32, vec, valid = [16, ?]>
  // CHECK:       pto.store %{{.*}}, %out[0, %{{.*}}] : !pto.tile<16x16xf32, vec, valid = [16, ?]>, !pto.tensor<16x31xf32>
  func.func @lr_cols(%qk: !pto.tile<16x31xf32, acc, valid = [16, 26]>, %x: !pto.tensor<16x31xf32>, %out: !pto.tensor<16x31xf32> {pto.out}, %out2: !pto.tensor<16x31xf32> {pto.out}) -> (!pto.tensor<16x31xf32>, !pto.tensor<16x31xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<16x31xf32, acc, valid = [16, 26]> -> !pto.tile<16x31xf32, vec, valid = [16, 26]>
    %l = pto.load %x[0, 0] valid [16, 26] : !pto.tensor<16x31xf32> -> !pto.tile<16x31xf32, vec, valid = [16, 26]>
    %m = pto.load %x[0, 0] : !pto.tensor<16x31xf32> -> !pto.tile<16x31xf32, vec>
    %e = pto.add %s, %l : !pto.tile<16x31xf32, vec, valid = [16, 26]>
    %k = pto.store %m, %out2[0, 0] : !pto.tile<16x31xf32, vec>, !pto.tensor<16x31xf32>
    %o = pto.store %e, %out[0, 0] : !pto.tile<16x31xf32, vec, valid = [16, 26]>, !pto.tensor<16x31xf32>
    func.return %o, %k : !pto.tensor<16x31xf32>, !pto.tensor<16x31xf32>
  }
  // UP_DOWN, 15 rows of 15 (lanes of 8 and 7) with 18 valid of 32 columns: the columns are widened to 32, the
  // rows are placed as they are (split code 3), each lane narrows to its rows and 18 columns.
  // CHECK-LABEL: func.func @ud_rows_cols
  // CHECK:       %qk_wide = pto.set_validshape %qk valid [15, 32] : !pto.tile<15x32xf32, acc, valid = [15, 18]> -> !pto.tile<15x32xf32, acc>
  // CHECK-NEXT:  %s_wide = pto.aiv_shard %qk_wide {split = 1 : i64} : !pto.tile<15x32xf32, acc> -> !pto.tile<8x32xf32, vec, valid = [?, 18]>
  // CHECK-NEXT:  %s = pto.set_validshape %s_wide valid [%{{.*}}, 18] : !pto.tile<8x32xf32, vec, valid = [?, 18]> -> !pto.tile<8x32xf32, vec, valid = [?, 18]>
  func.func @ud_rows_cols(%qk: !pto.tile<15x32xf32, acc, valid = [15, 18]>, %out: !pto.tensor<15x32xf32> {pto.out}) -> !pto.tensor<15x32xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<15x32xf32, acc, valid = [15, 18]> -> !pto.tile<15x32xf32, vec, valid = [15, 18]>
    %e = pto.exp %s : !pto.tile<15x32xf32, vec, valid = [15, 18]>
    %o = pto.store %e, %out[0, 0] : !pto.tile<15x32xf32, vec, valid = [15, 18]>, !pto.tensor<15x32xf32>
    func.return %o : !pto.tensor<15x32xf32>
  }
}
