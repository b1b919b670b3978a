// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir --lower-auto-vector-split | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split %s
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir

// Issue 40, class 1, the region path: code outside the pto.split_aiv_scope regions stays whole, and once the
// function is split both AIV lanes run it.  An op there whose GM effect must happen once per kernel
// (OncePerKernel: an atomic store, a notify) runs on lane 0 only, under `scf.if` on a %subblock_idx of its own at
// the function's entry (before, the atomic store added its tile twice and the notify signalled twice).  The
// region's own store is halved as before.  Checked by execution after the region lowering alone and after the
// whole pipeline, on both targets.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // A2A3: module attributes {pto.target = #pto.target<a2a3>}
  // A5: module attributes {pto.target = #pto.target<a5>}
  // CHECK-LABEL: func.func @outside
  // CHECK-NEXT:  %[[SUB:.*]] = pto.get_subblock_idx : index
  // CHECK-NEXT:  %c0 = arith.constant 0 : index
  // CHECK-NEXT:  %is_lane0 = arith.cmpi eq, %[[SUB]], %c0 : index
  // CHECK:       %q2 = pto.store %xe, %q[%{{.*}}, 0] : !pto.tile<8x64xf32, vec>, !pto.tensor<16x64xf32>
  // CHECK-NEXT:  %y = pto.load %p[0, 0] : !pto.tensor<16x64xf32> -> !pto.tile<4x64xf32, vec>
  // CHECK-NEXT:  %a = scf.if %is_lane0 -> (!pto.tensor<4x64xf32>) {
  // CHECK-NEXT:    %a_1 = pto.store %y, %acc[0, 0] {atomic = 1 : i64} : !pto.tile<4x64xf32, vec>, !pto.tensor<4x64xf32>
  // CHECK-NEXT:    scf.yield %a_1 : !pto.tensor<4x64xf32>
  // CHECK-NEXT:  } else {
  // CHECK-NEXT:    scf.yield %acc : !pto.tensor<4x64xf32>
  // CHECK-NEXT:  }
  // CHECK-NEXT:  scf.if %is_lane0 {
  // CHECK-NEXT:    pto.notify %sig[1] to %peer : !pto.tensor<2xi32>
  // CHECK-NEXT:  }
  func.func @outside(%p: !pto.tensor<16x64xf32>, %q: !pto.tensor<16x64xf32> {pto.out}, %acc: !pto.tensor<4x64xf32> {pto.inout},
                     %sig: !pto.tensor<2xi32> {pto.inout}, %peer: index) -> (!pto.tensor<16x64xf32>, !pto.tensor<4x64xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %r1 = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x64xf32>) {
      %x = pto.load %p[0, 0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
      %xe = pto.exp %x : !pto.tile<16x64xf32, vec>
      %q2 = pto.store %xe, %q[0, 0] : !pto.tile<16x64xf32, vec>, !pto.tensor<16x64xf32>
      pto.yield %q2 : !pto.tensor<16x64xf32>
    }
    %y = pto.load %p[0, 0] : !pto.tensor<16x64xf32> -> !pto.tile<4x64xf32, vec>
    %a = pto.store %y, %acc[0, 0] {atomic = 1 : i64} : !pto.tile<4x64xf32, vec>, !pto.tensor<4x64xf32>
    pto.notify %sig[1] to %peer : !pto.tensor<2xi32>
    func.return %r1, %a : !pto.tensor<16x64xf32>, !pto.tensor<4x64xf32>
  }
  func.func @main(%p: !pto.tensor<16x64xf32>, %acc: !pto.tensor<4x64xf32>) -> (!pto.tensor<16x64xf32>, !pto.tensor<4x64xf32>, !pto.tensor<2xi32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %q = pto.create_tensor : !pto.tensor<16x64xf32>
    %sig = pto.create_tensor : !pto.tensor<2xi32>
    %peer = arith.constant 0 : index
    %r:2 = func.call @outside(%p, %q, %acc, %sig, %peer) : (!pto.tensor<16x64xf32>, !pto.tensor<16x64xf32>, !pto.tensor<4x64xf32>, !pto.tensor<2xi32>, index) -> (!pto.tensor<16x64xf32>, !pto.tensor<4x64xf32>)
    func.return %r#0, %r#1, %sig : !pto.tensor<16x64xf32>, !pto.tensor<4x64xf32>, !pto.tensor<2xi32>
  }
}
