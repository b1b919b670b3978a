"""The cross-core skew chosen by the timing model (issue 42): after the ring depth, for each expanded kernel with a
loop whose cores exchange tiles both ways in every iteration, try skewing that loop by D iterations (the producer
side runs D iterations ahead: `skew-cross-core-pipeline`), each D with every ring depth it allows, and keep the
variant with the best modelled makespan -- or no skew, where no variant beats the kernel as it is.

How: this module imports neither the skew rewrite (another pass: `passes/skew_cross_core_pipeline/`) nor the
interpreter.  It is handed both, as the ring-depth choice is handed its cost model:

- a `SkewRewriter` (the driver's adapter over the skew pass's `skew_candidates` / `apply_skew`) finds the sites
  and rewrites one site of a module at a distance D;
- the `RingCostModel` of the ring-depth choice times each variant: a skewed kernel is just another module, and
  `makespans(module, group, depths)` answers for it at every depth of the list from one recorded run.  The variant
  is recorded at the deepest depth tried (a skew by D needs at least the `min_depths` the rewrite reports to run at all).

For each kernel (a pair `expand-mixed-kernel` made in this run, with a Group of its own and no scalar
parameter: the cases the ring depth choice times), for each of its sites and each D = 1, 2, ... while the site's
trip count is at least 2D and D stays within `MAX_DISTANCE` (D = 1 is a skew too: the producer one iteration
ahead; "no skew" is the kernel as it is): the rewrite runs on a copy of the module; the depths
tried are the ring-depth choice's candidates (`candidate_depths`, on the skewed copy: its live tiles may grow)
from the skew's minimum depth on -- only the kernel's own depth when its source sets `pto.slot_num` or
`pto.local_slot_num`, or under `ring-depth=fixed`; a variant whose halves do not fit their memories at a depth is
not timed there.  The variant kept is the one of least D, then shallowest depth, among those within `MARGIN`
(1 %) of the fastest; it is applied to the module when it is more than `MARGIN` faster than the kernel unskewed
at the depth the ring-depth choice kept.  One loop
per kernel is skewed (docs/not-yet-done.md).  Every outcome is a "skew" entry of the decision log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import pipe_init_of
from pypto_mlir.dialects.pto_traits import CoreSide, PipePop, PipePush
from pypto_mlir.dialects.pto_types import MEMORY_SPACES, FuncInt, TensorType, int_attr_of, memory_capacity

from ..analysis.budget import MemoryBudget
from ..decisions import op_ref, record
from .phase import PASS_NAME, half_name
from ..common import set_ring_depth
from .ring_depth import RingCostModel, candidate_depths

SKEW_MODES = ("auto", "off")
"""The `skew` option: `auto` (the model chooses, this module) or `off` (never skew)."""

MAX_DISTANCE = 4
"""The largest distance tried: each D costs one interpreter run of the kernel at compile time, and a skew by D
holds D iterations' tiles in flight, which the implicit depths (8 / 4) bound anyway."""


MARGIN = 0.01
"""Makespans within 1 % of each other count as equal: the least D (then the shallowest depth) among the variants
within it of the fastest is kept -- a further iteration ahead or a deeper ring for a few modelled cycles of
index arithmetic is not worth its memory and code -- and a skew is applied only when it is more than 1 % faster
than the kernel unskewed (the model's figures rest on assumptions: docs/timing-model.md)."""


class SkewSite(Protocol):
    """A loop pair the skew rewrite looked at (the skew pass's `SkewSite`): what the choice reads of it."""

    kernel: str
    """The Group `@<kernel>` whose halves hold the loop."""
    trip: int | None
    """The loop's trip count when static."""
    loop: Operation
    """The loop of the side that runs ahead, for the report's location."""
    ahead: CoreSide | None
    why_not: str | None
    """Why the rewrite cannot skew it (None: it can)."""


class SkewOutcome(Protocol):
    """What a rewrite reports (the skew pass's `SkewResult`)."""

    distance: int
    remainder: str
    """How a trip count that D does not divide is handled (`none-needed`, `runtime-bounds`)."""
    min_depths: dict[str, int]
    """The least depth each ring of the pair's pipe needs with the skew (the rewrite deepens the pipe to it)."""


class SkewRewriter(Protocol):
    """The skew rewrite as the choice asks it (`pipeline.DefaultSkewRewriter` adapts the skew pass)."""

    def candidates(self, module: ModuleOp) -> Sequence[SkewSite]:
        """The loops of `module` the rewrite can skew, in module order."""
        ...

    def apply(self, module: ModuleOp, site: SkewSite, distance: int) -> SkewOutcome:
        """Skew `site` of `module` by `distance` iterations, in place; a `PtoError` when it cannot."""
        ...


class MissingSkewRewriter(RuntimeError):
    """`skew=auto` had a loop to consider but no rewriter was handed to the pass (a caller's mistake: run the pass
    through `pypto_mlir.pipeline.run_pipeline`, or hand one with `with_skew_rewriter`)."""


@dataclass(frozen=True)
class Variant:
    index: int
    """Which site of the kernel (its place in the rewriter's candidates of the kernel)."""
    distance: int
    depth: int
    makespan: int
    outcome: SkewOutcome


def _funcs(module: ModuleOp) -> dict[str, func.FuncOp]:
    return {op.sym_name.data: op for op in module.body.block.ops if isinstance(op, func.FuncOp)}


def _fits(f: func.FuncOp, side: CoreSide, target: str) -> bool:
    """Whether every memory space of `f`'s core holds its peak (live tiles + rings) on `target`."""
    peaks = MemoryBudget(f, side).peaks
    for space in MEMORY_SPACES:
        capacity = memory_capacity(target, space)
        if capacity is not None and space in peaks and peaks[space].bytes > capacity:
            return False
    return True


def exchanges_both_ways_in_a_loop(f: func.FuncOp) -> bool:
    """Whether a loop of `f` both pushes and pops (the only kernels a skew can apply to: the rewriter says which
    loops exactly; this cheap test spares it, and the cost model, every other kernel)."""
    for loop in f.walk():
        if isinstance(loop, (scf.ForOp, scf.WhileOp)):
            ops = list(loop.walk())
            if any(op.has_trait(PipePush) for op in ops) and any(op.has_trait(PipePop) for op in ops):
                return True
    return False


def _sites_of(rewriter: SkewRewriter, module: ModuleOp, kernel: str) -> list[SkewSite]:
    return [s for s in rewriter.candidates(module) if s.kernel == kernel]


def _least_depth(outcome: SkewOutcome) -> int:
    return max(outcome.min_depths.values(), default=1)


def _timeable(module: ModuleOp, kernel: str) -> str | None:
    """Why the kernel's Group cannot be timed (as the ring-depth choice says it), or None."""
    group = _funcs(module).get(kernel)
    if group is None or not group.body.blocks:
        return "the kernel has no Group of its own to time (only existing Group callers)"
    if any(not isinstance(a.type, TensorType) for a in group.body.block.args):
        return "the kernel takes a scalar parameter, whose value sets its schedule"
    return None


def _depth_options(clone: ModuleOp, kernel: str, target: str, fixed: int | None, least: int) -> list[int]:
    """The depths a skewed variant may run at: the fixed depth, or the ring-depth choice's candidates on the
    skewed halves; only those from `least` (the skew's minimum) on and at which both halves fit their memories."""
    funcs = _funcs(clone)
    aic, aiv = funcs[half_name(kernel, CoreSide.AIC)], funcs[half_name(kernel, CoreSide.AIV)]
    depths = [fixed] if fixed is not None else candidate_depths(aic, aiv, target)
    out = []
    for d in depths:
        if d < least:
            continue
        set_ring_depth(aic, d)
        set_ring_depth(aiv, d)
        if _fits(aic, CoreSide.AIC, target) and _fits(aiv, CoreSide.AIV, target):
            out.append(d)
    return out


def _try(module: ModuleOp, kernel: str, index: int, distance: int, target: str, fixed: int | None,
         model: RingCostModel, rewriter: SkewRewriter) -> tuple[list[Variant], dict]:
    """The timed variants of skewing site `index` of `kernel` by `distance` (one per accepted depth), and what the
    report says of the try."""
    clone = module.clone()
    site = _sites_of(rewriter, clone, kernel)[index]
    try:
        outcome = rewriter.apply(clone, site, distance)
    except PtoError as e:
        return [], {"distance": distance, "refused": e.message}
    least = _least_depth(outcome)
    depths = _depth_options(clone, kernel, target, fixed, least)
    if not depths:
        return [], {"distance": distance, "refused": f"no ring depth it may use, from its minimum {least} on, fits"}
    funcs = _funcs(clone)
    for side in CoreSide:
        set_ring_depth(funcs[half_name(kernel, side)], max(depths))  # record at a depth every candidate can replay
    timed = model.makespans(clone, kernel, depths)
    if isinstance(timed, str):
        return [], {"distance": distance, "refused": timed}
    found = [Variant(index, distance, d, m, outcome) for d, m in timed.items() if m is not None]
    return found, {"distance": distance, "makespans": {str(d): m for d, m in timed.items()}}


def choose_skews(module: ModuleOp, kernels: list[str], target: str, baseline: dict[str, int | None],
                 fixed_depth: bool, model: RingCostModel | None, rewriter: SkewRewriter | None) -> None:
    """Skew one loop of each kernel of `kernels` (expanded names `@<f>`, this run's pairs) in `module` where the
    model shows a gain over `baseline[kernel]` (its makespan as the ring-depth choice left it, when timed)."""
    funcs = _funcs(module)
    kernels = [k for k in kernels if exchanges_both_ways_in_a_loop(funcs[half_name(k, CoreSide.AIC)])]
    if not kernels:
        return
    if rewriter is None:
        raise MissingSkewRewriter(
            f"choose-ring-depth: skew=auto has a loop of @{kernels[0]} to consider, but no skew rewriter was handed to the pass; run "
            "it through pypto_mlir.pipeline.run_pipeline, or give it one with .with_skew_rewriter(...)"
        )
    for kernel in kernels:
        sites = _sites_of(rewriter, module, kernel)
        if not sites:
            continue  # no loop pair exchanges tiles: nothing to say
        loop = {"loop": op_ref(sites[0].loop)}
        if all(s.why_not is not None for s in sites):
            record(PASS_NAME, kernel, "skew", skewed=False, **loop, reason=sites[0].why_not)
            continue
        why = _timeable(module, kernel)
        if why is not None:
            record(PASS_NAME, kernel, "skew", skewed=False, **loop, reason=why)
            continue
        if model is None:
            raise MissingSkewRewriter(
                f"choose-ring-depth: skew=auto has to time @{kernel}, but no cost model was handed to the pass"
            )
        funcs = _funcs(module)
        aic = funcs[half_name(kernel, CoreSide.AIC)]
        init = pipe_init_of(aic)
        depth = init.depth if init is not None else None
        before = baseline.get(kernel)
        if before is None and depth is not None:
            timed = model.makespans(module, kernel, [depth])
            if isinstance(timed, str):
                record(PASS_NAME, kernel, "skew", skewed=False, **loop, reason=timed)
                continue
            before = timed.get(depth)
        if before is None:
            record(PASS_NAME, kernel, "skew", skewed=False, **loop,
                   reason="the kernel as it is cannot be timed at its ring depth")
            continue
        explicit = int_attr_of(aic, FuncInt.SLOT_NUM) is not None or int_attr_of(aic, FuncInt.LOCAL_SLOT_NUM) is not None
        fixed = depth if (explicit or fixed_depth) else None
        variants: list[Variant] = []
        tried: list[dict] = []
        for index, site in enumerate(sites):
            if site.why_not is not None:
                continue
            distance = 1
            while distance <= MAX_DISTANCE and (site.trip is None or site.trip >= 2 * distance):
                found, note = _try(module, kernel, index, distance, target, fixed, model, rewriter)
                variants += found
                tried.append({"site": index, **note})
                distance += 1
        _decide(module, kernel, sites, variants, tried, before, depth, rewriter)


def _decide(module: ModuleOp, kernel: str, sites: list[SkewSite], variants: list[Variant], tried: list[dict],
            before: int, depth: int | None, rewriter: SkewRewriter) -> None:
    fastest = min((v.makespan for v in variants), default=None)
    near = [v for v in variants if fastest is not None and v.makespan <= fastest * (1 + MARGIN)]
    best = min(near, key=lambda v: (v.distance, v.depth, v.makespan), default=None)
    if best is None or best.makespan >= before * (1 - MARGIN):
        reason = ("no skew could be timed" if best is None else
                  f"no skew shortens the modelled makespan by more than {MARGIN:.0%}")
        loop = next(s.loop for s in sites if s.why_not is None)
        record(PASS_NAME, kernel, "skew", skewed=False, loop=op_ref(loop), depth_before=depth,
               makespan_before=before, tried=tried, reason=reason)
        return
    site = _sites_of(rewriter, module, kernel)[best.index]
    outcome = rewriter.apply(module, site, best.distance)
    funcs = _funcs(module)
    for side in CoreSide:
        set_ring_depth(funcs[half_name(kernel, side)], best.depth)
    record(PASS_NAME, kernel, "skew", skewed=True, loop=op_ref(site.loop), distance=outcome.distance,
           ahead=site.ahead.label if site.ahead is not None else None, remainder=outcome.remainder,
           min_depth=_least_depth(outcome), depth_before=depth, depth_after=best.depth, makespan_before=before,
           makespan_after=best.makespan, tried=tried,
           reason=f"the least distance, then depth, within {MARGIN:.0%} of the best modelled makespan")
