"""Pipes: the slot buffers (`reserve_buffer`, `import_peer_buffer`), `aic_/aiv_initialize_pipe` (which makes the
Group's rings), and the handshakes on a ring: `tpush` (waits for a free slot: `WaitKind.PUSH`), `tpop` (waits for
a push: `WaitKind.POP`; what it receives is `transfer.py`), `tfree`, and the slot leases that make a read of a
freed slot an error.

Each handshake also moves the race detector's clocks (`races.py`): a push releases the producer's clock into the
entry and the pop acquires it; a free releases the consumer's clock and the push that reuses the physical slot
acquires it.  The machine is passed in as a `MachineView` (`state.py`); this module does not import `machine.py`.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects import func, scf
from xdsl.ir import Operation

from pypto_mlir.diagnostics import location_of
from pypto_mlir.dialects import pto_ops as P
from pypto_mlir.dialects.pto_traits import CoreSide, PipeDirection, PipeFree, PipePop, PipePush
from pypto_mlir.dialects.pto_traits import PipeInit as PipeInitTrait
from pypto_mlir.dialects.pto_types import TileType, tile_bytes
from pypto_mlir.passes.analysis.mx_scale import is_scale_carrier

from .registry import impl_effect, impl_sync
from .state import Ctx, Entry, Gen, MachineView, PipeInit, Ring, RunError, Wait, WaitKind, loc_str
from .transfer import deliver
from .values import SPLIT_NAMES, InterpError, SlotLease, Tile

# ---------------------------------------------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------------------------------------------


@impl_effect(P.ReserveBufferOp)
def run_reserve_buffer(machine: MachineView, op: P.ReserveBufferOp, args, env, ctx: Ctx) -> list:
    h = machine.new_handle()
    ctx.buffers[h] = ("reserve", op.buffer_name.data, op.ring_bytes, op)
    return [h]


@impl_effect(P.ImportPeerBufferOp)
def run_import_peer_buffer(machine: MachineView, op: P.ImportPeerBufferOp, args, env, ctx: Ctx) -> list:
    h = machine.new_handle()
    peer = op.peer_func.root_reference.data
    grp = ctx.group
    if grp is not None and peer not in (grp.aic_name, grp.aiv_name):
        raise InterpError(f"import_peer_buffer names @{peer}, which is not a member of the running Group")
    ctx.buffers[h] = ("import", op.buffer_name.data, 0, op)
    return [h]


def _init_pipe(op, args, ctx: Ctx, side: CoreSide) -> list:
    if ctx.group is None or ctx.side != side:
        raise InterpError(f"'{op.name}' runs outside an {side.tag} kernel of a Group")
    grp = ctx.group
    pid, dir_mask, slot_size = op.pipe_id, op.directions, op.slot_bytes
    slot_num, local = op.depth, op.consumer_depth
    if pid in ctx.pipes:
        raise InterpError(f"pipe {pid} is initialized twice on this core (first at {loc_str(ctx.pipes[pid].op)})")
    for dname, arg in ((PipeDirection.C2V, args[0]), (PipeDirection.V2C, args[1])):
        active = bool(dir_mask & dname.bit)
        h = int(arg)
        if active and h == 0:
            raise InterpError(f"direction {dname} is active (dir_mask = {dir_mask}) but its buffer operand is the 0 placeholder")
        if active:
            buf = ctx.buffers.get(h)
            if buf is None:
                raise InterpError(f"the {dname} buffer operand is not a reserve_buffer/import_peer_buffer handle")
            consumer = dname.consumer is side
            want = "reserve" if consumer else "import"
            if buf[0] != want:
                raise InterpError(
                    f"the {dname} buffer of the {side.tag} side must come from {want}_"
                    f"{'buffer' if want == 'reserve' else 'peer_buffer'} (this core consumes "
                    f"{'it' if consumer else 'nothing of it'}), but it comes from a {buf[0]} at {loc_str(buf[3])}"
                )
            if want == "reserve" and buf[2] < slot_size * local:
                raise InterpError(
                    f"the {dname} slot buffer reserves {buf[2]} bytes, less than slot_size x slot_num = "
                    f"{slot_size} x {local} = {slot_size * local}"
                )
    init = PipeInit(dir_mask, slot_size, slot_num, op)
    ctx.pipes[pid] = init
    other = grp.inits.get((pid, side.other))
    if other is not None:
        for what in ("dir_mask", "slot_size", "slot_num"):
            if getattr(other, what) != getattr(init, what):
                raise InterpError(
                    f"pipe {pid}: this side initializes {what} = {getattr(init, what)} but the peer initialized "
                    f"{what} = {getattr(other, what)} at {loc_str(other.op)}"
                )
    if (pid, side) not in grp.inits or ctx.lane == 0 or ctx.lane is None:
        grp.inits[(pid, side)] = init
    for dname in PipeDirection:
        if dir_mask & dname.bit and (pid, dname) not in grp.rings:
            grp.rings[(pid, dname)] = Ring(pid, dname, slot_num, slot_size, grp.lanes)
    return []


@impl_effect(*P.INIT_OPS)
def run_initialize_pipe(machine: MachineView, op, args, env, ctx: Ctx) -> list:
    """aic_/aiv_initialize_pipe: the side is the op's `PipeInit` trait."""
    init = op.get_trait(PipeInitTrait)
    assert init is not None
    return _init_pipe(op, args, ctx, init.side)


# ---------------------------------------------------------------------------------------------------------------
# Handshakes
# ---------------------------------------------------------------------------------------------------------------


def ring_of(op, ctx: Ctx, direction: PipeDirection, side: CoreSide) -> Ring:
    """The ring a pipe op of `side` in `direction` works on, checked against this core's initialize_pipe."""
    if ctx.group is None or ctx.side != side:
        raise InterpError(f"'{op.name}' is a cross-core op and must run in an {side.tag} kernel of a Group")
    pid = op.pipe_id
    init = ctx.pipes.get(pid)
    bit = direction.bit
    if init is None:
        raise InterpError(
            f"pipe {pid} was not initialized on this core: no pto.{side}_initialize_pipe ran before this op"
        )
    if not init.dir_mask & bit:
        raise InterpError(
            f"pipe {pid} was initialized at {loc_str(init.op)} with dir_mask = {init.dir_mask}, which does not "
            f"enable the {direction} direction"
        )
    return ctx.group.rings[(pid, direction)]


def _check_slot(ring: Ring, t: TileType, what: str) -> None:
    b = tile_bytes(t)
    if b is None:
        raise InterpError(f"the {what} tile has a dynamic shape; a slot needs a static size")
    if b > ring.slot_size:
        raise InterpError(
            f"the {what} tile {t} takes {b} bytes, more than the slot_size of {ring.slot_size} bytes of the "
            f"{ring.name()}"
        )


@impl_sync(*P.TPUSH_OPS)
def run_tpush(machine: MachineView, op, args, env, ctx: Ctx) -> Gen:
    """tpush_to_aiv / tpush_to_aic: direction and side from the op's `PipePush` trait."""
    push = op.get_trait(PipePush)
    assert push is not None
    return (yield from push_tile(machine.target, op, args[0], ctx, push.direction, push.side))


def push_tile(target: str | None, op, tile: Tile, ctx: Ctx, direction: PipeDirection, side: CoreSide) -> Gen:
    ring = ring_of(op, ctx, direction, side)
    _check_slot(ring, tile.type, "pushed")
    if direction is PipeDirection.V2C and target == "a5" and is_scale_carrier(tile.type) and tuple(tile.valid) != tuple(tile.data.shape):
        raise InterpError(
            f"an MX scale carrier with valid region {list(tile.valid)} of its {list(tile.data.shape)} box cannot "
            "be pushed: the a5 V->C transfer inserts whole 32-byte fractal rows, so only the full physical box "
            "is contiguous; widen a private carrier's valid region to the box first (pto.set_validshape)"
        )
    code = op.split_code
    if code and len(ring.lanes) < 2:
        raise InterpError(
            f"split = {code} ({SPLIT_NAMES[code]}) exchanges halves with two AIV lanes, but @{ctx.group.aiv_name} "
            "runs on one lane (it has neither pto.split_aiv nor pto.dual_aiv_dispatch)"
        )
    me = ctx.thread
    n = ring.pushed.get(me, 0)
    while n - ring.released() >= ring.slot_num:
        yield Wait(op, WaitKind.PUSH, ring)
    if n == len(ring.entries):
        ring.entries.append(Entry(seq=n))
    e = ring.entries[n]
    races = ctx.group.races
    if n >= ring.slot_num:  # this push reuses the physical slot of entry n - slot_num: ordered after its frees
        for clock in ring.entries[n - ring.slot_num].free_clocks.values():
            races.acquire(me, clock)
    e.push_clocks[me] = races.release(me)
    e.push_ops[me] = op
    e.parts[me] = Tile(tile.data.copy(), tile.valid, tile.type)
    e.codes[me] = code
    e.strides[me] = op.stride
    ring.pushed[me] = n + 1
    ctx.group.progress += 1
    return []


@impl_sync(*P.TPOP_OPS)
def run_tpop(machine: MachineView, op, args, env, ctx: Ctx) -> Gen:
    """tpop_from_aic / tpop_from_aiv: direction and side from the op's `PipePop` trait."""
    pop = op.get_trait(PipePop)
    assert pop is not None
    return (yield from pop_tile(machine.target, op, ctx, pop.direction, pop.side))


def pop_tile(target: str | None, op, ctx: Ctx, direction: PipeDirection, side: CoreSide) -> Gen:
    ring = ring_of(op, ctx, direction, side)
    t: TileType = op.result.type
    _check_slot(ring, t, "popped")
    me = ctx.thread
    n = ring.popped.get(me, 0)
    while not (n < len(ring.entries) and set(ring.producers) <= set(ring.entries[n].parts)):
        yield Wait(op, WaitKind.POP, ring, count=n)
    e = ring.entries[n]
    code = op.split_code
    for prod, pcode in e.codes.items():
        if pcode != code:
            raise InterpError(
                f"split code mismatch: this tpop has split = {code} ({SPLIT_NAMES[code]}) but the matching tpush "
                f"at {loc_str(e.push_ops[prod])} has split = {pcode} ({SPLIT_NAMES[pcode]})"
            )
    tile = deliver(target, op, e, ring, code, t, ctx)
    for clock in e.push_clocks.values():
        ctx.group.races.acquire(me, clock)
    tile.lease = SlotLease(ring, e, me, op)
    e.popped[me] = op
    ring.popped[me] = n + 1
    ctx.group.progress += 1
    return [tile]


@impl_effect(*P.TFREE_OPS)
def run_tfree(machine: MachineView, op, args, env, ctx: Ctx) -> list:
    """tfree_to_aic / tfree_to_aiv: direction and side from the op's `PipeFree` trait."""
    free = op.get_trait(PipeFree)
    assert free is not None
    return free_slot(op, args[0], ctx, free.direction, free.side)


def free_slot(op, tile: Tile, ctx: Ctx, direction: PipeDirection, side: CoreSide) -> list:
    ring = ring_of(op, ctx, direction, side)
    me = ctx.thread
    lease = tile.lease
    if lease is None or lease.ring is not ring:
        raise InterpError(
            f"tfree without a tpop: this tile was not popped from the {ring.name()}, so there is no slot to free"
        )
    e = lease.entry
    if lease.consumer != me:
        raise InterpError("tfree of a slot popped by another core")
    if me in e.freed:
        raise InterpError(f"the slot popped at {loc_str(e.popped[me])} is freed twice")
    e.freed.add(me)
    e.free_clocks[me] = ctx.group.races.release(me)
    lease.free_op = op
    ctx.group.progress += 1
    return []


# ---------------------------------------------------------------------------------------------------------------
# Slot leases
# ---------------------------------------------------------------------------------------------------------------

# Ops that pass tiles on without reading their data (the reads happen where the values are used).  The tfrees
# (`PipeFree`) report a second free of a slot themselves.  A `SlotView` op's result is a view of its first
# operand's buffer (slice, reshape, transpose_view, set_validshape): a view of a popped tile aliases its slot.
_PASS_THROUGH = (func.CallOp, scf.ForOp, scf.IfOp, scf.WhileOp, scf.ExecuteRegionOp, P.SplitAivScopeOp)


def reads_tiles(op: Operation) -> bool:
    return not isinstance(op, _PASS_THROUGH) and not op.has_trait(PipeFree)


def check_leases(op: Operation, args: list[Any], ctx: Ctx) -> None:
    """A read of a tile whose ring slot was already freed is an error (the producer may have refilled the slot)."""
    for a in args:
        if isinstance(a, Tile) and a.lease is not None and a.lease.freed:
            lease = a.lease
            raise RunError(
                f"use of a tile after its slot was freed: the tile was popped from the {lease.ring.name()} at "
                f"{loc_str(lease.pop_op)} and its slot freed at {loc_str(lease.free_op)}, so the producer may already "
                f"have refilled the slot (on {ctx.label})",
                op=op,
                notes=[
                    (location_of(lease.pop_op), "the tile was popped here"),
                    (location_of(lease.free_op), "its slot was freed here"),
                ],
            )
