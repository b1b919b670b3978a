// RUN: pypto-opt %s --split-input-file --verify-diagnostics --expand-mixed-kernel
// RUN: pypto-opt %s --split-input-file --verify-diagnostics --insert-gm-fences
// RUN: pypto-opt %s --split-input-file --verify-diagnostics --split-mixed-kernel
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics --expand-mixed-kernel
// (These are input checks of the pass: its first phase, --insert-gm-fences, makes them, and --split-mixed-kernel
// makes them too when run alone; the messages are the same.)

// §7.2: a mixed kernel that asks for an up_down / left_right split must not transpose its split axis away
// when it has not been lowered by LowerAutoVectorSplit (no pto.split_aiv: a caller skipped that pass). A kernel
// that pass lowered is not checked: it moves the split axis with the transpose (lower_auto_vector_split/transpose_axis.mlir).

builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%q: !pto.tensor<16x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %m = pto.load %q[0, 0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
    %l = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
    %r = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
    %c = pto.matmul %l, %r : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
    %v = pto.move %c : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    // expected-error@+1 {{ExpandMixedKernel: kernel 'k' requests pto.split<up_down> but contains a pto.transpose (result '%pre_t') that swaps the split axis (dim 0)}}
    %pre_t = pto.transpose %v : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>
    %o2 = pto.store %pre_t, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
}

// -----

// left_right splits dim 1; the message also carries both fixes, the second in the dialect's own syntax (a
// one-column pto.slice of the transpose's source, typed).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%q: !pto.tensor<16x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %m = pto.load %q[0, 0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
    %l = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
    %r = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
    %c = pto.matmul %l, %r : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
    %v = pto.move %c : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    // expected-error@+1 {{swaps the split axis (dim 1): each AIV lane's half would move to the other dimension while the split still halves dim 1, so the result would have the wrong shape and values. Either (1) drop the split — set pto.split = #pto.split<none> — or (2) eliminate this transpose, e.g. take the column you need with a column slice of its source, %col = pto.slice %v[0, %j] : !pto.tile<16x16xf32, vec> -> !pto.tile<16x1xf32, vec>}}
    %t = pto.transpose %v : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>
    %o2 = pto.store %t, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
}
