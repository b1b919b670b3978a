// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-opt %s --expand-mixed-kernel --mlir-print-debuginfo | filecheck %s --check-prefix=LOC

// Both directions in one kernel (V->C prep, then C->V epilogue), a second mixed kernel in the same module,
// and the Group's fallback when a return position is not a parameter writeback.  New ops carry the location
// of the op they replace (LOC).
builtin.module attributes {pto.target = #pto.target<a2a3>} {  // Both directions in one kernel: vector prep -> cube matmul -> vector epilogue.
  func.func @both(%x: !pto.tensor<16x32xf32>, %w: !pto.tensor<32x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %s = arith.constant 0.5 : f32
    %xv = pto.load %x[0, 0] : !pto.tensor<16x32xf32> -> !pto.tile<16x32xf32, vec>
    %xs = pto.muls %xv, %s : !pto.tile<16x32xf32, vec>, f32
    %xh = pto.cast %xs : !pto.tile<16x32xf32, vec> -> !pto.tile<16x32xf16, vec>
    %xl = pto.move %xh : !pto.tile<16x32xf16, vec> -> !pto.tile<16x32xf16, left>
    %wm = pto.load %w[0, 0] : !pto.tensor<32x16xf16> -> !pto.tile<32x16xf16, mat>
    %wr = pto.move %wm : !pto.tile<32x16xf16, mat> -> !pto.tile<32x16xf16, right>
    %c = pto.matmul %xl, %wr : !pto.tile<16x32xf16, left>, !pto.tile<32x16xf16, right> -> !pto.tile<16x16xf32, acc>
    %cv = pto.move %c : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %r = pto.relu %cv : !pto.tile<16x16xf32, vec>
    %o2 = pto.store %r, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
  // A kernel returning a scalar that is not a parameter writeback: the Group returns the AIV call's results.
  func.func @counted(%x: !pto.tensor<16x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}, %n: index) -> (!pto.tensor<16x16xf32>, index)
      attributes {pto.kind = #pto.kind<incore>} {
    %c1 = arith.constant 1 : index
    %m = pto.load %x[0, 0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
    %l = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
    %r = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
    %c = pto.matmul %l, %r : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
    %v = pto.move %c : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %o2 = pto.store %v, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    %n2 = arith.addi %n, %c1 : index
    func.return %o2, %n2 : !pto.tensor<16x16xf32>, index
  }
}

// CHECK-LABEL: func.func @both_aic(
// CHECK: %xl_mat = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x32xf16, mat>
// CHECK-NEXT: %xl = pto.move %xl_mat : !pto.tile<16x32xf16, mat> -> !pto.tile<16x32xf16, left>
// CHECK: %c = pto.matmul %xl, %wr
// CHECK-NEXT: pto.tpush_to_aiv %c {split = 0 : i64} : !pto.tile<16x16xf32, acc>
// CHECK-NOT: pto.relu
// CHECK: func.return{{$}}
// CHECK-LABEL: func.func @both_aiv(
// CHECK: %xh = pto.cast %xs
// A2A3-NEXT: pto.tpush_to_aic %xh {split = 0 : i64} : !pto.tile<16x32xf16, vec>
// A5-NEXT: %xh_nz = pto.move %xh : !pto.tile<16x32xf16, vec> -> !pto.tile<16x32xf16, vec, blayout = col_major, slayout = row_major>
// A5-NEXT: pto.tpush_to_aic %xh_nz {split = 0 : i64}
// CHECK-NEXT: %cv = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x16xf32, vec>
// CHECK-NEXT: %r = pto.relu %cv
// CHECK-NOT: pto.matmul
// CHECK: func.return %o2
// CHECK-LABEL: func.func @both(
// CHECK-SAME: pto.kind = #pto.kind<group>

// The second kernel: the scalar result is computed on the AIV (shared arith, dead on the AIC and removed there);
// the Group returns the AIV call's results.
// CHECK-LABEL: func.func @counted_aic(
// CHECK-NOT: arith.addi
// CHECK: func.return{{$}}
// CHECK-LABEL: func.func @counted_aiv(
// CHECK-SAME: -> (!pto.tensor<16x16xf32>, index)
// CHECK: %n2 = arith.addi %n, %c1
// CHECK: func.return %o2, %n2
// CHECK-LABEL: func.func @counted(
// CHECK-SAME: -> (!pto.tensor<16x16xf32>, index) attributes {pto.kind = #pto.kind<group>} {
// CHECK-NEXT: func.call @counted_aic(%x, %o, %n)
// CHECK-NEXT: %o2, %n2 = func.call @counted_aiv(%x, %o, %n)
// CHECK-NEXT: func.return %o2, %n2 : !pto.tensor<16x16xf32>, index

// LOC-LABEL: func.func @both_aic(
// LOC: pto.tpop_from_aiv {{.*}} loc("{{.*}}both_directions.mlir":15:5)
// LOC-NEXT: pto.move {{.*}} loc("{{.*}}both_directions.mlir":15:5)
// LOC: pto.tpush_to_aiv {{.*}} loc("{{.*}}both_directions.mlir":19:5)
// LOC-LABEL: func.func @both_aiv(
// LOC: pto.tpush_to_aic {{.*}} loc("{{.*}}both_directions.mlir":15:5)
// LOC: pto.tpop_from_aic {{.*}} loc("{{.*}}both_directions.mlir":19:5)
// LOC-LABEL: func.func @both(
// LOC: func.call @both_aic{{.*}} loc("{{.*}}both_directions.mlir":9:3)
