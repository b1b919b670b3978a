// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split --expand-mixed-kernel | filecheck %s
// RUN: pypto-opt %examples/matmul_softmax.a2a3.mlir --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefix=SOFTMAX
// RUN: pypto-opt %examples/matmul_softmax.a5.mlir --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefix=SOFTMAX

// The usual pipeline: LowerAutoVectorSplit turns the C->V boundary of an up_down kernel into pto.aiv_shard
// (balancing the ragged 13 of 16 rows with lane_stride 7), and ExpandMixedKernel folds the shard into a
// tpush/tpop pair carrying split code 3 (lanes 7 and 6) and the stride.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @ragged(%q: !pto.tensor<16x128xf32>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %qm = pto.load %q[0, 0] valid [13, 128] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, mat, valid = [13, 128]>
    %qv = pto.move %qm : !pto.tile<16x128xf32, mat, valid = [13, 128]> -> !pto.tile<16x128xf32, vec, valid = [13, 128]>
    %e = pto.exp %qv : !pto.tile<16x128xf32, vec, valid = [13, 128]>
    %o2 = pto.store %e, %o[0, 0] : !pto.tile<16x128xf32, vec, valid = [13, 128]>, !pto.tensor<16x128xf32>
    func.return %o2 : !pto.tensor<16x128xf32>
  }
}

// CHECK-LABEL: func.func @ragged_aic(
// CHECK-SAME: pto.split = #pto.split<up_down>
// CHECK: pto.tpush_to_aiv %qm {split = 3 : i64, lane_stride = 7 : i64} : !pto.tile<16x128xf32, mat, valid = [13, 128]>
// CHECK-NOT: pto.exp
// CHECK-LABEL: func.func @ragged_aiv(
// CHECK: %qv = pto.tpop_from_aic {split = 3 : i64, lane_stride = 7 : i64} : !pto.tile<8x128xf32, vec, valid = [?, 128]>
// CHECK: pto.exp %qv
// CHECK-NOT: pto.aiv_shard
// CHECK-LABEL: func.func @ragged(
// CHECK-SAME: pto.kind = #pto.kind<group>

// SOFTMAX-LABEL: func.func @attn_incore_0_aic(
// SOFTMAX: pto.tpush_to_aiv %scores {split = 1 : i64} : !pto.tile<64x128xf32, acc>
// SOFTMAX-LABEL: func.func @attn_incore_0_aiv(
// SOFTMAX: %s = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<32x128xf32, vec>
// SOFTMAX-LABEL: func.func @attn_incore_0(
// SOFTMAX-SAME: pto.kind = #pto.kind<group>
// SOFTMAX-NOT: pto.kind<incore>
