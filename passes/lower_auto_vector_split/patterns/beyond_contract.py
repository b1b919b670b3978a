"""Split-axis halving of the ops added beyond the contract: `pto.reinterpret_view`, `pto.extract`,
`pto.gather_row` (dialects/pto_view_ops.py) and the vector-side communication ops `pto.tile_get` /
`pto.tile_put` (dialects/pto_comm_ops.py): the ops this project added beyond the dialect contract
(../shared/spec/dialect.md).  The patterns plug into `SplitLowering.halving_patterns`.

Rules (reference `lower-auto-vector-split.reference.md` §2.3, docs/lower-auto-vector-split.md):

* `reinterpret_view` with a result shape other than the inferred one (an *explicit shape*) is rejected
  (E-REINTERP); a per-lane source gives a per-lane result on the same dim when each lane's part is its half of
  the view (`reinterpret_halves`), else the view of a whole value's lane part views the whole value, and any
  other is rejected (the AUTO path folded view chains and kept inexact views' sources whole before: `auto/`);
  a full-width source is viewed at full width and then lane-sliced, which needs a static shape
  (E-REINTERP-STATIC).
* `extract` is a window op: as `pto.slice` (a full-width source is lane-offset, a per-lane source keeps its
  offsets and must be read across the whole split extent).
* `gather_row` reads rows by index: its result follows a per-lane *index* tile (UP_DOWN: each lane gathers its
  rows from the full source) or a per-lane *source* split on columns (LEFT_RIGHT); a source split on its rows is
  rejected (the indices address the full source).
* `tile_get` is halved and lane-offset like `pto.load`; `tile_put` of a per-lane tile is lane-offset like
  `pto.store`.  `tensor_put`/`tensor_get` copy whole tensors and stay as they are on both lanes.
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_comm_ops import TileGetOp, TilePutOp
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType, format_shape
from pypto_mlir.dialects.pto_view_ops import ExtractOp, GatherRowOp, ReinterpretViewOp, reinterpret_inferred_shape
from pypto_mlir.passes.analysis.split_axis import TileInfo, halved_tile_type, reinterpret_halves

from .base import (
    PASS,
    _dynamic_box_error,
    _name,
    _PerLanePattern,
    _SplitPattern,
    lane_shifted_offsets,
    lane_window_offsets,
    replace_rebuilt,
    window_split_dim,
    window_stays_whole,
)
from .views import ReshapeHalving


class ReinterpretViewHalving(ReshapeHalving):
    """`pto.reinterpret_view` (E-REINTERP, E-REINTERP-STATIC)."""

    OPS = (ReinterpretViewOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, ReinterpretViewOp)
        lw = self.lw
        src, out = op.src.type, op.result.type
        assert isinstance(src, TileType) and isinstance(out, TileType)
        info = lw.info(op.src)
        src = info.orig_type if info is not None else src  # the full-width source the author wrote
        inferred = reinterpret_inferred_shape(src, out.element_type)
        if inferred != list(out.get_shape()):
            raise PtoError(
                f"{PASS}: pto.reinterpret_view with an explicit shape inside a split kernel must match its "
                f"auto-inferred shape ({list(inferred) if inferred else '?'} for {list(src.get_shape())} viewed as "
                f"{out.element_type}), got {list(out.get_shape())}; a reshaping reinterpretation cannot be followed "
                "across the lanes. View with the inferred shape (and reshape separately), or reinterpret outside "
                "the split kernel",
                op=op,
            )
        if info is None:
            d = lw.dim
            shape = out.get_shape()
            if out.rank <= d or shape[d] == 1:
                return  # a singleton split dim stays full width
            if DYNAMIC in shape:
                raise PtoError(
                    f"{PASS}: pto.reinterpret_view over a full-width source requires a static split extent and a "
                    f"static target shape (got {format_shape(shape)}): the pass views the "
                    "full tile and slices each lane's half out of it, and a slice needs static sizes. Give the tile "
                    "a static box (runtime extents go in its valid region)",
                    op=op,
                )
            self._slice_full_width(op, out)  # type: ignore[arg-type]
            return
        d = info.dim
        lane_src = op.src.type  # already the per-lane type
        assert isinstance(lane_src, TileType)
        if not reinterpret_halves(lane_src, out, d, lw.lane_stride):
            whole = lw.whole_source_of(op.src)
            if whole is not None:
                self._view_whole(op, whole, out)
                return
            raise PtoError(
                f"{PASS}: pto.reinterpret_view changes the element width along the split axis (dim {d}) of the "
                f"per-lane tile '{_name(op.src)}': each lane's {list(lane_src.get_shape())} x {src.element_type} "
                f"is not half of the {list(out.get_shape())} x {out.element_type} view, so the lanes' byte windows "
                "would not line up. The source is computed whole on both lanes instead (and viewed at full width) "
                "only when every producer of it can run whole: back to pto.load, C->V boundaries and generators, "
                "through scf.for and scf.if (docs/lower-auto-vector-split.md, full-width chains); here one cannot. "
                "Make each lane's split extent a whole number of the new elements (an even extent), or split along "
                "the other axis",
                op=op,
            )
        lw.retype_lane_part(rewriter, op.result, d)
        lw.verify_rewritten(op)

    def _view_whole(self, op: ReinterpretViewOp, whole: SSAValue, out: TileType) -> None:
        """The per-lane source is the lane part of `whole`, a value both lanes hold whole (the result of a view
        kept whole for its width, `full_width.reinterpret_unsplittable`): view `whole` instead, at full width,
        like any whole source (lane-sliced where a lane part exists, else whole); the lane part's slice goes
        when nothing else reads it.  The same bytes as the unsplit kernel's view, on both lanes."""
        lw = self.lw
        part = op.src
        op.operands[0] = whole
        if not part.uses:
            lw.drop_lane_part(part)
        self._slice_full_width(op, out)  # type: ignore[arg-type]


class ExtractHalving(_SplitPattern):
    """`pto.extract` (vec): a window op like `pto.slice`."""

    OPS = (ExtractOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, ExtractOp)
        lw = self.lw
        t = op.result.type
        assert isinstance(t, TileType)
        offsets = op.get_mixed_offsets()
        hint = "different cells on the two lanes. Extract from the full-width value before it is split, or along the other axis"
        if window_stays_whole(lw, op.src, t, offsets, lane_window=False):
            return  # an odd window of a whole source: both lanes extract it whole (`_mark_whole`)
        d, _ = window_split_dim(lw, op, "pto.extract", op.src, t, offsets, hint, lane_window=False)
        if d < 0:
            return
        new_type = halved_tile_type(t, d, lw.lane_stride)
        if new_type.get_valid() != new_type.get_shape():
            raise PtoError(
                f"{PASS}: this pto.extract's split extent ({t.get_shape()[d]}) does not halve evenly; an extract "
                "reads whole windows. Make the extracted split extent even",
                op=op,
            )
        new = ExtractOp(op.src, offsets, new_type)
        replace_rebuilt(rewriter, op, new, ("static_offsets", "operandSegmentSizes"))
        lw.track(new.result, lw.make_info(t, d))
        lw.verify_rewritten(new)


class GatherRowHalving(_SplitPattern):
    """`pto.gather_row`: follows a per-lane index tile (rows) or a per-lane source split on its columns."""

    OPS = (GatherRowOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, GatherRowOp)
        lw = self.lw
        out = op.result.type
        assert isinstance(out, TileType)
        s_info, i_info = lw.info(op.src), lw.info(op.indices)
        if s_info is not None and s_info.dim == 0:
            raise PtoError(
                f"{PASS}: pto.gather_row reads rows of '{_name(op.src)}' by index, but that tile is split on its rows "
                "(UP_DOWN): each lane holds only half of them while the indices address the whole tile. Gather from "
                "a full-width source (e.g. one loaded outside the split data flow), or split LEFT_RIGHT",
                op=op,
            )
        info = s_info if s_info is not None else (i_info if i_info is not None and i_info.dim == 0 else None)
        if info is None:
            return  # full-width operands: the op stays full width
        d = info.dim
        if out.get_shape()[d] == DYNAMIC:
            raise _dynamic_box_error(op, d)
        lw.retype_lane_part(rewriter, op.result, d)
        lw.verify_rewritten(op)


class TileGetHalving(_SplitPattern):
    """`pto.tile_get`: each lane reads its half of the window, offset by `subblock_idx * step` (as a load).

    An odd split extent has no such lane window: a `tile_get` result is fully valid (it has no valid operand, unlike
    `pto.load`), so lane 1's box `ceil(B/2)` at `step` would read past the window.  On the AUTO path the `tile_get`
    then reads the window whole on both lanes (the same cells, read twice) and its result is a whole value: where
    it meets per-lane data, the consumer takes its lane part (`SplitLowering.lane_part`, through a GM workspace for
    the odd box: `gm_lane_part.py`).  A `split_aiv_scope` region keeps the refusal."""

    OPS = (TileGetOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, TileGetOp)
        lw = self.lw
        t = op.result.type
        assert isinstance(t, TileType)
        d = lw.dim
        box = t.get_shape()[d] if t.rank >= 2 and t.rank > d else 1
        if box not in (1, DYNAMIC) and box % 2 and lw.lane_stride is None:
            if lw.cross_lane:
                lw.whole.add(op.result)
                return
            raise PtoError(
                f"{PASS}: pto.tile_get reads an odd split extent ({box}); the two lanes' windows would overlap. "
                "Read an even extent",
                op=op,
            )
        window = lane_window_offsets(lw, op, t, op.source.type.rank)  # type: ignore[union-attr]
        if window is None:
            return
        d, _, offsets = window
        new = TileGetOp(op.source, offsets, op.peer, halved_tile_type(t, d, lw.lane_stride))
        replace_rebuilt(rewriter, op, new, ("static_offsets", "operandSegmentSizes"))
        lw.track(new.result, lw.make_info(t, d))


class TilePutOffsets(_PerLanePattern):
    """`pto.tile_put` of a per-lane tile: the window moves by `subblock_idx * step` (as a store)."""

    OPS = (TilePutOp,)
    OPERAND = "tile"

    def rewrite_per_lane(self, op: Operation, info: TileInfo, rewriter: PatternRewriter) -> None:
        assert isinstance(op, TilePutOp) and isinstance(op.tile.type, TileType)
        offsets = lane_shifted_offsets(self.lw, op, op.tile.type, op.dest.type.rank, info)  # type: ignore[union-attr]
        new = TilePutOp(op.tile, op.dest, offsets, op.peer)
        replace_rebuilt(rewriter, op, new, ("static_offsets", "operandSegmentSizes"))


def beyond_contract_patterns(lw) -> list[_SplitPattern]:
    return [
        ReinterpretViewHalving(lw),
        ExtractHalving(lw),
        GatherRowHalving(lw),
        TileGetHalving(lw),
        TilePutOffsets(lw),
    ]


__all__ = [
    "ExtractHalving",
    "GatherRowHalving",
    "ReinterpretViewHalving",
    "TileGetHalving",
    "TilePutOffsets",
    "beyond_contract_patterns",
]
