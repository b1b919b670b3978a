// A deliberately broken pass output: the tfree is missing and the loop pushes four tiles into a 2-slot ring,
// so the cube blocks on a full ring while both AIV lanes wait on an empty one.  Every core's op is located.
// RUN: sed '/tfree_to_aic/d' %S/Inputs/loop_accumulate.expanded.a2a3.mlir > %t.nofree.mlir
// RUN: not pypto-run --compare-with %t.nofree.mlir %examples/loop_accumulate.a2a3.mlir 2>&1 | filecheck %s --check-prefix=DEADLOCK
// DEADLOCK: check of '{{.*}}nofree.mlir' FAILED (after)
// DEADLOCK: nofree.mlir:19:7: error: deadlock in Group @kloop_incore_0: every running core is blocked on a pipe
// DEADLOCK-NEXT: nofree.mlir:19:7: note: @kloop_incore_0_aic (AIC) waits in 'pto.tpush_to_aiv': the c2v ring of pipe 0 is full (2 of 2 slots
// DEADLOCK-NEXT: nofree.mlir:37:7: note: @kloop_incore_0_aiv lane 0 (AIV) waits in 'pto.tpop_from_aic': the c2v ring of pipe 0 is empty
// DEADLOCK-NEXT: nofree.mlir:37:7: note: @kloop_incore_0_aiv lane 1 (AIV) waits in 'pto.tpop_from_aic'

// A wrong store offset (both lanes store their half at row 0): the two lanes' stores race on rows 0-31.
// RUN: sed 's/%%out_0\[%%row, 0\]/%%out_0[0, 0]/' %S/Inputs/matmul_softmax.expanded.a2a3.mlir > %t.off.mlir
// RUN: not pypto-run --compare-with %t.off.mlir %examples/matmul_softmax.a2a3.mlir 2>&1 | filecheck %s --check-prefix=OFFSET
// OFFSET: FAILED (after)
// OFFSET: off.mlir:34:5: error: data race on GM tensor %out[0:32, 0:128] in Group @attn_incore_0: a store on @attn_incore_0_aiv lane 1 (AIV) and a store on @attn_incore_0_aiv lane 0 (AIV) at {{.*}}off.mlir:34:5 touch the same cells and no pipe handshake or lane barrier orders them (1 racing pair(s))

// A missing tfree within the ring's depth leaves a popped slot at kernel exit.
// RUN: sed '/tfree_to_aic/d' %S/Inputs/seed_example1.expanded.a5.mlir > %t.leak.mlir
// RUN: not pypto-run %t.leak.mlir 2>&1 | filecheck %s --check-prefix=LEAK
// LEAK: leak.mlir:22:5: error: Group @compute_incore_0: 1 item(s) left in a ring at kernel exit; first: the slot popped here by AIV lane 0 is never freed (missing tfree) before kernel exit

// A tile larger than the slot.
// RUN: sed 's/slot_size = 8192/slot_size = 4096/' %S/Inputs/seed_example1.expanded.a5.mlir > %t.big.mlir
// RUN: not pypto-run %t.big.mlir 2>&1 | filecheck %s --check-prefix=BIG
// BIG: big.mlir:14:5: error: the pushed tile !pto.tile<16x128xf32, acc> takes 8192 bytes, more than the slot_size of 4096 bytes of the c2v ring of pipe 0 (on @compute_incore_0_aic (AIC))

// A ragged split with the even code.
// RUN: sed 's/split = 3 : i64/split = 1 : i64/' %S/Inputs/ragged_split.a2a3.mlir > %t.rag.mlir
// RUN: not pypto-run --entry rag %t.rag.mlir 2>&1 | filecheck %s --check-prefix=RAG
// RAG: error: split = 1 (up_down) does not fit the lanes' extents: the tile pushed at {{.*}}rag.mlir:12:5 has 13 valid cells on dim 0, so with a lane stride of 7 lane 0 holds 7 and lane 1 holds 6; expected split = 3

// A popped tile read after its tfree: the slot may already hold the producer's next tile.  The read, the pop and
// the free are all located.
// RUN: sed -e '/tfree_to_aic/d' -e 's/^\(    %out_1 = pto.store .*\)$/    pto.tfree_to_aic %z_vec : !pto.tile<16x128xf32, vec>\n\1/' %S/Inputs/seed_example1.expanded.a5.mlir > %t.uaf.mlir
// RUN: not pypto-run %t.uaf.mlir 2>&1 | filecheck %s --check-prefix=UAF
// UAF: uaf.mlir:24:5: error: use of a tile after its slot was freed: the tile was popped from the c2v ring of pipe 0 at {{.*}}uaf.mlir:22:5 and its slot freed at {{.*}}uaf.mlir:23:5, so the producer may already have refilled the slot (on @compute_incore_0_aiv (AIV))
// UAF-NEXT: uaf.mlir:22:5: note: the tile was popped here
// UAF-NEXT: uaf.mlir:23:5: note: its slot was freed here

// A C->V exchange through GM with its fence removed: the vector load of %scratch and the cube store are not
// ordered by any handshake.  The race detector reports the pair with the tensor region and both locations.
// RUN: pypto-opt --expand-mixed-kernel %S/Inputs/gm_exchange.a2a3.mlir | sed -e '/tpush_to_aiv/d' -e '/gm_sync/d' > %t.nofence.mlir
// RUN: not pypto-run --compare-with %t.nofence.mlir %S/Inputs/gm_exchange.a2a3.mlir 2>&1 | filecheck %s --check-prefix=RACE
// RACE: check of '{{.*}}nofence.mlir' FAILED (after)
// RACE: nofence.mlir:[[LOAD:[0-9]+]]:5: error: data race on GM tensor %scratch[0:16, 0:16] in Group @k: a load on @k_aiv lane 0 (AIV) and a store on @k_aic (AIC) at {{.*}}nofence.mlir:[[STORE:[0-9]+]]:5 touch the same cells and no pipe handshake or lane barrier orders them (1 racing pair(s))
// RACE-NEXT: nofence.mlir:[[STORE]]:5: note: a store of %scratch[0:16, 0:16] on @k_aic (AIC)

// The same program without pto.dual_aiv_dispatch on its AIV kernel: a2a3 runs an AIV kernel of a Group on both
// lanes, so the attribute is required (reported at the Group's call).
// RUN: pypto-opt --expand-mixed-kernel %S/Inputs/gm_exchange.a2a3.mlir | sed -e 's/, pto.dual_aiv_dispatch}/}/' > %t.nodual.mlir
// RUN: not pypto-run --entry k %t.nodual.mlir 2>&1 | filecheck %s --check-prefix=NODUAL
// NODUAL: nodual.mlir:{{[0-9]+}}:5: error: on a2a3 the hardware runs an AIV kernel of a Group on both AIV lanes, but @k_aiv has neither pto.split_aiv (two real lanes, each on its part) nor pto.dual_aiv_dispatch (lane 1 replays the handshakes only), so lane 1 would repeat lane 0's transfers and stores; mark the kernel pto.dual_aiv_dispatch if lane 1 should only replay the handshakes, or split its vector work between the lanes (pto.split_aiv, what --lower-auto-vector-split makes of a pto.split request){{$}}

// a5 without the `_nz` adapter: the V->C transfer copies the row-major vector tile's bytes into the slot and the
// cube reads them as NZ, so the matmul operand is scrambled and the output differs.
// RUN: pypto-opt --lower-auto-vector-split --expand-mixed-kernel %examples/vector_prep_matmul.a5.mlir | sed -e '/%%x_bf_nz = pto.move/d' -e 's/pto.tpush_to_aic %%x_bf_nz {split = 0 : i64} : .*$/pto.tpush_to_aic %%x_bf {split = 0 : i64} : !pto.tile<64x128xbf16, vec>/' > %t.nonz.mlir
// RUN: not pypto-run --compare-with %t.nonz.mlir %examples/vector_prep_matmul.a5.mlir 2>&1 | filecheck %s --check-prefix=NONZ
// NONZ: FAILED (compare)
// NONZ-NEXT: mismatch after the pipeline: output result#0 differs at [0, 0]: {{.*}} (4096 of 4096 elements differ;
