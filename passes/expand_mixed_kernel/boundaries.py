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


class _BoundaryPattern(RewritePattern):
    """Base of the boundary patterns: one side's clone, and the mechanics each side's half of a pair shares."""

    def __init__(self, body: SideBody):
        self.body = body

    @property
    def side(self) -> CoreSide:
        return self.body.side

    def boundary_move_dest(self, op: MoveOp, d: PipeDirection) -> TileType | None:
        """The destination tile type of `op` when it is a boundary move of direction `d` of the original kernel
        (not one this pass made), else None."""
        if op not in self.body.orig_of or not is_boundary_move(op) or move_direction(op) is not d:
            return None
        dest = op.result.type
        assert isinstance(dest, TileType)
        return dest

    def boundary_tiles(self, op: AivShardOp | AicGatherOp) -> tuple[TileType, TileType] | None:
        """The source and result tile types of a shard / gather of the original kernel (not one this pass made),
        else None."""
        if op not in self.body.orig_of:
            return None
        src_t, res_t = op.src.type, op.result.type
        assert isinstance(src_t, TileType) and isinstance(res_t, TileType)
        return src_t, res_t

    def pop_view(self, res_t: TileType, op: Operation) -> TileType:
        """What this side pops for a shard / gather result `res_t`: its shape and valid region in this side's pop
        space, as the cross-core transfer view."""
        pop_t = TileType.get(res_t.get_shape(), res_t.element_type, self.side.pop_space, valid=res_t.get_valid())
        return cross_core_transfer_type(pop_t, op)

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

    def push(self, rewriter: PatternRewriter, op: Operation, new_ops: list[Operation]) -> None:
        """Producer side: `new_ops` (ending in the push) replace the boundary, whose result is undefined here."""
        self._insert(rewriter, op, new_ops)
        self._leave_undefined(rewriter, op)

    def push_to_aic(self, rewriter: PatternRewriter, op: Operation, nz: TileType | None, split: int) -> None:
        """AIV side of a V->C pair: the `tpush_to_aic` of the boundary's source, through the a5 fractal adapter
        `%<src>_nz = pto.move` into `nz` when `nz` is given."""
        pushed = op.operands[0]
        new_ops: list[Operation] = []
        if nz is not None:
            adapter = MoveOp(pushed, nz)
            _named(adapter.result, pushed.name_hint, "_nz")
            new_ops.append(adapter)
            pushed = adapter.result
        new_ops.append(TPushToAicOp(pushed, split=split))
        self.push(rewriter, op, new_ops)

    def pop(self, rewriter: PatternRewriter, op: Operation, pop: Operation, remap_source: bool = False) -> None:
        """Consumer side: `pop`, named like the boundary result, takes its place; with `remap_source` (a move)
        this side's later reads of the move's source read the popped tile too."""
        _named(pop.results[0], op.results[0].name_hint)
        self._insert(rewriter, op, [pop])
        src = op.operands[0]
        self._replace_result(rewriter, op, pop.results[0])
        if remap_source:
            self._remap_source(src, pop)

    def pop_and_place(self, rewriter: PatternRewriter, op: MoveOp, pop_type: TileType, split: int) -> None:
        """AIC side of a V->C move into `dest`: `%<dest> = tpop_from_aiv` when `dest` is `mat`, else
        `%<dest>_mat = tpop_from_aiv` and the placement move `%<dest> = pto.move` into `dest`'s space."""
        dest = op.result.type
        assert isinstance(dest, TileType)
        name = op.result.name_hint
        pop = TPopFromAivOp(pop_type, split=split)
        new_ops: list[Operation] = [pop]
        result = pop.result
        if dest.space == "mat":
            _named(pop.result, name)
        else:
            _named(pop.result, name, "_mat")
            place = MoveOp(pop.result, dest)
            _named(place.result, name)
            new_ops.append(place)
            result = place.result
        self._insert(rewriter, op, new_ops)
        src = op.src
        self._replace_result(rewriter, op, result)
        self._remap_source(src, pop)


class LowerCubeToVectorMove(_BoundaryPattern):
    """A cube -> vec `pto.move`: AIC pushes the source raw; AIV pops a tile typed as the destination."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MoveOp, rewriter: PatternRewriter) -> None:
        if (dest := self.boundary_move_dest(op, PipeDirection.C2V)) is None:
            return
        if self.side is CoreSide.AIC:
            self.push(rewriter, op, [TPushToAivOp(op.src, split=0)])
            return
        self.pop(rewriter, op, TPopFromAicOp(cross_core_transfer_type(dest, op), split=0), remap_source=True)


class LowerVectorToCubeMove(_BoundaryPattern):
    """A vec -> cube `pto.move`: AIC pops into `mat` (NZ) and places it; AIV pushes (through an NZ adapter on a5)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MoveOp, rewriter: PatternRewriter) -> None:
        if (dest := self.boundary_move_dest(op, PipeDirection.V2C)) is None:
            return
        xfer = cross_core_transfer_type(dest, op)
        if self.side is CoreSide.AIC:
            self.pop_and_place(rewriter, op, xfer, split=0)
            return
        nz = xfer.with_(memory_space="vec") if requires_v2c_fractal_adapt(self.body.target) else None
        self.push_to_aic(rewriter, op, nz, split=0)


class LowerAivShard(_BoundaryPattern):
    """`pto.aiv_shard`: a C->V pair carrying the pto-isa split code (and the lane stride, when set)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AivShardOp, rewriter: PatternRewriter) -> None:
        if (tiles := self.boundary_tiles(op)) is None:
            return
        src_t, res_t = tiles
        split = op.split.value.data
        stride = op.lane_stride.value.data if op.lane_stride is not None else None
        stride = stride if stride is not None and stride > 0 else None
        code = shard_split_code(src_t, split, stride, op)
        if self.side is CoreSide.AIC:
            self.push(rewriter, op, [TPushToAivOp(op.src, split=code, lane_stride=stride)])
            return
        self.pop(rewriter, op, TPopFromAicOp(self.pop_view(res_t, op), split=code, lane_stride=stride))


class LowerAicGather(_BoundaryPattern):
    """`pto.aic_gather`: a V->C pair carrying the (even) pto-isa split code; no placement move after the pop."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AicGatherOp, rewriter: PatternRewriter) -> None:
        if (tiles := self.boundary_tiles(op)) is None:
            return
        src_t, res_t = tiles
        code = gather_split_code(res_t, op.split.value.data, op)
        if self.side is CoreSide.AIC:
            self.pop(rewriter, op, TPopFromAivOp(self.pop_view(res_t, op), split=code))
            return
        nz = src_t.with_(blayout=NZ[0], slayout=NZ[1]) if requires_v2c_fractal_adapt(self.body.target) else None
        self.push_to_aic(rewriter, op, nz, split=code)

