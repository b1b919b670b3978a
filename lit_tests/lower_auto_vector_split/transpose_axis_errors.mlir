// RUN: pypto-opt %s --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'

// Transposes that swap the split axis (issue 43, part 2; transpose_axis.mlir shows what is split): where values
// split over the lanes on different axes meet — an elementwise op, a loop carry, the two branches of an scf.if —
// each lane holds a row band of one and a column band of the other, so no lane has the cells the other one
// needs.  One of them is then computed whole on both lanes when its producers can be (whole_retry.mlir); here
// both come out of an scf.while, which the whole chains do not cross, so the pass refuses.  (By default such a
// kernel compiles unsplit: default_unsplit.mlir.)

// An elementwise op adding the transposed tile (split on dim 1) to its source (split on dim 0), both from an scf.while.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @meet_add(%qk: !pto.tile<16x16xf32, acc>, %out: !pto.tensor<16x16xf32> {pto.out})
      -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s0 = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %n0 = arith.constant 0 : index
    %s = scf.while (%w = %s0) : (!pto.tile<16x16xf32, vec>) -> (!pto.tile<16x16xf32, vec>) {
      %never = arith.cmpi slt, %n0, %n0 : index
      scf.condition(%never) %w : !pto.tile<16x16xf32, vec>
    } do {
    ^bb0(%w2: !pto.tile<16x16xf32, vec>):
      scf.yield %w2 : !pto.tile<16x16xf32, vec>
    }
    %t = pto.transpose %s : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>
    // expected-error@+1 {{LowerAutoVectorSplit: 'pto.add' combines values split over the AIV lanes on different axes ('t' on dim 1, 's' on dim 0): a pto.transpose moved the split axis of one of them, so each lane holds a different band of each and no lane holds the cells the other one needs}}
    %y = pto.add %t, %s : !pto.tile<16x16xf32, vec>
    %o = pto.store %y, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }
}

// -----

// A loop-carried tile that enters split on dim 1 (from an scf.while) and is yielded transposed, split on dim 0.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @meet_carry(%qk: !pto.tile<16x16xf32, acc>, %out: !pto.tensor<16x16xf32> {pto.out})
      -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s0 = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %n0 = arith.constant 0 : index
    %s = scf.while (%w = %s0) : (!pto.tile<16x16xf32, vec>) -> (!pto.tile<16x16xf32, vec>) {
      %never = arith.cmpi slt, %n0, %n0 : index
      scf.condition(%never) %w : !pto.tile<16x16xf32, vec>
    } do {
    ^bb0(%w2: !pto.tile<16x16xf32, vec>):
      scf.yield %w2 : !pto.tile<16x16xf32, vec>
    }
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %acc = scf.for %k = %c0 to %c2 step %c1 iter_args(%a = %s) -> (!pto.tile<16x16xf32, vec>) {
      %n = pto.transpose %a : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>
      // expected-error@+1 {{LowerAutoVectorSplit: the tile carried as #0 of this scf.for enters the loop and is yielded as values split over the AIV lanes on different axes ('a' on dim 1, 'n' on dim 0)}}
      scf.yield %n : !pto.tile<16x16xf32, vec>
    }
    %o = pto.store %acc, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }
}

// -----

// The two branches of an scf.if: one yields the tile (from an scf.while), the other its transpose.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @meet_if(%qk: !pto.tile<16x16xf32, acc>, %c: i1, %out: !pto.tensor<16x16xf32> {pto.out})
      -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s0 = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %n0 = arith.constant 0 : index
    %s = scf.while (%w = %s0) : (!pto.tile<16x16xf32, vec>) -> (!pto.tile<16x16xf32, vec>) {
      %never = arith.cmpi slt, %n0, %n0 : index
      scf.condition(%never) %w : !pto.tile<16x16xf32, vec>
    } do {
    ^bb0(%w2: !pto.tile<16x16xf32, vec>):
      scf.yield %w2 : !pto.tile<16x16xf32, vec>
    }
    // expected-error@+1 {{LowerAutoVectorSplit: the branches of this scf.if yield result #0 as values split over the AIV lanes on different axes ('s' on dim 0, 't' on dim 1)}}
    %m = scf.if %c -> (!pto.tile<16x16xf32, vec>) {
      scf.yield %s : !pto.tile<16x16xf32, vec>
    } else {
      %t = pto.transpose %s : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>
      scf.yield %t : !pto.tile<16x16xf32, vec>
    }
    %o = pto.store %m, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }
}
