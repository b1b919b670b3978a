// RUN: pypto-run --compare-with %S/Inputs/seed_example1.expanded.a5.mlir %examples/seed_example1.a5.mlir | filecheck %s
// RUN: pypto-run --compare-with %S/Inputs/matmul_softmax.expanded.a2a3.mlir %examples/matmul_softmax.a2a3.mlir | filecheck %s
// RUN: pypto-run --compare-with %S/Inputs/loop_accumulate.expanded.a2a3.mlir %examples/loop_accumulate.a2a3.mlir | filecheck %s
// RUN: pypto-run --compare-with %S/Inputs/vector_prep_matmul.expanded.a2a3.mlir %examples/vector_prep_matmul.a2a3.mlir | filecheck %s

// Hand-written AIC/AIV/Group expansions of the examples compute what the mixed kernels compute.
// CHECK: passed: 3 output(s) match
