// RUN: pypto-run %s --entry phase --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel --timing | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-run - --entry phase --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel --timing | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-run %s --entry phase --quiet --check-pipeline 'lower-auto-vector-split,expand-mixed-kernel{ring-depth=fixed}' --timing | filecheck %s --check-prefix=FIXED
// RUN: pypto-run %s --entry phase --quiet --timing 2>&1 | filecheck %s --check-prefixes=UNEXPANDED,UNEXPANDED-A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-run - --entry phase --quiet --timing 2>&1 | filecheck %s --check-prefixes=UNEXPANDED,UNEXPANDED-A5
// RUN: pypto-run %s --entry phase --quiet --trace %t.mixed.json 2>&1 | filecheck %s --check-prefix=UNEXPANDED-NOTE
// RUN: %python %S/../support/check_trace.py %t.mixed.json | filecheck %s --check-prefix=TRACE
// RUN: not pypto-run %s --entry phase --quiet --timing --check-pipeline lower-auto-vector-split 2>&1 | filecheck %s --check-prefix=NOTHING
// RUN: sed 's/pto.split = #pto.split<up_down>} {/pto.split = #pto.split<up_down>, pto.slot_num = 5 : i64} {/' %s | pypto-run - --entry phase --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel --timing | filecheck %s --check-prefix=ODD
// RUN: pypto-run %s --entry phase --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel --trace %t.a2a3.json
// RUN: %python %S/../support/check_trace.py %t.a2a3.json | filecheck %s --check-prefix=TRACE
// RUN: sed 's/a2a3/a5/' %s | pypto-run - --entry phase --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel --trace %t.a5.json
// RUN: %python %S/../support/check_trace.py %t.a5.json | filecheck %s --check-prefix=TRACE

// `pypto-run --timing` prints the modelled timing of the pipeline's output (docs/timing-model.md): the makespan
// of each Group run against the overlap bound (the busiest core's busy cycles), each core's busy, waiting and
// idle cycles with the busy cycles per unit, and each ring's stalls.  The figures are modelled cycles of the
// cost table, never hardware time, and the first line says so.
// CHECK:      timing (modelled cycles from the cost table in docs/timing-model.md: a model, not hardware time)
// A2A3-NEXT:  Group @phase (a2a3): makespan 8961 cycles, 1.06x the overlap bound
// A2A3-NEXT:    overlap bound max(core busy) = 8450
// A5-NEXT:    Group @phase (a5): makespan [[#]] cycles, [[#]].[[#]]x the overlap bound
// A5-NEXT:      overlap bound max(core busy) = [[#]]
// CHECK-NEXT:   core{{ +}}busy{{ +}}waiting{{ +}}idle end{{ +}}busy by unit
// The pipe cycles differ by target: on a2a3 the ring is in GM, a push is a GM store and a pop a GM load (the
// copy frees the slot, the tfree costs nothing); on a5 the push writes the consumer's UB, a pop and a tfree are
// one cross-core flag each.
// CHECK-NEXT:   AIC{{ +}}[[#]]{{ +}}[[#]]{{ +}}[[#]]{{ +}}cube 512, mte 4690, pipe {{[0-9]+}}, scalar 24
// A2A3-NEXT:    AIV lane 0{{ +}}[[#]]{{ +}}[[#]]{{ +}}0{{ +}}mte 1904, pipe 2176, scalar 34, vector 2304
// A2A3-NEXT:    AIV lane 1{{ +}}[[#]]{{ +}}[[#]]{{ +}}0{{ +}}mte 1904, pipe 2176, scalar 34, vector 2304
// A5-NEXT:      AIV lane 0{{ +}}[[#]]{{ +}}[[#]]{{ +}}0{{ +}}mte 1904, pipe 16, scalar 34, vector 2304
// A5-NEXT:      AIV lane 1{{ +}}[[#]]{{ +}}[[#]]{{ +}}0{{ +}}mte 1904, pipe 16, scalar 34, vector 2304
// A2A3-NEXT:    c2v ring of pipe 0 (3 slots): producers waited 0 cycles on a full ring, consumers [[#]] on an empty ring (summed over the cores)
// A5-NEXT:      c2v ring of pipe 0 (3 slots): producers waited 0 cycles on a full ring, consumers [[#]] on an empty ring (summed over the cores)
// CHECK-NEXT: total makespan [[#]] cycles (Groups one after another)

// With the reference's fixed depth 2 the cube waits for a free signal (pto-isa: the third push waits until the
// consumer has popped two tiles) and the run is longer.
// FIXED:      Group @phase (a2a3): makespan 9471 cycles, 1.12x the overlap bound
// FIXED:      c2v ring of pipe 0 (2 slots): producers waited 510 cycles on a full ring

// `--trace` writes the run as Chrome trace events (Perfetto, chrome://tracing): a process per Group run, a thread
// per core, a slice per op that costs cycles (its category the unit), a stall slice where a core waits on a ring,
// and a flow arrow from each push to each pop of its entry (8 iterations x 2 lanes).  check_trace.py checks the
// format (no overlapping slices on a thread, both ends of every flow inside a slice) and summarizes it.
// TRACE:      process Group @phase
// TRACE-NEXT:   thread AIC: cube 16, mte 34, pipe 8, scalar 24
// TRACE-NEXT:   thread AIV lane 0: mte 8, pipe {{8|16}}, scalar 34, stall [[#]], vector 32
// TRACE-NEXT:   thread AIV lane 1: mte 8, pipe {{8|16}}, scalar 34, stall [[#]], vector 32
// TRACE-NEXT: flows 16
// TRACE-NEXT: unit 1 us = 1 modelled cycle

// The mixed kernel as written runs outside any Group, which the model cannot time: pypto-run says so and times
// the output of the default pipeline (the same figures as with --check-pipeline above), then the same kernel
// without its pto.split request through the same pipeline, so the gain of the lane split is visible. --trace
// alone writes the same (non-empty) trace as above.
// UNEXPANDED-NOTE:        timing_report.mlir: note: the timing model times mixed kernels once they are split into AIC and AIV kernels: timing the output of the default pipeline 'lower-auto-vector-split,expand-mixed-kernel' (choose the passes with --check-pipeline)
// UNEXPANDED:             note: the timing model times mixed kernels once they are split into AIC and AIV kernels: timing the output of the default pipeline 'lower-auto-vector-split,expand-mixed-kernel'
// UNEXPANDED-A2A3:        Group @phase (a2a3): makespan 8961 cycles, 1.06x the overlap bound
// UNEXPANDED-A5:          Group @phase (a5): makespan 6363 cycles
// UNEXPANDED:             unsplit: the same kernels without their pto.split request, through the same pipeline
// UNEXPANDED-A2A3-NEXT:     Group @phase: makespan 8961 cycles split, 10387 unsplit (0.86x)
// UNEXPANDED-A2A3-NEXT:   total makespan 8961 cycles split, 10387 unsplit: the split takes 0.86x the unsplit time
// UNEXPANDED-A5-NEXT:       Group @phase: makespan 6363 cycles split, 7376 unsplit (0.86x)
// UNEXPANDED-A5-NEXT:     total makespan 6363 cycles split, 7376 unsplit: the split takes 0.86x the unsplit time
// A pipeline that does not expand leaves nothing to time: an error that says what to add, not an empty report.
// NOTHING: pypto-run: error: --timing: no Group ran, so there is nothing to time (the timing model times the AIC + AIV Groups ExpandMixedKernel makes); add it to the pipeline: --check-pipeline 'lower-auto-vector-split,expand-mixed-kernel'

// An explicit odd depth from 5 on is timed, with a warning: pto-isa's producer waits for a free signal only once
// per sync period (2 tiles at depth 5, first at push 6), so push 5 refills the slot of tile 0 unguarded.
// ODD:        c2v ring of pipe 0 (5 slots)
// ODD-NEXT:   unguarded: the c2v ring of pipe 0 at depth 5 (push 5) may overwrite a slot before its free is waited for (pto-isa's sync period)


builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @phase(%a: !pto.tensor<256x64xbf16>, %b: !pto.tensor<64x64xbf16>, %out_0: !pto.tensor<256x64xf32> {pto.out}) -> !pto.tensor<256x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x64xbf16> -> !pto.tile<64x64xbf16, mat>
    %b_right = pto.move %b_mat : !pto.tile<64x64xbf16, mat> -> !pto.tile<64x64xbf16, right>
    %res = scf.for %i = %c0 to %c8 step %c1 iter_args(%o = %out_0) -> (!pto.tensor<256x64xf32>) {
      %row = arith.muli %i, %c32 : index
      %late = arith.cmpi sge, %i, %c4 : index
      %a_mat = pto.load %a[%row, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
      %a_left = pto.move %a_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
      %p0 = pto.matmul %a_left, %b_right : !pto.tile<32x64xbf16, left>, !pto.tile<64x64xbf16, right> -> !pto.tile<32x64xf32, acc>
      %p = scf.if %late -> (!pto.tile<32x64xf32, acc>) {
        %a2 = pto.load %a[%row, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
        %a3 = pto.load %a[%row, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
        %a2l = pto.move %a2 : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
        %p1 = pto.matmul_acc %p0, %a2l, %b_right : !pto.tile<32x64xf32, acc>, !pto.tile<32x64xbf16, left>, !pto.tile<64x64xbf16, right> -> !pto.tile<32x64xf32, acc>
        %a3l = pto.move %a3 : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
        %p2 = pto.matmul_acc %p1, %a3l, %b_right : !pto.tile<32x64xf32, acc>, !pto.tile<32x64xbf16, left>, !pto.tile<64x64xbf16, right> -> !pto.tile<32x64xf32, acc>
        scf.yield %p2 : !pto.tile<32x64xf32, acc>
      } else {
        scf.yield %p0 : !pto.tile<32x64xf32, acc>
      }
      %v = pto.move %p : !pto.tile<32x64xf32, acc> -> !pto.tile<32x64xf32, vec>
      %t = scf.if %late -> (!pto.tile<32x64xf32, vec>) {
        scf.yield %v : !pto.tile<32x64xf32, vec>
      } else {
        %e1 = pto.exp %v : !pto.tile<32x64xf32, vec>
        %e2 = pto.exp %e1 : !pto.tile<32x64xf32, vec>
        %e3 = pto.exp %e2 : !pto.tile<32x64xf32, vec>
        %e4 = pto.exp %e3 : !pto.tile<32x64xf32, vec>
        %e5 = pto.exp %e4 : !pto.tile<32x64xf32, vec>
        %e6 = pto.exp %e5 : !pto.tile<32x64xf32, vec>
        %e7 = pto.recip %e6 : !pto.tile<32x64xf32, vec>
        %e8 = pto.recip %e7 : !pto.tile<32x64xf32, vec>
        scf.yield %e8 : !pto.tile<32x64xf32, vec>
      }
      %o2 = pto.store %t, %o[%row, 0] : !pto.tile<32x64xf32, vec>, !pto.tensor<256x64xf32>
      scf.yield %o2 : !pto.tensor<256x64xf32>
    }
    func.return %res : !pto.tensor<256x64xf32>
  }
}
