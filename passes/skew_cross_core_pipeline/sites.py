"""Where the skew applies: the loops of an expanded kernel whose cores exchange tiles both ways in each iteration
(docs/skew-cross-core-pipeline.md *Which loops*), with the cut of each core's loop body and why-not for the others.

A site is a pair of `scf.for` loops, one at the top level of the Group's AIC kernel and one of its AIV kernel, the
k-th loop with cross-core transfers on each side, with the same bounds (equal constants, or the same Group
parameter through the same side-effect-free ops).  The side that runs ahead is the one whose iteration starts by
pushing and later pops (a round trip); its body is cut before its first pop.  The other side's loop stays as it
is when every ring keeps its order so (`aligned`); otherwise it is cut too, at the latest valid point where every
ring's transfers split as on the ahead side.  The skeletons of both cores then run to their end at some depth up
to `DEPTH_LIMIT` (`rings.least_depth`), for the trip count when it is static and for every trip count up to
2D + 2 when it is not.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.traits import is_side_effect_free

from pypto_mlir.dialects.pto_ops import pipe_init_of
from pypto_mlir.dialects.pto_traits import CoreSide
from pypto_mlir.dialects.pto_types import target_of
from pypto_mlir.timing.flow import releases_at_pop

from ..common import FunctionKind, kind_of
from .parts import Cut, GmSharing, Uncut, body_ops, plan_cut
from .rings import POP, PUSH, Event, NoSkeleton, event_of, least_depth, op_events, ring_counts

DEPTH_LIMIT = 16
"""The deepest ring the skeleton run tries (the memory budget bounds what is taken)."""


@dataclass
class SkewSite:
    """A loop pair of a Group (module doc); `why_not` says why the pass cannot skew it (None: it can)."""

    kernel: str
    """The Group `@<f>`."""
    aic: str
    aiv: str
    loop: scf.ForOp
    """The loop of the side that runs ahead (the AIC's when there is none)."""
    peer_loop: scf.ForOp | None
    trip: int | None
    """The trip count when the bounds are constants."""
    ahead: CoreSide | None
    why_not: str | None = None
    why_not_op: Operation | None = None
    """The op the why-not is about (the loop when None)."""
    cuts: tuple[Cut, Cut] | None = field(default=None, repr=False)
    """(the ahead side's cut, the other side's): set when `why_not` is None."""
    depth: int = 2
    """The ring depth of the pair's pipe now (`slot_num`, or PTOAS's implicit one)."""

    @property
    def skewable(self) -> bool:
        return self.why_not is None

    @property
    def where(self) -> Operation:
        return self.why_not_op if self.why_not_op is not None else self.loop


def static_int(v: SSAValue) -> int | None:
    owner = v.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def trip_count(loop: scf.ForOp) -> int | None:
    lb, ub, step = static_int(loop.lb), static_int(loop.ub), static_int(loop.step)
    if lb is None or ub is None or step is None or step <= 0:
        return None
    return max(0, -(-(ub - lb) // step))


def _same_value(a: SSAValue, b: SSAValue, depth: int = 0) -> bool:
    """Whether `a` (in one kernel) and `b` (in the other) are the same number on every run: equal constants, the
    same parameter of the Group (both members take the Group's parameter list), or the same side-effect-free op
    of such values."""
    if depth > 16:
        return False
    ca, cb = static_int(a), static_int(b)
    if ca is not None or cb is not None:
        return ca == cb
    if isinstance(a, BlockArgument) and isinstance(b, BlockArgument):
        fa, fb = a.block.parent_op(), b.block.parent_op()
        return isinstance(fa, func.FuncOp) and isinstance(fb, func.FuncOp) and a.index == b.index
    oa, ob = a.owner, b.owner
    if not isinstance(oa, Operation) or not isinstance(ob, Operation):
        return False
    return (oa.name == ob.name and is_side_effect_free(oa) and not oa.regions and oa.attributes == ob.attributes
            and oa.properties == ob.properties and a.index == b.index and len(oa.operands) == len(ob.operands)
            and all(_same_value(x, y, depth + 1) for x, y in zip(oa.operands, ob.operands)))


def _ring_loops(f: func.FuncOp) -> tuple[list[scf.ForOp], list[Operation]]:
    """(the top-level loops of `f` with transfers, the loops with transfers nested deeper)."""
    top, nested = [], []
    for op in f.body.block.ops:
        for inner in op.walk():
            if isinstance(inner, (scf.ForOp, scf.WhileOp)) and _has_transfers(inner):
                (top if inner is op and isinstance(op, scf.ForOp) else nested).append(inner)
    return top, nested


def _has_transfers(op: Operation) -> bool:
    return any(event_of(o) is not None for o in op.walk())


def first_pop(loop: scf.ForOp) -> int | None:
    """The index of the first body op that pops, when a push comes before it (a round trip), else None."""
    pushed = False
    for i, op in enumerate(body_ops(loop)):
        kinds = {e.kind for e in op_events(op)}
        if POP in kinds:
            return i if pushed else None
        pushed = pushed or PUSH in kinds
    return None


def ring_totals_differ(a: Cut, b: Cut) -> str | None:
    """Why the two loops cannot be paired ring by ring: a ring with a different number of transfers per iteration
    on the two cores (None: every ring matches)."""
    na, nb = ring_counts(a.produce_events + a.consume_events), ring_counts(b.produce_events + b.consume_events)
    for ring in sorted(set(na) | set(nb), key=lambda r: (r[0], r[1].bit)):
        if na.get(ring, 0) != nb.get(ring, 0):
            return (f"the two cores do {na.get(ring, 0)} and {nb.get(ring, 0)} transfers on the {ring[1].tag} ring "
                    f"of pipe {ring[0]} per iteration")
    return None


def aligned(a: Cut, b: Cut) -> bool:
    """Whether the rings keep their order when both cuts are skewed by the same distance: per ring, the two sides
    split its per-iteration transfers at the same count, or each side keeps them in one part."""
    pa, pb = ring_counts(a.produce_events), ring_counts(b.produce_events)
    total = ring_counts(a.produce_events + a.consume_events)
    return all(pa.get(r, 0) == pb.get(r, 0) or (pa.get(r, 0) in (0, n) and pb.get(r, 0) in (0, n))
               for r, n in total.items())


def loop_stream(cut: Cut, distance: int, trip: int) -> list[Event]:
    """The skeleton of `cut`'s loop skewed by `distance` over `trip` iterations (unchanged for a whole cut)."""
    a, b = list(cut.produce_events), list(cut.consume_events)
    if cut.whole:
        return (a + b) * trip
    d = min(distance, trip)
    return a * d + (a + b) * (trip - d) + b * d


def kernel_streams(cuts: tuple[Cut, Cut], distance: int, trip: int) -> dict[CoreSide, list[Event]]:
    """Both cores' whole skeletons, with the site's loops skewed (`NoSkeleton` when another loop with transfers
    has a dynamic trip count)."""
    out: dict[CoreSide, list[Event]] = {}
    for cut in cuts:
        f = cut.loop.parent_op()
        assert isinstance(f, func.FuncOp)
        events: list[Event] = []
        for op in f.body.block.ops:
            if op is cut.loop:
                events.extend(loop_stream(cut, distance, trip))
            else:
                events.extend(op_events(op, trip_count))
        out[cut.side] = events
    return out


def trips_to_check(trip: int | None, distance: int) -> list[int]:
    return [trip] if trip is not None else list(range(0, 2 * distance + 3))


def needed_depth(cuts: tuple[Cut, Cut], distance: int, trip: int | None, target: str | None) -> int | None:
    """The least ring depth at which both cores run to their end with the site skewed by `distance` (None: none up
    to `DEPTH_LIMIT`)."""
    runs = [kernel_streams(cuts, distance, n) for n in trips_to_check(trip, distance)]
    return least_depth(runs, releases_at_pop(target), DEPTH_LIMIT)


def _choose_cuts(ahead: scf.ForOp, side: CoreSide, peer: scf.ForOp, trip: int | None,
                 target: str | None, gm: GmSharing) -> tuple[Cut, Cut]:
    """The cuts of a site (module doc); raises `Uncut` / `NoSkeleton` with the first reason."""
    pop = first_pop(ahead)
    assert pop is not None
    mine = plan_cut(ahead, side, pop, gm)  # its Uncut is the site's why-not as it is
    n = len(body_ops(peer))
    why: tuple[str, Operation] | None = None
    for c in [n, *range(n - 1, 0, -1)]:
        try:
            other = plan_cut(peer, side.other, c, gm)
        except Uncut as e:
            why = why or (str(e), e.op)
            continue
        if other.whole and (differ := ring_totals_differ(mine, other)) is not None:
            raise Uncut(differ, peer)
        if not aligned(mine, other):
            continue
        if needed_depth((mine, other), 2, trip, target) is None:
            why = why or ("no ring depth lets both cores run the skewed loops to their end", peer)
            continue
        return mine, other
    message, op = why or ("no cut of the other core's loop keeps the order of every ring", peer)
    raise Uncut(f"the {side.other.label} loop cannot follow: {message}", op)


def skew_candidates(module: ModuleOp) -> list[SkewSite]:
    """Every loop pair the pass could skew, and the loops with transfers it cannot, with why not (module doc)."""
    target = target_of(module)
    funcs = {f.sym_name.data: f for f in module.body.block.ops if isinstance(f, func.FuncOp)}
    sites: list[SkewSite] = []
    for name, group in funcs.items():
        if kind_of(group) is not FunctionKind.GROUP:
            continue
        aic, aiv = funcs.get(CoreSide.AIC.half_name(name)), funcs.get(CoreSide.AIV.half_name(name))
        if aic is None or aiv is None:
            continue
        init = pipe_init_of(aic)
        depth = init.depth if init is not None else 2
        (top_c, nested_c), (top_v, nested_v) = _ring_loops(aic), _ring_loops(aiv)

        def site(loop: scf.ForOp, peer: scf.ForOp | None, why: str | None, op: Operation | None = None,
                 ahead: CoreSide | None = None) -> SkewSite:
            return SkewSite(name, aic.sym_name.data, aiv.sym_name.data, loop, peer, trip_count(loop), ahead, why,
                            op, depth=depth)

        for loop in nested_c + nested_v:
            sites.append(site(loop, None, "the loop is nested in another op; only loops at a kernel's top level "
                                          "are skewed"))
        if len(top_c) != len(top_v):
            for loop in top_c + top_v:
                sites.append(site(loop, None, f"the AIC kernel has {len(top_c)} loops with cross-core transfers and "
                                              f"the AIV kernel {len(top_v)}, so they cannot be paired"))
            continue
        for lc, lv in zip(top_c, top_v):
            sites.append(_site_of(site, lc, lv, target))
    return sites


def _site_of(site: Callable[..., SkewSite], lc: scf.ForOp, lv: scf.ForOp, target: str | None) -> SkewSite:
    if not all(_same_value(x, y) for x, y in ((lc.lb, lv.lb), (lc.ub, lv.ub), (lc.step, lv.step))):
        return site(lc, lv, "the AIC and AIV loops do not have the same bounds")
    trip = trip_count(lc)
    step = static_int(lc.step)
    if step is None or step <= 0:
        return site(lc, lv, "the step is not a positive constant")
    loops = {CoreSide.AIC: lc, CoreSide.AIV: lv}
    try:
        ahead = [s for s in (CoreSide.AIC, CoreSide.AIV) if first_pop(loops[s]) is not None]
    except NoSkeleton as e:
        return site(lc, lv, str(e), e.op)
    if not ahead:
        return site(lc, lv, "not a round trip: neither core pushes a tile and then pops one in the same iteration")
    side = ahead[0]
    try:
        fc, fv = lc.parent_op(), lv.parent_op()
        assert isinstance(fc, func.FuncOp) and isinstance(fv, func.FuncOp)
        gm = GmSharing.of(fc, fv)
        cuts = _choose_cuts(loops[side], side, loops[side.other], trip, target, gm)
    except (Uncut, NoSkeleton) as e:
        return site(loops[side], loops[side.other], str(e), e.op, side)
    s = site(loops[side], loops[side.other], None, None, side)
    s.cuts = cuts
    return s

