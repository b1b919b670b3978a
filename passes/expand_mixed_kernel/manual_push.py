"""a5 adapter for hand-written V->C pushes (reference §3 "Phase 6 AdaptManualVtoCPush").

On a5 the cube reads the V->C FIFO in the fractal (NZ) layout, so a `pto.tpush_to_aic` of a `vec` tile that is
not NZ would deliver every element to the wrong place.  The boundary path of the pass already inserts the
adapter move; this phase gives the same adapter to pushes the pass did not create (hand-written pipes, pure
vector kernels): in every AIV function,

    pto.tpush_to_aic %t {id = 1 : i64, split = 0 : i64} : !pto.tile<16x128xf16, vec>
becomes
    %t_nz = pto.move %t : !pto.tile<16x128xf16, vec> -> !pto.tile<16x128xf16, vec, blayout = col_major, slayout = row_major>
    pto.tpush_to_aic %t_nz {id = 1 : i64, split = 0 : i64} : !pto.tile<16x128xf16, vec, blayout = col_major, slayout = row_major>

The push keeps all its attributes; only its operand changes.  A push whose tile is already NZ is left alone,
so the phase is idempotent and never touches the pushes of the boundary path.  a2a3 needs no adapter.

An MX scale push (a `tpush_to_aic` of an `f8E8M0FNU` tile) is planned first, from the `tpop_from_aiv` that
consumes it in the peer AIC function (`mx_scale.adapt_manual_mx_pushes`: pairing by V2C pipe id and order, the
same row/row carrier as the boundary path); the NZ adapter then skips its carrier.
"""

from __future__ import annotations

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

from pypto_mlir.dialects.pto_ops import MoveOp, TPushToAicOp
from pypto_mlir.dialects.pto_types import NZ, TileType

from ..analysis.mx_scale import is_scale_carrier
from ..common import FunctionKind, kind_of, with_loc
from .mx_scale import adapt_manual_mx_pushes


def nz_transfer_type(t: TileType) -> TileType:
    """The V->C transfer view of a `vec` tile bound for the cube's `mat` FIFO: NZ, every other field kept."""
    return t.with_(blayout=NZ[0], slayout=NZ[1])


class AdaptNonNzPushToAic(RewritePattern):
    """`tpush_to_aic` of a non-NZ tile -> an NZ adapter move, then the same push of the moved tile."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TPushToAicOp, rewriter: PatternRewriter) -> None:
        src = op.tile
        t = src.type
        if not isinstance(t, TileType) or t.layouts == NZ or is_scale_carrier(t):
            return  # an MX scale carrier (row/row fractal 32) is never NZ: see mx_scale.py
        move = with_loc(MoveOp(src, nz_transfer_type(t)), op)
        move.results[0].name_hint = f"{src.name_hint}_nz" if src.name_hint else "nz"
        rewriter.insert(move, InsertPoint.before(op))
        rewriter.replace_uses_with_if(src, move.results[0], lambda use: use.operation is op)


def adapt_manual_v2c_pushes(module: ModuleOp, target: str) -> None:
    """Give every `tpush_to_aic` of every AIV function its a5 transfer view: the MX scale carrier planned from the
    consumer's pop, else the NZ adapter move for a non-NZ tile (no-op on a2a3)."""
    if target != "a5":
        return
    adapt_manual_mx_pushes(module)  # MX scales first: planned from the consumer's pop (mx_scale.py)
    walker = PatternRewriteWalker(GreedyRewritePatternApplier([AdaptNonNzPushToAic()], dce_enabled=False), apply_recursively=False)
    for f in module.ops:
        if isinstance(f, func.FuncOp) and kind_of(f) == FunctionKind.AIV and f.body.blocks:
            walker.rewrite_region(f.body)
