"""`split-mixed-kernel`: every incore kernel becomes AIC / AIV code; a mixed one is split into two halves.

Expects: the input checks hold (`checks.py`) and every cross-core GM dependence of a mixed kernel is ordered by a
transfer or a fence (`insert-gm-fences` ran).  Run alone, the phase checks both and says which pass to run first.

Guarantees (structural half of the pass, reference §1-§3, §5; `split.py`, `boundaries.py`, `repair.py`,
`group.py`):
- no incore kernel is left: a pure one becomes `aic` (cube) or `aiv` (vector or shared only), its `pto.split`
  dropped; a mixed one `@f` becomes `@f_aic` + `@f_aiv`, every cube<->vector boundary a tpush/tpop pair in the
  target's layout, and the Group `@f` unless only Group callers call it;
- existing Group callers call both halves directly (`RewriteGroupCaller`);
- the AIV half of an unsplit a2a3 kernel carries `pto.dual_aiv_dispatch`;
- both halves carry `pto.protocol_pending`: their tpops are not freed yet and they have no pipe setup (the next
  phases add them).
Functions of any other kind pass through, so the phase is idempotent on its output.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_traits import CoreSide
from pypto_mlir.dialects.pto_types import SPLIT_ATTR

from ..analysis.affinity import Affinity, AffinityAnalysis
from ..analysis.hazards import is_ordered
from ..common import FunctionKind, kind_of, set_kind
from .boundaries import LowerAicGather, LowerAivShard, LowerCubeToVectorMove, LowerVectorToCubeMove
from .checks import check_expansion_input, check_mixed_kernel
from .gm_sync import gm_dependences
from .group import RewriteGroupCaller, build_group, make_aic_function, make_aiv_function
from .mx_scale import mx_scale_patterns
from .phase import ExpansionPhase, ExpansionState, KernelAffinity, functions, half_name, mark_pending
from .pipe_setup import stamp_dual_aiv_dispatch
from .repair import finalize_split_body
from .split import SideBody


@dataclass
class CallerPlan:
    has_group_caller: bool = False
    needs_preserved_name: bool = False

    @property
    def create_group(self) -> bool:
        return self.needs_preserved_name or not self.has_group_caller


def plan_callers(module: ModuleOp) -> dict[str, CallerPlan]:
    """Which incore kernels have a Group caller, and which have another caller (Orchestration, Spmd, ...) that
    needs the original name to keep working."""
    funcs = functions(module)
    plans: dict[str, CallerPlan] = {}
    # name -> its top-level callers, in module order (as `top_level_callers` gives them), built in one scan:
    # asking `top_level_callers` per kernel rescans every function, quadratic in the number of kernels.
    callers_of: dict[str, list[func.FuncOp]] = {}
    for g in funcs:
        if g.body.blocks:
            calls = [op for op in g.body.block.ops if isinstance(op, func.CallOp)]
            for name in dict.fromkeys(op.callee.root_reference.data for op in calls):
                callers_of.setdefault(name, []).append(g)
    for f in funcs:
        if kind_of(f) != FunctionKind.INCORE:
            continue
        plan = CallerPlan()
        for caller in callers_of.get(f.sym_name.data, ()):
            if kind_of(caller) == FunctionKind.GROUP:
                plan.has_group_caller = True
            else:
                plan.needs_preserved_name = True
        plans[f.sym_name.data] = plan
    # A call nested in control flow is not rewritten (as in the reference): it needs the name to stay defined.
    for g in funcs:
        for op in g.walk():
            if isinstance(op, func.CallOp) and op.parent_block() is not g.body.block:
                plan = plans.get(op.callee.root_reference.data)
                if plan is not None:
                    plan.needs_preserved_name = True
    return plans


class ConvertPureIncoreKernel(RewritePattern):
    """A non-mixed incore kernel: pure cube -> `aic`; pure vector or shared only -> `aiv`; `pto.split` dropped."""

    def __init__(self, affinity: KernelAffinity):
        self.affinity = affinity

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.FuncOp, rewriter: PatternRewriter) -> None:
        if kind_of(op) != FunctionKind.INCORE:
            return
        roll = self.affinity.roll(op)
        if roll == Affinity.MIXED:
            return
        set_kind(op, CoreSide.of_affinity(roll).kind)
        op.attributes.pop(SPLIT_ATTR, None)
        rewriter.notify_op_modified(op)


def boundary_patterns(body: SideBody) -> list[RewritePattern]:
    """This side's boundary patterns: the MX-scale ones first (they claim their boundaries, mx_scale.py), then one
    per boundary kind (boundaries.py)."""
    return mx_scale_patterns(body) + [
        LowerCubeToVectorMove(body), LowerVectorToCubeMove(body), LowerAivShard(body), LowerAicGather(body)
    ]


def build_side(original: func.FuncOp, side: CoreSide, target: str, affinity: AffinityAnalysis, name: str) -> SideBody:
    """Clone, lower the boundaries for this side, prune the other side, then repair and DCE."""
    body = SideBody.clone_of(original, side, target, affinity)
    # No applier DCE: an unused boundary (a `pto.move` / `aiv_shard` / `aic_gather` whose result nobody reads)
    # is pure, and the applier would erase it before its pattern sees it, losing the tpush/tpop pair. Dead
    # values are pruned by `finalize_split_body`'s own DCE, which keeps pops, pushes, stores and calls.
    PatternRewriteWalker(
        GreedyRewritePatternApplier(boundary_patterns(body), dce_enabled=False), apply_recursively=False
    ).rewrite_region(body.func.body)
    body.prune_other_side()
    if side is CoreSide.AIC:
        make_aic_function(body.func, name)
    else:
        make_aiv_function(body.func, name)
    finalize_split_body(body)
    return body


def require_fenced(f: func.FuncOp, placement: AffinityAnalysis, state: ExpansionState, module: ModuleOp) -> None:
    """Run alone, the split checks that `insert-gm-fences` left no cross-core GM dependence of `f` unordered."""
    for dep in gm_dependences(f, placement, state.aliases(module)):
        if not is_ordered(dep):
            raise PtoError(
                f"split-mixed-kernel: the mixed kernel '@{f.sym_name.data}' has a cross-core GM dependence that no "
                f"transfer orders ({dep.describe()}), but this phase expects every such dependence fenced; run "
                f"--insert-gm-fences before --split-mixed-kernel",
                op=dep.src.op,
            )


class ExpandMixedIncoreKernel(RewritePattern):
    """A mixed incore kernel `@f` -> `@f_aic`, `@f_aiv` (and the Group `@f` when a caller needs the name)."""

    def __init__(self, module: ModuleOp, state: ExpansionState, plans: dict[str, CallerPlan],
                 expanded: dict[str, tuple[str, str]]):
        self.module, self.state, self.plans, self.expanded = module, state, plans, expanded
        self.symbols = {f.sym_name.data for f in functions(module)}

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.FuncOp, rewriter: PatternRewriter) -> None:
        state = self.state
        if kind_of(op) != FunctionKind.INCORE or not op.body.blocks:
            return
        if state.affinity.roll(op) != Affinity.MIXED:
            return
        affinity = state.affinity.placement(op)
        if not state.trusted:
            check_mixed_kernel(op, self.symbols)
            require_fenced(op, affinity, state, self.module)
        name = op.sym_name.data
        aic_name, aiv_name = half_name(name, CoreSide.AIC), half_name(name, CoreSide.AIV)
        aic = build_side(op, CoreSide.AIC, state.target, affinity, aic_name)
        aiv = build_side(op, CoreSide.AIV, state.target, affinity, aiv_name)
        rewriter.insert([aic.func, aiv.func], InsertPoint.before(op))
        stamp_dual_aiv_dispatch(aiv.func, op, state.target)
        mark_pending(aic.func)
        mark_pending(aiv.func)
        plan = self.plans.get(name, CallerPlan())
        if plan.has_group_caller:
            self.expanded[name] = (aic_name, aiv_name)
        if plan.create_group:
            rewriter.insert(build_group(op, aic_name, aiv_name), InsertPoint.before(op))
        rewriter.erase(op)


@dataclass(frozen=True)
class SplitMixedKernelPass(ExpansionPhase):
    """`--split-mixed-kernel` (module doc)."""

    name = "split-mixed-kernel"

    def run(self, module: ModuleOp, state: ExpansionState) -> None:
        if not state.trusted:
            check_expansion_input(module, state)
        expanded: dict[str, tuple[str, str]] = {}
        # No applier DCE: the walker visits every op of every function, and would erase the last dead op of
        # functions the pass does not split (one more per run: the output would not be a fixed point). Like the
        # reference, only the split kernels' bodies are pruned (by their own DCE); other functions pass through.
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [ExpandMixedIncoreKernel(module, state, plan_callers(module), expanded),
                 ConvertPureIncoreKernel(state.affinity)],
                dce_enabled=False,
            ),
            apply_recursively=False,
            walk_regions_first=False,
        ).rewrite_module(module)
        if expanded:
            PatternRewriteWalker(RewriteGroupCaller(expanded), apply_recursively=False).rewrite_module(module)
