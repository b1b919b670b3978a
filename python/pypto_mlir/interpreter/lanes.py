"""The two AIV lanes: `get_subblock_idx`, the boundary ops `aiv_shard` (give this lane its part) and `aic_gather`
(wait for the other lane and join the parts: a `WaitKind.GATHER`), `lane_barrier` (wait for the other lane: a
`WaitKind.BARRIER`), and `split_aiv_scope` (a region run once, or on two lanes through the machine's
`run_lanes_region`).

The machine is passed in as a `MachineView` (`state.py`); this module does not import `machine.py`.
"""

from __future__ import annotations

from pypto_mlir.dialects import pto_ops as P
from pypto_mlir.dialects.pto_lane_ops import LaneBarrierOp
from pypto_mlir.dialects.pto_traits import BoundaryAffinity
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType
from pypto_mlir.dialects.pto_lanes import lane_step, split_dim_of_code

from .registry import impl_effect, impl_sync
from .state import Ctx, Gen, MachineView, Wait, WaitKind
from .values import InterpError, Tile, gather_parts, lane_extents, make_tile, repad, shard_part, static_shape


@impl_effect(P.GetSubblockIdxOp)
def run_get_subblock_idx(machine, op, args, env, ctx: Ctx) -> list:
    return [ctx.lane or 0]


def check_static_valid(t: TileType, part: Tile, lane: int, full_valid: int, stride: int, axis: int) -> None:
    """A lane part's static valid extents (in its type) must be what the lane really receives."""
    e = lane_extents(full_valid, stride)[lane]
    declared = t.get_valid()[axis]
    if declared != DYNAMIC and declared != min(e, t.get_shape()[axis]):
        raise InterpError(
            f"the type {t} declares {declared} valid cells on dim {axis}, but lane {lane} receives {e} of the "
            f"full tile's {full_valid} (lane stride {stride})"
        )


def _unsplit_boundary(op: P.AivShardOp | P.AicGatherOp, src) -> tuple[int, list | None]:
    """The split code of an aiv_shard / aic_gather, and its result when the code is 0 (no split: the whole tile,
    retyped to the other side's memory), else None."""
    split = op.split_code
    return split, [repad(make_tile(src.data, op.result.type, src.valid))] if split == 0 else None


@impl_effect(P.AivShardOp)
def run_aiv_shard(machine, op: P.AivShardOp, args, env, ctx: Ctx) -> list:
    (src,) = args
    split, whole = _unsplit_boundary(op, src)
    if whole is not None:
        return whole
    t = op.result.type
    if ctx.lane is None:
        raise InterpError(
            f"aiv_shard with split = {split} runs outside a two-lane context (the kernel has no pto.split_aiv and "
            "this is not inside a per-lane split_aiv_scope), so there is no lane to give a part to"
        )
    axis = split_dim_of_code(split)
    box = static_shape(t)[axis]
    stride = lane_step(src.data.shape[axis], op.stride)
    part = shard_part(src, axis, ctx.lane, box, stride, t)
    check_static_valid(t, part, ctx.lane, src.valid[axis], stride, axis)
    return [part]


@impl_sync(P.AicGatherOp)
def run_aic_gather(machine, op: P.AicGatherOp, args, env, ctx: Ctx) -> Gen:
    (src,) = args
    split, whole = _unsplit_boundary(op, src)
    if whole is not None:
        return whole
    t = op.result.type
    if ctx.lane is None or ctx.group is None:
        raise InterpError(f"aic_gather with split = {split} runs outside a two-lane context")
    grp = ctx.group
    k = ctx.gather_count
    ctx.gather_count += 1
    slot = grp.gathers.setdefault(k, {})
    slot[ctx.lane] = src
    clocks = grp.gather_clocks.setdefault(k, {})
    clocks[ctx.lane] = grp.races.release(ctx.lane)
    grp.progress += 1
    while len(slot) < 2:
        yield Wait(op, WaitKind.GATHER, count=k)
    grp.races.acquire(ctx.lane, clocks[1 - ctx.lane])  # the gather is a rendezvous of the two lanes
    return [gather_parts([slot[0], slot[1]], split_dim_of_code(split), t)]


@impl_sync(LaneBarrierOp)
def run_lane_barrier(machine, op: LaneBarrierOp, args, env, ctx: Ctx) -> Gen:
    """The k-th barrier of a lane returns once the other lane has reached its k-th barrier; the two lanes then
    acquire each other's clock (race detector), so every GM access before it on one lane happens before every
    access after it on the other.  Where only one lane runs code (no group, one lane, or lane 1 a replay of a dual
    dispatch) there is no one to wait for: a no-op."""
    grp = ctx.group
    if grp is None or ctx.lane is None or not grp.two_lanes:
        return []
    k = ctx.barrier_count
    ctx.barrier_count += 1
    clocks = grp.barrier_clocks.setdefault(k, {})
    clocks[ctx.lane] = grp.races.release(ctx.thread)
    grp.progress += 1
    while len(clocks) < 2:
        yield Wait(op, WaitKind.BARRIER, count=k)
    grp.races.acquire(ctx.thread, clocks[1 - ctx.lane])
    return []


@impl_sync(P.SplitAivScopeOp)
def run_split_aiv_scope(machine: MachineView, op: P.SplitAivScopeOp, args, env, ctx: Ctx) -> Gen:
    mode = op.mode.data
    per_lane = mode == "none" or any(o.has_trait(BoundaryAffinity) for o in op.body.walk())
    if ctx.lane is not None:
        lenv = dict(env)
        lenv[op.aiv_id] = ctx.lane
        return (yield from machine.exec_block(op.body.block, lenv, ctx))
    if per_lane:
        return machine.run_lanes_region(op, env, ctx)
    # A data-parallel region with a full-width body means the full-width computation: run it once.
    lenv = dict(env)
    lenv[op.aiv_id] = 0
    return (yield from machine.exec_block(op.body.block, lenv, ctx))
