"""The timing model of the lane cooperation ops (issue 43): a lane barrier costs two cross-core flag operations and
makes the lane that arrives first wait for the other; a lane workspace costs nothing to allocate (its round trip is
its store and load)."""

from __future__ import annotations

from pypto_mlir.check_pipeline import apply_pipeline
from pypto_mlir.dialects.pto_lane_ops import LaneBarrierOp, LaneWorkspaceOp
from pypto_mlir.dialects.pto_types import TensorType
from pypto_mlir.interpreter.inputs import run_timed
from pypto_mlir.ir import parse_module
from pypto_mlir.timing.costs import TARGET_COSTS
from pypto_mlir.timing.op_costs import cost_of
from pypto_mlir.timing.timeline import Item, Timeline, Track, replay
from xdsl.dialects.builtin import f32

from kernelgen.interp_util import input_text


def _lanes(work0: int, work1: int, barriers: int = 1) -> Timeline:
    tl = Timeline("t", "a2a3")
    for lane, work in enumerate((work0, work1)):
        t = Track(f"AIV lane {lane}", lane)
        for k in range(barriers):
            t.items.append(Item(LaneBarrierOp(), work, "vector"))
            t.items.append(Item(LaneBarrierOp(), 2, "pipe", "barrier", None, k))
        tl.tracks.append(t)
    return tl


def test_the_lane_that_arrives_first_waits_for_the_other():
    s = replay(_lanes(100, 10))
    assert [p.start for p in s.placed[0]] == [0, 100] and [p.start for p in s.placed[1]] == [0, 100]
    assert s.waiting(0) == 0 and s.waiting(1) == 90
    assert s.makespan == 102


def test_barriers_are_matched_by_their_count_on_each_lane():
    s = replay(_lanes(30, 10, barriers=3))
    # Lane 1 waits 20 cycles at each barrier: lane 0 is 20 cycles slower between any two.
    assert s.waiting(1) == 3 * 20 and s.waiting(0) == 0
    assert s.makespan == 3 * (30 + 2)


def test_costs():
    for target, c in TARGET_COSTS.items():
        assert cost_of(LaneBarrierOp(), target).cycles == 2 * c.cross_core_sync
        assert cost_of(LaneWorkspaceOp(TensorType([2, 16, 1], f32)), target).cycles == 0


def test_a_lane_with_more_work_before_the_barrier_delays_the_other():
    """The region kernel after the pipeline, with lane 0 given an extra GM store before the barrier (its own rows,
    which it overwrites later): lane 1 arrives first and its barrier starts when lane 0's does."""
    text = input_text("lane_reduce_region.a2a3.mlir").replace(
        "      pto.lane_barrier\n",
        "      %z = arith.constant 0 : index\n      %is0 = arith.cmpi eq, %lane, %z : index\n"
        "      scf.if %is0 {\n        %early = pto.store %h, %o[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>\n"
        "      }\n"
        "      pto.lane_barrier\n",
    )
    module = parse_module(text, "t.mlir")
    apply_pipeline(module, ["lower-auto-vector-split", "expand-mixed-kernel"])
    (tl,) = run_timed(module, "colnorm")
    s = replay(tl)
    starts = []
    for i, track in enumerate(tl.tracks):
        for it, p in zip(track.items, s.placed[i]):
            if it.sync == "barrier":
                starts.append((track.label, p.start, p.wait))
    (l0, s0, w0), (l1, s1, w1) = sorted(starts)
    assert (l0, l1) == ("AIV lane 0", "AIV lane 1")
    assert s0 == s1 and w0 == 0 and w1 > 0
