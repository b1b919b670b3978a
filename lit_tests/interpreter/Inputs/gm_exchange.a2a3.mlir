// A mixed kernel exchanging a tile C->V through a GM scratch tensor (the cube stores, the vector side loads):
// ExpandMixedKernel fences the pair with a tpush/tpop token.  Used by the oracle mutation tests.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%a: !pto.tensor<16x16xf16>, %scratch: !pto.tensor<16x16xf32> {pto.out}, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %m = pto.load %a[0, 0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
    %l = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
    %r = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
    %c = pto.matmul %l, %r : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
    %s2 = pto.store %c, %scratch[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
    %v = pto.load %s2[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    %e = pto.exp %v : !pto.tile<16x16xf32, vec>
    %o2 = pto.store %e, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
}
