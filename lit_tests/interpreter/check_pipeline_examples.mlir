// Every example, on both targets, computes the same outputs before and after the pass pipeline.
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel %examples/seed_example1.a2a3.mlir | filecheck %s
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel %examples/seed_example1.a5.mlir | filecheck %s
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel %examples/matmul_softmax.a2a3.mlir | filecheck %s
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel %examples/matmul_softmax.a5.mlir | filecheck %s
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel %examples/loop_accumulate.a2a3.mlir | filecheck %s
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel %examples/loop_accumulate.a5.mlir | filecheck %s
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel %examples/vector_prep_matmul.a2a3.mlir | filecheck %s
// RUN: pypto-run --check-pipeline "builtin.module(lower-auto-vector-split, expand-mixed-kernel)" %examples/vector_prep_matmul.a5.mlir --seed 5 | filecheck %s
// CHECK: check of pipeline 'lower-auto-vector-split,expand-mixed-kernel' passed: 3 output(s) match
