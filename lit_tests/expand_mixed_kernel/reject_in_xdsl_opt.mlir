// RUN: not xdsl-opt -p expand-mixed-kernel %s 2>&1 | filecheck %s
// RUN: sed 's/a2a3/a5/' %s > %t.mlir && not xdsl-opt -p expand-mixed-kernel %t.mlir 2>&1 | filecheck %s
// RUN: not xdsl-opt -p expand-mixed-kernel < %s 2>&1 | filecheck %s --check-prefix=STDIN

// The pass run by xDSL's own driver: xdsl-opt parses without source locations and lets a pass error escape
// (outside --verify-diagnostics). The error still prints as a located diagnostic with exit status 1, as
// pypto-opt prints it, and no Python traceback: the op at fault is found again in the input file. From
// standard input there is no file to read again: the message carries `<stdin>` and no line, still no traceback.

// CHECK-NOT: Traceback
// CHECK: reject_in_xdsl_opt.mlir{{.*}}:[[# @LINE + 8]]:5: error: ExpandMixedKernel: a pto.split_aiv_scope region reached the pass in '@k'; regions are lowered by LowerAutoVectorSplit, so run --lower-auto-vector-split before --expand-mixed-kernel
// CHECK-NOT: Traceback
// STDIN-NOT: Traceback
// STDIN: <stdin>: error: ExpandMixedKernel: a pto.split_aiv_scope region reached the pass in '@k'
// STDIN-NOT: Traceback
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%data: !pto.tensor<128x128xf32>, %out: !pto.tensor<128x128xf32> {pto.out}) -> !pto.tensor<128x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %r2 = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<128x128xf32>) {
      %x = pto.load %data[0, 0] : !pto.tensor<128x128xf32> -> !pto.tile<128x128xf32, vec>
      %y = pto.store %x, %out[0, 0] : !pto.tile<128x128xf32, vec>, !pto.tensor<128x128xf32>
      pto.yield %y : !pto.tensor<128x128xf32>
    }
    func.return %r2 : !pto.tensor<128x128xf32>
  }
}
