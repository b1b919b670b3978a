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

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from pypto_mlir.diagnostics import PtoError, emit_remark
from pypto_mlir.verify import ensure_verified
from pypto_mlir.dialects.pto_ops import TRANSFER_OPS, AicGatherOp, AivShardOp
from pypto_mlir.dialects.pto_types import SPLIT_ATTR, FuncFlag, has_flag, set_flag, set_split_mode
from pypto_mlir.passes.analysis.split_codes import gather_split_code, shard_split_code
from pypto_mlir.passes.analysis.affinity import is_mixed
from pypto_mlir.dialects.pto_lanes import DATA_PARALLEL_MODES, split_dim_of

from ..common import FunctionKind, inline_execute_regions, kind_of, old_heap_frozen, split_mode
from ..decisions import record, recording
from .auto.full_width import full_width_chains
from .auto.generator_axes import generator_axes
from .auto.lane_stride import scan_lane_stride
from .lowering import SplitLowering, inject_subblock_idx
from .patterns.base import PASS
from .patterns.boundaries import carry_unplaceable_shards_whole
from .regions.lower import has_split_aiv_scope, lower_region_function

from .auto.lane_races import check_cross_lane_gm_races

CONTROL_FLOW = (scf.ForOp, scf.IfOp, scf.WhileOp, scf.YieldOp, scf.ConditionOp)


def is_auto_candidate(f: func.FuncOp) -> bool:
    """AUTO path scope: incore, split up_down/left_right, not yet split_aiv, mixed body."""
    return (
        kind_of(f) == FunctionKind.INCORE
        and split_mode(f) in DATA_PARALLEL_MODES
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


def lower_auto_function(f: func.FuncOp, mode: str) -> SplitLowering:
    """The AUTO path on one eligible function (in place); returns the lowering state (for tests)."""
    check_no_scope(f, mode)
    block = f.body.block
    idx = inject_subblock_idx(block, f)
    dim = split_dim_of(mode)
    full_width = full_width_chains(f, dim)
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

    def __post_init__(self) -> None:
        if self.fallback not in FALLBACKS:
            raise ValueError(
                f"lower-auto-vector-split: unknown fallback policy '{self.fallback}'; expected one of "
                f"{', '.join(FALLBACKS)} (error: reject a kernel that cannot be lane-split; unsplit: compile it "
                "unsplit with a remark)"
            )

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
        mode = split_mode(f)
        name = f.sym_name.data
        # A kernel with hand-written transfers carries split codes, so it has no unsplit form to fall back to.
        handwritten = frozenset(op for op in f.walk() if isinstance(op, TRANSFERS))
        pristine = f.clone() if self.fallback == "unsplit" and not handwritten else None
        # Each op as written, in the pristine copy: the remark names the forcing op of the input (a host that
        # parses without locations, xdsl-opt, finds it in the source by its position among its function's ops).
        as_written = dict(zip(f.walk(), pristine.walk())) if pristine is not None else {}
        try:
            lw = lower_auto_function(f, mode)
            check_split_codes(f, skip=handwritten)
        except PtoError as e:
            if _is_internal(e) or handwritten:
                raise
            if pristine is None:
                raise PtoError(e.message + FALLBACK_HINT, op=e.op, loc=e.loc, notes=e.notes) from None
            Rewriter.replace_op(f, pristine)
            set_split_mode(pristine, "none")
            reason = _unprefixed(e.message)
            if self.remarks:
                emit_remark(
                    f"{PASS}: kernel '{name}' is compiled unsplit (fallback=unsplit, pto.split<none> instead of "
                    f"pto.split<{mode}>) because {_forcing_op(e)} here cannot be lane-split: {reason}{ERROR_HINT}",
                    op=as_written.get(e.op, pristine),  # type: ignore[arg-type]
                    loc=e.loc,  # None: the op's own location
                )
            self._report(
                pristine,
                f"falls back to unsplit because of {_forcing_op(e)} at {e.loc or '?'}: {reason}",
                "fallback-unsplit",
                requested=mode,
                forced_by=_forcing_op(e),
                at=str(e.loc) if e.loc is not None else None,
                reason=reason,
            )
            return
        stride = f" with lane_stride {lw.lane_stride}" if lw.lane_stride is not None else " (box partition)"
        # `cross_lane_combines`: the workspace round trips the split added (one per reduction over the split axis,
        # per execution of it); absent when there are none, so the reports of kernels without one do not change.
        combines = lw.cross_lane_combines
        across = f", {len(combines)} reduction(s) combined across the lanes" if combines else ""
        extra: dict = {"cross_lane_combines": len(combines), "combines": combines} if combines else {}
        self._report(
            f, f"is lane-split {mode}{stride}{across}", "lane-split", mode=mode, lane_stride=lw.lane_stride, **extra
        )

    def _report(self, f: func.FuncOp, what: str, decision: str = "", **facts: object) -> None:
        if decision:
            record(PASS, f.sym_name.data, decision, summary=what, **facts)
        if self.report:
            emit_remark(f"{PASS} report: kernel '{f.sym_name.data}' {what}", op=f)


def _why_not_auto(f: func.FuncOp) -> str:
    mode = split_mode(f)
    if mode not in ("up_down", "left_right"):
        return "no split requested (pto.split absent or none)"
    if has_flag(f, FuncFlag.SPLIT_AIV):
        return "already in the explicit per-lane form (pto.split_aiv)"
    return f"pto.split<{mode}> is requested but the body is not a mixed cube/vector kernel (nothing crosses the cores)"
