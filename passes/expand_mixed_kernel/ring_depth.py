"""Ring depth chosen by the timing model (issue 26): for an expanded kernel whose source sets no `pto.slot_num`
(and no `pto.local_slot_num`), try deeper rings than the default and keep the shallowest depth that reaches the
best modelled makespan within the memory budget.

How: the pass asks a cost model (`RingCostModel`, handed to it: this module imports no interpreter and no timing
model) for the modelled makespan of the kernel's Group `@f` at each candidate depth.  The default model,
`pypto_mlir.interpreter.ring_cost.ReplayRingCostModel`, runs the Group once in the interpreter on seeded inputs
(`Machine(timing=True)`, `interpreter.inputs.record_runs`), which records what each core runs, and replays the
recording under pto-isa's flow control (`pypto_mlir.timing.depth.depth_makespans`) for every candidate depth -- which ops run does not depend on the depth,
only when; the pipeline runner (`pypto_mlir.pipeline.run_pipeline`) hands it to the passes that take one.  Candidates are the default depth
(`DEFAULT_SLOT_NUM` = 2, the reference's) up to the depth PTOAS takes for a pipe that states none (8 for one
direction, 4 for both: `implicit_slot_num`), each only if both cores' memories still hold the ring
(`MemoryBudget`: the peak of live tiles plus slot_size x depth must fit the ring's space).  A depth below the
default is never chosen: the model's pipe latencies are assumptions, and the default is what the reference emits,
so the pass deepens a ring only where the model shows a gain.

No run is needed when no push can wait for a slot at the default depth: each ring carries at most 2 tiles per
run (no push inside a loop, at most two push ops per direction, both branches of an `scf.if` counted).

The kernel keeps the default when it cannot be timed: it has no Group of its own (only existing Group callers),
takes a scalar parameter (whose value would set its schedule), or its run fails (the failure is the runtime's to
report, not the compiler's).  Every outcome is a "ring_depth" entry of the decision log (`--split-report`).
"""

from __future__ import annotations

from typing import Protocol

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp

from pypto_mlir.dialects.pto_ops import INIT_OPS, implicit_slot_num, pipe_init_of
from pypto_mlir.dialects.pto_traits import CoreSide, PipePush
from pypto_mlir.dialects.pto_types import TensorType

from ..analysis.budget import depth_fits
from ..common import set_ring_depth
from ..decisions import record
from .phase import PASS_NAME, half_name
from .pipe_metadata import DEFAULT_SLOT_NUM, collect_pipe_metadata

RING_DEPTHS = ("auto", "fixed")
"""The `ring-depth` option: `auto` (choose, this module) or `fixed` (the default depth, as the reference does)."""


class RingCostModel(Protocol):
    """What the ring depth choice asks of a timing model."""

    def makespans(self, module: ModuleOp, group: str, depths: list[int]) -> dict[int, int | None] | str:
        """The modelled makespan of a run of the Group `@group` of `module` with every ring at each depth of
        `depths` (None: the model rejects that depth, a deadlock or an unguarded slot reuse), or why the Group
        cannot be timed (a sentence for the report)."""
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


def candidate_depths(aic: func.FuncOp, aiv: func.FuncOp, target: str) -> list[int]:
    """The depths to try for an expanded pair: the default up to PTOAS's implicit depth for the pipe's
    directions, each deeper one only if both cores hold the ring beside their live tiles."""
    init = pipe_init_of(aic)
    assert isinstance(init, INIT_OPS)
    limit = implicit_slot_num(init.dir_mask.value.data)
    fits = depth_fits(aic, aiv, target)
    return [d for d in range(DEFAULT_SLOT_NUM, limit + 1) if d == DEFAULT_SLOT_NUM or fits(d)]


def choose_ring_depths(module: ModuleOp, kernels: list[str], target: str, model: RingCostModel | None) -> dict[str, int | None]:
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
        if pipe_init_of(aic) is None or pipe_init_of(aiv) is None:
            continue  # no pipe: nothing to choose
        default = DEFAULT_SLOT_NUM
        counts = (_most_pushes(aic), _most_pushes(aiv))
        pushes = None if None in counts else max(c for c in counts if c is not None)
        if pushes is not None and pushes <= default:
            record(PASS_NAME, name, "ring_depth", slot_num=default, chosen=False,
                   reason=f"each ring carries at most {pushes} tile{'s' if pushes != 1 else ''} per run, so no push waits "
                   f"for a slot at depth {default}")
            continue
        if group is None or not group.body.blocks:
            record(PASS_NAME, name, "ring_depth", slot_num=default, chosen=False,
                   reason="the kernel has no Group of its own to time (only existing Group callers)")
            continue
        if any(not isinstance(a.type, TensorType) for a in group.body.block.args):
            record(PASS_NAME, name, "ring_depth", slot_num=default, chosen=False,
                   reason="the kernel takes a scalar parameter, whose value sets its schedule")
            continue
        candidates = candidate_depths(aic, aiv, target)
        if model is None:
            raise MissingCostModel(
                f"choose-ring-depth: the depth of @{name} is to be chosen by a timing model (ring-depth=auto), but no "
                "cost model was handed to the pass; run it through pypto_mlir.pipeline.run_pipeline, or give it one "
                "with .with_cost_model(pypto_mlir.pipeline.DefaultRingCostModel())"
            )
        timed = model.makespans(module, name, candidates)
        if isinstance(timed, str):
            record(PASS_NAME, name, "ring_depth", slot_num=default, chosen=False, reason=timed)
            continue
        depth = pick_depth(timed, default)
        kept[name] = timed.get(depth)
        if depth != default:
            set_ring_depth(aic, depth)
            set_ring_depth(aiv, depth)
            reason = "the shallowest depth with the best modelled makespan"
        elif len(candidates) == 1:
            reason = "no deeper ring fits the memory budget"
        else:
            reason = "deeper rings do not shorten the modelled makespan"
        record(PASS_NAME, name, "ring_depth", slot_num=depth, chosen=True,
               makespans={str(d): m for d, m in timed.items()}, candidates=candidates, reason=reason)
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
