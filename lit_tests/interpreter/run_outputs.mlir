// RUN: pypto-run %examples/seed_example1.a2a3.mlir | filecheck %s
// RUN: pypto-run %examples/seed_example1.a2a3.mlir --output-dir %t.out | filecheck %s --check-prefix=SAVE
// RUN: pypto-run %examples/seed_example1.a2a3.mlir --seed 3 --input x=%t.out/x.npy --input y=%t.out/y.npy --quiet

// pypto-run runs the orchestration function on seeded random inputs and prints every output: the returned
// tensor and every tensor parameter; --output-dir saves them as .npy files instead (bf16 as float32, which
// plain numpy reads; the saved inputs feed back with --input unchanged: every value converts exactly).
// CHECK: result#0: [16, 128] float32
// CHECK: %x: [16, 128] bfloat16
// CHECK: %y: [128, 128] bfloat16
// SAVE: result#0: saved [16, 128] float32 to {{.*}}result_0.npy
// SAVE: %x: saved [16, 128] bfloat16 as float32 to {{.*}}x.npy
