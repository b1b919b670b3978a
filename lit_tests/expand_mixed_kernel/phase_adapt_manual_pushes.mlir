// RUN: pypto-opt %s --adapt-manual-pushes | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --adapt-manual-pushes | filecheck %s --check-prefixes=CHECK,A5
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --adapt-manual-pushes --adapt-manual-pushes | filecheck %s --check-prefixes=CHECK,A5

// Phase 6 of expand-mixed-kernel, run alone. Its input: no incore kernel left (what split-mixed-kernel leaves);
// here a hand-written V->C pipe between @k_aiv and @k_aic. Its output: on a5, the push of the non-NZ vec tile %t
// goes through the `%t_nz` adapter move (all the push's attributes kept), the push of the NZ tile %n is left
// alone; on a2a3 nothing changes. A second run changes nothing (third RUN line). protocol_manual_push.mlir shows
// the same through the whole pass, from a pure vector incore kernel.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @k_aic(
  // CHECK:      %p = pto.tpop_from_aiv {split = 0 : i64, id = 1 : i64} : !pto.tile<16x128xf16, mat>
  // CHECK-NEXT: %q = pto.tpop_from_aiv {split = 0 : i64, id = 1 : i64} : !pto.tile<16x128xf16, mat>
  func.func @k_aic() attributes {pto.kind = #pto.kind<aic>} {
    %rb = pto.reserve_buffer {name = "k_v2c", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %c0, %rb {dir_mask = 2 : i64, slot_size = 4096 : i64, slot_num = 2 : i64, id = 1 : i64} : i32, i32
    %p = pto.tpop_from_aiv {split = 0 : i64, id = 1 : i64} : !pto.tile<16x128xf16, mat>
    %q = pto.tpop_from_aiv {split = 0 : i64, id = 1 : i64} : !pto.tile<16x128xf16, mat>
    pto.tfree_to_aiv %p {id = 1 : i64} : !pto.tile<16x128xf16, mat>
    pto.tfree_to_aiv %q {id = 1 : i64} : !pto.tile<16x128xf16, mat>
    func.return
  }

  // An AIV kernel with a hand-written non-NZ push: on a5 it gets the adapter; the NZ push is left alone.
  // CHECK-LABEL: func.func @k_aiv(
  // CHECK-SAME: attributes {pto.kind = #pto.kind<aiv>} {
  // CHECK:      %t = pto.load
  // A2A3-NEXT:  pto.tpush_to_aic %t {split = 0 : i64, id = 1 : i64, note = "kept"} : !pto.tile<16x128xf16, vec>
  // A5-NEXT:    %t_nz = pto.move %t : !pto.tile<16x128xf16, vec> -> !pto.tile<16x128xf16, vec, blayout = col_major, slayout = row_major>
  // A5-NEXT:    pto.tpush_to_aic %t_nz {split = 0 : i64, id = 1 : i64, note = "kept"} : !pto.tile<16x128xf16, vec, blayout = col_major, slayout = row_major>
  // CHECK-NEXT: %n = pto.move %t
  // CHECK-NEXT: pto.tpush_to_aic %n {split = 0 : i64, id = 1 : i64} : !pto.tile<16x128xf16, vec, blayout = col_major, slayout = row_major>
  // CHECK-NEXT: func.return
  func.func @k_aiv(%x: !pto.tensor<16x128xf16>) attributes {pto.kind = #pto.kind<aiv>} {
    %ib = pto.import_peer_buffer {name = "k_v2c", peer_func = @k_aic} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %c0, %ib {dir_mask = 2 : i64, slot_size = 4096 : i64, slot_num = 2 : i64, id = 1 : i64} : i32, i32
    %t = pto.load %x[0, 0] : !pto.tensor<16x128xf16> -> !pto.tile<16x128xf16, vec>
    pto.tpush_to_aic %t {split = 0 : i64, id = 1 : i64, note = "kept"} : !pto.tile<16x128xf16, vec>
    %n = pto.move %t : !pto.tile<16x128xf16, vec> -> !pto.tile<16x128xf16, vec, blayout = col_major, slayout = row_major>
    pto.tpush_to_aic %n {split = 0 : i64, id = 1 : i64} : !pto.tile<16x128xf16, vec, blayout = col_major, slayout = row_major>
    func.return
  }
}
