// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s

// Hand-written transfers in an AUTO body (reference §2.3, first rows): the split code is re-stamped from the
// full-width tile (1/2 even, 3/4 odd), a tpop_from_aic becomes the per-lane half (tracked: the store moves with
// the lane), a tpop_from_aiv keeps its full type.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @manual_up_down
  // CHECK:       pto.tpush_to_aiv %c {split = 1 : i64} : !pto.tile<16x64xf32, acc>
  // CHECK-NEXT:  %p = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<8x64xf32, vec>
  // CHECK-NEXT:  %e = pto.exp %p : !pto.tile<8x64xf32, vec>
  // CHECK-NEXT:  pto.tfree_to_aic %p : !pto.tile<8x64xf32, vec>
  // CHECK-NEXT:  pto.tpush_to_aic %e {split = 1 : i64} : !pto.tile<8x64xf32, vec>
  // CHECK-NEXT:  %g = pto.tpop_from_aiv {split = 1 : i64} : !pto.tile<16x64xf32, mat>
  // CHECK:       %o = pto.store %e, %out[%{{.*}}, 0] : !pto.tile<8x64xf32, vec>, !pto.tensor<16x64xf32>
  func.func @manual_up_down(%l: !pto.tile<16x16xf32, left>, %r: !pto.tile<16x64xf32, right>,
                            %out: !pto.tensor<16x64xf32> {pto.out}) -> !pto.tensor<16x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c = pto.matmul %l, %r : !pto.tile<16x16xf32, left>, !pto.tile<16x64xf32, right> -> !pto.tile<16x64xf32, acc>
    pto.tpush_to_aiv %c {split = 0 : i64} : !pto.tile<16x64xf32, acc>
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    pto.tpush_to_aic %e {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %g = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x64xf32, mat>
    pto.tfree_to_aiv %g : !pto.tile<16x64xf32, mat>
    %o = pto.store %e, %out[0, 0] : !pto.tile<16x64xf32, vec>, !pto.tensor<16x64xf32>
    func.return %o : !pto.tensor<16x64xf32>
  }

  // Odd columns under LEFT_RIGHT: 15 columns leave the lanes 8 and 7, the odd code 4.
  // CHECK-LABEL: func.func @manual_odd_left_right
  // CHECK:       pto.tpush_to_aiv %c {split = 4 : i64} : !pto.tile<16x15xf32, acc>
  // CHECK-NEXT:  %p = pto.tpop_from_aic {split = 4 : i64} : !pto.tile<16x8xf32, vec, valid = [16, ?]>
  func.func @manual_odd_left_right(%c: !pto.tile<16x15xf32, acc>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    pto.tpush_to_aiv %c {split = 0 : i64} : !pto.tile<16x15xf32, acc>
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x15xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x15xf32, vec>
    func.return
  }
}
