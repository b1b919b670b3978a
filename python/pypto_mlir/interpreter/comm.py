"""Semantics of the communication ops (`pto.tile_put/tile_get/tensor_put/tensor_get/notify/wait/defer_wait`)
for a single-device run: the interpreter is device rank 0 of a world of one, so the only valid peer is 0 and a
put/get to it is a copy within this device's GM.  They need the core context: replayed
lanes do no visible write, `notify` runs once per AIV kernel, a `wait` blocks the core until it is satisfied), so
they are registered as effect ops (`@impl_effect`) and the waits as sync ops (`@impl_sync`, see `registry.py`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from pypto_mlir.dialects.pto_comm_ops import (
    DeferWaitOp,
    NotifyOp,
    TensorGetOp,
    TensorPutOp,
    TileGetOp,
    TilePutOp,
    WaitOp,
)

from .gm import record, window
from .registry import impl_effect, impl_sync
from .semantics import mixed_values
from .state import Signal, Wait, WaitKind
from .values import InterpError, make_tile, repad

WORLD_SIZE = 1  # a single-device run: this device is rank 0


def _peer(v: Any, what: str) -> int:
    rank = int(v)
    if not 0 <= rank < WORLD_SIZE:
        raise InterpError(
            f"{what} addresses peer rank {rank}, but the interpreter runs a single device (rank 0 of a world of "
            f"{WORLD_SIZE}); only peer 0 exists"
        )
    return rank



@impl_effect(TilePutOp)
def run_tile_put(machine, op: TilePutOp, args, env, ctx):
    tile, buf, peer = args[0], args[1], args[2]
    _peer(peer, "tile_put")
    offs = mixed_values(op.get_static_offsets(), args[3:])
    if ctx.replay:
        return [buf]
    idx = window(buf, offs, tile.valid, "tile_put")
    record(ctx, op, buf, idx, tile.type, write=True, values=tile.valid_view())
    buf.data[idx] = tile.valid_view()
    return [buf]


@impl_effect(TileGetOp)
def run_tile_get(machine, op: TileGetOp, args, env, ctx):
    buf, peer = args[0], args[1]
    _peer(peer, "tile_get")
    offs = mixed_values(op.get_static_offsets(), args[2:])
    t = op.result.type
    box = tuple(t.get_shape())
    idx = window(buf, offs, box, "tile_get")
    return [repad(make_tile(np.array(buf.data[idx]), t, box))]


@impl_effect(TensorPutOp, TensorGetOp)
def run_tensor_copy(machine, op: TensorPutOp | TensorGetOp, args, env, ctx):
    """tensor_put / tensor_get: with the only peer being this device, both copy `%src` into `%dst`."""
    src, dst, peer = args
    what = op.name.removeprefix("pto.")
    _peer(peer, what)
    if src.data.shape != dst.data.shape:
        raise InterpError(f"{what} copies {src.data.shape} into {dst.data.shape}")
    if not ctx.replay:
        whole = tuple(slice(0, n) for n in dst.data.shape)
        record(ctx, op, dst, whole, None, write=True, values=src.data)
        dst.data[...] = src.data
    return [dst]


def _signal_index(machine, op, buf, offs) -> tuple:
    return window(buf, offs, (), op.name.split(".")[1])


@impl_effect(NotifyOp)
def run_notify(machine, op: NotifyOp, args, env, ctx):
    buf, peer = args[0], args[1]
    _peer(peer, "notify")
    offs = mixed_values(op.get_static_offsets(), args[2:])
    idx = _signal_index(machine, op, buf, offs)
    # Every real lane that runs a notify signals (a replayed lane does not): a notify both lanes of a split
    # kernel run is a duplicate, which the race detector reports (`OncePerKernel`); LowerAutoVectorSplit guards
    # it so one lane signals.
    if ctx.replay:
        return []
    record(ctx, op, buf, tuple(slice(i, i + 1) for i in idx), None, write=True, atomic=True)
    buf.data[idx] = buf.data[idx] + op.get_value()
    if ctx.group is not None:
        ctx.group.progress += 1
    return []


def _wait(machine, op, args, ctx, deferred: bool):
    buf = args[0]
    offs = mixed_values(op.get_static_offsets(), args[1:])
    idx = _signal_index(machine, op, buf, offs)
    want = op.get_value()
    while int(buf.data[idx]) < want:
        yield Wait(op, WaitKind.SIGNAL, signal=Signal(tuple(offs), want, int(buf.data[idx]), deferred))
    return []


@impl_sync(WaitOp)
def run_wait(machine, op: WaitOp, args, env, ctx):
    return (yield from _wait(machine, op, args, ctx, deferred=False))


@impl_sync(DeferWaitOp)
def run_defer_wait(machine, op: DeferWaitOp, args, env, ctx):
    # The runtime dispatches the task only once the signal is reached; on one device that is a wait at entry.
    return (yield from _wait(machine, op, args, ctx, deferred=True))
