// Usage and I/O errors: a message on stderr and exit status 1, nothing on stdout, no traceback.

// Unknown flag.
// RUN: not pypto-opt %s --no-such-flag 2>&1 | filecheck %s --check-prefix=FLAG
// FLAG: pypto-opt: error: unknown command line argument '--no-such-flag'
// FLAG-NEXT: (see pypto-opt --help)

// Unknown pass in -p (plain and builtin.module(...) forms).
// RUN: not pypto-opt %s -p lower-auto-vector-split,no-such-pass 2>&1 | filecheck %s --check-prefix=PASS
// RUN: not pypto-opt %s -p 'builtin.module(no-such-pass)' 2>&1 | filecheck %s --check-prefix=PASS
// PASS: pypto-opt: error: unknown pass 'no-such-pass' in the pipeline (available: lower-auto-vector-split, expand-mixed-kernel, insert-gm-fences, split-mixed-kernel, insert-tfree, setup-pipes, normalize-group-abi, adapt-manual-pushes, verify-mixed-kernel-expanded, choose-ring-depth, skew-cross-core-pipeline, verify-budget)

// Missing input file; a directory (unreadable as a file).
// RUN: not pypto-opt %t.does-not-exist.mlir 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING: does-not-exist.mlir: error: cannot read input file: No such file or directory
// RUN: not pypto-opt %S 2>&1 | filecheck %s --check-prefix=DIR
// DIR: dialect: error: cannot read input file: Is a directory

// Input that is neither UTF-8 text nor MLIR bytecode.
// RUN: %python -c "import sys; sys.stdout.buffer.write(bytes([0xff, 0xfe, 0x00]))" > %t.binary.mlir
// RUN: not pypto-opt %t.binary.mlir 2>&1 | filecheck %s --check-prefix=BINARY
// BINARY: binary.mlir: error: cannot read input file: it is neither UTF-8 text nor MLIR bytecode (byte 0xff at offset 0 is not UTF-8)

// Empty input (whitespace only, comments only, or nothing on stdin) is an error at 1:1.
// RUN: not pypto-opt %S/Inputs/empty.mlir 2>&1 | filecheck %s --check-prefix=EMPTY
// RUN: not pypto-opt %S/Inputs/comments_only.mlir 2>&1 | filecheck %s --check-prefix=EMPTY
// RUN: not pypto-opt < %S/Inputs/empty.mlir 2>&1 | filecheck %s --check-prefix=EMPTY-STDIN
// EMPTY: .mlir:1:1: error: the input is empty; expected a builtin.module (or the ops of one)
// EMPTY-STDIN: <stdin>:1:1: error: the input is empty; expected a builtin.module (or the ops of one)
// An empty chunk under --split-input-file is reported at its first line; the other chunks still print.
// RUN: not pypto-opt %S/Inputs/empty_chunk.mlir --split-input-file 2> %t.err | filecheck %s --check-prefix=EMPTY-CHUNK-OUT
// RUN: filecheck %s --check-prefix=EMPTY-CHUNK --input-file %t.err
// EMPTY-CHUNK: empty_chunk.mlir:6:1: error: the input is empty
// EMPTY-CHUNK-OUT: func.func @before
// EMPTY-CHUNK-OUT: // -----
// EMPTY-CHUNK-OUT: func.func @after

// An output file that cannot be written.
// RUN: not pypto-opt %s -o %t.no-such-dir/out.mlir 2>&1 | filecheck %s --check-prefix=OUT
// OUT: out.mlir: error: cannot write output file: No such file or directory

// Two input files.
// RUN: not pypto-opt %s %s 2>&1 | filecheck %s --check-prefix=TWO
// TWO: pypto-opt: error: unexpected argument '{{.*}}driver_usage_errors.mlir': pypto-opt reads one input file

builtin.module {
}
