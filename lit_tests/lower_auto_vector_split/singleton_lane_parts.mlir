// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir --lower-auto-vector-split | filecheck %s
// RUN: pypto-run --quiet --entry meets_load --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry meets_load --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir
// RUN: pypto-run --quiet --entry carried_full --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %s
// RUN: pypto-run --quiet --entry carried_full --check-pipeline 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' %t.a5.mlir

// A singleton split axis (a [1, N] tile under UP_DOWN) meeting a [1, N] C->V boundary (issue 43).  The boundary
// is a singleton shard (lane 0 holds the row, lane 1 an empty copy), but a singleton load, tile_get or generator
// is never halved: both lanes hold it whole.  Before, the op combining them did not verify (per-lane and
// full-width operands) and the kernel was refused.  Now the whole value gives the op the part a singleton shard
// holds (SplitLowering._take_singleton_parts: a pto.slice with lane 0's row and lane 1 empty), and a loop whose
// body meets per-lane data carries a singleton init (a gemv accumulator seeded by pto.full) that way too.  The IR
// after the pass is the same on both targets; both kernels are checked by execution on a2a3 and a5 under
// fallback=error.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @meets_load
  // CHECK:       %s = pto.aiv_shard %qk {split = 1 : i64} : !pto.tile<1x32xf32, acc> -> !pto.tile<1x32xf32, vec, valid = [?, 32]>
  // CHECK-NEXT:  %l = pto.load %x[0, 0] : !pto.tensor<1x32xf32> -> !pto.tile<1x32xf32, vec>
  // CHECK-NEXT:  %[[PART:.*]] = pto.slice %l[0, 0] valid [%{{.*}}, 32] : !pto.tile<1x32xf32, vec> -> !pto.tile<1x32xf32, vec, valid = [?, 32]>
  // CHECK-NEXT:  %a = pto.add %s, %[[PART]] : !pto.tile<1x32xf32, vec, valid = [?, 32]>
  func.func @meets_load(%qk: !pto.tile<1x32xf32, acc>, %x: !pto.tensor<1x32xf32>, %out: !pto.tensor<1x32xf32> {pto.out}) -> !pto.tensor<1x32xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<1x32xf32, acc> -> !pto.tile<1x32xf32, vec>
    %l = pto.load %x[0, 0] : !pto.tensor<1x32xf32> -> !pto.tile<1x32xf32, vec>
    %a = pto.add %s, %l : !pto.tile<1x32xf32, vec>
    %o = pto.store %a, %out[0, 0] : !pto.tile<1x32xf32, vec>, !pto.tensor<1x32xf32>
    func.return %o : !pto.tensor<1x32xf32>
  }
  // CHECK-LABEL: func.func @carried_full
  // CHECK:       %z = pto.full %{{.*}} : f32 -> !pto.tile<1x32xf32, vec>
  // CHECK-NEXT:  %[[PART:.*]] = pto.slice %z[0, 0] valid [%{{.*}}, 32] : !pto.tile<1x32xf32, vec> -> !pto.tile<1x32xf32, vec, valid = [?, 32]>
  // CHECK:       %acc = scf.for %{{.*}} iter_args(%sum = %[[PART]]) -> (!pto.tile<1x32xf32, vec, valid = [?, 32]>) {
  // CHECK-NEXT:    %s = pto.aiv_shard %qk {split = 1 : i64} : !pto.tile<1x32xf32, acc> -> !pto.tile<1x32xf32, vec, valid = [?, 32]>
  // CHECK-NEXT:    %a = pto.add %sum, %s : !pto.tile<1x32xf32, vec, valid = [?, 32]>
  func.func @carried_full(%qk: !pto.tile<1x32xf32, acc>, %out: !pto.tensor<1x32xf32> {pto.out}) -> !pto.tensor<1x32xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %f = arith.constant 0.0 : f32
    %z = pto.full %f : f32 -> !pto.tile<1x32xf32, vec>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %acc = scf.for %k = %c0 to %c3 step %c1 iter_args(%sum = %z) -> (!pto.tile<1x32xf32, vec>) {
      %s = pto.move %qk : !pto.tile<1x32xf32, acc> -> !pto.tile<1x32xf32, vec>
      %a = pto.add %sum, %s : !pto.tile<1x32xf32, vec>
      scf.yield %a : !pto.tile<1x32xf32, vec>
    }
    %o = pto.store %acc, %out[0, 0] : !pto.tile<1x32xf32, vec>, !pto.tensor<1x32xf32>
    func.return %o : !pto.tensor<1x32xf32>
  }
}
