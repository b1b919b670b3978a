// RUN: pypto-opt %s --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'

// What is still refused among the C->V boundaries that break the shard's valid-extent rules on an odd box (the
// others are carried widened: widened_columns.mlir), on both targets: a valid extent known only at run time
// cannot be narrowed back per lane (the narrowing needs it as a value the tile type does not carry).

// LEFT_RIGHT, a run-time valid row extent beside 26 valid of 31 columns.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @lr_runtime_rows(%qk: !pto.tile<16x31xf32, acc, valid = [?, 26]>, %x: !pto.tensor<16x31xf32>, %out: !pto.tensor<16x31xf32> {pto.out}) -> !pto.tensor<16x31xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    // expected-error@+1 {{LowerAutoVectorSplit: LEFT_RIGHT splits the column axis, but this tile's valid column extent (26) does not cover the full box (31)}}
    %s = pto.move %qk : !pto.tile<16x31xf32, acc, valid = [?, 26]> -> !pto.tile<16x31xf32, vec, valid = [?, 26]>
    %m = pto.load %x[0, 0] : !pto.tensor<16x31xf32> -> !pto.tile<16x31xf32, vec>
    %e = pto.exp %s : !pto.tile<16x31xf32, vec, valid = [?, 26]>
    %o = pto.store %e, %out[0, 0] : !pto.tile<16x31xf32, vec, valid = [?, 26]>, !pto.tensor<16x31xf32>
    func.return %o : !pto.tensor<16x31xf32>
  }
}

// -----

// UP_DOWN, 15 rows of 15 with a run-time valid column extent.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @ud_runtime_cols(%qk: !pto.tile<15x32xf32, acc, valid = [15, ?]>, %out: !pto.tensor<15x32xf32> {pto.out}) -> !pto.tensor<15x32xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    // expected-error@+1 {{LowerAutoVectorSplit: the C->V boundary tile's valid column extent is a runtime value narrower than the physical box (32)}}
    %s = pto.move %qk : !pto.tile<15x32xf32, acc, valid = [15, ?]> -> !pto.tile<15x32xf32, vec, valid = [15, ?]>
    %e = pto.exp %s : !pto.tile<15x32xf32, vec, valid = [15, ?]>
    %o = pto.store %e, %out[0, 0] : !pto.tile<15x32xf32, vec, valid = [15, ?]>, !pto.tensor<15x32xf32>
    func.return %o : !pto.tensor<15x32xf32>
  }
}
