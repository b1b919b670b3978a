// REQUIRES: pypto-run
// Region kernels compute the same outputs in the interpreter before and after
// --lower-auto-vector-split --expand-mixed-kernel: the region semantics (both lanes run the body, %aiv_id is
// the lane) match the expanded AIC/AIV/Group with its split-code transport, on both targets.
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry softmax %S/region_kernels.mlir | filecheck %s
// RUN: sed 's/a2a3/a5/' %S/region_kernels.mlir | pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry softmax - | filecheck %s
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry guarded %S/region_kernels.mlir | filecheck %s
// RUN: sed 's/a2a3/a5/' %S/region_kernels.mlir | pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry multi_mode - | filecheck %s
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry siblings %S/../region_data_parallel.mlir | filecheck %s
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry nested %S/../region_data_parallel.mlir | filecheck %s
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry in_loops %S/../region_control_flow.mlir | filecheck %s
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel --entry task_shard %S/../region_task_parallel.mlir | filecheck %s
// CHECK: check of pipeline 'lower-auto-vector-split,expand-mixed-kernel' passed
