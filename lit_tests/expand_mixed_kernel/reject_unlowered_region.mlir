// RUN: pypto-opt %s --verify-diagnostics --expand-mixed-kernel
// RUN: pypto-opt %s --verify-diagnostics --insert-gm-fences
// RUN: pypto-opt %s --verify-diagnostics --split-mixed-kernel
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --verify-diagnostics --expand-mixed-kernel
// (These are input checks of the pass: its first phase, --insert-gm-fences, makes them, and --split-mixed-kernel
// makes them too when run alone; the messages are the same.)

// A split_aiv_scope region must have been lowered by LowerAutoVectorSplit before this pass.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%data: !pto.tensor<128x128xf32>, %out: !pto.tensor<128x128xf32> {pto.out}) -> !pto.tensor<128x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    // expected-error@+1 {{a pto.split_aiv_scope region reached the pass in '@k'; regions are lowered by LowerAutoVectorSplit, so run --lower-auto-vector-split before --expand-mixed-kernel}}
    %r2 = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<128x128xf32>) {
      %x = pto.load %data[0, 0] : !pto.tensor<128x128xf32> -> !pto.tile<128x128xf32, vec>
      %y = pto.store %x, %out[0, 0] : !pto.tile<128x128xf32, vec>, !pto.tensor<128x128xf32>
      pto.yield %y : !pto.tensor<128x128xf32>
    }
    func.return %r2 : !pto.tensor<128x128xf32>
  }
}
