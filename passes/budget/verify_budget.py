"""`verify-budget`: every AIC / AIV function fits its core's memories (docs/memory-budget.md).

For each `<f>_aic` / `<f>_aiv` function (kind aic / aiv) the peak of each memory space (`MemoryBudget`: live
tiles by liveness, plus the pipe rings reserved on that core) is compared with the target's capacity
(`dialects.pto_types.MEMORY_CAPACITIES`).  Over budget is a located error at the op where the peak occurs,
naming the space, the core, the peak and the capacity, with a note per buffer live there (largest first) and a
hint: smaller tiles, or a shallower ring (`pto.slot_num` / `pto.local_slot_num`, and which depth would fit).

`pypto-opt` runs this pass after every `--expand-mixed-kernel` unless `--no-verify-budget` is given.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from pypto_mlir.diagnostics import PtoError, location_of
from pypto_mlir.dialects.pto_ops import ReserveBufferOp, pipe_init_of
from pypto_mlir.dialects.pto_traits import CoreSide
from pypto_mlir.dialects.pto_types import MEMORY_NAMES, MEMORY_SPACES, FuncInt, memory_capacity

from ..analysis.budget import Buffer, MemoryBudget, SpacePeak, side_of
from ..common import require_target

MAX_NOTES = 8
"""At most this many live buffers are listed as notes (the largest); the rest are counted in one more note."""


def space_label(space: str) -> str:
    return f"{space} ({MEMORY_NAMES[space]})" if space in MEMORY_NAMES else space


def _size(n: int) -> str:
    """`196608 bytes (192 KiB)`."""
    kib = n / 1024
    shown = f"{kib:.0f}" if n % 1024 == 0 else f"{kib:.1f}"
    return f"{n} bytes ({shown} KiB)"


def _kernel_name(f: func.FuncOp) -> str:
    """The mixed kernel a half came from (`@k` for `@k_aiv`), whose attributes set the pipe depth."""
    name = f.sym_name.data
    half = CoreSide.kernel_of_half(name)
    return half[0] if half is not None else name


def _ring_hint(f: func.FuncOp, peak: SpacePeak, capacity: int, target: str) -> str:
    """Which ring depth would fit, if any (the rings of this space are the only thing a depth changes)."""
    rings = [b for b in peak.live if b.ring]
    init = pipe_init_of(f)
    kernel = _kernel_name(f)
    slot_num, local_num = FuncInt.SLOT_NUM.value, FuncInt.LOCAL_SLOT_NUM.value
    knobs = slot_num + (f" / {local_num}" if target == "a2a3" else "")
    if not rings or init is None:
        return f"use smaller tiles (fewer or smaller tiles live at once in {space_label(peak.space)})"
    slot = init.slot_bytes
    ring = sum(r.bytes for r in rings)
    depth = ring // slot if slot > 0 else 0
    over = peak.bytes - capacity
    local = init.local_depth
    fits = depth - (-(-over // slot)) if slot > 0 else 0  # depth minus ceil(over / slot)
    if 1 <= fits < depth:
        if local is not None:
            change = f"{local_num} = {fits}"
        elif target == "a2a3":
            change = (
                f"{slot_num} = {fits} (or {local_num} = {fits}, which shrinks only the on-chip ring and "
                f"keeps the GM ring at slot_num)"
            )
        else:
            change = f"{slot_num} = {fits}"
        return (
            f"use smaller tiles, or a shallower ring: the ring holds {depth} slots of {slot} bytes, and {change} "
            f"on @{kernel} would fit"
        )
    return (
        f"use smaller tiles: even a one-slot ring ({slot} bytes, {knobs} = 1 on @{kernel}) does not fit, so the "
        f"tiles sent through the pipe (the slot size) or the tiles live at the peak must shrink"
    )


def _notes(peak: SpacePeak) -> list:
    bufs = peak.largest_first()
    notes = []
    for b in bufs[:MAX_NOTES]:
        notes.append((location_of(b.op), _describe(b)))
    if len(bufs) > MAX_NOTES:
        rest = bufs[MAX_NOTES:]
        notes.append((None, f"and {len(rest)} more buffers live there ({sum(b.bytes for b in rest)} bytes)"))
    return notes


def _describe(b: Buffer) -> str:
    if b.ring:
        return f"{b.name}: {b.bytes} bytes, reserved for the whole function (the pipe's slot ring)"
    t = b.op.results[0].type if b.op.results else None
    return f"{b.name} ({t}): {b.bytes} bytes, live at the peak"


def budget_errors(f: func.FuncOp, target: str, budget: MemoryBudget | None = None) -> list[PtoError]:
    """One located PtoError per memory space of `f`'s core that is over its capacity at the peak (none: fits)."""
    side = side_of(f)
    if side is None:
        return []
    budget = budget if budget is not None else MemoryBudget(f, side)
    errors: list[PtoError] = []
    for space in MEMORY_SPACES:
        peak = budget.peaks.get(space)
        capacity = memory_capacity(target, space)
        if peak is None or capacity is None or peak.bytes <= capacity:
            continue
        rings = sum(b.bytes for b in peak.live if b.ring)
        parts = f"{peak.bytes - rings} bytes of live tiles" + (f" + {rings} bytes of pipe ring" if rings else "")
        at = peak.at if peak.at is not None and location_of(peak.at) is not None else None
        if at is None:
            at = next((b.op for b in peak.live if isinstance(b.op, ReserveBufferOp)), f)
        errors.append(
            PtoError(
                f"@{f.sym_name.data} is over its memory budget: {space_label(space)} of the {side.value.upper()} "
                f"core needs {_size(peak.bytes)} at its peak ({parts}), more than the {_size(capacity)} it has on "
                f"{target}; " + _ring_hint(f, peak, capacity, target),
                op=at,
                notes=_notes(peak),
            )
        )
    return errors


def check_budget(module: ModuleOp, target: str) -> None:
    """Raise the first over-budget error of the module's AIC / AIV functions; every other over-budget space is
    added to it as a note (so one run shows them all)."""
    errors = [e for f in module.walk() if isinstance(f, func.FuncOp) for e in budget_errors(f, target)]
    if not errors:
        return
    first = errors[0]
    for other in errors[1:]:
        first.notes.append((other.loc, "also over budget: " + other.message))
    raise first


@dataclass(frozen=True)
class VerifyBudgetPass(ModulePass):
    """Check that every AIC / AIV function fits its core's memories (see the module doc)."""

    name = "verify-budget"
    changes_ir = False  # a check: the pipeline does not verify the module again after it

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_budget(op, require_target(op, "verify-budget"))
