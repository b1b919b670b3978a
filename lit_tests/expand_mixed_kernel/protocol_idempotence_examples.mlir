// Idempotence and the verifier on every example kernel: the expanded output passes the
// MixedKernelExpanded verifier, and expanding it again changes nothing (Inputs/expand_again.py). The split
// examples (loop_accumulate, matmul_softmax: pto.split<up_down>) go through LowerAutoVectorSplit first, which
// ExpandMixedKernel requires of a kernel with a split mode.
// RUN: pypto-opt %examples/loop_accumulate.a2a3.mlir --lower-auto-vector-split --expand-mixed-kernel | %python %S/Inputs/expand_again.py | filecheck %s
// RUN: pypto-opt %examples/loop_accumulate.a5.mlir --lower-auto-vector-split --expand-mixed-kernel | %python %S/Inputs/expand_again.py | filecheck %s
// RUN: pypto-opt %examples/matmul_softmax.a2a3.mlir --lower-auto-vector-split --expand-mixed-kernel | %python %S/Inputs/expand_again.py | filecheck %s
// RUN: pypto-opt %examples/matmul_softmax.a5.mlir --lower-auto-vector-split --expand-mixed-kernel | %python %S/Inputs/expand_again.py | filecheck %s
// RUN: pypto-opt %examples/seed_example1.a2a3.mlir --expand-mixed-kernel | %python %S/Inputs/expand_again.py | filecheck %s
// RUN: pypto-opt %examples/seed_example1.a5.mlir --expand-mixed-kernel | %python %S/Inputs/expand_again.py | filecheck %s
// RUN: pypto-opt %examples/vector_prep_matmul.a2a3.mlir --expand-mixed-kernel | %python %S/Inputs/expand_again.py | filecheck %s
// RUN: pypto-opt %examples/vector_prep_matmul.a5.mlir --expand-mixed-kernel | %python %S/Inputs/expand_again.py | filecheck %s
// CHECK: expand_again: 1 chunk(s) unchanged

builtin.module {}
