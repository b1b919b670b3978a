// The lane cooperation ops in the interpreter (issue 43): a pto.lane_barrier is a rendezvous of the two AIV lanes
// and orders their GM accesses for the race detector; a pto.lane_workspace is one buffer both lanes share, whose
// cells read as undefined until a lane writes them.  The kernels: Inputs/lane_reduce_region.a2a3.mlir (a
// split_aiv_scope) and Inputs/lane_reduce_loop.a5.mlir (a split kernel reusing its workspace in a loop).

// Used correctly, each kernel computes the same outputs before and after the pipeline, on both targets.
// RUN: sed 's/#pto.target<a2a3>/#pto.target<a5>/' %S/Inputs/lane_reduce_region.a2a3.mlir > %t.region.a5.mlir
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel %S/Inputs/lane_reduce_region.a2a3.mlir | filecheck %s --check-prefix=OK
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.region.a5.mlir | filecheck %s --check-prefix=OK
// RUN: sed 's/#pto.target<a5>/#pto.target<a2a3>/' %S/Inputs/lane_reduce_loop.a5.mlir > %t.loop.a2a3.mlir
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel %S/Inputs/lane_reduce_loop.a5.mlir | filecheck %s --check-prefix=OK
// RUN: pypto-run --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.loop.a2a3.mlir | filecheck %s --check-prefix=OK
// OK: check of pipeline 'lower-auto-vector-split,expand-mixed-kernel' passed

// The barrier dropped: lane 1's store of its partial and lane 0's load of it are not ordered (read after write).
// RUN: sed '/^ *pto.lane_barrier$/d' %S/Inputs/lane_reduce_region.a2a3.mlir > %t.nobarrier.mlir
// RUN: not pypto-run %t.nobarrier.mlir 2>&1 | filecheck %s --check-prefix=DROPPED
// DROPPED: nobarrier.mlir:20:7: error: data race on GM tensor %ws[1:2, 0:1, 0:128] in split_aiv_scope at {{.*}}nobarrier.mlir:13:5: a store on @colnorm region lane 1 and a load on @colnorm region lane 0 at {{.*}}nobarrier.mlir:22:7 touch the same cells and no pipe handshake or lane barrier orders them (2 racing pair(s))

// The barrier misplaced before the stores: it orders nothing between a store and the other lane's load.
// RUN: sed -e '/^ *pto.lane_barrier$/d' -e 's/^\(      %%ws1 = pto.store .*\)$/      pto.lane_barrier\n\1/' %S/Inputs/lane_reduce_region.a2a3.mlir > %t.early.mlir
// RUN: not pypto-run %t.early.mlir 2>&1 | filecheck %s --check-prefix=EARLY
// EARLY: early.mlir:21:7: error: data race on GM tensor %ws[0:1, 0:1, 0:128] in split_aiv_scope at {{.*}}early.mlir:13:5: a store on @colnorm region lane 0 and a load on @colnorm region lane 1 at {{.*}}early.mlir:22:7 touch the same cells and no pipe handshake or lane barrier orders them

// The same kernel after the pipeline, with the barrier dropped from the AIV kernel: still a located race.
// RUN: pypto-opt --lower-auto-vector-split --expand-mixed-kernel %S/Inputs/lane_reduce_region.a2a3.mlir | sed '/^ *pto.lane_barrier$/d' > %t.after.mlir
// RUN: not pypto-run --entry colnorm %t.after.mlir 2>&1 | filecheck %s --check-prefix=AFTER
// AFTER: after.mlir:{{[0-9]+}}:5: error: data race on GM tensor %ws[1:2, 0:1, 0:128] in Group @colnorm: a store on @colnorm_aiv lane 1 (AIV) and a load on @colnorm_aiv lane 0 (AIV) at {{.*}} touch the same cells and no pipe handshake or lane barrier orders them

// The loop without its first barrier: a lane overwrites its row for the second block while the other lane may
// still read the first block's partial (write after read).
// RUN: sed '0,/^ *pto.lane_barrier$/{/^ *pto.lane_barrier$/d}' %S/Inputs/lane_reduce_loop.a5.mlir > %t.war.mlir
// RUN: not pypto-run %t.war.mlir 2>&1 | filecheck %s --check-prefix=WAR
// WAR: war.mlir:25:7: error: data race on GM tensor %ws[1:2, 0:1, 0:128] in @colnorm_loop: a load on @colnorm_loop lane 0 and a store on @colnorm_loop lane 1 at {{.*}}war.mlir:22:7 touch the same cells and no pipe handshake or lane barrier orders them (2 racing pair(s))

// The loop without its second barrier: the partials are loaded before the other lane has stored its own.
// RUN: sed '/%%ws1 = pto.store/{n;d}' %S/Inputs/lane_reduce_loop.a5.mlir > %t.raw.mlir
// RUN: not pypto-run %t.raw.mlir 2>&1 | filecheck %s --check-prefix=RAW
// RAW: raw.mlir:23:7: error: data race on GM tensor %ws[0:1, 0:1, 0:128] in @colnorm_loop: a store on @colnorm_loop lane 0 and a load on @colnorm_loop lane 1 at {{.*}}raw.mlir:24:7 touch the same cells and no pipe handshake or lane barrier orders them (4 racing pair(s))

// A read of a workspace row no lane writes: its cells are undefined at entry (reported after the run, at the
// load, when no race explains it).
// RUN: sed -e 's/2x1x128xf32/3x1x128xf32/g' -e 's/%%ws1\[1, 0, 0\]/%%ws1[2, 0, 0]/' %S/Inputs/lane_reduce_region.a2a3.mlir > %t.undef.mlir
// RUN: not pypto-run %t.undef.mlir 2>&1 | filecheck %s --check-prefix=UNDEF
// UNDEF: undef.mlir:23:7: error: 'pto.load' reads %ws[2:3, 0:1, 0:128], cells of a pto.lane_workspace that no lane has written (its contents are undefined at kernel entry) on @colnorm region lane 1: the store of the other lane is missing, or a pto.lane_barrier between it and this read (2 such read(s) in split_aiv_scope at {{.*}}undef.mlir:13:5)

// The barrier on lane 0 only: lane 0 waits for a lane that never arrives.
// RUN: sed 's/^      pto.lane_barrier$/      %%z = arith.constant 0 : index\n      %%is0 = arith.cmpi eq, %%lane, %%z : index\n      scf.if %%is0 {\n        pto.lane_barrier\n      }/' %S/Inputs/lane_reduce_region.a2a3.mlir > %t.one.mlir
// RUN: not pypto-run %t.one.mlir 2>&1 | filecheck %s --check-prefix=ONE
// ONE: one.mlir:24:9: error: deadlock in split_aiv_scope at {{.*}}one.mlir:13:5: every running core is blocked on a pipe and none can make progress
// ONE-NEXT: one.mlir:24:9: note: @colnorm region lane 0 waits in 'pto.lane_barrier': waits for the other lane to reach its lane_barrier #1
