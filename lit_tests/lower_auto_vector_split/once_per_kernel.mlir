// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir --lower-auto-vector-split | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-run --quiet --entry main_flat --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry main_flat --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry main_odd --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry main_odd --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry main_rank1 --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry main_rank1 --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry main_put --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry main_put --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry main_tensor_put --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry main_tensor_put --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry main_per_lane --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry main_per_lane --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry main_cube --check-pipeline lower-auto-vector-split %s
// RUN: pypto-run --quiet --entry main_cube --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry main_cube --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir

// Issue 40, class 1: an op whose GM effect must happen once per kernel (`OncePerKernel`: pto.store {atomic},
// pto.tile_put, pto.tensor_put, pto.notify) on a value both AIV lanes hold whole.  Before, both lanes performed
// it: an atomic store added the value twice (every cell 2x the unsplit kernel's), a put reached the peer twice
// (the interpreter now reports it as a duplicated GM effect).  Now a whole vec tile with a lane part is written
// per lane (a singleton split axis: lane 0 the row, lane 1 an empty copy), anything else runs on lane 0 only,
// under `scf.if %is_lane0`.  Every kernel is checked by execution before and after the pipeline on both targets
// (the @main_* entries; the outputs start at zero, so a duplicate shows as twice the value).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // A2A3: module attributes {pto.target = #pto.target<a2a3>}
  // A5: module attributes {pto.target = #pto.target<a5>}

  // The issue's kernel: up_down, a 5x15 C->V tile reshaped to 1x75 (whole: a singleton split axis) and stored
  // atomically.  Each lane stores its lane part: lane 0 the row, lane 1 an empty copy at row 1.
  // CHECK-LABEL: func.func @flat_atomic
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c1 : index
  // CHECK:       %[[V:.*]] = arith.minsi %{{.*}}, %c1 : index
  // CHECK:       %v = pto.move %qk : !pto.tile<5x15xf32, acc> -> !pto.tile<5x15xf32, vec>
  // CHECK-NEXT:  %flat = pto.reshape %v : !pto.tile<5x15xf32, vec> -> !pto.tile<1x75xf32, vec>
  // CHECK-NEXT:  %flat_1 = pto.slice %flat[0, 0] valid [%[[V]], 75] : !pto.tile<1x75xf32, vec> -> !pto.tile<1x75xf32, vec, valid = [?, 75]>
  // CHECK-NEXT:  %o = pto.store %flat_1, %out[%[[L]], 0] {atomic = 1 : i64} : !pto.tile<1x75xf32, vec, valid = [?, 75]>, !pto.tensor<1x75xf32>
  func.func @flat_atomic(%qk: !pto.tile<5x15xf32, acc>, %out: !pto.tensor<1x75xf32> {pto.inout}) -> !pto.tensor<1x75xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<5x15xf32, acc> -> !pto.tile<5x15xf32, vec>
    %flat = pto.reshape %v : !pto.tile<5x15xf32, vec> -> !pto.tile<1x75xf32, vec>
    %o = pto.store %flat, %out[0, 0] {atomic = 1 : i64} : !pto.tile<1x75xf32, vec>, !pto.tensor<1x75xf32>
    func.return %o : !pto.tensor<1x75xf32>
  }
  func.func @main_flat(%a: !pto.tensor<5x15xf32>) -> !pto.tensor<1x75xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<1x75xf32>
    %am = pto.load %a[0, 0] : !pto.tensor<5x15xf32> -> !pto.tile<5x15xf32, acc>
    %r = func.call @flat_atomic(%am, %out) : (!pto.tile<5x15xf32, acc>, !pto.tensor<1x75xf32>) -> !pto.tensor<1x75xf32>
    func.return %r : !pto.tensor<1x75xf32>
  }

  // An odd reshape result kept whole (15 rows, all valid): no lane part (lane 1's window would pass the box), so
  // lane 0 alone stores it; the else branch yields the tensor unchanged.
  // CHECK-LABEL: func.func @odd_atomic
  // CHECK:       %is_lane0 = arith.cmpi eq, %subblock_idx, %c0 : index
  // CHECK:       %r = pto.reshape %v : !pto.tile<5x15xf32, vec> -> !pto.tile<15x5xf32, vec>
  // CHECK-NEXT:  %o = scf.if %is_lane0 -> (!pto.tensor<15x5xf32>) {
  // CHECK-NEXT:    %o_1 = pto.store %r, %out[0, 0] {atomic = 1 : i64} : !pto.tile<15x5xf32, vec>, !pto.tensor<15x5xf32>
  // CHECK-NEXT:    scf.yield %o_1 : !pto.tensor<15x5xf32>
  // CHECK-NEXT:  } else {
  // CHECK-NEXT:    scf.yield %out : !pto.tensor<15x5xf32>
  // CHECK-NEXT:  }
  // CHECK-NEXT:  func.return %o : !pto.tensor<15x5xf32>
  func.func @odd_atomic(%qk: !pto.tile<5x15xf32, acc>, %out: !pto.tensor<15x5xf32> {pto.inout}) -> !pto.tensor<15x5xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<5x15xf32, acc> -> !pto.tile<5x15xf32, vec>
    %r = pto.reshape %v : !pto.tile<5x15xf32, vec> -> !pto.tile<15x5xf32, vec>
    %o = pto.store %r, %out[0, 0] {atomic = 1 : i64} : !pto.tile<15x5xf32, vec>, !pto.tensor<15x5xf32>
    func.return %o : !pto.tensor<15x5xf32>
  }
  func.func @main_odd(%a: !pto.tensor<5x15xf32>) -> !pto.tensor<15x5xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<15x5xf32>
    %am = pto.load %a[0, 0] : !pto.tensor<5x15xf32> -> !pto.tile<5x15xf32, acc>
    %r = func.call @odd_atomic(%am, %out) : (!pto.tile<5x15xf32, acc>, !pto.tensor<15x5xf32>) -> !pto.tensor<15x5xf32>
    func.return %r : !pto.tensor<15x5xf32>
  }

  // A rank-1 tile is never halved (left_right): its atomic store runs on lane 0; the split store beside it is
  // lane-offset as before.
  // CHECK-LABEL: func.func @rank1_atomic
  // CHECK:       %o = pto.store %v, %out[0, %{{.*}}] : !pto.tile<16x8xf32, vec>, !pto.tensor<16x16xf32>
  // CHECK-NEXT:  %r = pto.load %bias[0] : !pto.tensor<16xf32> -> !pto.tile<16xf32, vec>
  // CHECK-NEXT:  %a = scf.if %is_lane0 -> (!pto.tensor<16xf32>) {
  // CHECK-NEXT:    %a_1 = pto.store %r, %acc[0] {atomic = 1 : i64} : !pto.tile<16xf32, vec>, !pto.tensor<16xf32>
  func.func @rank1_atomic(%qk: !pto.tile<16x16xf32, acc>, %out: !pto.tensor<16x16xf32> {pto.out}, %bias: !pto.tensor<16xf32>,
                          %acc: !pto.tensor<16xf32> {pto.inout}) -> (!pto.tensor<16x16xf32>, !pto.tensor<16xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %v = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %o = pto.store %v, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    %r = pto.load %bias[0] : !pto.tensor<16xf32> -> !pto.tile<16xf32, vec>
    %a = pto.store %r, %acc[0] {atomic = 1 : i64} : !pto.tile<16xf32, vec>, !pto.tensor<16xf32>
    func.return %o, %a : !pto.tensor<16x16xf32>, !pto.tensor<16xf32>
  }
  func.func @main_rank1(%x: !pto.tensor<16x16xf32>, %bias: !pto.tensor<16xf32>) -> (!pto.tensor<16x16xf32>, !pto.tensor<16xf32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<16x16xf32>
    %acc = pto.create_tensor : !pto.tensor<16xf32>
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, acc>
    %r:2 = func.call @rank1_atomic(%xm, %out, %bias, %acc) : (!pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>, !pto.tensor<16xf32>, !pto.tensor<16xf32>) -> (!pto.tensor<16x16xf32>, !pto.tensor<16xf32>)
    func.return %r#0, %r#1 : !pto.tensor<16x16xf32>, !pto.tensor<16xf32>
  }

  // A put of whole values: the 1x75 row (a lane part: lane 0 puts the row, lane 1 an empty copy) and the odd
  // 15x5 tile (no lane part: lane 0 puts it).  Values the lanes put twice are the same, so only the
  // interpreter's duplicated-GM-effect check could see the bug.
  // CHECK-LABEL: func.func @put_whole
  // CHECK:       %flat_1 = pto.slice %flat[0, 0] valid [%{{.*}}, 75] : !pto.tile<1x75xf32, vec> -> !pto.tile<1x75xf32, vec, valid = [?, 75]>
  // CHECK-NEXT:  %o = pto.tile_put %flat_1, %out[%{{.*}}, 0] to %peer : !pto.tile<1x75xf32, vec, valid = [?, 75]>, !pto.tensor<1x75xf32>
  // CHECK-NEXT:  %r = pto.reshape %v : !pto.tile<5x15xf32, vec> -> !pto.tile<15x5xf32, vec>
  // CHECK-NEXT:  %p = scf.if %is_lane0 -> (!pto.tensor<15x5xf32>) {
  // CHECK-NEXT:    %p_1 = pto.tile_put %r, %out2[0, 0] to %peer : !pto.tile<15x5xf32, vec>, !pto.tensor<15x5xf32>
  func.func @put_whole(%qk: !pto.tile<5x15xf32, acc>, %out: !pto.tensor<1x75xf32> {pto.out}, %out2: !pto.tensor<15x5xf32> {pto.out},
                       %peer: index) -> (!pto.tensor<1x75xf32>, !pto.tensor<15x5xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<5x15xf32, acc> -> !pto.tile<5x15xf32, vec>
    %flat = pto.reshape %v : !pto.tile<5x15xf32, vec> -> !pto.tile<1x75xf32, vec>
    %o = pto.tile_put %flat, %out[0, 0] to %peer : !pto.tile<1x75xf32, vec>, !pto.tensor<1x75xf32>
    %r = pto.reshape %v : !pto.tile<5x15xf32, vec> -> !pto.tile<15x5xf32, vec>
    %p = pto.tile_put %r, %out2[0, 0] to %peer : !pto.tile<15x5xf32, vec>, !pto.tensor<15x5xf32>
    func.return %o, %p : !pto.tensor<1x75xf32>, !pto.tensor<15x5xf32>
  }
  func.func @main_put(%a: !pto.tensor<5x15xf32>) -> (!pto.tensor<1x75xf32>, !pto.tensor<15x5xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<1x75xf32>
    %out2 = pto.create_tensor : !pto.tensor<15x5xf32>
    %peer = arith.constant 0 : index
    %am = pto.load %a[0, 0] : !pto.tensor<5x15xf32> -> !pto.tile<5x15xf32, acc>
    %r:2 = func.call @put_whole(%am, %out, %out2, %peer) : (!pto.tile<5x15xf32, acc>, !pto.tensor<1x75xf32>, !pto.tensor<15x5xf32>, index) -> (!pto.tensor<1x75xf32>, !pto.tensor<15x5xf32>)
    func.return %r#0, %r#1 : !pto.tensor<1x75xf32>, !pto.tensor<15x5xf32>
  }

  // A whole-tensor put has no lane window: lane 0 puts.
  // CHECK-LABEL: func.func @tensor_put
  // CHECK:       %d = scf.if %is_lane0 -> (!pto.tensor<16x16xf32>) {
  // CHECK-NEXT:    %d_1 = pto.tensor_put %src, %dst to %peer : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
  // CHECK-NEXT:    scf.yield %d_1 : !pto.tensor<16x16xf32>
  // CHECK-NEXT:  } else {
  // CHECK-NEXT:    scf.yield %dst : !pto.tensor<16x16xf32>
  // CHECK-NEXT:  }
  func.func @tensor_put(%qk: !pto.tile<16x16xf32, acc>, %out: !pto.tensor<16x16xf32> {pto.out}, %src: !pto.tensor<16x16xf32>,
                        %dst: !pto.tensor<16x16xf32> {pto.out}, %peer: index) -> (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %o = pto.store %v, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    %d = pto.tensor_put %src, %dst to %peer : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
    func.return %o, %d : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
  }
  func.func @main_tensor_put(%x: !pto.tensor<16x16xf32>, %src: !pto.tensor<16x16xf32>) -> (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<16x16xf32>
    %dst = pto.create_tensor : !pto.tensor<16x16xf32>
    %peer = arith.constant 0 : index
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, acc>
    %r:2 = func.call @tensor_put(%xm, %out, %src, %dst, %peer) : (!pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, index) -> (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>)
    func.return %r#0, %r#1 : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
  }

  // The control: an atomic store of a per-lane tile is split per lane (each lane adds its own rows), unguarded.
  // CHECK-LABEL: func.func @per_lane_atomic
  // CHECK-NOT:   scf.if
  // CHECK:       %o = pto.store %v, %out[%{{.*}}, 0] {atomic = 1 : i64} : !pto.tile<8x16xf32, vec>, !pto.tensor<16x16xf32>
  // CHECK-NOT:   scf.if
  func.func @per_lane_atomic(%qk: !pto.tile<16x16xf32, acc>, %out: !pto.tensor<16x16xf32> {pto.inout}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %o = pto.store %v, %out[0, 0] {atomic = 1 : i64} : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }
  func.func @main_per_lane(%x: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<16x16xf32>
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, acc>
    %r = func.call @per_lane_atomic(%xm, %out) : (!pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    func.return %r : !pto.tensor<16x16xf32>
  }

  // An atomic store of a cube tile runs on the one AIC: it stays as written (ExpandMixedKernel puts it on the
  // AIC).  Before ExpandMixedKernel the interpreter runs the cube ops on both lanes, which stand for the one AIC:
  // only lane 0's copy adds (checked with the pipeline that stops after LowerAutoVectorSplit).
  // CHECK-LABEL: func.func @cube_atomic
  // CHECK:       %c = pto.store %z, %acc_out[0, 0] {atomic = 1 : i64} : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
  func.func @cube_atomic(%a: !pto.tensor<16x16xf32>, %acc_out: !pto.tensor<16x16xf32> {pto.inout}, %out: !pto.tensor<16x16xf32> {pto.inout})
      -> (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %am = pto.load %a[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %al = pto.move %am : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
    %ar = pto.move %am : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, right>
    %z = pto.matmul %al, %ar : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>
    %c = pto.store %z, %acc_out[0, 0] {atomic = 1 : i64} : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>
    %zv = pto.move %z : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %o = pto.store %zv, %out[0, 0] {atomic = 1 : i64} : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %c, %o : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
  }
  func.func @main_cube(%a: !pto.tensor<16x16xf32>) -> (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
    %acc_out = pto.create_tensor : !pto.tensor<16x16xf32>
    %out = pto.create_tensor : !pto.tensor<16x16xf32>
    %r:2 = func.call @cube_atomic(%a, %acc_out, %out) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>)
    func.return %r#0, %r#1 : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
  }
}
