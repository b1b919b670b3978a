// RUN: not pypto-opt %s '--lower-auto-vector-split{fallback=error}' --expand-mixed-kernel --split-report=%t.txt 2> /dev/null
// RUN: filecheck %s --input-file %t.txt
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: not pypto-opt %t.a5.mlir '--lower-auto-vector-split{fallback=error}' --expand-mixed-kernel --split-report=%t.a5.txt 2> /dev/null
// RUN: filecheck %s --input-file %t.a5.txt

// A refused kernel is in the report too (written although the run fails): with fallback=error (a contract) a
// column reduction under up_down whose result has a run-time valid extent (its lanes' partials cannot be combined)
// is an error, and the report carries it at the op that forced it. The
// kernel has no LowerAutoVectorSplit line (CHECK-NEXT): the pass decided nothing for it before it refused it.
// CHECK-LABEL: kernel @col_reduce: split up_down requested, rejected (below)
// CHECK-NEXT:  rejected at {{.*}}rejected.mlir{{.*}}:[[# @LINE + 6]]:5: LowerAutoVectorSplit: reduce op 'pto.col_sum' reduces over the split axis (dim 0)
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @col_reduce(%qk: !pto.tile<16x32xf32, acc>, %n: index, %out: !pto.tensor<1x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %w = pto.set_validshape %v valid [16, %n] : !pto.tile<16x32xf32, vec> -> !pto.tile<16x32xf32, vec, valid = [16, ?]>
    %s = pto.col_sum %w : !pto.tile<16x32xf32, vec, valid = [16, ?]> -> !pto.tile<1x32xf32, vec, valid = [1, ?]>
    %o = pto.store %s, %out[0, 0] : !pto.tile<1x32xf32, vec, valid = [1, ?]>, !pto.tensor<1x32xf32>
    func.return
  }
}
