// The mlir-opt flags pypto-opt accepts beside its own (docs/pypto-opt.md, "mlir-opt flags"): IR printing
// before/after chosen passes, after a failure, timing, --verify-each=0, --version, --list-passes,
// --show-dialects, --mlir-disable-threading, single-dash long options, `--<pass>=<options>`, no abbreviations,
// and errors followed by the source line and a caret. tests/tools/test_tools_pypto_opt.py has the unit tests;
// lit_tests/mlir/flags_like_mlir_opt.mlir checks the same flags against upstream mlir-opt.

// --mlir-print-ir-before=PASS / --mlir-print-ir-after=PASS print only around that pass, to stderr, with
// mlir-opt's `IR Dump Before <Name> (<argument>)` header; the output is the ordinary one.
// RUN: pypto-opt %s -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-ir-before=expand-mixed-kernel --mlir-print-ir-after=lower-auto-vector-split 2> %t.sel | filecheck %s --check-prefix=OUT
// RUN: filecheck %s --check-prefix=SELECT --input-file %t.sel
// OUT: func.func @main
// SELECT:     // -----// IR Dump After LowerAutoVectorSplit (lower-auto-vector-split) //----- //
// SELECT-NEXT: builtin.module
// SELECT:     // -----// IR Dump Before ExpandMixedKernel (expand-mixed-kernel) //----- //
// SELECT-NEXT: builtin.module
// SELECT-NOT: IR Dump

// --mlir-print-ir-before-all prints before every pass.
// RUN: pypto-opt %s -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-ir-before-all 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE-ALL
// BEFORE-ALL:     // -----// IR Dump Before LowerAutoVectorSplit (lower-auto-vector-split) //----- //
// BEFORE-ALL:     // -----// IR Dump Before ExpandMixedKernel (expand-mixed-kernel) //----- //
// BEFORE-ALL-NOT: IR Dump

// --mlir-print-ir-after-failure prints the module as the failing pass left it, after the error.
// RUN: not pypto-opt %S/Inputs/expand_rejects.mlir --expand-mixed-kernel --mlir-print-ir-after-failure 2>&1 | filecheck %s --check-prefix=FAILURE
// FAILURE:      expand_rejects.mlir:{{[0-9]+}}:{{[0-9]+}}: error:
// FAILURE:      // -----// IR Dump After ExpandMixedKernel Failed (expand-mixed-kernel) //----- //
// FAILURE-NEXT: builtin.module
// Without the flag, nothing is dumped.
// RUN: not pypto-opt %S/Inputs/expand_rejects.mlir --expand-mixed-kernel 2>&1 | filecheck %s --check-prefix=NO-FAILURE-DUMP
// NO-FAILURE-DUMP-NOT: IR Dump

// --mlir-timing: mlir-opt's execution time report on stderr, one row per phase and pass.
// RUN: pypto-opt %s -p lower-auto-vector-split,expand-mixed-kernel --mlir-timing 2>&1 >/dev/null | filecheck %s --check-prefix=TIMING
// TIMING:      ... Execution time report ...
// TIMING:      Total Execution Time: {{[0-9.]+}} seconds
// TIMING:      ----Wall Time----  ----Name----
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Parser
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Verifier
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  LowerAutoVectorSplit
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  ExpandMixedKernel
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Output
// TIMING-NEXT: {{[0-9.]+}} (100.0%)  Total

// --verify-each=0 does not verify after the passes (the bare flag and =1 verify, as by default: the ops each
// pass created or changed, docs/pypto-opt.md; --verify-each=full verifies every op again after every pass); the
// output is the same here since the passes produce valid IR.
// RUN: pypto-opt %s --expand-mixed-kernel --verify-each=0 | filecheck %s --check-prefix=OUT
// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel --verify-each=full | filecheck %s --check-prefix=OUT
// RUN: pypto-opt %s --expand-mixed-kernel --verify-each=false | filecheck %s --check-prefix=OUT
// RUN: pypto-opt %s --expand-mixed-kernel --verify-each | filecheck %s --check-prefix=OUT
// RUN: not pypto-opt %s --verify-each=maybe 2>&1 | filecheck %s --check-prefix=VERIFY-EACH
// VERIFY-EACH: pypto-opt: error: argument --verify-each: expected 0/1, true/false or full, got 'maybe'

// --mlir-disable-threading is accepted (pypto-opt is single-threaded).
// RUN: pypto-opt %s --mlir-disable-threading --expand-mixed-kernel | filecheck %s --check-prefix=OUT

// Single-dash long options, as LLVM's command line reads them (not `-p ass-pipeline=...`).
// RUN: pypto-opt %s -pass-pipeline='builtin.module(lower-auto-vector-split)' -mlir-print-ir-after-all -split-input-file 2>&1 | filecheck %s --check-prefix=SINGLE-DASH
// RUN: pypto-opt %s -lower-auto-vector-split -mlir-print-ir-after-all 2>&1 | filecheck %s --check-prefix=SINGLE-DASH
// SINGLE-DASH: IR Dump After LowerAutoVectorSplit (lower-auto-vector-split)

// Options of a pass: `pass{opt=val}` in a pipeline and mlir-opt's `--pass=opt=val`; a pass without that
// option says which options it has.
// RUN: not pypto-opt %s -p 'builtin.module(expand-mixed-kernel{no-such-option=1})' 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not pypto-opt %s --expand-mixed-kernel=no-such-option=1 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION:      pypto-opt: error: unknown option 'no-such-option' for pass 'expand-mixed-kernel' (options of 'expand-mixed-kernel': ring-depth, skew)
// A bad value of the skew option (`auto` or `off`) says which values it takes.
// RUN: not pypto-opt %s -p 'expand-mixed-kernel{skew=on}' 2>&1 | filecheck %s --check-prefix=SKEW-VALUE
// SKEW-VALUE:  pypto-opt: error: bad value 'on' for option 'skew' of pass 'expand-mixed-kernel': expand-mixed-kernel: unknown skew 'on'; expected one of auto, off (auto: skew a round-trip loop where the timing model shows a gain; off: never skew) (options of 'expand-mixed-kernel': ring-depth, skew)

// A nested anchor is refused with the reason, the spec and a caret under the anchor.
// RUN: not pypto-opt %s --pass-pipeline='builtin.module(func.func(expand-mixed-kernel))' 2>&1 | filecheck %s --check-prefix=ANCHOR --strict-whitespace
// ANCHOR:      pypto-opt: error: cannot run passes on 'func.func' (nested inside the module's pipeline): every pypto-mlir pass runs on the whole builtin.module
// ANCHOR-NEXT: {{^}}builtin.module(func.func(expand-mixed-kernel)){{$}}
// ANCHOR-NEXT: {{^}}               ^^^^^^^^^{{$}}

// No abbreviations: `--expand` is not `--expand-mixed-kernel`.
// RUN: not pypto-opt %s --expand 2>&1 | filecheck %s --check-prefix=ABBREV
// ABBREV: pypto-opt: error: unknown command line argument '--expand'{{$}}

// --version, --list-passes (with each pass's options), --show-dialects.
// RUN: pypto-opt --version | filecheck %s --check-prefix=VERSION
// VERSION: pypto-opt (pypto-mlir) version {{[0-9]+\.[0-9]+}}
// VERSION: xDSL version 0.74.0
// RUN: pypto-opt --list-passes | filecheck %s --check-prefix=LIST
// LIST:      Passes:
// LIST-NEXT:   --lower-auto-vector-split {{ *}}-   Lower AUTO-split mixed kernels
// LIST:        --expand-mixed-kernel {{ *}}-   Split mixed incore kernels
// LIST:        --verify-mixed-kernel-expanded {{ *}}-   Check the MixedKernelExpanded contract
// RUN: pypto-opt --show-dialects | filecheck %s --check-prefix=DIALECTS
// DIALECTS: Available Dialects: arith,builtin,func,pto,scf

// An error shows the source line and a caret under the column, as mlir-opt does.
// RUN: not pypto-opt %S/Inputs/bad_memory_space.mlir 2>&1 | filecheck %s --check-prefix=CARET --strict-whitespace
// CARET:      bad_memory_space.mlir:2:42: error: unknown memory space 'ub'
// CARET-NEXT: {{^}}  func.func @f(%a: !pto.tile<16x128xf32, ub>) {{[{]}}{{$}}
// CARET-NEXT: {{^}}                                         ^{{$}}

builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @main(%x: !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    func.return %x : !pto.tensor<16x128xf32>
  }
}
