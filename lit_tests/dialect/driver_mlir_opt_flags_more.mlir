// More of the mlir-opt flags engineers reach for (docs/pypto-opt.md, "mlir-opt flags"): --dump-pass-pipeline,
// --mlir-pass-statistics, --mlir-print-ir-after-change, --no-implicit-module, --mlir-print-local-scope,
// --emit-bytecode without the mlir extra, the "did you mean" of an unknown flag and the caret of an unknown op.

// --dump-pass-pipeline prints the pipeline that runs, every option spelled out (and the memory budget check
// pypto-opt adds after expand-mixed-kernel), before running it.
// RUN: pypto-opt %s -p lower-auto-vector-split,expand-mixed-kernel --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=PIPELINE
// PIPELINE:      Pass Manager with 3 passes:
// PIPELINE-NEXT: builtin.module(lower-auto-vector-split{fallback=unsplit report=false remarks=true split-policy=pays},expand-mixed-kernel{ring-depth=auto skew=auto},verify-budget)

// --mlir-pass-statistics: what each pass did, summed over the kernels (here: @softmax is lane-split, four of
// its vector tiles halved, one aiv_shard; @col_reduce is kept unsplit: its column sum over the split axis would need a
// cross-lane combine, and the timing model finds the split slower; both are expanded, one pipe each).
// The counts do not depend on the target.
// RUN: pypto-opt %s -p lower-auto-vector-split,expand-mixed-kernel --mlir-pass-statistics 2>&1 >/dev/null | filecheck %s --check-prefix=STATS
// RUN: sed 's/a2a3/a5/' %s | pypto-opt -p lower-auto-vector-split,expand-mixed-kernel --mlir-pass-statistics 2>&1 >/dev/null | filecheck %s --check-prefix=STATS
// STATS:      ... Pass statistics report ...
// STATS:      LowerAutoVectorSplit
// STATS-NEXT:   (S) 1 kernels-lane-split - Kernels lane-split (AUTO path)
// STATS-NEXT:   (S) 0 kernels-fallen-back - Kernels compiled unsplit: their split request fell back
// STATS-NEXT:   (S) 1 kernels-kept-unsplit - Kernels compiled unsplit: their split needs cross-lane work and the timing model finds it slower
// STATS-NEXT:   (S) 0 kernels-with-regions - Kernels lowered by their split_aiv_scope regions
// STATS-NEXT:   (S) 4 values-halved - Vector tiles cut to one lane's half of the split axis
// STATS-NEXT:   (S) 1 boundaries - Cube/vector boundaries (pto.aiv_shard / pto.aic_gather)
// STATS-NEXT:   (S) 0 cross-lane-combines - Reductions over the split axis combined through a GM workspace
// STATS-NEXT: ExpandMixedKernel
// STATS-NEXT:   (S) 2 kernels-expanded - Mixed kernels split into AIC + AIV + Group
// STATS-NEXT:   (S) 2 pipes - Pipes set up
// STATS-NEXT:   (S) 4 transfers - tpush / tpop ops over the pipes
// STATS-NEXT:   (S) 0 gm-fences - GM fences between the cores
// STATS-NEXT:   (S) 0 ring-depths-chosen - Rings deepened beyond the default by the timing model
// STATS-NEXT:   (S) 0 loops-skewed - Round-trip loops skewed by the timing model (cross-core pipelining)
// STATS-NOT:  VerifyBudget

// --mlir-print-ir-after-change with --mlir-print-ir-after-all: a pass that changes nothing prints nothing.
// verify-mixed-kernel-expanded is a check: after expand-mixed-kernel it leaves the module as it was.
// RUN: pypto-opt %s -p lower-auto-vector-split,expand-mixed-kernel,verify-mixed-kernel-expanded --mlir-print-ir-after-all --mlir-print-ir-after-change 2>&1 >/dev/null | filecheck %s --check-prefix=CHANGE
// CHANGE:     IR Dump After LowerAutoVectorSplit (lower-auto-vector-split)
// CHANGE:     IR Dump After ExpandMixedKernel (expand-mixed-kernel)
// CHANGE-NOT: IR Dump After VerifyMixedKernelExpanded
// Without --mlir-print-ir-after-change both are printed.
// RUN: pypto-opt %s -p lower-auto-vector-split,expand-mixed-kernel,verify-mixed-kernel-expanded --mlir-print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=NO-CHANGE
// NO-CHANGE: IR Dump After ExpandMixedKernel (expand-mixed-kernel)
// NO-CHANGE: IR Dump After VerifyMixedKernelExpanded (verify-mixed-kernel-expanded)

// --no-implicit-module: this file is one builtin.module, so it is read as usual; a list of ops is refused
// instead of being wrapped in a module.
// RUN: pypto-opt %s --no-implicit-module | filecheck %s --check-prefix=OUT
// RUN: printf 'func.func @f() {\n  func.return\n}\n' > %t.ops.mlir
// RUN: not pypto-opt %t.ops.mlir --no-implicit-module 2>&1 | filecheck %s --check-prefix=NO-IMPLICIT
// NO-IMPLICIT: ops.mlir:1:1: error: expected a builtin.module: with --no-implicit-module a list of ops is not wrapped in one
// RUN: pypto-opt %t.ops.mlir | filecheck %s --check-prefix=IMPLICIT
// IMPLICIT:      builtin.module {
// IMPLICIT-NEXT:   func.func @f() {

// --mlir-print-local-scope is accepted: pypto-opt prints every location and attribute inline (no aliases), so
// the output is the one without it.
// RUN: pypto-opt %s --mlir-print-debuginfo > %t.plain
// RUN: pypto-opt %s --mlir-print-debuginfo --mlir-print-local-scope | diff %t.plain -

// --emit-bytecode goes through upstream MLIR's bindings; without the mlir extra the error says how to get it.
// (lit_tests/mlir/emit_bytecode.mlir writes and reads bytecode when the extra is installed.)
// RUN: %if !mlir-bindings %{ not pypto-opt %s --emit-bytecode 2>&1 | filecheck %s --check-prefix=NO-EXTRA %}
// NO-EXTRA: error: --emit-bytecode writes MLIR bytecode through upstream MLIR's Python bindings; install the optional extra: pip install 'pypto-mlir[mlir]'
// RUN: not pypto-opt %s --emit-bytecode --split-input-file 2>&1 | filecheck %s --check-prefix=BC-SPLIT
// BC-SPLIT: pypto-opt: error: --emit-bytecode writes one module; it cannot be combined with --split-input-file

// An unknown flag gets mlir-opt's "did you mean" when a known flag is close; an extra argument is named.
// RUN: not pypto-opt %s --mlir-print-ir-afer-all 2>&1 | filecheck %s --check-prefix=MEAN
// MEAN:      pypto-opt: error: unknown command line argument '--mlir-print-ir-afer-all'; did you mean '--mlir-print-ir-after-all'?
// MEAN-NEXT: (see pypto-opt --help)
// RUN: not pypto-opt %s --expand-mixed-kernal 2>&1 | filecheck %s --check-prefix=MEAN-PASS
// MEAN-PASS: pypto-opt: error: unknown command line argument '--expand-mixed-kernal'; did you mean '--expand-mixed-kernel'?
// RUN: not pypto-opt %s --split-report-file=x 2>&1 | filecheck %s --check-prefix=MEAN-VALUE
// MEAN-VALUE: pypto-opt: error: unknown command line argument '--split-report-file=x'; did you mean '--split-report=x'?
// RUN: not pypto-opt %s --frobnicate 2>&1 | filecheck %s --check-prefix=NO-MEAN
// NO-MEAN:      pypto-opt: error: unknown command line argument '--frobnicate'{{$}}

// The caret of an unknown op is under the op's name (custom and generic form), not after it.
// RUN: not pypto-opt %S/Inputs/unknown_op.mlir 2>&1 | filecheck %s --check-prefix=CARET --strict-whitespace
// CARET:      unknown_op.mlir:2:8: error: unknown operation 'pto.bogus_op'
// CARET-NEXT: {{^}}  %0 = pto.bogus_op(%x) : () -> i32{{$}}
// CARET-NEXT: {{^}}       ^{{$}}

// OUT: func.func @softmax
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @softmax(%q: !pto.tensor<64x128xbf16>, %k: !pto.tensor<128x128xbf16>,
                     %out: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %q_mat = pto.load %q[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %k_mat = pto.load %k[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %q_left = pto.move %q_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, left>
    %k_right = pto.move %k_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %scores = pto.matmul %q_left, %k_right : !pto.tile<64x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<64x128xf32, acc>
    %s = pto.move %scores : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
    %m = pto.row_max %s : !pto.tile<64x128xf32, vec> -> !pto.tile<64x1xf32, vec>
    %d = pto.row_expand_sub %s, %m : !pto.tile<64x128xf32, vec>, !pto.tile<64x1xf32, vec>
    %e = pto.exp %d : !pto.tile<64x128xf32, vec>
    %o = pto.store %e, %out[0, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<64x128xf32>
    func.return %o : !pto.tensor<64x128xf32>
  }
  func.func @col_reduce(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<1x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %s = pto.col_sum %v : !pto.tile<16x32xf32, vec> -> !pto.tile<1x32xf32, vec>
    %o = pto.store %s, %out[0, 0] : !pto.tile<1x32xf32, vec>, !pto.tensor<1x32xf32>
    func.return
  }
}
