// RUN: not pypto-run --check-pipeline no-such-pass %examples/seed_example1.a2a3.mlir 2>&1 | filecheck %s --check-prefix=PASS
// PASS: pypto-run: error: unknown pass 'no-such-pass' in the pipeline
// RUN: not pypto-run --entry nope %examples/seed_example1.a2a3.mlir 2>&1 | filecheck %s --check-prefix=ENTRY
// ENTRY: error: no function @nope in the module (functions: @compute_incore_0, @main)
// RUN: not pypto-run --input q=%t.missing.npy %examples/seed_example1.a2a3.mlir 2>&1 | filecheck %s --check-prefix=NPY
// NPY: pypto-run: error: cannot read
