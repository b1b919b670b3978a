// RUN: pypto-opt %s --verify-diagnostics --expand-mixed-kernel
// RUN: pypto-opt %s --verify-diagnostics --insert-gm-fences
// RUN: pypto-opt %s --verify-diagnostics --split-mixed-kernel
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --verify-diagnostics --expand-mixed-kernel
// (These are input checks of the pass: its first phase, --insert-gm-fences, makes them, and --split-mixed-kernel
// makes them too when run alone; the messages are the same.)

// The halves of @k are @k_aic and @k_aiv; a function already named that way is not overwritten.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // expected-error@+1 {{ExpandMixedKernel: cannot split the mixed kernel '@k': its halves are named '@k_aic' and '@k_aiv', but '@k_aiv' already exists in the module; rename that function}}
  func.func @k(%a: !pto.tensor<16x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %m = pto.load %a[0, 0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
    %l = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
    %r = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
    %c = pto.matmul %l, %r : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
    %v = pto.move %c : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %o2 = pto.store %v, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
  func.func @k_aiv(%a: index) -> index attributes {pto.kind = #pto.kind<opaque>} {
    func.return %a : index
  }
}
