"""The explicit `pto.split_aiv_scope` region path of LowerAutoVectorSplit (reference §5; docs/split-aiv-regions.md).

`lower_region_function(f)` is called by the pass, before the AUTO path, for every incore function whose body
holds a region anywhere.  In order:

1. AivSplitValid (a)-(h) (`region_checks.verify_aiv_split_valid`) and the cross-lane GM order
   (`region_checks.check_cross_lane_gm_order`: no full-width access after a region to a tensor the region's lanes
   store): nothing is rewritten if either fails.
2. Every region is lowered in place and its wrapper erased, walking the function body and the bodies of
   `scf.for` / `scf.if` / `scf.while` (the pass inlined every `scf.execute_region` before; ops outside regions
   stay full width; the regions of any other op are not entered).  Per form:
   - task-parallel (`none`): the body is spliced unchanged;
   - explicit-boundary (up_down / left_right with `aiv_shard` / `aic_gather` in the body): E-MIXED check,
     transpose hazard, valid-extent repair (`region_valid`), then spliced;
   - full-width data-parallel: transpose hazard, a fresh `%subblock_idx` (distinct name per region), then the
     body is halved with region-local tracking by the AUTO path's halving machinery, then spliced.
   Splicing binds the region's `%aiv_id` to a `pto.get_subblock_idx` placed first in the spliced body (after
   the injected `%subblock_idx` of a data-parallel region) and maps `pto.yield` operands to the scope results.
3. A region that survived (it sat inside a task-parallel or explicit-boundary region, whose bodies are spliced
   unlowered, or inside an op the walk does not enter, such as `scf.index_switch`) is rejected: E-REGION-SCOPE.
4. The function gets `pto.split_aiv` and `pto.split_aiv_region_validated` (an existing `pto.split` is kept).
"""

from __future__ import annotations

from xdsl.dialects import func, scf
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import GetSubblockIdxOp, SplitAivScopeOp, YieldOp
from pypto_mlir.dialects.pto_traits import once_per_kernel

from pypto_mlir.dialects.pto_types import FuncFlag, set_flag

from ...common import with_loc
from ...analysis.split_axis import LaneArith
from ..lowering import SplitLowering, first_lane_only
from .rules import (
    check_cross_lane_gm_order,
    check_mixed_explicit_region,
    check_transpose_hazard,
    region_form,
    value_name,
    verify_aiv_split_valid,
)
from .valid_extents import localize_explicit_boundary_valid

WALKED = (scf.ForOp, scf.IfOp, scf.WhileOp)
"""The ops whose bodies the region lowering walks to find regions."""

FORM_NAMES = {"task": "a task-parallel (mode none)", "explicit": "an explicit-boundary"}


def has_split_aiv_scope(f: func.FuncOp) -> bool:
    return any(isinstance(op, SplitAivScopeOp) for op in f.walk())


def lower_region_function(f: func.FuncOp) -> None:
    """Lower every split_aiv_scope of an incore function in place (checked before the AUTO path)."""
    verify_aiv_split_valid(f)
    check_cross_lane_gm_order(f)
    lowering = _RegionLowering(f)
    lowering.lower_block(f.body.block)
    for op in f.walk():
        if isinstance(op, SplitAivScopeOp):
            outer = lowering.unlowered_in.get(op)
            if outer is None:
                scope = _enclosing_scope(op)
                raise PtoError(
                    f"LowerAutoVectorSplit: this pto.split_aiv_scope region is nested inside a scope "
                    f"('{scope.name}'), which the region lowering does not enter (it descends into scf.for, scf.if "
                    "and scf.while, and inlines scf.execute_region), so it cannot be lowered and would reach "
                    "ExpandMixedKernel as a region; move the region out of that op",
                    op=op,
                )
            raise PtoError(
                "LowerAutoVectorSplit: this pto.split_aiv_scope region is nested inside "
                f"{FORM_NAMES[outer]} region, whose body is spliced without lowering, so it cannot be "
                "lowered and would reach ExpandMixedKernel as a region; close the enclosing region before opening "
                "this one (make them siblings), or nest it in a full-width data-parallel region instead",
                op=op,
            )
    for flag in (FuncFlag.SPLIT_AIV, FuncFlag.SPLIT_AIV_REGION_VALIDATED):
        set_flag(f, flag, False)
    for flag in (FuncFlag.SPLIT_AIV, FuncFlag.SPLIT_AIV_REGION_VALIDATED):
        set_flag(f, flag)


class _RegionLowering:
    def __init__(self, f: func.FuncOp):
        self.f = f
        self.used_names: set[str] = {
            v.name_hint for op in f.walk() for v in (*op.results, *_block_args(op)) if v.name_hint
        }
        self.unlowered_in: dict[SplitAivScopeOp, str] = {}
        self._outside: LaneArith | None = None

    def lower_block(self, block: Block) -> None:
        """Lower the regions of `block` and of the `scf.for` / `scf.if` / `scf.while` bodies in it (reference:
        For, While, If and Seq, not the scopes); a region inside any other op is left for E-REGION-SCOPE."""
        for op in list(block.ops):
            if isinstance(op, SplitAivScopeOp):
                self.lower_region(op)
            elif once_per_kernel(op) is not None:
                first_lane_only(op, self.outside_arith().is_first_lane())
            elif isinstance(op, WALKED):
                for region in op.regions:
                    for b in region.blocks:
                        self.lower_block(b)

    def outside_arith(self) -> LaneArith:
        """The lane arithmetic of the code outside the regions, on a `%subblock_idx` of its own at the function's
        entry (made on first use).  That code runs whole on both lanes once the function is split, so an op in it
        whose GM effect must happen once per kernel (`OncePerKernel`) runs on lane 0 only."""
        if self._outside is None:
            sub = with_loc(GetSubblockIdxOp(), self.f)
            sub.result.name_hint = self.fresh_name("subblock_idx")
            Rewriter.insert_op(sub, InsertPoint.at_start(self.f.body.block))
            self._outside = LaneArith(sub.result, sub)
        return self._outside

    def fresh_name(self, base: str) -> str:
        name, i = base, 0
        while name in self.used_names:
            name = f"{base}__ssa_v{i}"
            i += 1
        self.used_names.add(name)
        return name

    def lower_region(self, scope: SplitAivScopeOp) -> None:
        form = region_form(scope)
        body = scope.body.block
        if body.first_op is body.last_op:  # only the yield: an empty region emits nothing (but a yielded lane id)
            _splice(scope, lane=_lane_binding(scope) if scope.aiv_id.uses else None)
            return
        if form in ("task", "explicit"):
            for inner in scope.body.walk():
                if isinstance(inner, SplitAivScopeOp):
                    self.unlowered_in.setdefault(inner, form)
        if form == "task":
            _splice(scope, lane=_lane_binding(scope))
            return
        check_transpose_hazard(scope)
        if form == "explicit":
            check_mixed_explicit_region(scope)
            localize_explicit_boundary_valid(scope)
            _splice(scope, lane=_lane_binding(scope))
            return
        # Full-width data-parallel: an own %subblock_idx, then halving with region-local tracking.
        sub = with_loc(GetSubblockIdxOp(), _first_op(scope))
        sub.result.name_hint = self.fresh_name("subblock_idx")
        Rewriter.insert_op(sub, InsertPoint.at_start(body))
        self.halve_full_width(scope, sub.result)
        _splice(scope, lane=_lane_binding(scope), after=sub)

    def halve_full_width(self, scope: SplitAivScopeOp, sub: SSAValue) -> None:
        """Halve a full-width data-parallel body with the AUTO machinery and region-local tracking."""
        mode = scope.mode.data
        anchor = sub.owner
        assert isinstance(anchor, Operation)
        where = f"the pto.split_aiv_scope {mode} region of '{self.f.sym_name.data}'"
        lw = SplitLowering(mode, sub, anchor, lane_stride=None, where=where, on_region_op=self._inner_region_op)
        body = scope.body.block
        lw.lower_block(body)
        lw.check_no_cube_tile_halved(body)
        term = body.last_op
        assert isinstance(term, YieldOp)
        for i, (res, v) in enumerate(zip(scope.res, term.values, strict=True)):
            if res.type != v.type:
                raise PtoError(
                    f"LowerAutoVectorSplit: result #{i} of this {mode} region is the per-lane half "
                    f"{value_name(v)} ({v.type}) but the region declares {res.type}; halved tiles are local to "
                    "their region. Store the tile (and yield the stored tensor), or send it to the cube with a "
                    "vec -> cube pto.move inside the region (it becomes a pto.aic_gather) and yield that",
                    op=term,
                )

    def _inner_region_op(self, op: Operation) -> None:
        """A region op met while halving a data-parallel body: an inner split_aiv_scope is lowered on its own."""
        if isinstance(op, SplitAivScopeOp):
            self.lower_region(op)
            return
        raise PtoError(
            f"LowerAutoVectorSplit: '{op.name}' holds a region this pass cannot lower inside a data-parallel "
            "pto.split_aiv_scope region; the region lowering only descends into scf.for, scf.if, scf.while and "
            "inner pto.split_aiv_scope regions (and inlines scf.execute_region first)",
            op=op,
        )


def _enclosing_scope(op: Operation) -> Operation:
    """The innermost op around `op` that the region lowering does not walk into."""
    p = op.parent_op()
    while p is not None and isinstance(p, WALKED):
        p = p.parent_op()
    assert p is not None
    return p


def _block_args(op: Operation) -> list[SSAValue]:
    return [a for r in op.regions for b in r.blocks for a in b.args]


def _first_op(scope: SplitAivScopeOp) -> Operation:
    first = scope.body.block.first_op
    return first if first is not None else scope


def _lane_binding(scope: SplitAivScopeOp) -> GetSubblockIdxOp:
    lane = with_loc(GetSubblockIdxOp(), _first_op(scope))
    lane.result.name_hint = scope.aiv_id.name_hint or "aiv_id"
    return lane


def _splice(scope: SplitAivScopeOp, lane: GetSubblockIdxOp | None, after: Operation | None = None) -> None:
    """Move the body in front of the scope, bind %aiv_id and the results, erase the scope."""
    block = scope.body.block
    term = block.last_op
    assert isinstance(term, YieldOp)
    if lane is not None:
        if after is not None:
            Rewriter.insert_op(lane, InsertPoint.after(after))
        else:
            Rewriter.insert_op(lane, InsertPoint.at_start(block))
        scope.aiv_id.replace_all_uses_with(lane.result)
    for res, v in zip(scope.res, term.values, strict=True):
        res.replace_all_uses_with(v)
    term.detach()
    term.erase()
    Rewriter.inline_block(block, InsertPoint.before(scope))
    scope.detach()
    scope.erase()
