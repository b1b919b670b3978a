// REQUIRES: mlir
// Each mlir-opt flag pypto-opt accepts behaves as upstream mlir-opt's: the same RUN line shape on both tools,
// checked by the same CHECK lines (upstream runs its own passes, cse/canonicalize, on this module, reading
// `#pto.target` as an unregistered attribute;
// pypto-opt runs ours). The pypto-only checks are in lit_tests/dialect/driver_mlir_opt_flags.mlir.

// IR dumps before/after one pass, and before all passes: same header, on stderr.
// RUN: mlir-opt --allow-unregistered-dialect %s --mlir-print-ir-before=cse --mlir-print-ir-after=cse -pass-pipeline='builtin.module(cse)' 2>&1 >/dev/null | filecheck %s --check-prefix=DUMP
// RUN: pypto-opt %s --mlir-print-ir-before=expand-mixed-kernel --mlir-print-ir-after=expand-mixed-kernel -pass-pipeline='builtin.module(expand-mixed-kernel)' 2>&1 >/dev/null | filecheck %s --check-prefix=DUMP
// DUMP:      // -----// IR Dump Before {{[A-Za-z]+}} ({{[a-z-]+}}) //----- //
// DUMP:      // -----// IR Dump After {{[A-Za-z]+}} ({{[a-z-]+}}) //----- //
// DUMP-NOT:  IR Dump
// RUN: mlir-opt --allow-unregistered-dialect %s --mlir-print-ir-before-all --mlir-disable-threading -pass-pipeline='builtin.module(cse,canonicalize)' 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE-ALL
// RUN: pypto-opt %s --mlir-print-ir-before-all --mlir-disable-threading -pass-pipeline='builtin.module(expand-mixed-kernel,verify-mixed-kernel-expanded)' 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE-ALL
// BEFORE-ALL-COUNT-2: // -----// IR Dump Before {{[A-Za-z]+}} ({{[a-z-]+}}) //----- //
// BEFORE-ALL-NOT:     IR Dump

// --mlir-timing: the same report layout.
// RUN: mlir-opt --allow-unregistered-dialect %s --mlir-timing -cse 2>&1 >/dev/null | filecheck %s --check-prefix=TIMING
// RUN: pypto-opt %s --mlir-timing -expand-mixed-kernel 2>&1 >/dev/null | filecheck %s --check-prefix=TIMING
// TIMING:      ... Execution time report ...
// TIMING:      Total Execution Time: {{[0-9.]+}} seconds
// TIMING:      ----Wall Time----  ----Name----
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Parser
// TIMING:      {{[0-9.]+}} ({{ *[0-9.]+}}%)  Output
// TIMING:      {{[0-9.]+}} (100.0%)  Total

// --verify-each=0 is accepted and the output printed.
// RUN: mlir-opt --allow-unregistered-dialect %s --verify-each=0 -cse | filecheck %s --check-prefix=OUT
// RUN: pypto-opt %s --verify-each=0 -expand-mixed-kernel | filecheck %s --check-prefix=OUT
// OUT: func.func @main

// --show-dialects and --list-passes: the same layout.
// RUN: mlir-opt --show-dialects | filecheck %s --check-prefix=DIALECTS
// RUN: pypto-opt --show-dialects | filecheck %s --check-prefix=DIALECTS
// DIALECTS: Available Dialects: {{.*}}arith,{{.*}}builtin,{{.*}}func,{{.*}}scf
// RUN: mlir-opt --list-passes | filecheck %s --check-prefix=LIST
// RUN: pypto-opt --list-passes | filecheck %s --check-prefix=LIST
// LIST: Passes:
// LIST: {{^ *}}--{{[a-z-]+}}{{ +}}-{{ +}}{{[A-Z].*}}

// No abbreviations: an unknown prefix of a flag is refused (mlir-opt: "Unknown command line argument").
// RUN: not mlir-opt --allow-unregistered-dialect %s --cs 2>&1 | filecheck %s --check-prefix=ABBREV
// RUN: not pypto-opt %s --expand 2>&1 | filecheck %s --check-prefix=ABBREV
// ABBREV: {{[Uu]nknown command line argument|unrecognized arguments}}

// An error shows the source line and a caret under the column.
// RUN: not mlir-opt %S/Inputs/bad_op.mlir 2>&1 | filecheck %s --check-prefix=CARET --strict-whitespace
// RUN: not pypto-opt %S/Inputs/bad_op.mlir 2>&1 | filecheck %s --check-prefix=CARET --strict-whitespace
// CARET:      bad_op.mlir:3:{{[0-9]+}}: error: {{.*}}
// CARET-NEXT: {{^}}    %0 = {{.*}}{{$}}
// CARET-NEXT: {{^}}   {{ *}}^{{$}}

// --mlir-print-ir-after-failure: the same "Failed" header, with the IR as the failing pass left it (upstream:
// a canonicalize that cannot converge in one round; ours: ExpandMixedKernel without a pto.target).
// RUN: not mlir-opt %S/Inputs/not_converging.mlir --pass-pipeline='builtin.module(func.func(canonicalize{max-iterations=1 test-convergence=true}))' --mlir-print-ir-after-failure 2>&1 | filecheck %s --check-prefix=AFTER-FAILURE
// RUN: not pypto-opt %S/../dialect/Inputs/expand_rejects.mlir --expand-mixed-kernel --mlir-print-ir-after-failure 2>&1 | filecheck %s --check-prefix=AFTER-FAILURE
// AFTER-FAILURE:     // -----// IR Dump After {{[A-Za-z]+}} Failed ({{[a-z-]+}}) //----- //
// AFTER-FAILURE-NEXT: {{(builtin\.module|func\.func)}}

// -o on failure: mlir-opt removes the output file; pypto-opt keeps its old contents (never a partial output).
// Both exit 1 and neither leaves an output of the failed run (docs/pypto-opt.md, mlir-opt flags).
// RUN: echo old > %t.upstream.out
// RUN: not mlir-opt %S/Inputs/not_converging.mlir --pass-pipeline='builtin.module(func.func(canonicalize{max-iterations=1 test-convergence=true}))' -o %t.upstream.out
// RUN: not test -e %t.upstream.out
// RUN: echo old > %t.ours.out
// RUN: not pypto-opt %S/../dialect/Inputs/expand_rejects.mlir --expand-mixed-kernel -o %t.ours.out
// RUN: filecheck %s --check-prefix=KEPT --input-file %t.ours.out
// KEPT:     {{^}}old{{$}}
// KEPT-NOT: func.func

// Pass options in a pipeline: `pass{opt=val}` is accepted, an unknown option is refused and named.
// RUN: mlir-opt --allow-unregistered-dialect %s --pass-pipeline='builtin.module(canonicalize{max-iterations=3 region-simplify=disabled})' | filecheck %s --check-prefix=OUT
// RUN: pypto-opt %s --pass-pipeline='builtin.module(lower-auto-vector-split{fallback=unsplit report=false})' | filecheck %s --check-prefix=OUT
// RUN: not mlir-opt --allow-unregistered-dialect %s --pass-pipeline='builtin.module(cse{no-such-option=1})' 2>&1 | filecheck %s --check-prefix=BAD-OPTION
// RUN: not pypto-opt %s --pass-pipeline='builtin.module(expand-mixed-kernel{no-such-option=1})' 2>&1 | filecheck %s --check-prefix=BAD-OPTION
// BAD-OPTION: {{no such option no-such-option|\["no_such_option"\] not found}}

// Nested anchors: a pass that runs only on builtin.module cannot be nested under func.func; both refuse it
// and name the anchor. (mlir-opt runs a nested builtin.module(...) on the modules inside the top one;
// pypto-opt refuses that too, since no pto program nests modules: docs/pypto-opt.md, Pipelines.)
// RUN: not mlir-opt --allow-unregistered-dialect %s --pass-pipeline='builtin.module(func.func(convert-func-to-llvm))' 2>&1 | filecheck %s --check-prefix=NESTED
// RUN: not pypto-opt %s --pass-pipeline='builtin.module(func.func(expand-mixed-kernel))' 2>&1 | filecheck %s --check-prefix=NESTED
// NESTED: {{.*}}'func.func'

// --version: one line naming the version, exit 0 (mlir-opt names LLVM's, pypto-opt pypto-mlir's and xDSL's).
// RUN: mlir-opt --version | filecheck %s --check-prefix=VERSION
// RUN: pypto-opt --version | filecheck %s --check-prefix=VERSION
// VERSION: {{(LLVM|pypto-mlir\)) version [0-9]+\.[0-9]+}}

builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @main(%x: i32) -> i32 {
    func.return %x : i32
  }
}
