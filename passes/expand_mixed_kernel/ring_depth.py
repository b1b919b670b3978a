"""Ring depth chosen by the timing model (issue 26): for an expanded kernel whose source sets no `pto.slot_num`
(and no `pto.local_slot_num`), try deeper rings than the default and keep the shallowest depth that reaches the
best modelled makespan within the memory budget.

How: the pass asks a cost model (`RingCostModel`, handed to it: this module imports no interpreter and no timing
model) for the modelled makespan of the kernel's Group `@f` at each candidate depth.  The default model,
`pypto_mlir.interpreter.ring_cost.ReplayRingCostModel`, runs the Group once in the interpreter on seeded inputs
(`Machine(timing=True)`, `interpreter.inputs.record_runs`), which records what each core runs, and replays the
recording under pto-isa's flow control (`pypto_mlir.timing.depth.depth_makespans`) for every candidate depth -- which ops run does not depend on the depth,
only when; the pipeline runner (`pypto_mlir.pipeline.run_pipeline`) hands it to the passes that take one.
Candidates run from the least depth the kernel runs at -- the default (`DEFAULT_SLOT_NUM` = 2, the reference's),
or the most popped slots a side holds at once when that is more, which `setup-pipes` set
(`pipe_setup.ring_slot_num`) -- up to the depth PTOAS takes for a pipe that states none (8 for one direction, 4 for
both: `implicit_slot_num`), each only if both cores' memories still hold the ring (`MemoryBudget`: the peak of
live tiles plus slot_size x depth must fit the ring's space); a kernel whose least depth does not fit is rejected
(a located error at the kernel).  A depth below the default is never chosen: the model's pipe latencies are
assumptions, and the default is what the reference emits, so the pass deepens a ring only where the model shows a
gain.

A kernel with scalar parameters is timed over stated values of them (`scalar_values.py`: by what each parameter
is used for; one run per value, makespans summed).

No run is needed when no push can wait for a slot at the least depth: each ring carries at most that many tiles
per run (no push inside a loop, both branches of an `scf.if` counted).

The kernel keeps its least depth when it cannot be timed: it has no Group of its own (only existing Group
callers), or a run fails (a GM access outside a tensor at the stated values among them: the reason says which).
Every outcome is a "ring_depth" entry of the decision log (`--split-report`).
"""

from __future__ import annotations

from typing import Protocol

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import INIT_OPS, implicit_slot_num, pipe_init_of
from pypto_mlir.dialects.pto_traits import CoreSide, PipePush

from ..analysis.budget import RING_SPACE, depth_fits, ring_rooms
from ..common import set_ring_depth
from ..decisions import record
from .phase import PASS_NAME, half_name
from .pipe_metadata import DEFAULT_SLOT_NUM, collect_pipe_metadata
from .scalar_values import ScalarParam, timing_runs

RING_DEPTHS = ("auto", "fixed")
"""The `ring-depth` option: `auto` (choose, this module) or `fixed` (the default depth, as the reference does)."""


class RingCostModel(Protocol):
    """What the ring depth choice asks of a timing model."""

    def makespans(
        self, module: ModuleOp, group: str, depths: list[int], scalar_values: list[dict[int, int | float]] = [{}]  # noqa: B006
    ) -> dict[int, int | None] | str:
        """The modelled makespan of runs of the Group `@group` of `module`, one per assignment of `scalar_values`
        (parameter position -> value; `[{}]` for a Group without scalar parameters), summed, with every ring at
        each depth of `depths` (None: the model rejects that depth in some run, a deadlock or an unguarded slot
        reuse), or why the Group cannot be timed (a sentence for the report)."""
        ...


class MissingCostModel(RuntimeError):
    """`ring-depth=auto` had a kernel to time but no cost model was handed to the pass (a caller's mistake, not
    the input's: run the pass through `pypto_mlir.pipeline.run_pipeline`, or give it one with
    `with_cost_model`)."""


def _most_pushes(f: func.FuncOp) -> int | None:
    """The most tiles `f` pushes into one direction per run (push ops of both branches of an `scf.if` counted),
    or None when a push is inside a loop (the count is the trip count's)."""
    per_direction: dict[object, int] = {}
    for op in collect_pipe_metadata(f).transfers:
        push = op.get_trait(PipePush)
        if push is None:
            continue
        parent = op.parent_op()
        while parent is not None and parent is not f:
            if isinstance(parent, (scf.ForOp, scf.WhileOp)):
                return None
            parent = parent.parent_op()
        per_direction[push.direction] = per_direction.get(push.direction, 0) + 1
    return max(per_direction.values(), default=0)


def candidate_depths(aic: func.FuncOp, aiv: func.FuncOp, target: str, least: int = DEFAULT_SLOT_NUM) -> list[int]:
    """The depths to try for an expanded pair: from `least` (the default, or the most popped slots a side holds
    at once when that is more: `pipe_setup.ring_slot_num`) up to PTOAS's implicit depth for the pipe's
    directions, each only if both cores hold the ring beside their live tiles (the default always: the budget
    check judges it)."""
    init = pipe_init_of(aic)
    assert isinstance(init, INIT_OPS)
    limit = implicit_slot_num(init.dir_mask.value.data)
    fits = depth_fits(aic, aiv, target)
    return [d for d in range(least, limit + 1) if d == DEFAULT_SLOT_NUM or fits(d)]


def _refuse_unfit(name: str, aic: func.FuncOp, aiv: func.FuncOp, target: str, least: int) -> None:
    """A pair whose schedule holds `least` > 2 slots at once, when a ring of that depth does not fit a core's
    memory beside its live tiles: a located error saying so."""
    init = pipe_init_of(aic)
    assert isinstance(init, INIT_OPS)
    slot = init.slot_size.value.data
    for side, room, rings in ring_rooms(aic, aiv, target):
        if room is not None and rings and slot * least * rings > room:
            half = half_name(name, side)
            raise PtoError(
                f"{PASS_NAME}: @{name} holds {least} popped slots of its pipe at once, so its ring needs {least} "
                f"slots, but {'a ring' if rings == 1 else f'{rings} rings'} of {least} x {slot} bytes do"
                f"{'es' if rings == 1 else ''} not fit in the {RING_SPACE[side]} memory of "
                f"@{half} beside its live tiles ({max(room, 0)} bytes left); release a slot earlier (use the held "
                f"tiles before the next pop) or move smaller tiles",
                op=aic,
            )


def _scalar_note(params: list[ScalarParam], runs: list[dict[int, int | float]]) -> dict:
    """The decision-log facts of a kernel's scalar parameters: each one's role and the values timed."""
    if not params:
        return {}
    return {
        "scalar_params": {p.name: {"role": p.role, "uses": sorted(p.uses)} for p in params},
        "scalar_values": [{p.name: run[p.index] for p in params} for run in runs],
    }


def choose_ring_depths(
    module: ModuleOp, kernels: list[str], target: str, model: RingCostModel | None
) -> dict[str, int | None]:
    """Choose the depth of each kernel of `kernels` (expanded names `@<f>`, which set no depth) in `module`,
    timing with `model`; the modelled makespan at the kept depth of each kernel timed (the skew choice's
    baseline)."""
    kept: dict[str, int | None] = {}
    funcs = {op.sym_name.data: op for op in module.body.block.ops if isinstance(op, func.FuncOp)}
    for name in kernels:
        aic, aiv = funcs.get(half_name(name, CoreSide.AIC)), funcs.get(half_name(name, CoreSide.AIV))
        group = funcs.get(name)
        if aic is None or aiv is None:
            continue
        init = pipe_init_of(aic)
        if init is None or pipe_init_of(aiv) is None:
            continue  # no pipe: nothing to choose
        least = max(DEFAULT_SLOT_NUM, init.explicit_depth or DEFAULT_SLOT_NUM)
        floor = "" if least == DEFAULT_SLOT_NUM else f" (the {least} slots the kernel holds at once)"
        candidates = candidate_depths(aic, aiv, target, least)
        if least not in candidates:
            _refuse_unfit(name, aic, aiv, target, least)
        counts = (_most_pushes(aic), _most_pushes(aiv))
        pushes = None if None in counts else max(c for c in counts if c is not None)
        if pushes is not None and pushes <= least:
            record(PASS_NAME, name, "ring_depth", slot_num=least, chosen=False,
                   reason=f"each ring carries at most {pushes} tile{'s' if pushes != 1 else ''} per run, so no push waits "
                   f"for a slot at depth {least}{floor}")
            continue
        if group is None or not group.body.blocks:
            record(PASS_NAME, name, "ring_depth", slot_num=least, chosen=False,
                   reason=f"the kernel has no Group of its own to time (only existing Group callers){floor}")
            continue
        params, runs = timing_runs(module, group)
        facts = _scalar_note(params, runs)
        looping = [p.name for p in params if "while" in p.uses]
        if looping:
            record(PASS_NAME, name, "ring_depth", slot_num=least, chosen=False, **facts,
                   reason=f"the scalar parameter {', '.join(looping)} decides when an scf.while ends, so a stated value "
                   f"could run it forever: not timed{floor}")
            continue
        if model is None:
            raise MissingCostModel(
                f"choose-ring-depth: the depth of @{name} is to be chosen by a timing model (ring-depth=auto), but no "
                "cost model was handed to the pass; run it through pypto_mlir.pipeline.run_pipeline, or give it one "
                "with .with_cost_model(pypto_mlir.pipeline.DefaultRingCostModel())"
            )
        timed = model.makespans(module, name, candidates, scalar_values=runs)
        if isinstance(timed, str):
            record(PASS_NAME, name, "ring_depth", slot_num=least, chosen=False, reason=f"{timed}{floor}", **facts)
            continue
        depth = pick_depth(timed, least)
        kept[name] = timed.get(depth)
        if depth != least:
            set_ring_depth(aic, depth)
            set_ring_depth(aiv, depth)
            reason = "the shallowest depth with the best modelled makespan"
        elif len(candidates) == 1:
            reason = "no deeper ring fits the memory budget"
        else:
            reason = "deeper rings do not shorten the modelled makespan"
        if runs != [{}]:
            reason += f", summed over {len(runs)} runs at the stated scalar values"
        record(PASS_NAME, name, "ring_depth", slot_num=depth, chosen=True,
               makespans={str(d): m for d, m in timed.items()}, candidates=candidates, reason=reason, **facts)
    return kept


def pick_depth(makespans: dict[int, int | None], default: int = DEFAULT_SLOT_NUM) -> int:
    """The shallowest depth with the best modelled makespan (None: the model rejects that depth); `default` when it is
    as good as any, or when no depth was timed."""
    feasible = {d: m for d, m in makespans.items() if m is not None}
    if not feasible:
        return default
    best = min(feasible.values())
    if feasible.get(default) == best:
        return default
    return min(d for d, m in feasible.items() if m == best)
