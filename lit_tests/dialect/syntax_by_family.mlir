// Every line of the "Syntax by family" block of docs/dialect.md, verbatim, one function per line (the lines
// reuse SSA names).  Shows that each parses as written, prints back in that form (up to the spacing after the
// result name), and that print -> parse -> print is a fixed point in the custom and the generic form.
// tests/dialects/test_dialect_docs.py checks that every line of the docs block appears in this file.

// RUN: pypto-opt %s | filecheck %s
// RUN: pypto-opt %s | pypto-opt | filecheck %s
// RUN: pypto-opt %s --mlir-print-op-generic | pypto-opt | filecheck %s
// The exact fixed point (byte-identical reprint, custom and generic) is checked in-process by
// tests/dialects/test_dialect_roundtrip.py, which does not depend on lit's shared temporary files.

builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @load
  // CHECK: %t = pto.load %src[0, %i] : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec>
  func.func @load(%src: !pto.tensor<64x128xf32>, %i: index) {
%t   = pto.load %src[0, %i] : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec>
    func.return
  }
  // CHECK-LABEL: func.func @load_valid
  // CHECK: %t = pto.load %src[0, 0] valid [%v, 128] : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec, valid = [?, 128]>
  func.func @load_valid(%src: !pto.tensor<64x128xf32>, %v: index) {
%t   = pto.load %src[0, 0] valid [%v, 128] : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec, valid = [?, 128]>
    func.return
  }
  // CHECK-LABEL: func.func @store
  // CHECK: %o2 = pto.store %t, %o[%r, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<64x128xf32>
  // CHECK-NEXT: func.return %o2 : !pto.tensor<64x128xf32>
  func.func @store(%t: !pto.tile<16x128xf32, vec>, %o: !pto.tensor<64x128xf32>, %r: index) -> !pto.tensor<64x128xf32> {
%o2  = pto.store %t, %o[%r, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<64x128xf32>
    func.return %o2 : !pto.tensor<64x128xf32>
  }
  // CHECK-LABEL: func.func @move
  // CHECK: %b = pto.move %a : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
  func.func @move(%a: !pto.tile<16x128xf32, acc>) {
%b   = pto.move %a : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    func.return
  }
  // CHECK-LABEL: func.func @matmul
  // CHECK: %c = pto.matmul %l, %r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
  func.func @matmul(%l: !pto.tile<16x64xbf16, left>, %r: !pto.tile<64x128xbf16, right>) {
%c   = pto.matmul %l, %r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    func.return
  }
  // CHECK-LABEL: func.func @matmul_acc
  // CHECK: %c2 = pto.matmul_acc %c, %l, %r : !pto.tile<16x128xf32, acc>, !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
  func.func @matmul_acc(%c: !pto.tile<16x128xf32, acc>, %l: !pto.tile<16x64xbf16, left>, %r: !pto.tile<64x128xbf16, right>) {
%c2  = pto.matmul_acc %c, %l, %r : !pto.tile<16x128xf32, acc>, !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    func.return
  }
  // CHECK-LABEL: func.func @add
  // CHECK: %s = pto.add %a, %b : !pto.tile<16x128xf32, vec>
  func.func @add(%a: !pto.tile<16x128xf32, vec>, %b: !pto.tile<16x128xf32, vec>) {
%s   = pto.add %a, %b : !pto.tile<16x128xf32, vec>
    func.return
  }
  // CHECK-LABEL: func.func @muls
  // CHECK: %s = pto.muls %a, %f : !pto.tile<16x128xf32, vec>, f32
  func.func @muls(%a: !pto.tile<16x128xf32, vec>, %f: f32) {
%s   = pto.muls %a, %f : !pto.tile<16x128xf32, vec>, f32
    func.return
  }
  // CHECK-LABEL: func.func @exp
  // CHECK: %e = pto.exp %a : !pto.tile<16x128xf32, vec>
  func.func @exp(%a: !pto.tile<16x128xf32, vec>) {
%e   = pto.exp %a : !pto.tile<16x128xf32, vec>
    func.return
  }
  // CHECK-LABEL: func.func @cast
  // CHECK: %h = pto.cast %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xf16, vec>
  func.func @cast(%a: !pto.tile<16x128xf32, vec>) {
%h   = pto.cast %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xf16, vec>
    func.return
  }
  // CHECK-LABEL: func.func @row_max
  // CHECK: %m = pto.row_max %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x1xf32, vec>
  func.func @row_max(%a: !pto.tile<16x128xf32, vec>) {
%m   = pto.row_max %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x1xf32, vec>
    func.return
  }
  // CHECK-LABEL: func.func @row_expand_sub
  // CHECK: %d = pto.row_expand_sub %a, %m : !pto.tile<16x128xf32, vec>, !pto.tile<16x1xf32, vec>
  func.func @row_expand_sub(%a: !pto.tile<16x128xf32, vec>, %m: !pto.tile<16x1xf32, vec>) {
%d   = pto.row_expand_sub %a, %m : !pto.tile<16x128xf32, vec>, !pto.tile<16x1xf32, vec>
    func.return
  }
  // CHECK-LABEL: func.func @full
  // CHECK: %z = pto.full %f : f32 -> !pto.tile<16x128xf32, vec>
  func.func @full(%f: f32) {
%z   = pto.full %f : f32 -> !pto.tile<16x128xf32, vec>
    func.return
  }
  // CHECK-LABEL: func.func @create
  // CHECK: %u = pto.create : !pto.tile<16x128xf32, vec>
  func.func @create() {
%u   = pto.create : !pto.tile<16x128xf32, vec>
    func.return
  }
  // CHECK-LABEL: func.func @reshape
  // CHECK: %r = pto.reshape %a : !pto.tile<16x1xf32, vec> -> !pto.tile<1x16xf32, vec>
  func.func @reshape(%a: !pto.tile<16x1xf32, vec>) {
%r   = pto.reshape %a : !pto.tile<16x1xf32, vec> -> !pto.tile<1x16xf32, vec>
    func.return
  }
  // CHECK-LABEL: func.func @transpose
  // CHECK: %tt = pto.transpose %a : !pto.tile<16x8xf32, vec> -> !pto.tile<8x16xf32, vec>
  func.func @transpose(%a: !pto.tile<16x8xf32, vec>) {
%tt  = pto.transpose %a : !pto.tile<16x8xf32, vec> -> !pto.tile<8x16xf32, vec>
    func.return
  }
  // CHECK-LABEL: func.func @slice
  // CHECK: %sl = pto.slice %a[0, %j] : !pto.tile<128x128xf32, vec> -> !pto.tile<128x64xf32, vec>
  func.func @slice(%a: !pto.tile<128x128xf32, vec>, %j: index) {
%sl  = pto.slice %a[0, %j] : !pto.tile<128x128xf32, vec> -> !pto.tile<128x64xf32, vec>
    func.return
  }
  // CHECK-LABEL: func.func @aiv_shard
  // CHECK: %h = pto.aiv_shard %qk {split = 1 : i64} : !pto.tile<128x128xf32, acc> -> !pto.tile<64x128xf32, vec>
  func.func @aiv_shard(%qk: !pto.tile<128x128xf32, acc>) {
%h   = pto.aiv_shard %qk {split = 1 : i64} : !pto.tile<128x128xf32, acc> -> !pto.tile<64x128xf32, vec>
    func.return
  }
  // CHECK-LABEL: func.func @aiv_shard_lane_stride
  // CHECK: %h2 = pto.aiv_shard %q2 {split = 1 : i64, lane_stride = 7 : i64} : !pto.tile<16x128xf32, mat, valid = [13, 128]> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
  func.func @aiv_shard_lane_stride(%q2: !pto.tile<16x128xf32, mat, valid = [13, 128]>) {
%h2  = pto.aiv_shard %q2 {split = 1 : i64, lane_stride = 7 : i64} : !pto.tile<16x128xf32, mat, valid = [13, 128]> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
    func.return
  }
  // CHECK-LABEL: func.func @aic_gather
  // CHECK: %g = pto.aic_gather %h {split = 1 : i64} : !pto.tile<64x128xf32, vec> -> !pto.tile<128x128xf32, mat>
  func.func @aic_gather(%h: !pto.tile<64x128xf32, vec>) {
%g   = pto.aic_gather %h {split = 1 : i64} : !pto.tile<64x128xf32, vec> -> !pto.tile<128x128xf32, mat>
    func.return
  }
  // CHECK-LABEL: func.func @get_subblock_idx
  // CHECK: %i = pto.get_subblock_idx : index
  func.func @get_subblock_idx() {
%i   = pto.get_subblock_idx : index
    func.return
  }
  // CHECK-LABEL: func.func @split_aiv_scope
  // CHECK:      %r2 = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<128x128xf32>) {
  // CHECK-NEXT:   %x = pto.load %data[0, 0] : !pto.tensor<128x128xf32> -> !pto.tile<128x128xf32, vec>
  // CHECK-NEXT:   %y = pto.store %x, %out[0, 0] : !pto.tile<128x128xf32, vec>, !pto.tensor<128x128xf32>
  // CHECK-NEXT:   pto.yield %y : !pto.tensor<128x128xf32>
  // CHECK-NEXT: }
  func.func @split_aiv_scope(%data: !pto.tensor<128x128xf32>, %out: !pto.tensor<128x128xf32>) {
%r2  = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<128x128xf32>) {
  %x = pto.load %data[0, 0] : !pto.tensor<128x128xf32> -> !pto.tile<128x128xf32, vec>
  %y = pto.store %x, %out[0, 0] : !pto.tile<128x128xf32, vec>, !pto.tensor<128x128xf32>
  pto.yield %y : !pto.tensor<128x128xf32>
}
    func.return
  }
  // CHECK-LABEL: func.func @tpush_to_aiv
  // CHECK: pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x128xf32, acc>
  func.func @tpush_to_aiv(%t: !pto.tile<16x128xf32, acc>) {
pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x128xf32, acc>
    func.return
  }
  // CHECK-LABEL: func.func @tpop_tfree
  // CHECK:      %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: pto.tfree_to_aic %p : !pto.tile<16x128xf32, vec>
  func.func @tpop_tfree() {
%p   = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
pto.tfree_to_aic %p : !pto.tile<16x128xf32, vec>
    func.return
  }
  // CHECK-LABEL: func.func @pipe_setup
  // CHECK:      %rb = pto.reserve_buffer {name = "f_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
  // CHECK-NEXT: %ib = pto.import_peer_buffer {name = "f_c2v_slot_buffer", peer_func = @f_aiv} : i32
  // CHECK-NEXT: %zero = arith.constant 0 : i32
  // CHECK-NEXT: pto.aic_initialize_pipe %ib, %zero {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
  func.func @pipe_setup() {
%rb  = pto.reserve_buffer {name = "f_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32
%ib  = pto.import_peer_buffer {name = "f_c2v_slot_buffer", peer_func = @f_aiv} : i32
    %zero = arith.constant 0 : i32
pto.aic_initialize_pipe %ib, %zero {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32
    func.return
  }
  // CHECK-LABEL: func.func @create_tensor
  // CHECK: %gm = pto.create_tensor : !pto.tensor<16x128xf32>
  func.func @create_tensor() {
%gm  = pto.create_tensor : !pto.tensor<16x128xf32>
    func.return
  }
}
