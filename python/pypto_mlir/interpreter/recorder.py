"""Recording a Group run for the timing model (`pypto_mlir.timing`): `Machine(timing=True)` gives each core of a
Group a `Track`, and `record` appends every op the core completes (an op with regions is not an op of its own:
its body's ops are recorded as they run).  A handshake records its ring and entry from the state the op just
changed: a push the entry it filled and a pop the entry it took (each the core's tile index on that ring, as
pto-isa counts it), a tfree the index of the last entry this core popped from that ring before it (pto-isa decides
a tfree's free signal by that index, not by the slot it names: `pypto_mlir.timing.flow`).  A lane barrier that is a
rendezvous (two lanes run code) records which of the lane's barriers it is."""

from __future__ import annotations

from typing import Any

from xdsl.ir import Operation

from pypto_mlir.dialects.pto_lane_ops import LaneBarrierOp
from pypto_mlir.dialects.pto_traits import CoreSide, PipeFree, PipePop, PipePush
from pypto_mlir.timing.op_costs import cost_of
from pypto_mlir.timing.timeline import Item, RingInfo, Timeline, Track

from .pipes import ring_of
from .state import Ctx, GroupRun


def add_track(tl: Timeline, ctx: Ctx) -> None:
    track = Track(_core_label(ctx), ctx.thread)
    tl.tracks.append(track)
    ctx.track = track


def _core_label(ctx: Ctx) -> str:
    if ctx.side is CoreSide.AIC:
        return "AIC"
    return f"AIV lane {ctx.lane}" if ctx.lane is not None else "AIV"


def record(target: str | None, op: Operation, args: list[Any], ctx: Ctx) -> None:
    """Append `op`, which `ctx` has just completed, to its track."""
    track = ctx.track
    assert track is not None and ctx.group is not None
    cost = cost_of(op, target)
    item = Item(op, cost.cycles, cost.unit)
    if isinstance(op, LaneBarrierOp) and ctx.group.two_lanes:
        item = Item(op, cost.cycles, cost.unit, "barrier", None, ctx.barrier_count - 1)
    for trait, sync in ((PipePush, "push"), (PipePop, "pop"), (PipeFree, "free")):
        t = op.get_trait(trait)
        if t is None:
            continue
        ring = ring_of(op, ctx, t.direction, t.side)
        me = ctx.thread
        if sync == "push":
            index = ring.pushed[me] - 1
        elif sync == "pop":
            index = ring.popped[me] - 1
        else:
            index = ring.popped[me] - 1
        item = Item(op, cost.cycles, cost.unit, sync, (ring.pipe_id, str(t.direction)), index)
        break
    track.items.append(item)


def finish_timeline(tl: Timeline, grp: GroupRun) -> None:
    """Note each ring's depth and how many cores produce and consume it."""
    for (pid, direction), ring in grp.rings.items():
        tl.rings[(pid, str(direction))] = RingInfo(ring.name(), ring.slot_num, len(ring.producers), len(ring.consumers))

