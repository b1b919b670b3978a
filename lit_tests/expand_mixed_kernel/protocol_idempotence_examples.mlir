// Idempotence and the verifier on every example kernel: the expanded output passes
// --verify-mixed-kernel-expanded, and running the pass again on it changes nothing.
// RUN: pypto-opt %examples/loop_accumulate.a2a3.mlir --expand-mixed-kernel > %t.loop_accumulate.a2a3.1
// RUN: pypto-opt %t.loop_accumulate.a2a3.1 --expand-mixed-kernel --verify-mixed-kernel-expanded > %t.loop_accumulate.a2a3.2
// RUN: diff %t.loop_accumulate.a2a3.1 %t.loop_accumulate.a2a3.2
// RUN: pypto-opt %examples/loop_accumulate.a5.mlir --expand-mixed-kernel > %t.loop_accumulate.a5.1
// RUN: pypto-opt %t.loop_accumulate.a5.1 --expand-mixed-kernel --verify-mixed-kernel-expanded > %t.loop_accumulate.a5.2
// RUN: diff %t.loop_accumulate.a5.1 %t.loop_accumulate.a5.2
// RUN: pypto-opt %examples/matmul_softmax.a2a3.mlir --expand-mixed-kernel > %t.matmul_softmax.a2a3.1
// RUN: pypto-opt %t.matmul_softmax.a2a3.1 --expand-mixed-kernel --verify-mixed-kernel-expanded > %t.matmul_softmax.a2a3.2
// RUN: diff %t.matmul_softmax.a2a3.1 %t.matmul_softmax.a2a3.2
// RUN: pypto-opt %examples/matmul_softmax.a5.mlir --expand-mixed-kernel > %t.matmul_softmax.a5.1
// RUN: pypto-opt %t.matmul_softmax.a5.1 --expand-mixed-kernel --verify-mixed-kernel-expanded > %t.matmul_softmax.a5.2
// RUN: diff %t.matmul_softmax.a5.1 %t.matmul_softmax.a5.2
// RUN: pypto-opt %examples/seed_example1.a2a3.mlir --expand-mixed-kernel > %t.seed_example1.a2a3.1
// RUN: pypto-opt %t.seed_example1.a2a3.1 --expand-mixed-kernel --verify-mixed-kernel-expanded > %t.seed_example1.a2a3.2
// RUN: diff %t.seed_example1.a2a3.1 %t.seed_example1.a2a3.2
// RUN: pypto-opt %examples/seed_example1.a5.mlir --expand-mixed-kernel > %t.seed_example1.a5.1
// RUN: pypto-opt %t.seed_example1.a5.1 --expand-mixed-kernel --verify-mixed-kernel-expanded > %t.seed_example1.a5.2
// RUN: diff %t.seed_example1.a5.1 %t.seed_example1.a5.2
// RUN: pypto-opt %examples/vector_prep_matmul.a2a3.mlir --expand-mixed-kernel > %t.vector_prep_matmul.a2a3.1
// RUN: pypto-opt %t.vector_prep_matmul.a2a3.1 --expand-mixed-kernel --verify-mixed-kernel-expanded > %t.vector_prep_matmul.a2a3.2
// RUN: diff %t.vector_prep_matmul.a2a3.1 %t.vector_prep_matmul.a2a3.2
// RUN: pypto-opt %examples/vector_prep_matmul.a5.mlir --expand-mixed-kernel > %t.vector_prep_matmul.a5.1
// RUN: pypto-opt %t.vector_prep_matmul.a5.1 --expand-mixed-kernel --verify-mixed-kernel-expanded > %t.vector_prep_matmul.a5.2
// RUN: diff %t.vector_prep_matmul.a5.1 %t.vector_prep_matmul.a5.2

builtin.module {}
