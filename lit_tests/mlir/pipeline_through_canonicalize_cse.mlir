// REQUIRES: mlir
// The output of our pass pipeline survives upstream `mlir-opt --allow-unregistered-dialect --canonicalize
// --cse` and comes back through pypto-opt verifying (including the MixedKernelExpanded contract) and
// equivalent: the same functions with the same signatures and attributes, and the same `pto` ops, in the same
// order, with the same attributes, types and operands. Upstream may only rename values and move or merge the
// `arith` constants (it treats the unregistered `pto` ops as having unknown side effects).

// RUN: pypto-opt %s -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-op-generic --mlir-print-debuginfo | mlir-opt --allow-unregistered-dialect --canonicalize --cse --mlir-print-debuginfo | pypto-opt -p verify-mixed-kernel-expanded --mlir-print-debuginfo | filecheck %s
// RUN: pypto-opt %s -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --canonicalize --cse | %python -m pypto_mlir.mlir_tools same-pto-ops --passes lower-auto-vector-split,expand-mixed-kernel %s - | filecheck %s --check-prefix=SAME
// The comparison does fail on a different module (here: the input, before the passes):
// RUN: pypto-opt %s -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --canonicalize --cse | not %python -m pypto_mlir.mlir_tools same-pto-ops %s - 2>&1 | filecheck %s --check-prefix=DIFF
// (No temporary files: concurrent lit runs share .lit_out.)

// The same round trip for every example, on both targets:
// RUN: pypto-opt %examples/seed_example1.a2a3.mlir -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --canonicalize --cse | pypto-opt -p verify-mixed-kernel-expanded -o /dev/null
// RUN: pypto-opt %examples/seed_example1.a2a3.mlir -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --canonicalize --cse | %python -m pypto_mlir.mlir_tools same-pto-ops --passes lower-auto-vector-split,expand-mixed-kernel %examples/seed_example1.a2a3.mlir -
// RUN: pypto-opt %examples/seed_example1.a5.mlir -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --canonicalize --cse | pypto-opt -p verify-mixed-kernel-expanded -o /dev/null
// RUN: pypto-opt %examples/seed_example1.a5.mlir -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --canonicalize --cse | %python -m pypto_mlir.mlir_tools same-pto-ops --passes lower-auto-vector-split,expand-mixed-kernel %examples/seed_example1.a5.mlir -
// RUN: pypto-opt %examples/matmul_softmax.a2a3.mlir -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --canonicalize --cse | pypto-opt -p verify-mixed-kernel-expanded -o /dev/null
// RUN: pypto-opt %examples/matmul_softmax.a2a3.mlir -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --canonicalize --cse | %python -m pypto_mlir.mlir_tools same-pto-ops --passes lower-auto-vector-split,expand-mixed-kernel %examples/matmul_softmax.a2a3.mlir -
// RUN: pypto-opt %examples/matmul_softmax.a5.mlir -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --canonicalize --cse | pypto-opt -p verify-mixed-kernel-expanded -o /dev/null
// RUN: pypto-opt %examples/matmul_softmax.a5.mlir -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --canonicalize --cse | %python -m pypto_mlir.mlir_tools same-pto-ops --passes lower-auto-vector-split,expand-mixed-kernel %examples/matmul_softmax.a5.mlir -
// RUN: pypto-opt %examples/loop_accumulate.a2a3.mlir -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --canonicalize --cse | pypto-opt -p verify-mixed-kernel-expanded -o /dev/null
// RUN: pypto-opt %examples/loop_accumulate.a2a3.mlir -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --canonicalize --cse | %python -m pypto_mlir.mlir_tools same-pto-ops --passes lower-auto-vector-split,expand-mixed-kernel %examples/loop_accumulate.a2a3.mlir -
// RUN: pypto-opt %examples/loop_accumulate.a5.mlir -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --canonicalize --cse | pypto-opt -p verify-mixed-kernel-expanded -o /dev/null
// RUN: pypto-opt %examples/loop_accumulate.a5.mlir -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --canonicalize --cse | %python -m pypto_mlir.mlir_tools same-pto-ops --passes lower-auto-vector-split,expand-mixed-kernel %examples/loop_accumulate.a5.mlir -
// RUN: pypto-opt %examples/vector_prep_matmul.a2a3.mlir -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --canonicalize --cse | pypto-opt -p verify-mixed-kernel-expanded -o /dev/null
// RUN: pypto-opt %examples/vector_prep_matmul.a2a3.mlir -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --canonicalize --cse | %python -m pypto_mlir.mlir_tools same-pto-ops --passes lower-auto-vector-split,expand-mixed-kernel %examples/vector_prep_matmul.a2a3.mlir -
// RUN: pypto-opt %examples/vector_prep_matmul.a5.mlir -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --canonicalize --cse | pypto-opt -p verify-mixed-kernel-expanded -o /dev/null
// RUN: pypto-opt %examples/vector_prep_matmul.a5.mlir -p lower-auto-vector-split,expand-mixed-kernel --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --canonicalize --cse | %python -m pypto_mlir.mlir_tools same-pto-ops --passes lower-auto-vector-split,expand-mixed-kernel %examples/vector_prep_matmul.a5.mlir -

// A looped mixed kernel (the loop_accumulate example, with a duplicated constant for CSE to merge).
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @kloop_incore_0(%a: !pto.tensor<32x256xbf16>, %b: !pto.tensor<256x64xbf16>,
      %out: !pto.tensor<32x64xf32> {pto.out}) -> !pto.tensor<32x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c0_again = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %init = pto.full %zero : f32 -> !pto.tile<32x64xf32, vec>
    %acc = scf.for %kk = %c0 to %c256 step %c64 iter_args(%sum = %init) -> (!pto.tile<32x64xf32, vec>) {
      %a_mat = pto.load %a[%c0_again, %kk] : !pto.tensor<32x256xbf16> -> !pto.tile<32x64xbf16, mat>
      %b_mat = pto.load %b[%kk, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<64x64xbf16, mat>
      %a_left = pto.move %a_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
      %b_right = pto.move %b_mat : !pto.tile<64x64xbf16, mat> -> !pto.tile<64x64xbf16, right>
      %part = pto.matmul %a_left, %b_right : !pto.tile<32x64xbf16, left>, !pto.tile<64x64xbf16, right> -> !pto.tile<32x64xf32, acc>
      %part_vec = pto.move %part : !pto.tile<32x64xf32, acc> -> !pto.tile<32x64xf32, vec>
      %next = pto.add %sum, %part_vec : !pto.tile<32x64xf32, vec>
      scf.yield %next : !pto.tile<32x64xf32, vec>
    }
    %res = pto.relu %acc : !pto.tile<32x64xf32, vec>
    %out_1 = pto.store %res, %out[0, 0] : !pto.tile<32x64xf32, vec>, !pto.tensor<32x64xf32>
    func.return %out_1 : !pto.tensor<32x64xf32>
  }
  func.func @main(%a: !pto.tensor<32x256xbf16>, %b: !pto.tensor<256x64xbf16>) -> !pto.tensor<32x64xf32>
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<32x64xf32>
    %r = func.call @kloop_incore_0(%a, %b, %out) : (!pto.tensor<32x256xbf16>, !pto.tensor<256x64xbf16>, !pto.tensor<32x64xf32>) -> !pto.tensor<32x64xf32>
    func.return %r : !pto.tensor<32x64xf32>
  }
}

// Upstream merged the two `0 : index` constants (CSE) and hoisted the constants; the pto ops are unchanged and
// keep their locations in this file.
// CHECK:       builtin.module attributes {pto.target = #pto.target<a5>}
// CHECK-LABEL: func.func @kloop_incore_0_aic(
// CHECK-SAME:    attributes {pto.kind = #pto.kind<aic>, pto.split = #pto.split<up_down>, pto.split_aiv}
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NOT:     arith.constant 0 : index
// CHECK:         pto.import_peer_buffer {name = "kloop_incore_0_c2v_slot_buffer", peer_func = @kloop_incore_0_aiv}
// CHECK-NEXT:    pto.aic_initialize_pipe
// CHECK-NEXT:    scf.for %[[K:.*]] = %[[C0]] to
// CHECK-NEXT:      pto.load %arg0[%[[C0]], %[[K]]] : {{.*}} loc("{{.*}}pipeline_through_canonicalize_cse.mlir":{{[0-9]+}}:7)
// CHECK-NEXT:      pto.load %arg1[%[[K]], 0]
// CHECK-NEXT:      pto.move
// CHECK-NEXT:      pto.move
// CHECK-NEXT:      pto.matmul
// CHECK-NEXT:      pto.tpush_to_aiv %{{.*}} {split = 1 : i64}
// CHECK-LABEL: func.func @kloop_incore_0_aiv(
// CHECK:         pto.get_subblock_idx
// CHECK-NEXT:    pto.reserve_buffer
// CHECK-NEXT:    pto.aiv_initialize_pipe
// CHECK:         pto.full
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      pto.tpop_from_aic {split = 1 : i64} : !pto.tile<16x64xf32, vec>
// CHECK-NEXT:      pto.add
// CHECK-NEXT:      pto.tfree_to_aic
// CHECK:         pto.relu
// CHECK-NEXT:    pto.store
// CHECK-LABEL: func.func @kloop_incore_0(
// CHECK-SAME:    pto.kind = #pto.kind<group>
// CHECK-LABEL: func.func @main(

// SAME: same pto ops: 4 functions, 18 pto ops
// DIFF: functions differ: ['kloop_incore_0', 'main'] vs ['kloop_incore_0_aic', 'kloop_incore_0_aiv', 'kloop_incore_0', 'main']
