// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: pypto-opt %s --lower-auto-vector-split | pypto-opt | filecheck %s

// Control flow: the pass recurses into scf.for, scf.if and scf.while. Unlike the reference (which leaves
// loop-carried tiles seeded by a halved value at full width), carried tiles, yields and results are retyped
// consistently.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // K-loop accumulation (examples/loop_accumulate): the full init is halved, the carried tile is [16, 64], the
  // C->V move inside the loop becomes a shard, and the loop result is stored at the lane offset.
  // CHECK-LABEL: func.func @kloop
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c16 : index
  // CHECK:       %init = pto.full %zero : f32 -> !pto.tile<16x64xf32, vec>
  // CHECK-NEXT:  %acc = scf.for %kk = %c0 to %c256 step %c64 iter_args(%sum = %init) -> (!pto.tile<16x64xf32, vec>) {
  // CHECK:         %part = pto.matmul %a_left, %b_right : !pto.tile<32x64xbf16, left>, !pto.tile<64x64xbf16, right> -> !pto.tile<32x64xf32, acc>
  // CHECK-NEXT:    %part_vec = pto.aiv_shard %part {split = 1 : i64} : !pto.tile<32x64xf32, acc> -> !pto.tile<16x64xf32, vec>
  // CHECK-NEXT:    %next = pto.add %sum, %part_vec : !pto.tile<16x64xf32, vec>
  // CHECK-NEXT:    scf.yield %next : !pto.tile<16x64xf32, vec>
  // CHECK-NEXT:  }
  // CHECK-NEXT:  %r = pto.relu %acc : !pto.tile<16x64xf32, vec>
  // CHECK-NEXT:  %out_1 = pto.store %r, %out[%[[L]], 0] : !pto.tile<16x64xf32, vec>, !pto.tensor<32x64xf32>
  func.func @kloop(%a: !pto.tensor<32x256xbf16>, %b: !pto.tensor<256x64xbf16>,
                   %out_0: !pto.tensor<32x64xf32> {pto.out}) -> !pto.tensor<32x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %init = pto.full %zero : f32 -> !pto.tile<32x64xf32, vec>
    %acc = scf.for %kk = %c0 to %c256 step %c64 iter_args(%sum = %init) -> (!pto.tile<32x64xf32, vec>) {
      %a_mat = pto.load %a[0, %kk] : !pto.tensor<32x256xbf16> -> !pto.tile<32x64xbf16, mat>
      %b_mat = pto.load %b[%kk, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<64x64xbf16, mat>
      %a_left = pto.move %a_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
      %b_right = pto.move %b_mat : !pto.tile<64x64xbf16, mat> -> !pto.tile<64x64xbf16, right>
      %part = pto.matmul %a_left, %b_right : !pto.tile<32x64xbf16, left>, !pto.tile<64x64xbf16, right> -> !pto.tile<32x64xf32, acc>
      %part_vec = pto.move %part : !pto.tile<32x64xf32, acc> -> !pto.tile<32x64xf32, vec>
      %next = pto.add %sum, %part_vec : !pto.tile<32x64xf32, vec>
      scf.yield %next : !pto.tile<32x64xf32, vec>
    }
    %r = pto.relu %acc : !pto.tile<32x64xf32, vec>
    %out_1 = pto.store %r, %out_0[0, 0] : !pto.tile<32x64xf32, vec>, !pto.tensor<32x64xf32>
    func.return %out_1 : !pto.tensor<32x64xf32>
  }

  // LEFT_RIGHT: a carried tile seeded by a shard (for), if results, while carried tiles and results.
  // CHECK-LABEL: func.func @cf_left_right
  // CHECK:       %s = pto.aiv_shard %qk {split = 2 : i64} : !pto.tile<64x128xf32, acc> -> !pto.tile<64x64xf32, vec>
  // CHECK-NEXT:  %acc = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %s) -> (!pto.tile<64x64xf32, vec>) {
  // CHECK-NEXT:    %l = pto.load %x[0, %{{.*}}] : !pto.tensor<64x128xf32> -> !pto.tile<64x64xf32, vec>
  // CHECK-NEXT:    %n = pto.add %a, %l : !pto.tile<64x64xf32, vec>
  // CHECK-NEXT:    scf.yield %n : !pto.tile<64x64xf32, vec>
  // CHECK:       %r = scf.if %c -> (!pto.tile<64x64xf32, vec>) {
  // CHECK-NEXT:    %e = pto.exp %acc : !pto.tile<64x64xf32, vec>
  // CHECK-NEXT:    scf.yield %e : !pto.tile<64x64xf32, vec>
  // CHECK-NEXT:  } else {
  // CHECK-NEXT:    scf.yield %acc : !pto.tile<64x64xf32, vec>
  // CHECK:       %[[W:.*]], %{{.*}} = scf.while (%t = %r, %k = %c0) : (!pto.tile<64x64xf32, vec>, index) -> (!pto.tile<64x64xf32, vec>, index) {
  // CHECK:         scf.condition(%cond) %t, %k : !pto.tile<64x64xf32, vec>, index
  // CHECK:       ^bb0(%t2: !pto.tile<64x64xf32, vec>, %k2: index):
  // CHECK-NEXT:    %t3 = pto.relu %t2 : !pto.tile<64x64xf32, vec>
  // CHECK:       pto.store %[[W]], %out[0, %{{.*}}] : !pto.tile<64x64xf32, vec>, !pto.tensor<64x128xf32>
  func.func @cf_left_right(%qk: !pto.tile<64x128xf32, acc>, %x: !pto.tensor<64x128xf32>, %c: i1,
                           %out: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %s = pto.move %qk : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
    %acc = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %s) -> (!pto.tile<64x128xf32, vec>) {
      %l = pto.load %x[0, 0] : !pto.tensor<64x128xf32> -> !pto.tile<64x128xf32, vec>
      %n = pto.add %a, %l : !pto.tile<64x128xf32, vec>
      scf.yield %n : !pto.tile<64x128xf32, vec>
    }
    %r = scf.if %c -> (!pto.tile<64x128xf32, vec>) {
      %e = pto.exp %acc : !pto.tile<64x128xf32, vec>
      scf.yield %e : !pto.tile<64x128xf32, vec>
    } else {
      scf.yield %acc : !pto.tile<64x128xf32, vec>
    }
    %w:2 = scf.while (%t = %r, %k = %c0) : (!pto.tile<64x128xf32, vec>, index) -> (!pto.tile<64x128xf32, vec>, index) {
      %cond = arith.cmpi slt, %k, %c4 : index
      scf.condition(%cond) %t, %k : !pto.tile<64x128xf32, vec>, index
    } do {
    ^bb0(%t2: !pto.tile<64x128xf32, vec>, %k2: index):
      %t3 = pto.relu %t2 : !pto.tile<64x128xf32, vec>
      %k3 = arith.addi %k2, %c1 : index
      scf.yield %t3, %k3 : !pto.tile<64x128xf32, vec>, index
    }
    %o = pto.store %w#0, %out[0, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<64x128xf32>
    func.return %o : !pto.tensor<64x128xf32>
  }

  // A boundary inside an scf.if branch is rewritten too, and the if result takes the per-lane type.
  // CHECK-LABEL: func.func @boundary_in_if
  // CHECK:       %v = scf.if %c -> (!pto.tile<32x128xf32, vec>) {
  // CHECK-NEXT:    %p = pto.aiv_shard %qk {split = 1 : i64} : !pto.tile<64x128xf32, acc> -> !pto.tile<32x128xf32, vec>
  // CHECK-NEXT:    scf.yield %p : !pto.tile<32x128xf32, vec>
  // CHECK-NEXT:  } else {
  // CHECK-NEXT:    %q = pto.load %x[%{{.*}}, 0] : !pto.tensor<64x128xf32> -> !pto.tile<32x128xf32, vec>
  // CHECK-NEXT:    scf.yield %q : !pto.tile<32x128xf32, vec>
  func.func @boundary_in_if(%qk: !pto.tile<64x128xf32, acc>, %x: !pto.tensor<64x128xf32>, %c: i1)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = scf.if %c -> (!pto.tile<64x128xf32, vec>) {
      %p = pto.move %qk : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
      scf.yield %p : !pto.tile<64x128xf32, vec>
    } else {
      %q = pto.load %x[0, 0] : !pto.tensor<64x128xf32> -> !pto.tile<64x128xf32, vec>
      scf.yield %q : !pto.tile<64x128xf32, vec>
    }
    func.return
  }
}
