// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-opt %s --expand-mixed-kernel | pypto-opt --verify-mixed-kernel-expanded > /dev/null
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | pypto-opt --verify-mixed-kernel-expanded > /dev/null
// RUN: pypto-run --quiet --check-pipeline expand-mixed-kernel %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline expand-mixed-kernel -

// scf.execute_region in unsplit kernels: ExpandMixedKernel inlines every scf.execute_region of an incore kernel
// before it splits it (LowerAutoVectorSplit's rule too), so a region whose body mixes cube and vector ops is never
// kept on both sides with results one side cannot compute: a region yielding a cube tile and a vector tile (it
// used to be refused: "%mv is computed only on the AIV (vector) side ... but read here on the AIC side"), a
// region holding the C->V boundary and the tfree point inside a loop, and a pure kernel's region are gone from
// the output; every program computes the same outputs before and after, on both targets.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @two_sides_aic
  // CHECK-NOT:     scf.execute_region
  // CHECK:         %mm = pto.matmul %q_left, %k_right
  // CHECK-NEXT:    pto.tpush_to_aiv %mm {split = 0 : i64} : !pto.tile<64x64xf32, acc>
  // CHECK-NEXT:    %r_1 = pto.store %mm, %r[0, 0] : !pto.tile<64x64xf32, acc>, !pto.tensor<64x64xf32>
  // CHECK-LABEL: func.func @two_sides_aiv
  // A2A3-SAME:     attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
  // A5-SAME:       attributes {pto.kind = #pto.kind<aiv>} {
  // CHECK-NOT:     scf.execute_region
  // CHECK:         %mv = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<64x64xf32, vec>
  // CHECK-NEXT:    %ex = pto.exp %mv : !pto.tile<64x64xf32, vec>
  // CHECK-NEXT:    pto.tfree_to_aic %mv : !pto.tile<64x64xf32, vec>
  // CHECK-NEXT:    %d_1 = pto.store %ex, %d[0, 0] : !pto.tile<64x64xf32, vec>, !pto.tensor<64x64xf32>
  func.func @two_sides(%q: !pto.tensor<64x64xf32>, %kt: !pto.tensor<64x64xf32>, %d: !pto.tensor<64x64xf32> {pto.out},
                       %r: !pto.tensor<64x64xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>} {
    %q_mat = pto.load %q[0, 0] : !pto.tensor<64x64xf32> -> !pto.tile<64x64xf32, mat>
    %k_mat = pto.load %kt[0, 0] : !pto.tensor<64x64xf32> -> !pto.tile<64x64xf32, mat>
    %sv, %sc = scf.execute_region -> (!pto.tile<64x64xf32, vec>, !pto.tile<64x64xf32, acc>) {
      %q_left = pto.move %q_mat : !pto.tile<64x64xf32, mat> -> !pto.tile<64x64xf32, left>
      %k_right = pto.move %k_mat : !pto.tile<64x64xf32, mat> -> !pto.tile<64x64xf32, right>
      %mm = pto.matmul %q_left, %k_right : !pto.tile<64x64xf32, left>, !pto.tile<64x64xf32, right> -> !pto.tile<64x64xf32, acc>
      %mv = pto.move %mm : !pto.tile<64x64xf32, acc> -> !pto.tile<64x64xf32, vec>
      scf.yield %mv, %mm : !pto.tile<64x64xf32, vec>, !pto.tile<64x64xf32, acc>
    }
    %e = scf.execute_region -> (!pto.tile<64x64xf32, vec>) {
      %ex = pto.exp %sv : !pto.tile<64x64xf32, vec>
      scf.yield %ex : !pto.tile<64x64xf32, vec>
    }
    %d_1 = pto.store %e, %d[0, 0] : !pto.tile<64x64xf32, vec>, !pto.tensor<64x64xf32>
    %r_1 = pto.store %sc, %r[0, 0] : !pto.tile<64x64xf32, acc>, !pto.tensor<64x64xf32>
    func.return
  }

  // The C->V boundary and its consumer in a region of a loop body: the tpop, its last use and the tfree are in
  // the loop body; the accumulation is carried by the loop on the AIV only.
  // CHECK-LABEL: func.func @in_loop_aic
  // CHECK:         scf.for %i = %c0 to %c2 step %c1 {
  // CHECK:           pto.tpush_to_aiv %part {split = 0 : i64} : !pto.tile<16x16xf32, acc>
  // CHECK-LABEL: func.func @in_loop_aiv
  // CHECK:         %acc = scf.for %i = %c0 to %c2 step %c1 iter_args(%s = %init) -> (!pto.tile<16x16xf32, vec>) {
  // CHECK-NEXT:      %pv = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:      %n = pto.add %s, %pv : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:      pto.tfree_to_aic %pv : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:      scf.yield %n : !pto.tile<16x16xf32, vec>
  func.func @in_loop(%a: !pto.tensor<16x16xf32>, %b: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %zero = arith.constant 0.0 : f32
    %init = pto.full %zero : f32 -> !pto.tile<16x16xf32, vec>
    %acc = scf.for %i = %c0 to %c2 step %c1 iter_args(%s = %init) -> (!pto.tile<16x16xf32, vec>) {
      %next = scf.execute_region -> (!pto.tile<16x16xf32, vec>) {
        %a_mat = pto.load %a[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
        %b_mat = pto.load %b[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
        %a_l = pto.move %a_mat : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
        %b_r = pto.move %b_mat : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, right>
        %part = pto.matmul %a_l, %b_r : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>
        %pv = pto.move %part : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
        %n = pto.add %s, %pv : !pto.tile<16x16xf32, vec>
        scf.yield %n : !pto.tile<16x16xf32, vec>
      }
      scf.yield %next : !pto.tile<16x16xf32, vec>
    }
    %o_1 = pto.store %acc, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return
  }

  // A pure-vector kernel becomes an AIV kernel; its region is inlined too.
  // CHECK-LABEL: func.func @pure
  // CHECK-SAME:    pto.kind = #pto.kind<aiv>
  // CHECK-NEXT:    %x = pto.load %a[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:    %y = pto.neg %x : !pto.tile<16x16xf32, vec>
  // CHECK-NEXT:    %o_1 = pto.store %y, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
  // CHECK-NEXT:    func.return
  func.func @pure(%a: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>} {
    scf.execute_region {
      %x = pto.load %a[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
      %y = pto.neg %x : !pto.tile<16x16xf32, vec>
      %o_1 = pto.store %y, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
      scf.yield
    }
    func.return
  }

  func.func @main(%q: !pto.tensor<64x64xf32>, %kt: !pto.tensor<64x64xf32>, %a: !pto.tensor<16x16xf32>, %b: !pto.tensor<16x16xf32>)
      -> (!pto.tensor<64x64xf32>, !pto.tensor<64x64xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %d = pto.create_tensor : !pto.tensor<64x64xf32>
    %r = pto.create_tensor : !pto.tensor<64x64xf32>
    %o = pto.create_tensor : !pto.tensor<16x16xf32>
    %p = pto.create_tensor : !pto.tensor<16x16xf32>
    func.call @two_sides(%q, %kt, %d, %r) : (!pto.tensor<64x64xf32>, !pto.tensor<64x64xf32>, !pto.tensor<64x64xf32>, !pto.tensor<64x64xf32>) -> ()
    func.call @in_loop(%a, %b, %o) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> ()
    func.call @pure(%a, %p) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> ()
    func.return %d, %r, %o, %p : !pto.tensor<64x64xf32>, !pto.tensor<64x64xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
  }
}
