// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel -

// Reference compiler PR #2830 (open upstream; after the version ../shared/spec/expand-mixed-kernel.reference.md
// describes; docs/expand-mixed-kernel.md, "Reference rules after the described version"): an scf.if result whose
// branches yield a kernel parameter (a GM tensor chosen by an if, stored to after) is kept on both sides, not
// stripped as dangling. Here the if is a shared op (no tile, tensors only): both sides keep it, the side that
// stores into it (AIV for the vec store, AIC for the acc store) uses it, and the AIV returns the chosen buffer
// for the Group. The kernels ask for an AUTO split, so LowerAutoVectorSplit runs first. Executed on both targets with each branch
// taken.
// A2A3:       builtin.module attributes {pto.target = #pto.target<a2a3>}
// A5:         builtin.module attributes {pto.target = #pto.target<a5>}
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // The vector side stores into the chosen tensor.
  // CHECK-LABEL: func.func @pick_vec_aic
  // CHECK:       %dst = scf.if %c -> (!pto.tensor<16x16xf32>) {
  // CHECK-NEXT:    scf.yield %oa : !pto.tensor<16x16xf32>
  // CHECK-NEXT:  } else {
  // CHECK-NEXT:    scf.yield %ob : !pto.tensor<16x16xf32>
  // CHECK-NEXT:  }
  // CHECK-LABEL: func.func @pick_vec_aiv
  // CHECK:       %dst = scf.if %c -> (!pto.tensor<16x16xf32>) {
  // CHECK-NEXT:    scf.yield %oa : !pto.tensor<16x16xf32>
  // CHECK-NEXT:  } else {
  // CHECK-NEXT:    scf.yield %ob : !pto.tensor<16x16xf32>
  // CHECK-NEXT:  }
  // CHECK:       %o = pto.store %r, %dst[%{{.*}}, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<16x16xf32>
  // CHECK-NEXT:  func.return %o : !pto.tensor<16x16xf32>
  func.func @pick_vec(%x: !pto.tensor<16x16xf32>, %c: i1, %oa: !pto.tensor<16x16xf32> {pto.out}, %ob: !pto.tensor<16x16xf32> {pto.out})
      -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xl = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
    %xr = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, right>
    %z = pto.matmul %xl, %xr : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>
    %zv = pto.move %z : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %dst = scf.if %c -> (!pto.tensor<16x16xf32>) {
      scf.yield %oa : !pto.tensor<16x16xf32>
    } else {
      scf.yield %ob : !pto.tensor<16x16xf32>
    }
    %r = pto.relu %zv : !pto.tile<16x16xf32, vec>
    %o = pto.store %r, %dst[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }

  // The cube side stores into the chosen tensor; the AIV keeps the if too and returns its result (the same
  // buffer) for the Group's result #0.
  // CHECK-LABEL: func.func @pick_cube_aic
  // CHECK:       %dst = scf.if %c -> (!pto.tensor<16x16xf32>) {
  // CHECK:       %oc = pto.store %z, %dst[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
  // CHECK-LABEL: func.func @pick_cube_aiv
  // CHECK:       %dst = scf.if %c -> (!pto.tensor<16x16xf32>) {
  // CHECK:       func.return %dst, %o : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
  // CHECK-LABEL: func.func @pick_cube(
  // CHECK-SAME:  pto.kind = #pto.kind<group>
  func.func @pick_cube(%x: !pto.tensor<16x16xf32>, %c: i1, %oa: !pto.tensor<16x16xf32> {pto.out}, %ob: !pto.tensor<16x16xf32> {pto.out},
                       %ov: !pto.tensor<16x16xf32> {pto.out}) -> (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xl = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
    %xr = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, right>
    %z = pto.matmul %xl, %xr : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>
    %zv = pto.move %z : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %dst = scf.if %c -> (!pto.tensor<16x16xf32>) {
      scf.yield %oa : !pto.tensor<16x16xf32>
    } else {
      scf.yield %ob : !pto.tensor<16x16xf32>
    }
    %oc = pto.store %z, %dst[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
    %r = pto.relu %zv : !pto.tile<16x16xf32, vec>
    %o = pto.store %r, %ov[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %oc, %o : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
  }

  // CHECK-LABEL: func.func @main
  func.func @main(%x: !pto.tensor<16x16xf32>)
      -> (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>,
          !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %t = arith.constant true
    %f = arith.constant false
    %a1 = pto.create_tensor : !pto.tensor<16x16xf32>
    %b1 = pto.create_tensor : !pto.tensor<16x16xf32>
    %a2 = pto.create_tensor : !pto.tensor<16x16xf32>
    %b2 = pto.create_tensor : !pto.tensor<16x16xf32>
    %a3 = pto.create_tensor : !pto.tensor<16x16xf32>
    %b3 = pto.create_tensor : !pto.tensor<16x16xf32>
    %a4 = pto.create_tensor : !pto.tensor<16x16xf32>
    %b4 = pto.create_tensor : !pto.tensor<16x16xf32>
    %v = pto.create_tensor : !pto.tensor<16x16xf32>
    %r1 = func.call @pick_vec(%x, %t, %a1, %b1) : (!pto.tensor<16x16xf32>, i1, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    %r2 = func.call @pick_vec(%x, %f, %a2, %b2) : (!pto.tensor<16x16xf32>, i1, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    %r3:2 = func.call @pick_cube(%x, %t, %a3, %b3, %v) : (!pto.tensor<16x16xf32>, i1, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>)
    %r4:2 = func.call @pick_cube(%x, %f, %a4, %b4, %v) : (!pto.tensor<16x16xf32>, i1, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>)
    func.return %a1, %b1, %a2, %b2, %a3, %b3, %a4, %b4 : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
  }
}
