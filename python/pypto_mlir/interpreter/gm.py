"""Global memory: `create_tensor`, `lane_workspace`, `load`, `store`, the window of a GM access, and the record of
every access a core or lane makes for the race detector (`races.py`) and for the check that no workspace cell is
read before it is written.

The effect ops here take the machine as their first argument (the `@impl_effect` convention of `registry.py`) but
need nothing of it: where the code runs, and the Group's race detector, are in the core's `Ctx`.  `window` is also
used by the communication ops (`comm.py`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pypto_mlir.dialects import pto_ops as P
from pypto_mlir.dialects.pto_lane_ops import LaneWorkspaceOp
from pypto_mlir.dialects.pto_traits import once_per_kernel
from pypto_mlir.dialects.pto_types import TileType

from .registry import impl_effect
from .semantics import mixed_values
from .races import fmt_box
from .state import Ctx, UndefinedRead
from .values import Buffer, InterpError, make_tile, np_dtype, repad, static_shape, to_storage


@impl_effect(P.CreateTensorOp)
def run_create_tensor(machine, op: P.CreateTensorOp, args, env, ctx: Ctx) -> list:
    t = op.result.type
    shape = static_shape(t, "tensor")
    return [Buffer(np.zeros(shape, dtype=np_dtype(t.element_type)), name=op.result.name_hint or "create_tensor")]


POISON_BYTE = 0x5A
"""The byte an integer workspace is filled with at entry (a float one holds NaN): a value no computation is likely
to produce, so a read before a write shows in the outputs even where the check below is not reached."""


def poisoned(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """An array whose every cell reads as undefined: NaN for a float type that has one, else the poison bytes."""
    data = np.empty(shape, dtype=dtype)
    if dtype.kind == "f" or "float" in dtype.name:
        data[...] = np.nan
        if bool(np.isnan(data.astype(np.float32)).all()):
            return data
    data.view(np.uint8)[...] = POISON_BYTE
    return data


@impl_effect(LaneWorkspaceOp)
def run_lane_workspace(machine, op: LaneWorkspaceOp, args, env, ctx: Ctx) -> list:
    """One buffer per op and kernel instance, shared by both lanes (the Group run's); outside a run of several
    cores or lanes (a kernel run inline, one lane) every execution allocates a fresh one.  Its cells are poisoned
    and marked undefined until written."""
    grp = ctx.group
    if grp is not None and op in grp.workspaces:
        return [grp.workspaces[op]]
    t = op.result.type
    shape = static_shape(t, "tensor")
    buf = Buffer(poisoned(shape, np_dtype(t.element_type)), op.result.name_hint or "lane_workspace",
                 np.zeros(shape, dtype=np.bool_))
    if grp is not None:
        grp.workspaces[op] = buf
    return [buf]


def _note_workspace_access(ctx: Ctx, op, buf: Buffer, idx: tuple, write: bool) -> None:
    """Keep a workspace's record of written cells; a read of a cell no one wrote is an undefined read: reported
    at once outside a run of several cores, else after the run (`Machine.check_races`), where a race that
    explains it (a missing lane barrier) is reported first."""
    assert buf.defined is not None
    if write:
        buf.defined[idx] = True
        return
    if ctx.replay or bool(buf.defined[idx].all()):
        return  # a replayed lane computes nothing from what it reads
    box = tuple((i, i + 1) if isinstance(i, int) else (i.start, i.stop) for i in idx)
    bad = UndefinedRead(op, ctx.label, buf.name or "lane_workspace", box)
    if ctx.group is None:
        raise InterpError(undefined_read_message(bad))
    ctx.group.undefined_reads.append(bad)


def undefined_read_message(r: UndefinedRead) -> str:
    return (
        f"'{r.op.name}' reads %{r.buffer}{fmt_box(r.box)}, cells of a pto.lane_workspace that no lane has written "
        f"(its contents are undefined at kernel entry) on {r.label}: the store of the other lane is missing, or "
        f"a pto.lane_barrier between it and this read"
    )


def record(
    ctx: Ctx, op, buf: Buffer, idx: tuple, t: TileType | None, write: bool, atomic: bool = False, values=None
) -> None:
    """Record a GM access of a core or lane for the race detector (`t`: the tile moved, None for a tensor copy
    or a signal, which run on the vector side).

    Only accesses inside a run of several cores or lanes are recorded; a replay lane makes none (its tiles have
    no valid cells, its stores are suppressed).  In a split incore kernel or a per-lane region (before
    ExpandMixedKernel) both lanes run the cube ops too, which models one AIC; only vector-tile accesses are
    per-lane there (a workspace's written cells are noted for every access).  A write of an op whose effect must happen once per kernel (`once_per_kernel`: an atomic
    store, a put, a notify) is marked so the detector also reports the same op performed by two lanes."""
    if buf.defined is not None:
        _note_workspace_access(ctx, op, buf, idx, write)
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
