"""Cross-core boundaries -> tpush/tpop pairs (reference §3), one rewrite pattern per boundary kind.

Each pattern runs on one side's clone (`SideBody`) and emits that side's half of the pair:

| boundary | AIC side | AIV side |
|---|---|---|
| C->V `pto.move` (cube -> vec) | `tpush_to_aiv %src {split = 0}` | `%<dest> = tpop_from_aic {split = 0}` typed as the dest vec tile |
| V->C `pto.move` (vec -> mat/left/right) | `%<dest>[_mat] = tpop_from_aiv` in `mat` with the NZ transfer view, then the placement move to left/right | a5: `%<src>_nz = pto.move` to NZ; `tpush_to_aic` |
| `pto.aiv_shard` | `tpush_to_aiv %src {split = CODE[, lane_stride]}` | `%<h> = tpop_from_aic {split = CODE[, lane_stride]}` (op result shape/valid, implicit vec view) |
| `pto.aic_gather` | `%<g> = tpop_from_aiv {split = CODE}` (op result shape/valid, implicit mat view = NZ) | a5: `%<h>_nz` adapter; `tpush_to_aic {split = CODE}` |

The producer side's boundary result becomes an undefined value (see `split.py`); the consumer's pop replaces the
boundary result.  For move boundaries, uses of the *source* on the consuming side (ops of that side after the
pop) are remapped to the popped tile.
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import (
    AicGatherOp,
    AivShardOp,
    MoveOp,
    TPopFromAicOp,
    TPopFromAivOp,
    TPushToAicOp,
    TPushToAivOp,
)
from pypto_mlir.dialects.pto_traits import CoreSide, PipeDirection
from pypto_mlir.dialects.pto_types import NZ, TileType

from ..analysis.affinity import is_boundary_move, move_direction
from ..analysis.split_codes import gather_split_code, shard_split_code
from ..common import with_loc
from .split import SideBody, dominates

TRANSFER_DESTINATIONS = ("vec", "mat", "left", "right")


def requires_v2c_fractal_adapt(target: str) -> bool:
    """a5 pushes V->C tiles in NZ (an explicit adapter move); a2a3 goes through GM and pushes them as they are."""
    return target == "a5"


def cross_core_transfer_type(dest: TileType, op: Operation) -> TileType:
    """The type of the tile crossing the cores for a boundary move into `dest` (BuildCrossCoreTransferView).

    vec: the destination's own view.  mat/left/right: NZ in `mat` (mat only holds NZ), keeping the destination's
    valid region, fractal and pad.  Anything else has no transfer view."""
    if dest.space == "vec":
        return dest
    if dest.space in ("mat", "left", "right"):
        return dest.with_(memory_space="mat", blayout=NZ[0], slayout=NZ[1])
    raise PtoError(
        f"ExpandMixedKernel: cross-core move destination must be Vec, Mat, Left, or Right, but this vector -> cube "
        f"move lands in '{dest.space}', which has no cross-core transfer view; move the tile to 'mat' first and "
        f"then, on the cube side, from 'mat' to '{dest.space}'",
        op=op,
    )


def _named(value: SSAValue, base: str | None, suffix: str = "") -> None:
    if base:
        value.name_hint = base + suffix


class _BoundaryPattern:
    """Shared mechanics of the boundary patterns (not a pattern itself)."""

    def __init__(self, body: SideBody):
        self.body = body

    @property
    def side(self) -> CoreSide:
        return self.body.side

    def _insert(self, rewriter: PatternRewriter, op: Operation, new_ops: list[Operation]) -> None:
        for n in new_ops:
            with_loc(n, op)
            self.body.orig_of.pop(n, None)
        rewriter.insert(new_ops, InsertPoint.before(op))

    def _replace_result(self, rewriter: PatternRewriter, op: Operation, new: SSAValue) -> None:
        old = op.results[0]
        rewriter.replace_all_uses_with(old, new)
        self.body.remap(old, new)
        self.body.orig_of.pop(op, None)
        rewriter.erase(op)

    def _leave_undefined(self, rewriter: PatternRewriter, op: Operation) -> None:
        """Producer side: the boundary result does not exist here."""
        ph = self.body.make_undefined(op, [None])
        rewriter.insert(ph, InsertPoint.before(op))
        self._replace_result(rewriter, op, ph.results[0])

    def _remap_source(self, src: SSAValue, pop: Operation) -> None:
        """On the consuming side, this side's ops after the pop that read the source read the popped tile."""
        for use in list(src.uses):
            user = use.operation
            if self.body.orig_affinity(user) == self.body.own and dominates(pop, user):
                user.operands = [pop.results[0] if i == use.index else v for i, v in enumerate(user.operands)]


class LowerCubeToVectorMove(RewritePattern):
    """A cube -> vec `pto.move`: AIC pushes the source raw; AIV pops a tile typed as the destination."""

    def __init__(self, body: SideBody):
        self.impl = _BoundaryPattern(body)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MoveOp, rewriter: PatternRewriter) -> None:
        b = self.impl
        if op not in b.body.orig_of or not is_boundary_move(op) or move_direction(op) is not PipeDirection.C2V:
            return
        dest = op.result.type
        assert isinstance(dest, TileType)
        if b.side is CoreSide.AIC:
            b._insert(rewriter, op, [TPushToAivOp(op.src, split=0)])
            b._leave_undefined(rewriter, op)
            return
        pop = TPopFromAicOp(cross_core_transfer_type(dest, op), split=0)
        _named(pop.result, op.result.name_hint)
        b._insert(rewriter, op, [pop])
        src = op.src
        b._replace_result(rewriter, op, pop.result)
        b._remap_source(src, pop)


class LowerVectorToCubeMove(RewritePattern):
    """A vec -> cube `pto.move`: AIC pops into `mat` (NZ) and places it; AIV pushes (through an NZ adapter on a5)."""

    def __init__(self, body: SideBody):
        self.impl = _BoundaryPattern(body)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MoveOp, rewriter: PatternRewriter) -> None:
        b = self.impl
        if op not in b.body.orig_of or not is_boundary_move(op) or move_direction(op) is not PipeDirection.V2C:
            return
        dest = op.result.type
        assert isinstance(dest, TileType)
        xfer = cross_core_transfer_type(dest, op)
        dest_name = op.result.name_hint
        if b.side is CoreSide.AIC:
            pop = TPopFromAivOp(xfer, split=0)
            new_ops: list[Operation] = [pop]
            result = pop.result
            if dest.space == "mat":
                _named(pop.result, dest_name)
            else:
                _named(pop.result, dest_name, "_mat")
                place = MoveOp(pop.result, dest)
                _named(place.result, dest_name)
                new_ops.append(place)
                result = place.result
            b._insert(rewriter, op, new_ops)
            src = op.src
            b._replace_result(rewriter, op, result)
            b._remap_source(src, pop)
            return
        pushed = op.src
        new_ops = []
        if requires_v2c_fractal_adapt(b.body.target):
            adapter = MoveOp(op.src, xfer.with_(memory_space="vec"))
            _named(adapter.result, op.src.name_hint, "_nz")
            new_ops.append(adapter)
            pushed = adapter.result
        new_ops.append(TPushToAicOp(pushed, split=0))
        b._insert(rewriter, op, new_ops)
        b._leave_undefined(rewriter, op)


class LowerAivShard(RewritePattern):
    """`pto.aiv_shard`: a C->V pair carrying the pto-isa split code (and the lane stride, when set)."""

    def __init__(self, body: SideBody):
        self.impl = _BoundaryPattern(body)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AivShardOp, rewriter: PatternRewriter) -> None:
        b = self.impl
        if op not in b.body.orig_of:
            return
        src_t, res_t = op.src.type, op.result.type
        assert isinstance(src_t, TileType) and isinstance(res_t, TileType)
        split = op.split.value.data
        stride = op.lane_stride.value.data if op.lane_stride is not None else None
        stride = stride if stride is not None and stride > 0 else None
        code = shard_split_code(src_t, split, stride, op)
        if b.side is CoreSide.AIC:
            b._insert(rewriter, op, [TPushToAivOp(op.src, split=code, lane_stride=stride)])
            b._leave_undefined(rewriter, op)
            return
        pop_t = TileType.get(res_t.get_shape(), res_t.element_type, b.side.pop_space, valid=res_t.get_valid())
        pop = TPopFromAicOp(cross_core_transfer_type(pop_t, op), split=code, lane_stride=stride)
        _named(pop.result, op.result.name_hint)
        b._insert(rewriter, op, [pop])
        b._replace_result(rewriter, op, pop.result)


class LowerAicGather(RewritePattern):
    """`pto.aic_gather`: a V->C pair carrying the (even) pto-isa split code; no placement move after the pop."""

    def __init__(self, body: SideBody):
        self.impl = _BoundaryPattern(body)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AicGatherOp, rewriter: PatternRewriter) -> None:
        b = self.impl
        if op not in b.body.orig_of:
            return
        src_t, res_t = op.src.type, op.result.type
        assert isinstance(src_t, TileType) and isinstance(res_t, TileType)
        code = gather_split_code(res_t, op.split.value.data, op)
        if b.side is CoreSide.AIC:
            pop_t = TileType.get(res_t.get_shape(), res_t.element_type, b.side.pop_space, valid=res_t.get_valid())
            pop = TPopFromAivOp(cross_core_transfer_type(pop_t, op), split=code)
            _named(pop.result, op.result.name_hint)
            b._insert(rewriter, op, [pop])
            b._replace_result(rewriter, op, pop.result)
            return
        pushed = op.src
        new_ops: list[Operation] = []
        if requires_v2c_fractal_adapt(b.body.target):
            adapter = MoveOp(op.src, src_t.with_(blayout=NZ[0], slayout=NZ[1]))
            _named(adapter.result, op.src.name_hint, "_nz")
            new_ops.append(adapter)
            pushed = adapter.result
        new_ops.append(TPushToAicOp(pushed, split=code))
        b._insert(rewriter, op, new_ops)
        b._leave_undefined(rewriter, op)


def boundary_patterns(body: SideBody) -> list[RewritePattern]:
    from .mx_scale import mx_scale_patterns  # MX scales first: they claim their boundaries (mx_scale.py)

    return mx_scale_patterns(body) + [
        LowerCubeToVectorMove(body), LowerVectorToCubeMove(body), LowerAivShard(body), LowerAicGather(body)
    ]
