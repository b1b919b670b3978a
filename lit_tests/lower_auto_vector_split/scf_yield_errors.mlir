// RUN: pypto-opt %s --split-input-file --verify-diagnostics --lower-auto-vector-split
// An scf.if with results must end both regions with an scf.yield of those types; the verifier says so before
// LowerAutoVectorSplit runs (it used to fail inside the pass with an internal IndexError). Issue 14.

builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @if_without_yield(%qk: !pto.tile<16x16xf32, acc>, %c: i1)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    // expected-error@+1 {{'scf.if' op must end its then region with an scf.yield of its result types (!pto.tile<16x16xf32, vec>), but the region ends with an scf.yield of ()}}
    %r = scf.if %c -> (!pto.tile<16x16xf32, vec>) {
      %e = pto.exp %s : !pto.tile<16x16xf32, vec>
    } else {
      %f = pto.exp %s : !pto.tile<16x16xf32, vec>
    }
    func.return
  }
}

// -----

// The yield written inside an inner scf.if does not terminate the outer region.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @yield_in_inner_if(%qk: !pto.tile<16x16xf32, acc>, %c: i1)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %r = scf.if %c -> (!pto.tile<16x16xf32, vec>) {
      scf.if %c {
        // expected-error@+1 {{'scf.if' op must end its then region with an scf.yield of its result types (), but the region ends with an scf.yield of (!pto.tile<16x16xf32, vec>)}}
        scf.yield %s : !pto.tile<16x16xf32, vec>
      }
      scf.yield %s : !pto.tile<16x16xf32, vec>
    } else {
      scf.yield %s : !pto.tile<16x16xf32, vec>
    }
    func.return
  }
}

// -----

// An scf.while whose do block takes more values than scf.condition forwards is refused by the verifier with both
// lists (ExpandMixedKernel used to fail inside the pass with an internal IndexError on this loop).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @while_do_block_arity(%qk: !pto.tile<16x16xf32, acc>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    // expected-error@+1 {{'scf.while' op: its do block takes (!pto.tile<16x16xf32, vec>, index) but scf.condition forwards (!pto.tile<16x16xf32, vec>); the values passed around the loop must match in number and type}}
    %w = scf.while (%p = %s, %k = %c0) : (!pto.tile<16x16xf32, vec>, index) -> (!pto.tile<16x16xf32, vec>) {
      %cond = arith.cmpi slt, %k, %c3 : index
      scf.condition(%cond) %p : !pto.tile<16x16xf32, vec>
    } do {
    ^bb0(%p2: !pto.tile<16x16xf32, vec>, %k2: index):
      scf.yield %p2, %k2 : !pto.tile<16x16xf32, vec>, index
    }
    func.return
  }
}
