"""`skew-cross-core-pipeline`: over expanded kernels, the side of a round-trip loop that pushes first runs D
iterations ahead of the other (docs/skew-cross-core-pipeline.md).

`distance=auto` (the default) skews every site the analysis accepts (`skew_candidates`) by the reference's rule,
without its divisibility condition (`auto_distance`), and leaves the others as they are, each with a "skew" entry in
the decision log saying what was done or why not.  `distance=N` skews every site by N (at most the trip count
when it is static) and refuses, with a located error, a loop with cross-core transfers it cannot skew.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import pipe_init_of
from pypto_mlir.dialects.pto_traits import CoreSide
from pypto_mlir.dialects.pto_types import FuncInt, int_attr_of
from pypto_mlir.verify import ensure_verified

from ..analysis.budget import depth_fits
from ..common import require_target, set_ring_depth
from ..decisions import op_ref, record
from .rewrite import skew_loop
from .rings import NoSkeleton
from .sites import SkewSite, needed_depth, skew_candidates

PASS_NAME = "skew-cross-core-pipeline"


@dataclass(frozen=True)
class SkewResult:
    """What `apply_skew` did to a site."""

    distance: int
    """The distance used (at most a static trip count; 0: nothing to do, the loop never runs)."""
    remainder: str
    """How a trip count D does not divide is handled: `none-needed` (a static count: the steady loop runs
    trip - D iterations whatever D), `runtime-bounds` (a dynamic count: the prologue ends at min(lb + D*step, ub),
    the steady loop at ub - D*step)."""
    min_depths: dict[str, int]
    """The least depth each ring of the pair's pipe needs with the skew (ring `C2V#<pipe>` / `V2C#<pipe>`)."""
    depth_before: int
    depth_after: int
    rewritten: tuple[str, ...]
    """The kernels whose loop was rewritten (the ahead side's, and the other side's when it is cut too)."""


def auto_distance(site: SkewSite) -> int | None:
    """The reference's D = max(2, depth - 1), at most half a static trip count (so the steady loop runs at least
    as many iterations as the prologue, as the reference's trip >= 2D); None when the trip count is below 2."""
    d = max(2, site.depth - 1)
    if site.trip is None:
        return d
    if site.trip < 2:
        return None
    return min(d, site.trip // 2)


class SkewRefused(PtoError):
    """The site cannot be skewed by the distance asked (located at the loop)."""


def apply_skew(module: ModuleOp, site: SkewSite, distance: int) -> SkewResult:
    """Rewrite `site` skewed by `distance` in place, deepening its pipe when the skew needs it and the memory
    budget allows; raises `SkewRefused` otherwise (the module is then unchanged)."""
    if distance < 1:
        raise SkewRefused(f"{PASS_NAME}: the distance must be at least 1, not {distance}", op=site.loop)
    if not site.skewable or site.cuts is None:
        raise SkewRefused(f"{PASS_NAME}: cannot skew this loop: {site.why_not}", op=site.where)
    target = require_target(module, PASS_NAME)
    funcs = {f.sym_name.data: f for f in module.body.block.ops if isinstance(f, func.FuncOp)}
    aic, aiv = funcs[site.aic], funcs[site.aiv]
    init = pipe_init_of(aic)
    before = init.depth if init is not None else 0
    try:
        need = needed_depth(site.cuts, distance, site.trip, target)
    except NoSkeleton as e:
        raise SkewRefused(f"{PASS_NAME}: cannot skew this loop: {e}", op=e.op) from None
    if need is None:
        raise SkewRefused(f"{PASS_NAME}: with a distance of {distance}, no ring depth lets both cores run the "
                          f"skewed loop to its end", op=site.loop)
    after = before
    if need > before:
        explicit = int_attr_of(aic, FuncInt.SLOT_NUM) or int_attr_of(funcs.get(site.kernel, aic), FuncInt.SLOT_NUM)
        if init is None or init.local_depth is not None or explicit is not None:
            raise SkewRefused(f"{PASS_NAME}: a distance of {distance} needs rings of {need} slots, and the kernel "
                              f"sets its depth ({before}); raise pto.slot_num or skew by less", op=site.loop)
        if not depth_fits(aic, aiv, target)(need):
            raise SkewRefused(f"{PASS_NAME}: a distance of {distance} needs rings of {need} slots, which do not fit "
                              f"the memory budget beside the live tiles (the ring holds {before} now); skew by less",
                              op=site.loop)
        set_ring_depth(aic, need)
        set_ring_depth(aiv, need)
        after = need
    rewritten = []
    used = 0
    for cut in site.cuts:
        if cut.whole:
            continue
        used = skew_loop(cut, distance)
        if used:
            rewritten.append(site.aic if cut.side is CoreSide.AIC else site.aiv)
    rings = {str(e.ring[1].tag) + f"#{e.ring[0]}" for cut in site.cuts for e in cut.produce_events + cut.consume_events}
    return SkewResult(used, "none-needed" if site.trip is not None else "runtime-bounds",
                      {r: need for r in sorted(rings)}, before, after, tuple(rewritten))


@dataclass(frozen=True)
class SkewCrossCorePipelinePass(ModulePass):
    """`--skew-cross-core-pipeline` (module doc)."""

    name = "skew-cross-core-pipeline"

    distance: str | int = "auto"
    """`auto`: the reference's rule (`auto_distance`); an integer N >= 1: that distance, refusing what cannot be
    skewed."""

    def __post_init__(self) -> None:
        d = str(self.distance)
        if d != "auto" and not (d.isdigit() and int(d) >= 1):
            raise ValueError(f"{self.name}: distance must be 'auto' or an integer of at least 1, not "
                             f"'{self.distance}'")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ensure_verified(op)
        require_target(op, PASS_NAME)
        explicit = None if str(self.distance) == "auto" else int(self.distance)
        for site in skew_candidates(op):
            facts = {"loop": op_ref(site.loop), "kernels": [site.aic, site.aiv], "trip": site.trip}
            if not site.skewable:
                if explicit is not None:
                    raise SkewRefused(f"{PASS_NAME}: cannot skew this loop: {site.why_not}", op=site.where)
                record(PASS_NAME, site.kernel, "skew", skewed=False, reason=site.why_not, **facts)
                continue
            d = explicit if explicit is not None else auto_distance(site)
            if d is None:
                record(PASS_NAME, site.kernel, "skew", skewed=False,
                       reason=f"the loop runs {site.trip} time{'s' if site.trip != 1 else ''}: nothing to overlap",
                       **facts)
                continue
            try:
                result = apply_skew(op, site, d)
            except SkewRefused as e:
                if explicit is not None:
                    raise
                record(PASS_NAME, site.kernel, "skew", skewed=False, reason=e.message, **facts)
                continue
            record(PASS_NAME, site.kernel, "skew", skewed=result.distance > 0, distance=result.distance,
                   ahead=site.ahead.label if site.ahead else None, remainder=result.remainder,
                   min_depths=result.min_depths, depth_before=result.depth_before, depth_after=result.depth_after,
                   rewritten=list(result.rewritten), **facts)
