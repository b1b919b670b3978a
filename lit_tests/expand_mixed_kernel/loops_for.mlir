// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5

// Loops holding mixed work are copied to both sides and pruned; carries are repaired per side.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // Vector-side carry (the partial sums): the AIC loop loses it (its init, body and result are vector work)
  // and keeps the cube work + the push; the AIV loop keeps the carry and pops each partial product.
  // (No split mode: a split kernel must be lowered by LowerAutoVectorSplit first, reject_unlowered_split.mlir.)
  // Both targets keep their pto.target (the target-specific lines of this file):
  // A2A3: pto.target = #pto.target<a2a3>
  // A5: pto.target = #pto.target<a5>
  // CHECK-LABEL: func.func @kloop_incore_0_aic(
  // CHECK-NOT: pto.full
  // CHECK: scf.for %kk = %c0 to %c256 step %c64 {
  // CHECK: %part = pto.matmul
  // CHECK-NEXT: pto.tpush_to_aiv %part {split = 0 : i64} : !pto.tile<32x64xf32, acc>
  // CHECK-NEXT: }
  // CHECK-NEXT: func.return{{$}}
  // CHECK-LABEL: func.func @kloop_incore_0_aiv(
  // CHECK: %init = pto.full %zero
  // CHECK: %acc = scf.for %kk = %c0 to %c256 step %c64 iter_args(%sum = %init) -> (!pto.tile<32x64xf32, vec>) {
  // CHECK-NOT: pto.load
  // CHECK: %part_vec = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<32x64xf32, vec>
  // CHECK-NEXT: %next = pto.add %sum, %part_vec
  // CHECK: scf.yield %next
  // CHECK: %r = pto.relu %acc
  // CHECK: func.return %out_1
  func.func @kloop_incore_0(%a: !pto.tensor<32x256xbf16>, %b: !pto.tensor<256x64xbf16>,
                            %out_0: !pto.tensor<32x64xf32> {pto.out}) -> !pto.tensor<32x64xf32>
      attributes {pto.kind = #pto.kind<incore>} {
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

  // Cube-side carry (matmul_acc over K): the AIC keeps it and pushes the final accumulator after the loop;
  // the AIV has no loop left to run (no carry, no work), only the pop and the vector tail.
  // CHECK-LABEL: func.func @cube_carry_aic(
  // CHECK: %acc = scf.for %k = %c16 to %c64 step %c16 iter_args(%c = %acc0) -> (!pto.tile<16x16xf32, acc>) {
  // CHECK: %c2 = pto.matmul_acc %c, %lk, %rk
  // CHECK-NEXT: scf.yield %c2
  // CHECK: pto.tpush_to_aiv %acc {split = 0 : i64}
  // CHECK-LABEL: func.func @cube_carry_aiv(
  // CHECK-NOT: scf.for
  // CHECK: %v = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x16xf32, vec>
  // CHECK: %e = pto.exp %v
  // cube-side carry: matmul_acc accumulates over K on the cube; the final acc crosses after the loop.
  func.func @cube_carry(%a: !pto.tensor<16x64xf16>, %b: !pto.tensor<64x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %a0 = pto.load %a[0, 0] : !pto.tensor<16x64xf16> -> !pto.tile<16x16xf16, mat>
    %b0 = pto.load %b[0, 0] : !pto.tensor<64x16xf16> -> !pto.tile<16x16xf16, mat>
    %l0 = pto.move %a0 : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
    %r0 = pto.move %b0 : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
    %acc0 = pto.matmul %l0, %r0 : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
    %acc = scf.for %k = %c16 to %c64 step %c16 iter_args(%c = %acc0) -> (!pto.tile<16x16xf32, acc>) {
      %ak = pto.load %a[0, %k] : !pto.tensor<16x64xf16> -> !pto.tile<16x16xf16, mat>
      %bk = pto.load %b[%k, 0] : !pto.tensor<64x16xf16> -> !pto.tile<16x16xf16, mat>
      %lk = pto.move %ak : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
      %rk = pto.move %bk : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
      %c2 = pto.matmul_acc %c, %lk, %rk : !pto.tile<16x16xf32, acc>, !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
      scf.yield %c2 : !pto.tile<16x16xf32, acc>
    }
    %v = pto.move %acc : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %e = pto.exp %v : !pto.tile<16x16xf32, vec>
    %o2 = pto.store %e, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }

  // Carries on both sides (acc on the cube, vec sum and the GM output on the vector): each side keeps its
  // own; the AIC drops the vec sum and the output tensor, the AIV drops the accumulator.
  // CHECK-LABEL: func.func @both_carry_aic(
  // CHECK: %cz = pto.create : !pto.tile<16x16xf32, acc>
  // CHECK-NOT: pto.full
  // CHECK: %res = scf.for %k = %c0 to %c64 step %c16 iter_args(%c = %cz) -> (!pto.tile<16x16xf32, acc>) {
  // CHECK: pto.tpush_to_aiv %c2
  // CHECK-NEXT: scf.yield %c2 : !pto.tile<16x16xf32, acc>
  // CHECK-LABEL: func.func @both_carry_aiv(
  // CHECK-NOT: pto.create
  // CHECK: %vz = pto.full
  // CHECK: %res, %res_1 = scf.for %k = %c0 to %c64 step %c16 iter_args(%s = %vz, %out = %o) -> (!pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>) {
  // CHECK: %p = pto.tpop_from_aic
  // CHECK: %out2 = pto.store %s2, %out[0, 0]
  // CHECK: scf.yield %s2, %out2
  // CHECK: func.return %res_1
  // carries on both sides, plus a GM tensor carry written by the vector side inside the loop
  func.func @both_carry(%a: !pto.tensor<16x64xf16>, %b: !pto.tensor<64x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %cz = pto.create : !pto.tile<16x16xf32, acc>
    %vz = pto.full %zero : f32 -> !pto.tile<16x16xf32, vec>
    %res:3 = scf.for %k = %c0 to %c64 step %c16 iter_args(%c = %cz, %s = %vz, %out = %o) -> (!pto.tile<16x16xf32, acc>, !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>) {
      %ak = pto.load %a[0, %k] : !pto.tensor<16x64xf16> -> !pto.tile<16x16xf16, mat>
      %bk = pto.load %b[%k, 0] : !pto.tensor<64x16xf16> -> !pto.tile<16x16xf16, mat>
      %lk = pto.move %ak : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
      %rk = pto.move %bk : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
      %c2 = pto.matmul_acc %c, %lk, %rk : !pto.tile<16x16xf32, acc>, !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
      %p = pto.move %c2 : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
      %s2 = pto.add %s, %p : !pto.tile<16x16xf32, vec>
      %out2 = pto.store %s2, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
      scf.yield %c2, %s2, %out2 : !pto.tile<16x16xf32, acc>, !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    }
    func.return %res#2 : !pto.tensor<16x16xf32>
  }
}
