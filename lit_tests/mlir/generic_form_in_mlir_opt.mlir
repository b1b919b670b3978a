// REQUIRES: mlir
// `pypto-opt --mlir-print-op-generic` output is read by upstream `mlir-opt --allow-unregistered-dialect`
// (which verifies it), printed back, and read again by pypto-opt into the same module.

// RUN: pypto-opt %s --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect | filecheck %s --check-prefix=UP
// RUN: pypto-opt %s --mlir-print-op-generic --mlir-print-debuginfo | mlir-opt --allow-unregistered-dialect --mlir-print-debuginfo | pypto-opt --mlir-print-debuginfo | filecheck %s
// RUN: pypto-opt %s --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect | %python -m pypto_mlir.mlir_tools same-pto-ops %s -

// Every op family (docs/dialect.md "Syntax by family") and the dialect's op tests, in both directions:
// RUN: pypto-opt %S/../dialect/syntax_by_family.mlir --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect | %python -m pypto_mlir.mlir_tools same-pto-ops %S/../dialect/syntax_by_family.mlir -
// RUN: pypto-opt %S/../dialect/ops_memory.mlir --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect | %python -m pypto_mlir.mlir_tools same-pto-ops %S/../dialect/ops_memory.mlir -
// RUN: pypto-opt %S/../dialect/ops_compute.mlir --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect | %python -m pypto_mlir.mlir_tools same-pto-ops %S/../dialect/ops_compute.mlir -
// RUN: pypto-opt %S/../dialect/ops_cross_core.mlir --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect | %python -m pypto_mlir.mlir_tools same-pto-ops %S/../dialect/ops_cross_core.mlir -

// Upstream keeps `pto` types and attributes verbatim (opaque), including view fields with `?` and
// brackets, and sorts the op attributes; the `pto` ops stay in generic form there.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // UP:    module attributes {pto.target = #pto.target<a2a3>} {
  // UP-LABEL: func.func @kernel(
  // UP-SAME:   %arg0: !pto.tensor<64x128xf32, dn>, %arg1: !pto.tensor<64x128xf32> {pto.out}, %arg2: index
  // UP-SAME:   attributes {pto.kind = #pto.kind<aiv>, pto.slot_num = 2 : i64, pto.split = #pto.split<up_down>, pto.split_aiv}
  // CHECK-LABEL: func.func @kernel(
  // CHECK-SAME:   %arg0: !pto.tensor<64x128xf32, dn> loc(unknown), %arg1: !pto.tensor<64x128xf32> {pto.out} loc(unknown)
  func.func @kernel(%src: !pto.tensor<64x128xf32, dn>, %out: !pto.tensor<64x128xf32> {pto.out}, %v: index)
      -> !pto.tensor<64x128xf32>
      attributes {pto.split = #pto.split<up_down>, pto.kind = #pto.kind<aiv>, pto.split_aiv, pto.slot_num = 2 : i64} {
    // UP: %[[C0:.*]] = arith.constant 0 : index
    %c0 = arith.constant 0 : index
    // UP: %[[T:.*]] = "pto.load"(%arg0, %arg2) {operandSegmentSizes = array<i32: 1, 0, 1>, static_offsets = array<i64: 0, 0>, static_valid = array<i64: -9223372036854775808, 128>} : (!pto.tensor<64x128xf32, dn>, index) -> !pto.tile<16x128xf32, vec, valid = [?, 128]>
    // CHECK: %0 = pto.load %arg0[0, 0] valid [%arg2, 128] : !pto.tensor<64x128xf32, dn> -> !pto.tile<16x128xf32, vec, valid = [?, 128]> loc("{{.*}}generic_form_in_mlir_opt.mlir":[[# @LINE + 1]]:5)
    %t = pto.load %src[0, 0] valid [%v, 128] : !pto.tensor<64x128xf32, dn> -> !pto.tile<16x128xf32, vec, valid = [?, 128]>
    // UP: "pto.tfree_to_aic"(%[[T]]) {id = 1 : i64}
    pto.tfree_to_aic %t {id = 1 : i64} : !pto.tile<16x128xf32, vec, valid = [?, 128]>
    // UP: %[[BUF:.*]] = "pto.reserve_buffer"() {base = -1 : i64, name = "kernel_c2v_slot_buffer", size = 16384 : i64} : () -> i32
    %buf = pto.reserve_buffer {name = "kernel_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
    // UP: %[[R:.*]] = "pto.split_aiv_scope"() ({
    // UP-NEXT: ^bb0(%[[ID:.*]]: index):
    // UP: "pto.yield"
    // UP-NEXT: }) {mode = #pto.split<up_down>} : () -> !pto.tensor<64x128xf32>
    // CHECK: pto.split_aiv_scope up_down (%{{.*}}) -> (!pto.tensor<64x128xf32>) {
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<64x128xf32>) {
      %x = pto.load %src[%c0, 0] : !pto.tensor<64x128xf32, dn> -> !pto.tile<64x128xf32, vec, blayout = col_major, pad = zero>
      %y = pto.store %x, %out[0, 0] : !pto.tile<64x128xf32, vec, blayout = col_major, pad = zero>, !pto.tensor<64x128xf32>
      pto.yield %y : !pto.tensor<64x128xf32>
    }
    // UP: return %[[R]] : !pto.tensor<64x128xf32>
    func.return %r : !pto.tensor<64x128xf32>
  }
}
