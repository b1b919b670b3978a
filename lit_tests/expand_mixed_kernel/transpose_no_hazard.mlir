// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split --expand-mixed-kernel | filecheck %s

// Not a hazard: a singleton split axis carries no split data (broadcast no-op), a kernel without a split, a
// kernel whose regions were validated by LowerAutoVectorSplit, and a pure (non-mixed) kernel. The split kernels
// reach ExpandMixedKernel (whose transpose check this is) as it requires them: lowered by LowerAutoVectorSplit.
// CHECK-LABEL: func.func @singleton_aic(
// CHECK-LABEL: func.func @singleton_aiv(
// CHECK: pto.transpose
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @singleton(%q: !pto.tensor<1x16xf16>, %w: !pto.tensor<16x16xf16>, %o: !pto.tensor<16x1xf32> {pto.out}) -> !pto.tensor<16x1xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %m = pto.load %q[0, 0] : !pto.tensor<1x16xf16> -> !pto.tile<1x16xf16, mat>
    %wm = pto.load %w[0, 0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
    %l = pto.move %m : !pto.tile<1x16xf16, mat> -> !pto.tile<1x16xf16, left>
    %r = pto.move %wm : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
    %c = pto.matmul %l, %r : !pto.tile<1x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<1x16xf32, acc>
    %v = pto.move %c : !pto.tile<1x16xf32, acc> -> !pto.tile<1x16xf32, vec>
    %t = pto.transpose %v : !pto.tile<1x16xf32, vec> -> !pto.tile<16x1xf32, vec>
    %o2 = pto.store %t, %o[0, 0] : !pto.tile<16x1xf32, vec>, !pto.tensor<16x1xf32>
    func.return %o2 : !pto.tensor<16x1xf32>
  }
  // CHECK-LABEL: func.func @nosplit_aiv(
  // CHECK: pto.transpose
  func.func @nosplit(%q: !pto.tensor<16x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %m = pto.load %q[0, 0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
    %l = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
    %r = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
    %c = pto.matmul %l, %r : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
    %v = pto.move %c : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %t = pto.transpose %v : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>
    %o2 = pto.store %t, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
  // CHECK-LABEL: func.func @validated_aiv(
  // CHECK: pto.transpose
  func.func @validated(%q: !pto.tensor<16x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv_region_validated} {
    %m = pto.load %q[0, 0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
    %l = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
    %r = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
    %c = pto.matmul %l, %r : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
    %v = pto.move %c : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %t = pto.transpose %v : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>
    %o2 = pto.store %t, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
  // CHECK-LABEL: func.func @pure_vector(
  // CHECK-SAME: pto.kind<aiv>
  func.func @pure_vector(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    %t = pto.transpose %v : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>
    %o2 = pto.store %t, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
}
