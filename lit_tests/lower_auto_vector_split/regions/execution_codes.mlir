// REQUIRES: pypto-run
// Every kernel of the split-code table computes the same outputs in the interpreter before and after the
// pipeline: the odd, strided and empty-lane transports deliver exactly the cells each lane's type says. (A
// run-time extent is rejected: split_code_errors.mlir.)
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry odd_127 %S/split_codes.mlir | filecheck %s
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry cols_15 %S/split_codes.mlir | filecheck %s
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry stride_7 %S/split_codes.mlir | filecheck %s
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry stride_6 %S/split_codes.mlir | filecheck %s
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry empty_lane %S/split_codes.mlir | filecheck %s
// RUN: sed 's/a2a3/a5/' %S/split_codes.mlir | pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry gather - | filecheck %s
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry task %S/split_codes.mlir | filecheck %s
// CHECK: check of pipeline 'lower-auto-vector-split,expand-mixed-kernel' passed
