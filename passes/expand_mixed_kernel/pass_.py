"""ExpandMixedKernel: split mixed `incore` kernels into AIC + AIV kernels joined by tpush/tpop, plus a Group.

Structural half (this file, `split.py`, `boundaries.py`, `repair.py`, `group.py`; GM lineage in `../analysis/lineage.py`), following
`expand-mixed-kernel.reference.md` §1-§3, §5, §6, §7.2; the pipe protocol half (`gm_sync.py`, `tfree.py`,
`pipe_setup.py`, `manual_push.py`, `verifier.py`) is called from `ExpandMixedIncoreKernel`, per expanded
function in this order: `insert_gm_fences` on the mixed body (then the affinity is recomputed), then (after the
split and the loop repair) `finalize_tfrees` on each side, `build_pipe_setup`, `stamp_dual_aiv_dispatch`; and once per
module `adapt_manual_v2c_pushes`, then `verify_mixed_kernel_expanded`.

Phases (module pass, driven by rewrite patterns):
  1. prescan: which incore kernels have a Group caller, and which have another caller (Orchestration, Spmd,
     ...) that needs the original name to keep working;
  2. `ConvertPureIncoreKernel` (non-mixed: kind aic / aiv, `pto.split` dropped) and `ExpandMixedIncoreKernel`
     (mixed: `@<f>_aic`, `@<f>_aiv`, and a Group `@<f>` unless only Group callers exist);
  3. `RewriteGroupCaller`: existing Group callers call both halves directly;
  4. once per module: `adapt_manual_v2c_pushes`, then `verify_mixed_kernel_expanded`.
Before phase 1 every incore function has its `scf.execute_region`s inlined (`common.inline_execute_regions`, the
rule LowerAutoVectorSplit applies too), so the split, the repair, the fences and the tfree placement never meet one.
Functions of any other kind (aic, aiv, group, ...) pass through, so the pass is idempotent on its output.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from io import StringIO

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.printer import Printer
from xdsl.rewriter import InsertPoint

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.verify import ensure_verified
from pypto_mlir.dialects.pto_ops import SplitAivScopeOp
from pypto_mlir.dialects.pto_traits import CoreSide
from pypto_mlir.dialects.pto_types import DYNAMIC, SPLIT_ATTR, FuncFlag, FuncInt, TileType, has_flag, int_attr_of

from ..analysis.affinity import Affinity, AffinityAnalysis
from ..analysis.lanes import DATA_PARALLEL_MODES, split_dim_of
from ..analysis.transpose_hazard import find_transpose_hazard
from ..analysis.hazards import Aliases, param_aliases
from ..common import (
    FunctionKind,
    inline_execute_regions,
    kind_of,
    old_heap_frozen,
    require_target,
    set_kind,
    split_mode,
)
from .boundaries import LowerAicGather, LowerAivShard, LowerCubeToVectorMove, LowerVectorToCubeMove
from .deferred_waiters import audit_deferred_waiters
from .group_abi import normalize_group_abi
from .group import RewriteGroupCaller, build_group, make_aic_function, make_aiv_function
from .gm_sync import insert_gm_fences
from .manual_push import adapt_manual_v2c_pushes
from .mx_scale import mx_scale_patterns
from .pipe_setup import build_pipe_setup, stamp_dual_aiv_dispatch
from .repair import finalize_split_body
from .ring_depth import RING_DEPTHS, choose_ring_depths
from .split import SideBody
from .tfree import finalize_tfrees
from .verifier import verify_mixed_kernel_expanded

PASS_NAME = "ExpandMixedKernel"


@dataclass
class CallerPlan:
    has_group_caller: bool = False
    needs_preserved_name: bool = False

    @property
    def create_group(self) -> bool:
        return self.needs_preserved_name or not self.has_group_caller


@dataclass
class ModuleState:
    target: str
    plans: dict[str, CallerPlan]
    symbols: set[str] = field(default_factory=set)
    """names of the module's functions before the pass."""
    expanded: dict[str, tuple[str, str]] = field(default_factory=dict)
    auto_depth: list[str] = field(default_factory=list)  # expanded kernels that set no ring depth
    """kernels with a Group caller to rewrite: name -> (aic name, aiv name)."""
    aliases: Aliases = field(default_factory=dict)
    """tensor parameters the module's callers bind to one buffer (`analysis.hazards.param_aliases`)."""
    affinity: KernelAffinity = field(default_factory=lambda: KernelAffinity())
    """each incore kernel's affinity, computed once for the patterns and the audits."""


class KernelAffinity:
    """The two affinity analyses of the pass, computed at most once per incore kernel and shared by the audit and
    the patterns (the conventions: an analysis is computed once and passed in, not recomputed per pattern).

    - `roll(f)`: the intrinsic affinity of the body, which decides pure (`aic` / `aiv`) against mixed;
    - `placement(f)`: where the split puts each op (`placement_of`). It is cached for the kernel as read before
      the pass changes it; `insert_gm_fences` adds ops, so the split recomputes it after fencing."""

    def __init__(self) -> None:
        self._rolls: dict[func.FuncOp, Affinity] = {}
        self._placements: dict[func.FuncOp, AffinityAnalysis] = {}

    def roll(self, f: func.FuncOp) -> Affinity:
        if f not in self._rolls:
            self._rolls[f] = AffinityAnalysis(f).of_block(f.body.block) if f.body.blocks else Affinity.SHARED
        return self._rolls[f]

    def placement(self, f: func.FuncOp) -> AffinityAnalysis:
        if f not in self._placements:
            self._placements[f] = placement_of(f)
        return self._placements[f]


# ---------------------------------------------------------------------------------------------------------------
# checks
# ---------------------------------------------------------------------------------------------------------------


def reject_unlowered_regions(f: func.FuncOp) -> None:
    for op in f.walk():
        if isinstance(op, SplitAivScopeOp):
            raise PtoError(
                f"{PASS_NAME}: a pto.split_aiv_scope region reached the pass in '@{f.sym_name.data}'; regions are "
                f"lowered by LowerAutoVectorSplit, so run --lower-auto-vector-split before --expand-mixed-kernel",
                op=op,
            )


def reject_unlowered_split(f: func.FuncOp) -> None:
    """A mixed kernel with a data-parallel split mode must have been lowered by LowerAutoVectorSplit first.

    The pass requires the per-lane form (seed: `AivSplitLoweredValid`, checked here as a whole-function
    precondition because `pypto-opt --expand-mixed-kernel` can run the pass alone): `pto.split = up_down|
    left_right` is only a request, and the body of a kernel that still carries it without `pto.split_aiv` is
    full-width code (or hand-written transfers that the AUTO lowering has not placed). Split as it is, its AIV
    half would be neither split (`pto.split_aiv`: two real lanes, each on its part) nor a dual dispatch (lane 1
    replays the handshakes only; the reference stamps that only without a split mode): on a2a3 the hardware
    runs it on both lanes and lane 1 repeats lane 0's transfers and stores, on a5 the split request would be
    dropped silently. The failure is a skipped pass, not something the author can read off the kernel, so the
    message names the step to run."""
    mode = split_mode(f)
    if mode not in DATA_PARALLEL_MODES or has_flag(f, FuncFlag.SPLIT_AIV):
        return
    raise PtoError(
        f"{PASS_NAME}: kernel '@{f.sym_name.data}' requests pto.split<{mode}> but has not been lowered to the "
        f"per-lane form (it has no pto.split_aiv): LowerAutoVectorSplit must run first, so run "
        f"--lower-auto-vector-split before --expand-mixed-kernel",
        op=f,
    )


def check_transpose_hazard(f: func.FuncOp) -> None:
    """§7.2: a split kernel that skipped LowerAutoVectorSplit must not transpose its split axis away.  A kernel
    LowerAutoVectorSplit lowered (`pto.split_aiv`) is not checked: that pass moves the split axis with the
    permutation (each transposed value is split on its own axis) and refuses where values split on different axes
    meet (docs/lower-auto-vector-split.md, "Transposes")."""
    if has_flag(f, FuncFlag.SPLIT_AIV_REGION_VALIDATED) or has_flag(f, FuncFlag.SPLIT_AIV):
        return
    mode = split_mode(f)
    if mode not in DATA_PARALLEL_MODES:
        return
    dim = split_dim_of(mode)
    op = find_transpose_hazard(f.walk(), dim)
    if op is None:
        return
    result = f"%{op.result.name_hint}" if op.result.name_hint else "%<unnamed>"
    raise PtoError(
        f"{PASS_NAME}: kernel '{f.sym_name.data}' requests pto.split<{mode}> but contains a pto.transpose "
        f"(result '{result}') that swaps the split axis (dim {dim}): each AIV lane's half would move to the "
        f"other dimension while the split still halves dim {dim}, so the result would have the wrong shape "
        f"and values. Either (1) drop the split — set pto.split = #pto.split<none> — or (2) eliminate this "
        f"transpose, e.g. take the column you need with a column slice of its source, {_column_slice_hint(op)}",
        op=op,
    )


def _column_slice_hint(transpose: Operation) -> str:
    """`%col = pto.slice %src[0, %j] : <src type> -> <one column of it>` for the source of `transpose`, in the
    dialect's own syntax (the diagnostic is read beside MLIR, not the Python frontend)."""
    src = transpose.operands[0]
    name = f"%{src.name_hint}" if src.name_hint else "%src"
    src_t = src.type
    if not isinstance(src_t, TileType) or src_t.get_shape()[0] == DYNAMIC:
        return f"%col = pto.slice {name}[0, %j] (one column wide)"
    col_t = src_t.with_(shape=[src_t.get_shape()[0], 1], reset_view=True)
    return f"%col = pto.slice {name}[0, %j] : {_type_text(src_t)} -> {_type_text(col_t)}"


def _type_text(t: Attribute) -> str:
    out = StringIO()
    Printer(stream=out).print_attribute(t)
    return out.getvalue()


# ---------------------------------------------------------------------------------------------------------------
# patterns
# ---------------------------------------------------------------------------------------------------------------


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


def placement_of(kernel: func.FuncOp) -> AffinityAnalysis:
    """Where the split puts each op of a mixed kernel: by `placed_affinity` (a no-duplicate op such as
    `pto.notify` goes to the AIV only). Every affinity the split and the fence placement read comes from here,
    so a recomputation (after `insert_gm_fences`) cannot fall back to the intrinsic affinity and copy a notify
    to both sides."""
    return AffinityAnalysis(kernel, placement=True)


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


class ExpandMixedIncoreKernel(RewritePattern):
    """A mixed incore kernel `@f` -> `@f_aic`, `@f_aiv` (and the Group `@f` when a caller needs the name)."""

    def __init__(self, state: ModuleState):
        self.state = state

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.FuncOp, rewriter: PatternRewriter) -> None:
        if kind_of(op) != FunctionKind.INCORE or not op.body.blocks:
            return
        if self.state.affinity.roll(op) != Affinity.MIXED:
            return
        affinity = self.state.affinity.placement(op)
        check_transpose_hazard(op)
        reject_unlowered_split(op)
        name = op.sym_name.data
        aic_name, aiv_name = f"{name}_aic", f"{name}_aiv"
        for taken in (aic_name, aiv_name):
            if taken in self.state.symbols:
                raise PtoError(
                    f"{PASS_NAME}: cannot split the mixed kernel '@{name}': its halves are named '@{aic_name}' and "
                    f"'@{aiv_name}', but '@{taken}' already exists in the module; rename that function",
                    op=op,
                )
        target = self.state.target
        if insert_gm_fences(op, affinity, self.state.aliases):
            affinity = placement_of(op)  # the fences are cube and vector ops of the mixed body
        aic = build_side(op, CoreSide.AIC, target, affinity, aic_name)
        aiv = build_side(op, CoreSide.AIV, target, affinity, aiv_name)
        rewriter.insert([aic.func, aiv.func], InsertPoint.before(op))
        finalize_tfrees(aic.func, CoreSide.AIC)
        finalize_tfrees(aiv.func, CoreSide.AIV)
        build_pipe_setup(aic.func, aiv.func, name, op, target)
        if int_attr_of(op, FuncInt.SLOT_NUM) is None and int_attr_of(op, FuncInt.LOCAL_SLOT_NUM) is None:
            self.state.auto_depth.append(name)
        stamp_dual_aiv_dispatch(aiv.func, op, target)
        plan = self.state.plans.get(name, CallerPlan())
        if plan.has_group_caller:
            self.state.expanded[name] = (aic_name, aiv_name)
        if plan.create_group:
            rewriter.insert(build_group(op, aic_name, aiv_name), InsertPoint.before(op))
        rewriter.erase(op)


# ---------------------------------------------------------------------------------------------------------------
# the pass
# ---------------------------------------------------------------------------------------------------------------


def plan_callers(module: ModuleOp) -> dict[str, CallerPlan]:
    funcs = [f for f in module.body.block.ops if isinstance(f, func.FuncOp)]
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


@dataclass(frozen=True)
class ExpandMixedKernelPass(ModulePass):
    """Split every mixed incore kernel into `@<f>_aic` + `@<f>_aiv` (+ the Group `@<f>` its callers need).

    Guarantees on success (checked by `verify_mixed_kernel_expanded` before returning): no incore kernel is
    left mixed; every cube<->vector boundary is a tpush/tpop pair in the target's layout; every tpop is freed
    exactly once after its last use in its block; each expanded pair has its pipe setup; callers reach both
    halves; the module verifies, and running the pass again changes nothing. On a rejected input a located
    `PtoError` is raised and the module must be discarded."""

    name = "expand-mixed-kernel"

    ring_depth: str = "auto"
    """`auto`: a kernel that sets no `pto.slot_num` gets the ring depth the timing model finds best within the
    memory budget, never below the default 2 (`ring_depth.py`); `fixed`: the default depth 2, as the reference."""

    def __post_init__(self) -> None:
        if self.ring_depth not in RING_DEPTHS:
            raise ValueError(
                f"expand-mixed-kernel: unknown ring-depth '{self.ring_depth}'; expected one of {', '.join(RING_DEPTHS)} "
                "(auto: the timing model chooses the depth of a kernel that sets no pto.slot_num; fixed: always 2)"
            )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ensure_verified(op)  # the input must be valid IR (a no-op when the pipeline runner verified it)
        with old_heap_frozen():
            self._apply(op)

    def _apply(self, op: ModuleOp) -> None:
        target = require_target(op, PASS_NAME)
        for f in op.body.block.ops:
            if isinstance(f, func.FuncOp) and kind_of(f) == FunctionKind.INCORE:
                inline_execute_regions(f)  # the rule of both passes (common.py): the split sees one body
                reject_unlowered_regions(f)
        affinity = KernelAffinity()
        audit_deferred_waiters(op, affinity.placement)
        symbols = {f.sym_name.data for f in op.body.block.ops if isinstance(f, func.FuncOp)}
        state = ModuleState(target, plan_callers(op), symbols, aliases=param_aliases(op), affinity=affinity)
        # No applier DCE: the walker visits every op of every function, and would erase the last dead op of
        # functions the pass does not split (one more per run: the output would not be a fixed point). Like the
        # reference, only the split kernels' bodies are pruned (by their own DCE); other functions pass through.
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [ExpandMixedIncoreKernel(state), ConvertPureIncoreKernel(state.affinity)], dce_enabled=False
            ),
            apply_recursively=False,
            walk_regions_first=False,
        ).rewrite_module(op)
        if state.expanded:
            PatternRewriteWalker(RewriteGroupCaller(state.expanded), apply_recursively=False).rewrite_module(op)
        normalize_group_abi(op, target)
        adapt_manual_v2c_pushes(op, target)
        verify_mixed_kernel_expanded(op)
        if self.ring_depth == "auto" and state.auto_depth:
            choose_ring_depths(op, state.auto_depth, target)
