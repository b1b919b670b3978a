// Round trip of the cross-core ops: split boundaries (aiv_shard, aic_gather, every split value), the
// split_aiv_scope region (every mode, with and without results, with an attribute dictionary) and its
// pto.yield, the transfer ops in both directions with every split code and the optional id/lane_stride, and
// the pipe setup ops with every optional attribute.

// RUN: pypto-opt %s | filecheck %s
// RUN: pypto-opt %s | pypto-opt | filecheck %s
// RUN: pypto-opt %s --mlir-print-op-generic | pypto-opt | filecheck %s
// RUN: pypto-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: pypto-opt %s --mlir-print-op-generic | pypto-opt --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// The exact fixed point (byte-identical reprint, custom and generic) is checked in-process by
// tests/dialects/test_dialect_roundtrip.py, which does not depend on lit's shared temporary files.

builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @boundaries
  // CHECK:      %s0 = pto.aiv_shard %acc {split = 0 : i64} : !pto.tile<128x128xf32, acc> -> !pto.tile<128x128xf32, vec>
  // CHECK-NEXT: %s1 = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<128x128xf32, acc> -> !pto.tile<64x128xf32, vec>
  // CHECK-NEXT: %s2 = pto.aiv_shard %acc {split = 2 : i64} : !pto.tile<128x128xf32, acc> -> !pto.tile<128x64xf32, vec>
  // CHECK-NEXT: %s3 = pto.aiv_shard %mat {split = 2 : i64, lane_stride = 3 : i64} : !pto.tile<16x7xf32, mat> -> !pto.tile<16x4xf32, vec>
  // CHECK-NEXT: %g0 = pto.aic_gather %s0 {split = 0 : i64} : !pto.tile<128x128xf32, vec> -> !pto.tile<128x128xf32, mat>
  // CHECK-NEXT: %g1 = pto.aic_gather %s1 {split = 1 : i64} : !pto.tile<64x128xf32, vec> -> !pto.tile<128x128xf32, mat>
  // CHECK-NEXT: %g2 = pto.aic_gather %s2 {split = 2 : i64} : !pto.tile<128x64xf32, vec> -> !pto.tile<128x128xf32, mat>
  // GENERIC-LABEL: "func.func"() <{sym_name = "boundaries"
  // GENERIC: %s1 = "pto.aiv_shard"(%acc) {split = 1 : i64} : (!pto.tile<128x128xf32, acc>) -> !pto.tile<64x128xf32, vec>
  // GENERIC: %s3 = "pto.aiv_shard"(%mat) {split = 2 : i64, lane_stride = 3 : i64}
  // GENERIC: %g1 = "pto.aic_gather"(%s1) {split = 1 : i64} : (!pto.tile<64x128xf32, vec>) -> !pto.tile<128x128xf32, mat>
  func.func @boundaries(%acc: !pto.tile<128x128xf32, acc>, %mat: !pto.tile<16x7xf32, mat>) {
    %s0 = pto.aiv_shard %acc {split = 0 : i64} : !pto.tile<128x128xf32, acc> -> !pto.tile<128x128xf32, vec>
    %s1 = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<128x128xf32, acc> -> !pto.tile<64x128xf32, vec>
    %s2 = pto.aiv_shard %acc {split = 2 : i64} : !pto.tile<128x128xf32, acc> -> !pto.tile<128x64xf32, vec>
    %s3 = pto.aiv_shard %mat {split = 2 : i64, lane_stride = 3 : i64} : !pto.tile<16x7xf32, mat> -> !pto.tile<16x4xf32, vec>
    %g0 = pto.aic_gather %s0 {split = 0 : i64} : !pto.tile<128x128xf32, vec> -> !pto.tile<128x128xf32, mat>
    %g1 = pto.aic_gather %s1 {split = 1 : i64} : !pto.tile<64x128xf32, vec> -> !pto.tile<128x128xf32, mat>
    %g2 = pto.aic_gather %s2 {split = 2 : i64} : !pto.tile<128x64xf32, vec> -> !pto.tile<128x128xf32, mat>
    func.return
  }

  // CHECK-LABEL: func.func @scopes
  // CHECK:      pto.split_aiv_scope none (%aiv_id) {
  // CHECK-NEXT:   %x = pto.create : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:   pto.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: %r, %r_1 = pto.split_aiv_scope left_right (%lane) -> (!pto.tensor<16x16xf32>, index) attributes {tag = "kept"} {
  // CHECK-NEXT:   %y = pto.load %t[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:   %t2 = pto.store %y, %t[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
  // CHECK-NEXT:   pto.yield %t2, %lane : !pto.tensor<16x16xf32>, index
  // CHECK-NEXT: }
  // CHECK-NEXT: %u = pto.split_aiv_scope up_down (%k) -> (index) {
  // CHECK-NEXT:   pto.yield %k : index
  // GENERIC-LABEL: "func.func"() <{sym_name = "scopes"
  // GENERIC:      "pto.split_aiv_scope"() ({
  // GENERIC-NEXT: ^bb0(%aiv_id: index):
  // GENERIC:      "pto.yield"() : () -> ()
  // GENERIC-NEXT: }) {mode = #pto.split<none>} : () -> ()
  // GENERIC-NEXT: %r, %r_1 = "pto.split_aiv_scope"() ({
  // GENERIC:      "pto.yield"(%t2, %lane) : (!pto.tensor<16x16xf32>, index) -> ()
  // GENERIC-NEXT: }) {mode = #pto.split<left_right>, tag = "kept"} : () -> (!pto.tensor<16x16xf32>, index)
  func.func @scopes(%t: !pto.tensor<16x16xf32>) {
    pto.split_aiv_scope none (%aiv_id) {
      %x = pto.create : !pto.tile<16x16xf32, vec>
      pto.yield
    }
    %r:2 = pto.split_aiv_scope left_right (%lane) -> (!pto.tensor<16x16xf32>, index) attributes {tag = "kept"} {
      %y = pto.load %t[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
      %t2 = pto.store %y, %t[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
      pto.yield %t2, %lane : !pto.tensor<16x16xf32>, index
    }
    %u = pto.split_aiv_scope up_down (%k) -> (index) {
      pto.yield %k : index
    }
    func.return
  }

  // CHECK-LABEL: func.func @transfers
  // CHECK:      pto.tpush_to_aiv %acc {split = 0 : i64} : !pto.tile<16x128xf32, acc>
  // CHECK-NEXT: pto.tpush_to_aiv %acc {split = 1 : i64, id = 2 : i64} : !pto.tile<16x128xf32, acc>
  // CHECK-NEXT: pto.tpush_to_aiv %acc {split = 3 : i64, lane_stride = 5 : i64} : !pto.tile<16x128xf32, acc>
  // CHECK-NEXT: pto.tpush_to_aic %v {split = 2 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: pto.tpush_to_aic %v {split = 4 : i64, id = 0 : i64, lane_stride = 1 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %p2 = pto.tpop_from_aic {split = 1 : i64, id = 1 : i64, lane_stride = 8 : i64} : !pto.tile<8x128xf32, vec>
  // CHECK-NEXT: %q = pto.tpop_from_aiv {split = 2 : i64} : !pto.tile<16x128xf32, mat>
  // CHECK-NEXT: %q2 = pto.tpop_from_aiv {split = 3 : i64, id = 4 : i64} : !pto.tile<16x128xf32, mat>
  // CHECK-NEXT: pto.tfree_to_aic %p : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: pto.tfree_to_aic %p2 {id = 1 : i64} : !pto.tile<8x128xf32, vec>
  // CHECK-NEXT: pto.tfree_to_aiv %q : !pto.tile<16x128xf32, mat>
  // CHECK-NEXT: pto.tfree_to_aiv %q2 {id = 4 : i64} : !pto.tile<16x128xf32, mat>
  // GENERIC-LABEL: "func.func"() <{sym_name = "transfers"
  // GENERIC: "pto.tpush_to_aiv"(%acc) {split = 0 : i64} : (!pto.tile<16x128xf32, acc>) -> ()
  // GENERIC: %p2 = "pto.tpop_from_aic"() {split = 1 : i64, id = 1 : i64, lane_stride = 8 : i64} : () -> !pto.tile<8x128xf32, vec>
  // GENERIC: "pto.tfree_to_aiv"(%q2) {id = 4 : i64} : (!pto.tile<16x128xf32, mat>) -> ()
  func.func @transfers(%acc: !pto.tile<16x128xf32, acc>, %v: !pto.tile<16x128xf32, vec>) {
    pto.tpush_to_aiv %acc {split = 0 : i64} : !pto.tile<16x128xf32, acc>
    pto.tpush_to_aiv %acc {split = 1 : i64, id = 2 : i64} : !pto.tile<16x128xf32, acc>
    pto.tpush_to_aiv %acc {split = 3 : i64, lane_stride = 5 : i64} : !pto.tile<16x128xf32, acc>
    pto.tpush_to_aic %v {split = 2 : i64} : !pto.tile<16x128xf32, vec>
    pto.tpush_to_aic %v {split = 4 : i64, id = 0 : i64, lane_stride = 1 : i64} : !pto.tile<16x128xf32, vec>
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
    %p2 = pto.tpop_from_aic {split = 1 : i64, id = 1 : i64, lane_stride = 8 : i64} : !pto.tile<8x128xf32, vec>
    %q = pto.tpop_from_aiv {split = 2 : i64} : !pto.tile<16x128xf32, mat>
    %q2 = pto.tpop_from_aiv {split = 3 : i64, id = 4 : i64} : !pto.tile<16x128xf32, mat>
    pto.tfree_to_aic %p : !pto.tile<16x128xf32, vec>
    pto.tfree_to_aic %p2 {id = 1 : i64} : !pto.tile<8x128xf32, vec>
    pto.tfree_to_aiv %q : !pto.tile<16x128xf32, mat>
    pto.tfree_to_aiv %q2 {id = 4 : i64} : !pto.tile<16x128xf32, mat>
    func.return
  }

  // CHECK-LABEL: func.func @setup
  // CHECK:      %c2v = pto.reserve_buffer {name = "setup_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
  // CHECK-NEXT: %v2c = pto.reserve_buffer {name = "setup_v2c_slot_buffer", size = 4096 : i64, base = 65536 : i64} : i32
  // CHECK-NEXT: %imp = pto.import_peer_buffer {name = "setup_c2v_slot_buffer", peer_func = @setup} : i32
  // CHECK-NEXT: %c0 = arith.constant 0 : i32
  // CHECK-NEXT: pto.aic_initialize_pipe %imp, %v2c {dir_mask = 3 : i64, slot_size = 8192 : i64, slot_num = 4 : i64, local_slot_num = 2 : i64, id = 1 : i64} : i32, i32
  // CHECK-NEXT: pto.aiv_initialize_pipe %c2v, %c0 {dir_mask = 1 : i64, slot_size = 8192 : i64} : i32, i32
  // CHECK-NEXT: pto.aiv_initialize_pipe %c0, %v2c {dir_mask = 2 : i64, slot_size = 2048 : i64, slot_num = 2 : i64} : i32, i32
  // GENERIC-LABEL: "func.func"() <{sym_name = "setup"
  // GENERIC: %c2v = "pto.reserve_buffer"() {name = "setup_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : () -> i32
  // GENERIC: %imp = "pto.import_peer_buffer"() {name = "setup_c2v_slot_buffer", peer_func = @setup} : () -> i32
  // GENERIC: "pto.aic_initialize_pipe"(%imp, %v2c) {dir_mask = 3 : i64, slot_size = 8192 : i64, slot_num = 4 : i64, local_slot_num = 2 : i64, id = 1 : i64} : (i32, i32) -> ()
  func.func @setup() {
    %c2v = pto.reserve_buffer {name = "setup_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
    %v2c = pto.reserve_buffer {name = "setup_v2c_slot_buffer", size = 4096 : i64, base = 65536 : i64} : i32
    %imp = pto.import_peer_buffer {name = "setup_c2v_slot_buffer", peer_func = @setup} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %imp, %v2c {dir_mask = 3 : i64, slot_size = 8192 : i64, slot_num = 4 : i64, local_slot_num = 2 : i64, id = 1 : i64} : i32, i32
    pto.aiv_initialize_pipe %c2v, %c0 {dir_mask = 1 : i64, slot_size = 8192 : i64} : i32, i32
    pto.aiv_initialize_pipe %c0, %v2c {dir_mask = 2 : i64, slot_size = 2048 : i64, slot_num = 2 : i64} : i32, i32
    func.return
  }
}
