// RUN: pypto-opt %s --lower-auto-vector-split 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: xdsl-opt -p lower-auto-vector-split %s 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: pypto-opt %s --lower-auto-vector-split 2>/dev/null | filecheck %s --check-prefix=CHECK
// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel 2>/dev/null | filecheck %s --check-prefixes=EMK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split --expand-mixed-kernel 2>/dev/null | filecheck %s --check-prefixes=EMK,A5
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel -
// RUN: not pypto-opt %s '--lower-auto-vector-split{fallback=error}' 2>&1 | filecheck %s --check-prefix=ERR

// The default fallback policy (issue 27): an AUTO split (pto.split = #pto.split<up_down|left_right> with no
// pto.split_aiv regions) is a request, not a contract.  A kernel the AUTO path cannot lane-split compiles
// unsplit by default (fallback=unsplit): exit 0, pto.split<none>, the body untouched (no aiv_shard, no
// subblock_idx), and a located remark on stderr at the op that forced it, with the refusal's reason and the
// option that turns it into the error (the last RUN line: --lower-auto-vector-split{fallback=error}).  The same
// default holds under pypto-opt, xdsl-opt and the Python API (the pass's dataclass field).  ExpandMixedKernel
// then expands it as any unsplit mixed kernel (a2a3: the AIV gets pto.dual_aiv_dispatch; a5: one lane), and the
// results are those of the input (pypto-run --check-pipeline, both targets).  Hand-written pto.split_aiv_scope
// regions have no unsplit form: their rejections stay errors under the default (region_errors.mlir runs
// without an option).

// UP_DOWN, a column reduction over the split axis whose result has a run-time valid extent (the column count
// %n): the lanes' partials cannot be combined through the workspace (cross_lane_reduce.mlir splits the others).
// REMARK:     {{.+}}:[[# @LINE + 23]]:5: remark: LowerAutoVectorSplit: kernel 'col_reduce' is compiled unsplit (fallback=unsplit, pto.split<none> instead of pto.split<up_down>) because 'pto.col_sum' here cannot be lane-split: reduce op 'pto.col_sum' reduces over the split axis (dim 0){{.*}}; to reject such a kernel instead: --lower-auto-vector-split{fallback=error}
// ERR:        default_unsplit.mlir:[[# @LINE + 22]]:5: error: LowerAutoVectorSplit: reduce op 'pto.col_sum' reduces over the split axis (dim 0){{.*}}--lower-auto-vector-split{fallback=unsplit}
// CHECK-LABEL: func.func @col_reduce
// CHECK-SAME:  pto.split = #pto.split<none>
// CHECK-NOT:   pto.split_aiv
// CHECK-NOT:   subblock_idx
// CHECK-NOT:   aiv_shard
// CHECK:       %s = pto.col_sum %y : !pto.tile<16x16xf32, vec, valid = [16, ?]> -> !pto.tile<1x16xf32, vec, valid = [1, ?]>
// CHECK:       func.return
// EMK-LABEL:   func.func @col_reduce_aiv
// EMK-SAME:    pto.kind = #pto.kind<aiv>, pto.split = #pto.split<none>
// A2A3-SAME:   pto.dual_aiv_dispatch
// A5-NOT:      pto.dual_aiv_dispatch
// EMK:         pto.col_sum {{.*}} : !pto.tile<16x16xf32, vec, valid = [16, ?]> -> !pto.tile<1x16xf32, vec, valid = [1, ?]>
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @col_reduce(%x: !pto.tensor<16x16xf32>, %n: index, %out: !pto.tensor<1x16xf32> {pto.out}) -> !pto.tensor<1x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xl = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
    %xr = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, right>
    %z = pto.matmul %xl, %xr : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>
    %zv = pto.move %z : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %y = pto.set_validshape %zv valid [16, %n] : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec, valid = [16, ?]>
    %s = pto.col_sum %y : !pto.tile<16x16xf32, vec, valid = [16, ?]> -> !pto.tile<1x16xf32, vec, valid = [1, ?]>
    %o = pto.store %s, %out[0, 0] : !pto.tile<1x16xf32, vec, valid = [1, ?]>, !pto.tensor<1x16xf32>
    func.return %o : !pto.tensor<1x16xf32>
  }

  // LEFT_RIGHT, a transpose that swaps the split axis, added to its own source: the two operands are split on
  // different axes (dim 0 and dim 1), so no lane holds matching cells of both, and neither can be computed whole
  // on both lanes instead (it comes out of an scf.while; whole_retry.mlir splits the kernel without it).
  // REMARK:     {{.+}}:[[# @LINE + 24]]:5: remark: LowerAutoVectorSplit: kernel 'transpose_cols' is compiled unsplit (fallback=unsplit, pto.split<none> instead of pto.split<left_right>) because 'pto.add' here cannot be lane-split: 'pto.add' combines values split over the AIV lanes on different axes ('t' on dim 0, 'zv' on dim 1){{.*}}; to reject such a kernel instead: --lower-auto-vector-split{fallback=error}
  // CHECK-LABEL: func.func @transpose_cols
  // CHECK-SAME:  pto.split = #pto.split<none>
  // CHECK-NOT:   subblock_idx
  // CHECK:       %t = pto.transpose %zv : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>
  // CHECK:       func.return
  // EMK-LABEL:   func.func @transpose_cols_aiv
  // EMK-SAME:    pto.split = #pto.split<none>
  func.func @transpose_cols(%x: !pto.tensor<16x16xf32>, %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xl = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
    %xr = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, right>
    %z = pto.matmul %xl, %xr : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>
    %zm = pto.move %z : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %c0 = arith.constant 0 : index
    %zv = scf.while (%w = %zm) : (!pto.tile<16x16xf32, vec>) -> (!pto.tile<16x16xf32, vec>) {
      %never = arith.cmpi slt, %c0, %c0 : index
      scf.condition(%never) %w : !pto.tile<16x16xf32, vec>
    } do {
    ^bb0(%w2: !pto.tile<16x16xf32, vec>):
      scf.yield %w2 : !pto.tile<16x16xf32, vec>
    }
    %t = pto.transpose %zv : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>
    %y = pto.add %t, %zv : !pto.tile<16x16xf32, vec>
    %o = pto.store %y, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }

  // CHECK-LABEL: func.func @main
  func.func @main(%x: !pto.tensor<16x16xf32>) -> (!pto.tensor<1x16xf32>, !pto.tensor<16x16xf32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %o1 = pto.create_tensor : !pto.tensor<1x16xf32>
    %o2 = pto.create_tensor : !pto.tensor<16x16xf32>
    %n = arith.constant 11 : index
    %r1 = func.call @col_reduce(%x, %n, %o1) : (!pto.tensor<16x16xf32>, index, !pto.tensor<1x16xf32>) -> !pto.tensor<1x16xf32>
    %r2 = func.call @transpose_cols(%x, %o2) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    func.return %r1, %r2 : !pto.tensor<1x16xf32>, !pto.tensor<16x16xf32>
  }
}
