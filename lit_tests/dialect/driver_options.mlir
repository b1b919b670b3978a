// pypto-opt's options and failure modes (docs/pypto-opt.md): input from a file or stdin, -o, the two pass
// spellings and their order, --mlir-print-ir-after-all, --split-input-file output joining, generic and
// debug-info printing, --allow-unregistered-dialect, --help, and the usage errors (unknown flag, unknown
// pass, missing or unreadable input, empty input, unwritable output), each with exit status 1.

// Input from a file, from stdin, from `-`; -o writes the file and nothing to stdout.
// RUN: pypto-opt %s | filecheck %s
// RUN: pypto-opt < %s | filecheck %s
// RUN: pypto-opt - < %s | filecheck %s
// RUN: pypto-opt %s -o %t.out > %t.stdout
// RUN: filecheck %s --input-file %t.out
// RUN: filecheck %s --check-prefix=NOTHING --allow-empty --input-file %t.stdout
// NOTHING-NOT: {{.}}
// -o is atomic: a failing run leaves an existing file as it was and creates no file (issue: it used to
// truncate the file to zero bytes).
// RUN: echo old contents > %t.keep
// RUN: not pypto-opt %S/Inputs/bad_memory_space.mlir -o %t.keep
// RUN: filecheck %s --check-prefix=KEPT --input-file %t.keep
// KEPT: old contents
// RUN: rm -f %t.none
// RUN: not pypto-opt %S/Inputs/bad_memory_space.mlir -o %t.none
// RUN: not test -e %t.none
// CHECK: builtin.module
// CHECK: func.func @main

// Passes run in command-line order, flags and -p (both spellings) mixed; --mlir-print-ir-after-all dumps the
// IR after each one to stderr.  (An orchestration-only module is left unchanged by every pass.)
// RUN: pypto-opt %S/Inputs/orchestration_only.mlir --expand-mixed-kernel -p 'builtin.module(verify-mixed-kernel-expanded, lower-auto-vector-split)' -p expand-mixed-kernel,verify-mixed-kernel-expanded --mlir-print-ir-after-all 2> %t.dump | filecheck %s
// RUN: filecheck %s --check-prefix=DUMP --input-file %t.dump
// DUMP:      // -----// IR Dump After ExpandMixedKernel (expand-mixed-kernel) //----- //
// DUMP-NEXT: builtin.module
// DUMP:      // -----// IR Dump After VerifyMixedKernelExpanded (verify-mixed-kernel-expanded) //----- //
// DUMP:      // -----// IR Dump After LowerAutoVectorSplit (lower-auto-vector-split) //----- //
// DUMP:      // -----// IR Dump After ExpandMixedKernel (expand-mixed-kernel) //----- //
// DUMP:      // -----// IR Dump After VerifyMixedKernelExpanded (verify-mixed-kernel-expanded) //----- //
// DUMP-NOT:  IR Dump

// --split-input-file prints each chunk's result, joined by `// -----`.
// RUN: pypto-opt %S/Inputs/three_chunks.mlir --split-input-file | filecheck %s --check-prefix=SPLIT
// SPLIT:      func.func @one
// SPLIT:      // -----
// SPLIT-NEXT: builtin.module
// SPLIT-NEXT:   func.func @two
// SPLIT:      // -----
// SPLIT-NEXT: builtin.module
// SPLIT-NEXT:   func.func @three
// Without it the markers are comments and the file is one module.
// RUN: pypto-opt %S/Inputs/three_chunks.mlir | filecheck %s --check-prefix=WHOLE
// WHOLE:     builtin.module {
// WHOLE:       func.func @one
// WHOLE:       func.func @two
// WHOLE:       func.func @three
// WHOLE-NOT: // -----

// Generic form and locations.
// RUN: pypto-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// GENERIC: "func.func"() <{sym_name = "main"
// RUN: pypto-opt %s --mlir-print-debuginfo | filecheck %s --check-prefix=DEBUGINFO
// DEBUGINFO: pto.create_tensor : !pto.tensor<16x128xf32> loc("{{.*}}driver_options.mlir":[[# @LINE + 25]]:5)

// --allow-unregistered-dialect accepts ops of unknown dialects; without it they are located errors.
// RUN: pypto-opt %S/Inputs/unregistered.mlir --allow-unregistered-dialect | filecheck %s --check-prefix=UNREG
// UNREG: "mydialect.op"() {note = "kept"} : () -> ()
// RUN: not pypto-opt %S/Inputs/unregistered.mlir 2>&1 | filecheck %s --check-prefix=NOUNREG
// NOUNREG: unregistered.mlir:3:{{[0-9]+}}: error: unknown operation 'mydialect.op'

// --help lists every pass with its description.
// RUN: pypto-opt --help | filecheck %s --check-prefix=HELP
// HELP: usage: pypto-opt
// HELP: passes (run in the order given):
// HELP: --lower-auto-vector-split{{ +}}Lower AUTO-split mixed kernels
// HELP: --expand-mixed-kernel{{ +}}Split mixed incore kernels into AIC + AIV kernels
// HELP: --insert-gm-fences{{ +}}ExpandMixedKernel phase 1:
// HELP: --split-mixed-kernel{{ +}}ExpandMixedKernel phase 2:
// HELP: --insert-tfree{{ +}}ExpandMixedKernel phase 3:
// HELP: --setup-pipes{{ +}}ExpandMixedKernel phase 4:
// HELP: --normalize-group-abi{{ +}}ExpandMixedKernel phase 5:
// HELP: --adapt-manual-pushes{{ +}}ExpandMixedKernel phase 6:
// HELP: --verify-mixed-kernel-expanded{{ +}}Check the MixedKernelExpanded contract
// HELP: --choose-ring-depth{{ +}}ExpandMixedKernel phase 8:

builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @main() attributes {pto.kind = #pto.kind<orchestration>} {
    %gm = pto.create_tensor : !pto.tensor<16x128xf32>
    func.return
  }
}
