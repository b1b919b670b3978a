"""Global memory: `create_tensor`, `load`, `store`, the window of a GM access, and the record of every access a
core or lane makes for the race detector (`races.py`).

The effect ops here take the machine as their first argument (the `@impl_effect` convention of `registry.py`) but
need nothing of it: where the code runs, and the Group's race detector, are in the core's `Ctx`.  `window` is also
used by the communication ops (`comm.py`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pypto_mlir.dialects import pto_ops as P
from pypto_mlir.dialects.pto_traits import once_per_kernel
from pypto_mlir.dialects.pto_types import TileType

from .registry import impl_effect
from .semantics import mixed_values
from .state import Ctx
from .values import Buffer, InterpError, make_tile, np_dtype, repad, static_shape, to_storage


@impl_effect(P.CreateTensorOp)
def run_create_tensor(machine, op: P.CreateTensorOp, args, env, ctx: Ctx) -> list:
    t = op.result.type
    shape = static_shape(t, "tensor")
    return [Buffer(np.zeros(shape, dtype=np_dtype(t.element_type)), name=op.result.name_hint or "create_tensor")]


def record(
    ctx: Ctx, op, buf: Buffer, idx: tuple, t: TileType | None, write: bool, atomic: bool = False, values=None
) -> None:
    """Record a GM access of a core or lane for the race detector (`t`: the tile moved, None for a tensor copy
    or a signal, which run on the vector side).

    Only accesses inside a run of several cores or lanes are recorded; a replay lane makes none (its tiles have
    no valid cells, its stores are suppressed).  In a split incore kernel or a per-lane region (before
    ExpandMixedKernel) both lanes run the cube ops too, which models one AIC; only vector-tile accesses are
    per-lane there.  A write of an op whose effect must happen once per kernel (`once_per_kernel`: an atomic
    store, a put, a notify) is marked so the detector also reports the same op performed by two lanes."""
    grp = ctx.group
    if grp is None or ctx.replay:
        return
    if ctx.side is None and t is not None and t.memory_space.data != "vec":
        return
    box = tuple((i, i + 1) if isinstance(i, int) else (i.start, i.stop) for i in idx)
    if values is not None:
        values = np.array(values, copy=True).reshape(tuple(hi - lo for lo, hi in box))
    once = once_per_kernel(op) if write else None
    grp.races.access(ctx.thread, ctx.label, buf, buf.name or "tensor", box, write, atomic, op, values, once)


def cube_copy(ctx: Ctx, t: TileType, atomic: bool) -> bool:
    """Whether this is lane 1's copy of an atomic cube store: in a split incore kernel or a per-lane region
    (before ExpandMixedKernel) both lanes run the cube ops, which stand for one AIC, so only lane 0's adds (it
    would otherwise add twice).  A plain cube store is written by both copies: the later one, which has seen
    more of the lanes' stores, stands for the AIC that ExpandMixedKernel orders after both lanes."""
    return atomic and ctx.side is None and (ctx.lane or 0) != 0 and t.memory_space.data != "vec"


def window(buf: Buffer, offs: list[int], box: tuple[int, ...], what: str) -> tuple:
    """The numpy index of the `box` at `offs` in `buf` (leading dims of a higher-rank tensor take one cell);
    a window outside the tensor is an error of the `what` op."""
    data = buf.data
    rank = data.ndim
    lead = rank - len(box)
    idx: list[Any] = []
    for d in range(rank):
        o = offs[d]
        ext = 1 if d < lead else box[d - lead]
        if o < 0 or o + ext > data.shape[d]:
            raise InterpError(
                f"{what} window [{o}, {o + ext}) on dim {d} lies outside the tensor's extent {data.shape[d]}"
            )
        idx.append(o if d < lead else slice(o, o + ext))
    return tuple(idx)


@impl_effect(P.LoadOp)
def run_load(machine, op: P.LoadOp, args, env, ctx: Ctx) -> list:
    buf = args[0]
    n_off = len(op.offsets)
    offs = mixed_values(op.get_static_offsets(), args[1 : 1 + n_off])
    t = op.result.type
    box = static_shape(t)
    valid = list(box)
    if op.static_valid is not None:
        valid = mixed_values(op.static_valid.get_values(), args[1 + n_off :])
    # The window is clipped to the valid region: cells outside it are never read (they hold the pad value).
    vbox = tuple(max(0, min(v, b)) for v, b in zip(valid, box))
    idx = window(buf, offs, vbox, "load")
    record(ctx, op, buf, idx, t, write=False)
    return [repad(make_tile(np.array(buf.data[idx]), t, vbox))]


@impl_effect(P.StoreOp)
def run_store(machine, op: P.StoreOp, args, env, ctx: Ctx) -> list:
    tile, buf = args[0], args[1]
    offs = mixed_values(op.get_static_offsets(), args[2:])
    atomic = op.is_atomic
    if ctx.replay or cube_copy(ctx, tile.type, atomic):
        return [buf]  # lane 1 of a dual dispatch replays the handshakes only; lane 1's copy of the one AIC
    idx = window(buf, offs, tile.valid, "store")
    region = tile.valid_view()
    record(ctx, op, buf, idx, tile.type, write=True, atomic=atomic, values=region)
    if atomic:
        # Atomic store: accumulate into GM (the sum is rounded to the tensor's element type).
        cur = buf.data[idx].astype(np.float64 if region.dtype.kind not in "iu" else np.int64)
        buf.data[idx] = to_storage(cur + region.astype(cur.dtype), buf.data.dtype)
    else:
        buf.data[idx] = region
    return [buf]
