// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5

// Loop-state repair beyond the plain for loop: scf.while, multi-stage FIFO carries, pulled-back init values.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // scf.while: the scalar carry is read by the condition, so both sides keep it.  On the AIC the vector carry
  // is dead (its update is pruned, its result unused): it is stripped from the init list, both block argument
  // lists, scf.condition and the yield, and its vector init is gone; the AIV keeps it and pops in the body.
  // Both targets keep their pto.target (the target-specific lines of this file):
  // A2A3: pto.target = #pto.target<a2a3>
  // A5: pto.target = #pto.target<a5>
  // CHECK-LABEL: func.func @wloop_aic(
  // CHECK-NOT: pto.full
  // CHECK: %res = scf.while (%i = %c0) : (index) -> index {
  // CHECK: scf.condition(%go) %i : index
  // CHECK: ^bb0(%i2: index):
  // CHECK: pto.tpush_to_aiv %c
  // CHECK-NOT: pto.add
  // CHECK: scf.yield %i3 : index
  // CHECK-LABEL: func.func @wloop_aiv(
  // CHECK: scf.while (%i = %c0, %s = %init)
  // CHECK: %v = pto.tpop_from_aic
  // CHECK: %s3 = pto.add %s2, %v
  // CHECK: scf.yield %i3, %s3
  // CHECK: pto.store %res_1, %o[0, 0]
  func.func @wloop(%a: !pto.tensor<16x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}, %n: index) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %init = pto.full %zero : f32 -> !pto.tile<16x16xf32, vec>
    %res:2 = scf.while (%i = %c0, %s = %init) : (index, !pto.tile<16x16xf32, vec>) -> (index, !pto.tile<16x16xf32, vec>) {
      %go = arith.cmpi slt, %i, %n : index
      scf.condition(%go) %i, %s : index, !pto.tile<16x16xf32, vec>
    } do {
    ^bb0(%i2: index, %s2: !pto.tile<16x16xf32, vec>):
      %m = pto.load %a[0, 0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
      %l = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
      %r = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
      %c = pto.matmul %l, %r : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
      %v = pto.move %c : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
      %s3 = pto.add %s2, %v : !pto.tile<16x16xf32, vec>
      %i3 = arith.addi %i2, %c1 : index
      scf.yield %i3, %s3 : index, !pto.tile<16x16xf32, vec>
    }
    %o2 = pto.store %res#1, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }

  // FIFO rotation: %s1 is read only by the yield that rotates it into %s0's slot, and %s0 is read by the add:
  // liveness closes over the yield, so the AIV keeps all three carries; the AIC keeps none.
  // CHECK-LABEL: func.func @fifo_aic(
  // CHECK: scf.for %k = %c0 to %c4 step %c1 {
  // CHECK-LABEL: func.func @fifo_aiv(
  // CHECK: %res, %res_1, %res_2 = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %z0, %s0 = %z0, %s1 = %z1)
  // CHECK: scf.yield %acc2, %s1, %v
  func.func @fifo(%a: !pto.tensor<16x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %z0 = pto.full %zero : f32 -> !pto.tile<16x16xf32, vec>
    %z1 = pto.full %zero : f32 -> !pto.tile<16x16xf32, vec>
    %res:3 = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %z0, %s0 = %z0, %s1 = %z1) -> (!pto.tile<16x16xf32, vec>, !pto.tile<16x16xf32, vec>, !pto.tile<16x16xf32, vec>) {
      %m = pto.load %a[0, 0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
      %l = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
      %r = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
      %c = pto.matmul %l, %r : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
      %v = pto.move %c : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
      %acc2 = pto.add %acc, %s0 : !pto.tile<16x16xf32, vec>
      scf.yield %acc2, %s1, %v : !pto.tile<16x16xf32, vec>, !pto.tile<16x16xf32, vec>, !pto.tile<16x16xf32, vec>
    }
    %o2 = pto.store %res#0, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }

  // A carry the AIC keeps alive (the scf.if inside the loop yields it on one branch) whose init is vector
  // work: the init's defining chain (pto.create, pto.muls) is pulled back onto the AIC where it was, the
  // other branch's pruned yield takes the carry, and the loop yields the if's result.
  // CHECK-LABEL: func.func @pullback_aic(
  // CHECK: %base = pto.create : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT: %init = pto.muls %base, %two
  // CHECK-NEXT: %res = scf.for %k = %c0 to %c4 step %c1 iter_args(%s = %init) -> (!pto.tile<16x16xf32, vec>) {
  // CHECK-NEXT: %sel = scf.if %flag -> (!pto.tile<16x16xf32, vec>) {
  // CHECK-NEXT: scf.yield %s
  // CHECK-NEXT: } else {
  // CHECK: pto.tpush_to_aiv %c
  // CHECK-NEXT: scf.yield %s
  // CHECK-NEXT: }
  // CHECK-NEXT: scf.yield %sel
  // CHECK-LABEL: func.func @pullback_aiv(
  // CHECK: %w = pto.add %s, %v
  // CHECK: scf.yield %w
  func.func @pullback(%a: !pto.tensor<16x16xf16>, %o: !pto.tensor<16x16xf32> {pto.out}, %flag: i1) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %two = arith.constant 2.0 : f32
    %base = pto.create : !pto.tile<16x16xf32, vec>
    %init = pto.muls %base, %two : !pto.tile<16x16xf32, vec>, f32
    %res = scf.for %k = %c0 to %c4 step %c1 iter_args(%s = %init) -> (!pto.tile<16x16xf32, vec>) {
      %sel = scf.if %flag -> (!pto.tile<16x16xf32, vec>) {
        scf.yield %s : !pto.tile<16x16xf32, vec>
      } else {
        %m = pto.load %a[0, 0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
        %l = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
        %r = pto.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
        %c = pto.matmul %l, %r : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
        %v = pto.move %c : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
        %w = pto.add %s, %v : !pto.tile<16x16xf32, vec>
        scf.yield %w : !pto.tile<16x16xf32, vec>
      }
      scf.yield %sel : !pto.tile<16x16xf32, vec>
    }
    %o2 = pto.store %res, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
}
