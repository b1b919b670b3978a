"""LowerAutoVectorSplit: turn AUTO-split mixed incore kernels into the explicit `split_aiv` form.

For every function of the module (reference §1), the first branch that applies:

1. an `incore` function holding a `pto.split_aiv_scope` anywhere -> the region path (`regions.py`);
2. an `incore` function with `pto.split = up_down|left_right`, no `pto.split_aiv`, whose body is mixed
   (shared affinity analysis) -> `lower_auto_function` (the AUTO path);
3. anything else passes through unchanged (pure-vector split functions included).

A function of branch 1 or 2 first has its `scf.execute_region`s inlined (`common.inline_execute_regions`, the
rule ExpandMixedKernel applies too): both paths then see one body, with no wrapper to descend into or refuse.

The AUTO path injects `%subblock_idx`, resolves the balanced lane stride (§2.4), runs `SplitLowering` over the
body (boundaries, halving, control flow), runs the internal cube check and sets the attributes
(`pto.split` kept, `pto.split_aiv` set, `pto.dual_aiv_dispatch` dropped).  It then checks that ExpandMixedKernel
can place every transfer it created (`check_split_codes`).  A kernel the AUTO path rejects is compiled unsplit
with a located remark (`fallback=unsplit`, the default: an AUTO split is a request, not a contract) or is a
located error (`fallback=error`, naming the option).  Hand-written `split_aiv_scope` regions and hand-written
transfers have no unsplit form: their rejections are errors under either policy.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.passes import ModulePass

from pypto_mlir.diagnostics import PtoError, emit_remark
from pypto_mlir.verify import ensure_verified
from pypto_mlir.dialects.pto_ops import TRANSFER_OPS, AicGatherOp, AivShardOp
from pypto_mlir.dialects.pto_types import AUTO_SPLIT, SPLIT_ATTR, FuncFlag, has_flag, set_flag, set_split_mode
from pypto_mlir.passes.analysis.split_codes import gather_split_code, shard_split_code
from pypto_mlir.passes.analysis.affinity import is_mixed
from pypto_mlir.dialects.pto_lanes import DATA_PARALLEL_MODES, split_dim_of

from ..common import FunctionKind, inline_execute_regions, kind_of, old_heap_frozen, split_mode
from ..decisions import record, recording
from .auto.choice import SPLIT_POLICIES, SplitCostModel, choose_axis, missing_model, split_pays
from .auto.full_width import full_width_chains
from .auto.view_folds import fold_view_chains
from .auto.generator_axes import generator_axes
from .auto.lane_stride import scan_lane_stride
from .auto.whole_retry import MAX_LOWERINGS, RootKey, halves_something, resolve, whole_candidates
from .lowering import SplitLowering, inject_subblock_idx
from .patterns.base import PASS
from .patterns.boundaries import carry_unplaceable_shards_whole
from .regions.lower import has_split_aiv_scope, lower_region_function

from .auto.lane_races import check_cross_lane_gm_races

CONTROL_FLOW = (scf.ForOp, scf.IfOp, scf.WhileOp, scf.YieldOp, scf.ConditionOp)


def is_auto_candidate(f: func.FuncOp) -> bool:
    """AUTO path scope: incore, split up_down/left_right/auto, not yet split_aiv, mixed body."""
    return (
        kind_of(f) == FunctionKind.INCORE
        and split_mode(f) in (*DATA_PARALLEL_MODES, AUTO_SPLIT)
        and not has_flag(f, FuncFlag.SPLIT_AIV)
        and bool(f.body.blocks)
        and is_mixed(f)
    )


def check_no_scope(f: func.FuncOp, mode: str) -> None:
    """E-AUTO-SCOPE: the AUTO path only descends into scf.for / scf.if / scf.while (an `scf.execute_region` was
    inlined before this check); any other op with a region (`scf.index_switch`, ...) is refused."""
    for op in f.body.walk():
        if op.regions and not isinstance(op, CONTROL_FLOW):
            raise PtoError(
                f"{PASS}: function '{f.sym_name.data}' declares an AUTO split (pto.split = #pto.split<{mode}>) and "
                f"is a mixed cube/vector kernel, but its body still contains a scope ('{op.name}'), which the AUTO "
                "split cannot lower. Inline or outline the scope first (the AUTO path descends into scf.for, "
                "scf.if and scf.while, and inlines scf.execute_region), or drop pto.split and author explicit "
                "pto.split_aiv_scope regions",
                op=op,
            )


def lower_auto_function(f: func.FuncOp, mode: str, whole_roots: tuple[SSAValue, ...] = ()) -> SplitLowering:
    """The AUTO path on one eligible function (in place); returns the lowering state (for tests).  `whole_roots`:
    values of `f` whose producers run whole on both lanes (`auto/whole_retry.py`)."""
    check_no_scope(f, mode)
    block = f.body.block
    idx = inject_subblock_idx(block, f)
    dim = split_dim_of(mode)
    fold_view_chains(f, dim)
    live_roots = tuple(r for r in whole_roots if not (isinstance(r, OpResult) and r.op.parent is None))  # not folded away
    full_width = full_width_chains(f, dim, live_roots)
    stride = scan_lane_stride(f, dim, full_width)
    lw = SplitLowering(
        mode, idx.result, idx, lane_stride=stride, where=f"'{f.sym_name.data}'", full_width=full_width,
        keeps_whole=True, free_axes=generator_axes(f, dim), cross_lane=True,
    )
    lw.lower_block(block)
    lw.check_no_cube_tile_halved(f)
    check_cross_lane_gm_races(f, lw.tracked)
    # Re-set in this order so the attributes print as `pto.split = ..., pto.split_aiv`.
    f.attributes.pop(SPLIT_ATTR)
    set_flag(f, FuncFlag.SPLIT_AIV, False)
    set_flag(f, FuncFlag.DUAL_AIV_DISPATCH, False)
    set_split_mode(f, mode)
    set_flag(f, FuncFlag.SPLIT_AIV)
    return lw


FALLBACKS = ("error", "unsplit")
ERROR_HINT = "; to reject such a kernel instead: --lower-auto-vector-split{fallback=error}"
FALLBACK_HINT = (
    "; or compile the kernel unsplit instead (pto.split<none>, the vector work on one lane): "
    "--lower-auto-vector-split{fallback=unsplit}"
)


TRANSFERS = (AivShardOp, AicGatherOp, *TRANSFER_OPS)


def check_split_codes(f: func.FuncOp, skip: frozenset[Operation] = frozenset()) -> None:
    """The transfers ExpandMixedKernel will build for this split function must be placeable by pto-isa: the split
    code of every `aiv_shard` / `aic_gather` (E-SHARD-CODE / E-GATHER-CODE).  Checked here so that a kernel that
    cannot be split is rejected (or falls back) by this pass, at the op that forced it, instead of failing later in
    ExpandMixedKernel.  (A transpose that moves the split axis is lowered, not refused: `TransposeHalving` moves
    the axis with the permutation, and `SplitLowering` refuses where values split on different axes meet.)"""
    for op in f.walk():
        if op in skip:
            continue  # hand-written before the pass: ExpandMixedKernel checks them
        try:
            if isinstance(op, AivShardOp):
                stride = op.lane_stride.value.data if op.lane_stride is not None else None
                shard_split_code(op.src.type, op.split.value.data, stride, op)  # type: ignore[arg-type]
            elif isinstance(op, AicGatherOp):
                gather_split_code(op.result.type, op.split.value.data, op)  # type: ignore[arg-type]
        except PtoError as e:
            raise PtoError(_as_ours(e.message), op=op) from None


def _as_ours(message: str) -> str:
    prefix = "ExpandMixedKernel: "
    return f"{PASS}: " + (message[len(prefix) :] if message.startswith(prefix) else message)


def _is_internal(e: PtoError) -> bool:
    return e.message.startswith("Internal error") or "internal compiler error" in e.message


def _unprefixed(message: str) -> str:
    for prefix in (f"{PASS}: ",):
        if message.startswith(prefix):
            return message[len(prefix) :]
    return message


def _where(e: PtoError) -> str:
    return str(e.loc) if e.loc is not None else "?"


@dataclass
class _Attempt:
    """The kernel lowered on one axis (`lw` its lowering state), or the error that stopped it (`form` is then the
    partly lowered copy, to be dropped); `as_written` maps the copy's ops to the kernel as written."""

    axis: str
    form: func.FuncOp
    lw: SplitLowering
    error: PtoError | None
    as_written: dict[Operation, Operation]
    kept_whole: int = 0
    """how many values this lowering kept whole where per-lane values met another axis or width (whole_retry.py)."""


class _AutoRun:
    """One kernel on the AUTO path: the copy as written (`pristine`), and the one form of it in the module at a
    time (`put` swaps another in: a lowered attempt, the unsplit form)."""

    def __init__(self, f: func.FuncOp, pristine: func.FuncOp):
        self.current = f
        self.pristine = pristine
        self.name = f.sym_name.data
        module = f.parent_op()
        while module is not None and not isinstance(module, ModuleOp):
            module = module.parent_op()
        assert module is not None, "an AUTO kernel is lowered inside its module"
        self.module: ModuleOp = module

    def put(self, form: func.FuncOp) -> None:
        if form is self.current:
            return
        block = self.current.parent_block()
        assert block is not None
        block.insert_op_before(form, self.current)
        self.current.detach()
        self.current = form


def _forcing_op(e: PtoError) -> str:
    if isinstance(e.op, AivShardOp):
        return "the C->V boundary"
    if isinstance(e.op, AicGatherOp):
        return "the V->C boundary"
    return f"'{e.op.name}'" if e.op is not None else "an op"


@dataclass(frozen=True)
class LowerAutoVectorSplitPass(ModulePass):
    """Lower every AUTO-split mixed incore kernel and every `split_aiv` region function to the explicit
    `split_aiv` form.

    Options (`lower-auto-vector-split{fallback=unsplit report=true}`, or the dataclass fields from Python):

    * `fallback`: what to do with an AUTO kernel that cannot be lane-split (an AUTO split is a request, not a
      contract). `unsplit` (default): the kernel is left unsplit (`pto.split = #pto.split<none>`, body
      unchanged; ExpandMixedKernel then gives its AIV `pto.dual_aiv_dispatch` on a2a3, one lane on a5) and a
      located remark at that op says why and names `fallback=error`. `error`: a located error at the op that
      forced it (the split as a contract).
    * `report`: a remark per incore kernel at its `func.func`: split (mode, lane stride), fallen back (why), or
      left alone (why).
    * `remarks`: `false` silences the fallback remarks (the report, when asked for, is still printed).

    Guarantees on success: each lowered function has `pto.split_aiv`, its vector ops work on one lane's half
    (offsets localized by `pto.get_subblock_idx`), its cube<->vector boundaries are `aiv_shard` / `aic_gather`
    whose split codes pto-isa can place; a fallen-back kernel is unchanged but for `pto.split<none>`; other
    functions are unchanged; the module verifies. On a rejected input a located `PtoError` is raised and the
    module must be discarded."""

    name = "lower-auto-vector-split"

    fallback: str = "unsplit"
    report: bool = False
    remarks: bool = True
    split_policy: str = "pays"

    split_model: ClassVar[SplitCostModel | None] = None
    """The timing model the choices of `auto/choice.py` ask (not an option: `with_split_model` gives a copy its
    own; the drivers hand `pypto_mlir.pipeline.DefaultSplitCostModel`)."""

    def __post_init__(self) -> None:
        if self.fallback not in FALLBACKS:
            raise ValueError(
                f"lower-auto-vector-split: unknown fallback policy '{self.fallback}'; expected one of "
                f"{', '.join(FALLBACKS)} (error: reject a kernel that cannot be lane-split; unsplit: compile it "
                "unsplit with a remark)"
            )
        if self.split_policy not in SPLIT_POLICIES:
            raise ValueError(
                f"lower-auto-vector-split: unknown split-policy '{self.split_policy}'; expected one of "
                f"{', '.join(SPLIT_POLICIES)} (pays: keep a split that needs extra cross-lane work only when the "
                "timing model says it is not slower than the unsplit kernel; always: split whenever the rules allow)"
            )

    def with_split_model(self, model: SplitCostModel | None) -> LowerAutoVectorSplitPass:
        """A copy of this pass that times with `model`."""
        copy = replace(self)
        object.__setattr__(copy, "split_model", model)
        return copy

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ensure_verified(op)  # the input must be valid IR (a no-op when the pipeline runner verified it)
        with old_heap_frozen():
            self._apply(op)

    def _apply(self, op: ModuleOp) -> None:
        for f in list(op.walk()):
            if not isinstance(f, func.FuncOp) or kind_of(f) != FunctionKind.INCORE or not f.body.blocks:
                continue
            region_path = has_split_aiv_scope(f)
            auto = not region_path and is_auto_candidate(f)
            if region_path or auto:
                inline_execute_regions(f)
            if region_path:
                lower_region_function(f)
                carry_unplaceable_shards_whole(f)
                self._report(
                    f, "has pto.split_aiv_scope regions: each region is lowered with its own mode", "regions"
                )
                continue
            if auto:
                self._lower_auto(f)
            elif self.report or recording():
                self._report(f, f"is left alone: {_why_not_auto(f)}", "left-alone")

    def _lower_auto(self, f: func.FuncOp) -> None:
        """The AUTO path of one kernel: lower it on its axis (or on each axis, for `auto`), choose, and keep the
        split, fall back unsplit, or raise (`auto/choice.py` for the choices by the timing model)."""
        requested = split_mode(f)
        # A kernel with hand-written transfers carries split codes, so it has no unsplit form to fall back to.
        handwritten = any(isinstance(op, TRANSFERS) for op in f.walk())
        can_fall_back = self.fallback == "unsplit" and not handwritten
        run = _AutoRun(f, f.clone())
        axes = DATA_PARALLEL_MODES if requested == AUTO_SPLIT else (requested,)
        attempts = [self._attempt(run, axis, first=i == 0) for i, axis in enumerate(axes)]
        ok = {a.axis: a for a in attempts if a.error is None}
        if not ok:
            self._refuse(run, requested, attempts, can_fall_back)
            return
        facts: dict = {}
        if requested == AUTO_SPLIT:
            timed = {axis: self._time(run, a.form, "the split axis") for axis, a in ok.items()} if len(ok) > 1 else {}
            choice = choose_axis({axis: len(a.lw.cross_lane_combines) for axis, a in ok.items()}, timed)
            facts["axis"] = {
                "chosen": choice.axis, "why": choice.why, "makespans": choice.makespans,
                "refused": {a.axis: _unprefixed(a.error.message) for a in attempts if a.error is not None},
            }
            chosen = ok[choice.axis]
        else:
            chosen = attempts[0]
        run.put(chosen.form)
        combines = len(chosen.lw.cross_lane_combines)
        if combines:
            facts.update(cross_lane_combines=combines, combines=chosen.lw.cross_lane_combines)
        if chosen.lw.gm_lane_parts:
            facts.update(gm_lane_parts=chosen.lw.gm_lane_parts)
        if chosen.lw.one_writer_stores:
            facts.update(one_writer_stores=len(chosen.lw.one_writer_stores))
        extra = combines or chosen.lw.gm_lane_parts or chosen.kept_whole or chosen.lw.one_writer_stores
        if extra and self.split_policy == "pays" and can_fall_back and not self._pays(run, chosen, facts):
            self._report(run.current, f"is compiled unsplit: {facts['pays']['why']}", "kept-unsplit",
                         requested=requested, **facts)
            return
        lw, mode = chosen.lw, chosen.axis
        stride = f" with lane_stride {lw.lane_stride}" if lw.lane_stride is not None else " (box partition)"
        # `cross_lane_combines`: the workspace round trips the split added (one per reduction over the split axis,
        # per execution of it); absent when there are none, so the reports of kernels without one do not change.
        across = f", {combines} reduction(s) combined across the lanes" if combines else ""
        if chosen.kept_whole:  # absent otherwise, so the reports of other kernels do not change
            facts["kept_whole"] = chosen.kept_whole
            across += (f", {chosen.kept_whole} value(s) computed whole on both lanes where per-lane values met "
                       "another axis or width")
        why = f"; axis {mode}: {facts['axis']['why']}" if "axis" in facts else ""
        pays = f"; {facts['pays']['why']}" if "pays" in facts else ""
        self._report(chosen.form, f"is lane-split {mode}{stride}{across}{why}{pays}", "lane-split", mode=mode,
                     lane_stride=lw.lane_stride, **facts)

    def _pays(self, run: _AutoRun, chosen: _Attempt, facts: dict) -> bool:
        """Whether the split `chosen` (which needs extra work: `split_pays`) is kept: the modelled makespans of it and
        of the unsplit kernel (`split_pays`); the form kept is left in the module, the verdict in `facts`."""
        split_time = facts.get("axis", {}).get("makespans", {}).get(chosen.axis)
        if split_time is None:
            split_time = self._time(run, chosen.form, "whether the split pays")
        unsplit = run.pristine.clone()
        set_split_mode(unsplit, "none")
        unsplit_time = self._time(run, unsplit, "whether the split pays")
        lw = chosen.lw
        verdict = split_pays(split_time, unsplit_time, len(lw.cross_lane_combines), len(lw.gm_lane_parts),
                             chosen.kept_whole, len(lw.one_writer_stores))
        facts["pays"] = {"split": split_time, "unsplit": unsplit_time, "keep_split": verdict.keep_split,
                         "why": verdict.why}
        run.put(chosen.form if verdict.keep_split else unsplit)
        return verdict.keep_split

    def _attempt(self, run: _AutoRun, axis: str, first: bool) -> _Attempt:
        """Lower a fresh copy of the kernel as written on `axis` (the kernel itself for the first attempt), in
        the module; the lowered function, or the error that stopped it.  A refusal that a value computed whole
        would remove (`LaneMismatch`) lowers fresh copies again with such values' producers whole, trying the
        values it names depth first (`auto/whole_retry.py`, at most `MAX_LOWERINGS` lowerings); when none
        succeeds while still halving some vector value, the first refusal stands."""
        refused: _Attempt | None = None
        todo: list[list[RootKey]] = [[]]
        seen: set[frozenset[RootKey]] = set()
        lowerings = 0
        while todo and lowerings < MAX_LOWERINGS:
            roots = todo.pop()
            if frozenset(roots) in seen:
                continue
            seen.add(frozenset(roots))
            lowerings += 1
            trial = run.current if first and refused is None else run.pristine.clone()
            run.put(trial)
            set_split_mode(trial, axis)
            as_written = dict(zip(trial.walk(), run.pristine.walk()))
            skip = frozenset(op for op in trial.walk() if isinstance(op, TRANSFERS))
            try:
                lw = lower_auto_function(trial, axis, *((resolve(roots, trial),) if roots else ()))
                check_split_codes(trial, skip=skip)
            except PtoError as e:
                if _is_internal(e) or skip:
                    raise
                refused = refused or _Attempt(axis, trial, None, e, as_written)  # type: ignore[arg-type]
                more = whole_candidates(e, axis, as_written, run.pristine, roots)
                todo.extend(roots + [k] for k in reversed(more))  # the first candidate is tried first
                continue
            if roots and not halves_something(lw):
                continue  # everything whole: the unsplit kernel run twice, not a split
            return _Attempt(axis, trial, lw, None, as_written, len(roots))
        assert refused is not None and refused.error is not None
        return refused

    def _time(self, run: _AutoRun, form: func.FuncOp, what: str) -> int | str:
        """The modelled makespan of the kernel in the form `form` (put in the module for the question)."""
        if self.split_model is None:
            raise missing_model(run.name, what)
        run.put(form)
        return self.split_model.kernel_makespan(run.module, run.name)

    def _refuse(self, run: _AutoRun, requested: str, attempts: list[_Attempt], can_fall_back: bool) -> None:
        """No axis splits: a located error (`fallback=error`, or no unsplit form), else the kernel unsplit with a
        remark; both give the reason of every axis tried."""
        first = attempts[0].error
        assert first is not None
        if len(attempts) == 1:
            reason, forcing = _unprefixed(first.message), _forcing_op(first)
        else:
            reason = "; ".join(f"{a.axis}: {_forcing_op(a.error)} at {_where(a.error)}: {_unprefixed(a.error.message)}"
                               for a in attempts if a.error is not None)
            forcing = "neither axis"
        notes = [(a.error.loc, f"{a.axis} cannot be lane-split here: {_unprefixed(a.error.message)}")
                 for a in attempts[1:] if a.error is not None]
        if not can_fall_back:
            message = first.message if len(attempts) == 1 else (
                f"{PASS}: kernel '{run.name}' requests pto.split<{AUTO_SPLIT}>, but neither axis can be lane-split: "
                f"{reason}")
            raise PtoError(message + FALLBACK_HINT, op=first.op, loc=first.loc, notes=[*first.notes, *notes]) from None
        pristine = run.pristine
        run.put(pristine)
        set_split_mode(pristine, "none")
        because = (f"{forcing} here cannot be lane-split: {reason}" if len(attempts) == 1
                   else f"neither axis can be lane-split ({reason})")
        if self.remarks:
            emit_remark(
                f"{PASS}: kernel '{run.name}' is compiled unsplit (fallback=unsplit, pto.split<none> instead of "
                f"pto.split<{requested}>) because {because}{ERROR_HINT}",
                op=attempts[0].as_written.get(first.op, pristine),  # type: ignore[arg-type]
                loc=first.loc,  # None: the op's own location
            )
        facts: dict = {"requested": requested, "forced_by": forcing,
                       "at": str(first.loc) if first.loc is not None and len(attempts) == 1 else None, "reason": reason}
        if len(attempts) > 1:
            facts["refused"] = {a.axis: {"forced_by": _forcing_op(a.error), "at": _where(a.error),
                                         "reason": _unprefixed(a.error.message)}
                                for a in attempts if a.error is not None}
            summary = f"falls back to unsplit because {because}"
        else:
            summary = f"falls back to unsplit because of {forcing} at {_where(first)}: {reason}"
        self._report(pristine, summary, "fallback-unsplit", **facts)

    def _report(self, f: func.FuncOp, what: str, decision: str = "", **facts: object) -> None:
        if decision:
            record(PASS, f.sym_name.data, decision, summary=what, **facts)
        if self.report:
            emit_remark(f"{PASS} report: kernel '{f.sym_name.data}' {what}", op=f)


def _why_not_auto(f: func.FuncOp) -> str:
    mode = split_mode(f)
    if mode not in (*DATA_PARALLEL_MODES, AUTO_SPLIT):
        return "no split requested (pto.split absent or none)"
    if has_flag(f, FuncFlag.SPLIT_AIV):
        return "already in the explicit per-lane form (pto.split_aiv)"
    return f"pto.split<{mode}> is requested but the body is not a mixed cube/vector kernel (nothing crosses the cores)"
