"""LowerAutoVectorSplit: turn AUTO-split mixed incore kernels into the explicit `split_aiv` form.

For every function of the module (reference §1), the first branch that applies:

1. an `incore` function holding a `pto.split_aiv_scope` anywhere -> the region path (`regions.py`);
2. an `incore` function with `pto.split = up_down|left_right`, no `pto.split_aiv`, whose body is mixed
   (shared affinity analysis) -> `lower_auto_function` (the AUTO path);
3. anything else passes through unchanged (pure-vector split functions included).

The AUTO path injects `%subblock_idx`, resolves the balanced lane stride (§2.4), runs `SplitLowering` over the
body (boundaries, halving, control flow), runs the internal cube check and sets the attributes
(`pto.split` kept, `pto.split_aiv` set, `pto.dual_aiv_dispatch` dropped).
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.passes import ModulePass

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.passes.analysis.affinity import is_mixed
from pypto_mlir.passes.analysis.lanes import DATA_PARALLEL_MODES, split_dim_of

from ..common import kind_of, old_heap_frozen, split_mode
from . import regions
from .lane_stride import scan_lane_stride
from .lowering import PASS, SplitLowering, inject_subblock_idx

CONTROL_FLOW = (scf.ForOp, scf.IfOp, scf.WhileOp, scf.YieldOp, scf.ConditionOp)


def is_auto_candidate(f: func.FuncOp) -> bool:
    """AUTO path scope: incore, split up_down/left_right, not yet split_aiv, mixed body."""
    return (
        kind_of(f) == "incore"
        and split_mode(f) in DATA_PARALLEL_MODES
        and "pto.split_aiv" not in f.attributes
        and bool(f.body.blocks)
        and is_mixed(f)
    )


def check_no_scope(f: func.FuncOp, mode: str) -> None:
    """E-AUTO-SCOPE: the AUTO path only descends into scf.for / scf.if / scf.while."""
    for op in f.body.walk():
        if op.regions and not isinstance(op, CONTROL_FLOW):
            raise PtoError(
                f"{PASS}: function '{f.sym_name.data}' declares an AUTO split (pto.split = #pto.split<{mode}>) and "
                f"is a mixed cube/vector kernel, but its body still contains a scope ('{op.name}'), which the AUTO "
                "split cannot lower. Inline or outline the scope first (the AUTO path only descends into scf.for, "
                "scf.if and scf.while), or drop pto.split and author explicit pto.split_aiv_scope regions",
                op=op,
            )


def lower_auto_function(f: func.FuncOp, mode: str) -> SplitLowering:
    """The AUTO path on one eligible function (in place); returns the lowering state (for tests)."""
    check_no_scope(f, mode)
    block = f.body.block
    idx = inject_subblock_idx(block, f)
    dim = split_dim_of(mode)
    stride = scan_lane_stride(f, dim)
    lw = SplitLowering(mode, idx.result, idx, lane_stride=stride, where=f"'{f.sym_name.data}'")
    lw.lower_block(block)
    lw.check_no_cube_tile_halved(f)
    split = f.attributes.pop("pto.split")
    f.attributes.pop("pto.split_aiv", None)
    f.attributes.pop("pto.dual_aiv_dispatch", None)
    f.attributes["pto.split"] = split
    f.attributes["pto.split_aiv"] = UnitAttr()
    return lw


class LowerAutoVectorSplitPass(ModulePass):
    """Lower every AUTO-split mixed incore kernel and every `split_aiv` region function to the explicit
    `split_aiv` form.

    Guarantees on success: each lowered function has `pto.split_aiv`, its vector ops work on one lane's half
    (offsets localized by `pto.get_subblock_idx`), and its cube<->vector boundaries are `aiv_shard` /
    `aic_gather` carrying the split code; other functions are unchanged; the module verifies. On a rejected
    input a located `PtoError` is raised and the module must be discarded."""

    name = "lower-auto-vector-split"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with old_heap_frozen():
            self._apply(op)

    def _apply(self, op: ModuleOp) -> None:
        for f in list(op.walk()):
            if not isinstance(f, func.FuncOp) or kind_of(f) != "incore" or not f.body.blocks:
                continue
            if regions.has_split_aiv_scope(f):
                regions.lower_region_function(f)
                continue
            if is_auto_candidate(f):
                lower_auto_function(f, split_mode(f))
