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
