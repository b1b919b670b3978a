"""View halving of LowerAutoVectorSplit: `pto.slice` (a window of the split axis), `pto.reshape` (the split axis
tracked through the reshape, or the input kept full width and the result lane-sliced), `pto.transpose` and
`pto.set_validshape` of a per-lane tile."""

from __future__ import annotations


from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import (
    reshape_valid_problem,
    LoadOp,
    ReshapeOp,
    SetValidShapeOp,
    SliceOp,
    TransposeOp,
    TransposeViewOp,
)
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType, format_dim, format_shape
from pypto_mlir.dialects.pto_lanes import (
    ceil_half,
    needs_valid_clamp,
)
from pypto_mlir.passes.analysis.split_axis import (
    ReshapeSplitError,
    TileInfo,
    halved_tile_type,
    reshape_split_target,
)
from .base import PASS, _PerLanePattern, _SplitPattern, _localize_valid_list, _name, check_lane_window, lane_part_problem, replace_rebuilt, window_split_dim, window_stays_whole
from .memory import LoadWindow


def load_fold_problem(t: TileType, offsets: list, loaded: TileType) -> str | None:
    """Why the `pto.slice` window (result type `t` at `offsets`) of a tile loaded as `loaded` cannot be loaded
    directly instead (`SliceHalving._fold_into_load`), or None: its valid cells must be cells the load read
    (`offset + valid <= loaded valid` on every dim), which needs static offsets and valid extents."""
    if any(not isinstance(o, int) for o in offsets) or DYNAMIC in t.get_valid() or DYNAMIC in loaded.get_valid():
        return "the window's offsets or valid extents are runtime values"
    if any(o + v > lv for o, v, lv in zip(offsets, t.get_valid(), loaded.get_valid())):
        return (
            f"the window's valid cells (offsets {list(offsets)}, valid {list(t.get_valid())}) pass the loaded "
            f"tile's valid extent {list(loaded.get_valid())}"
        )
    return None


class SliceHalving(_SplitPattern):
    """`pto.slice`: of a full-width tile, the window is halved and lane-offset; of a per-lane tile, the slice must
    keep the whole split extent (it is then halved with its offsets kept) or fold into the load it windows.  On
    the AUTO path any other window of the split axis made its source a full-width chain (`full_width.py`,
    `slice_needs_whole_source`), so it arrives here with a full-width source; one that still has a per-lane source
    could not be kept whole and is rejected."""

    OPS = (SliceOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, SliceOp)
        lw = self.lw
        t = op.result.type
        assert isinstance(t, TileType)
        offsets = op.get_mixed_offsets()
        cells = "rows" if lw.dim == 0 else "columns"  # the split axis: up_down halves rows, left_right columns
        hint = (
            f"different {cells} on the two lanes. Slice the full-width value before it is split (e.g. load the window "
            "directly), or slice along the other axis"
        )
        info = lw.info(op.src)
        if info is not None and (offsets[info.dim] != 0 or t.get_shape()[info.dim] != info.full):
            loaded = lw.load_windows.get(op.src)
            if loaded is not None:
                self._fold_into_load(op, loaded, info, hint)
                return
            if lw.keeps_whole:
                hint = (
                    f"different {cells} on the two lanes. Its source is computed whole on both lanes instead (and "
                    "the window taken as written) only when every producer of it can run whole: back to pto.load, "
                    "C->V boundaries and generators, through scf.for and scf.if (docs/lower-auto-vector-split.md, "
                    "full-width chains); here one cannot (a function parameter, an scf.while, a region op or a "
                    "hand-written transfer on the way). Slice the value before it enters that construct, load the "
                    "window directly from GM, or slice along the other axis"
                )
        if window_stays_whole(lw, op.src, t, offsets, lane_window=True):
            return  # an odd window at the source's end: both lanes take it whole (`_mark_whole`)
        d, step = window_split_dim(lw, op, "pto.slice", op.src, t, offsets, hint, lane_window=True)
        if d < 0:
            return
        valid, vt = _localize_valid_list(lw, op, t, d, op.get_mixed_valid(), step)
        new_type = halved_tile_type(t, d, lw.lane_stride, valid=vt)
        new = SliceOp(op.src, offsets, new_type, valid=valid)
        replace_rebuilt(rewriter, op, new, ("static_offsets", "static_valid", "operandSegmentSizes"))
        lw.track(new.result, lw.make_info(t, d))
        lw.verify_rewritten(new)


    def _fold_into_load(self, op: SliceOp, loaded: LoadWindow, info: TileInfo, hint: str) -> None:
        """`slice(load(T, off), soff, box)` along the split axis: each lane holds only its half of the load, but
        the window's cells are the tensor's cells at `off + soff`, so each lane loads its half of the window
        directly (offsets composed, then halved by `LoadHalving`).  Sound when the window's valid cells are valid
        cells of the load (`soff + Vs <= Vl` on every dim: the slice then reads exactly what the load read), which
        needs static slice offsets and valid extents; with a lane stride the stride's windows must cover the new
        load (`lane_stride._covered`).  The original load is erased when the slice was its only user."""
        from ..auto.lane_stride import _covered

        lw = self.lw
        t, full = op.result.type, loaded.full_type
        assert isinstance(t, TileType)
        soffs = op.get_mixed_offsets()
        why = load_fold_problem(t, soffs, full)
        if why is None and lw.lane_stride is not None and not _covered(t, info.dim, lw.lane_stride):
            why = f"the balanced lane windows (lane_stride = {lw.lane_stride}) do not cover the window"
        if why is not None:
            raise PtoError(
                f"{PASS}: this pto.slice takes a window of the split axis (dim {info.dim}) of the per-lane tile "
                f"'{_name(op.src)}'; each lane only holds its half, so the window would select {hint}. The window "
                f"of a loaded tile is loaded directly instead only when its valid cells are cells the load read; "
                f"here {why}",
                op=op,
            )
        src_rank = loaded.source.type.rank  # type: ignore[union-attr]
        lead = src_rank - t.rank
        halved_load = op.src.owner
        assert isinstance(halved_load, LoadOp)
        offsets = list(loaded.offsets)
        for i, so in enumerate(soffs):
            if so:
                offsets[lead + i] = lw.arith.add_static(offsets[lead + i], so, halved_load)
        new = LoadOp(loaded.source, offsets, t, valid=None if t.get_valid() == t.get_shape() else list(t.get_valid()))
        for k, v in loaded.attributes.items():
            if k not in ("static_offsets", "static_valid", "operandSegmentSizes"):
                new.attributes[k] = v
        new.location = op.location
        Rewriter.insert_op(new, InsertPoint.after(halved_load))
        new.result.name_hint = op.result.name_hint
        op.result.replace_all_uses_with(new.result)
        op.detach()
        op.erase()
        if not halved_load.result.uses:
            lw.tracked.pop(halved_load.result, None)
            lw.load_windows.pop(halved_load.result, None)
            halved_load.detach()
            halved_load.erase()
        lw.lower_op(new)


class ReshapeHalving(_SplitPattern):
    """`pto.reshape`: a per-lane input halves the result on the dim the split axis lands on (it may migrate,
    `[N,1] <-> [1,N]`); a full-width input is reshaped at full width and then lane-sliced."""

    OPS = (ReshapeOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, ReshapeOp)
        lw = self.lw
        out = op.result.type
        assert isinstance(out, TileType)
        info = lw.info(op.src)
        if info is None:
            self._slice_full_width(op, out)
            return
        in_full = info.orig_type.get_shape()
        try:
            d = reshape_split_target(in_full, info.dim, out.get_shape())
        except ReshapeSplitError as e:
            if e.kind == "odd":
                raise PtoError(
                    f"{PASS}: pto.reshape moves an ODD split axis (dim {info.dim}, extent {info.full}) onto a result "
                    f"whose dim {info.dim} cannot carry it ({format_shape(out.get_shape())}); the lanes' halves are not "
                    "contiguous blocks of the result. The reshape runs at full width on both lanes when its input can be "
                    "computed whole (back to the C->V boundaries and loads, through scf.for and scf.if); here it "
                    "cannot (an scf.while, a function parameter or another region op on the way). Make the split extent even, or keep the split extent on the same dim of the reshape "
                    "result",
                    op=op,
                ) from None
            raise PtoError(
                f"{PASS}: pto.reshape moves the split axis (dim {info.dim}) across a layout this pass cannot track "
                f"under split ({format_shape(in_full)} -> {format_shape(out.get_shape())}); each lane's half must be one contiguous "
                "block of a single result dim, and the dims before the split axis must keep their product (e.g. "
                "[N, 1] <-> [1, N] or [M, N] -> [M, 2, N/2]; a row-major reshape that merges them into the split "
                "axis scatters each lane's half over the result). The reshape runs at full width on both lanes when its "
                "input can be computed whole (back to the C->V boundaries and loads, through scf.for and scf.if); "
                "here it cannot (an scf.while, a function parameter or another region op on the way). Reshape before the split data is produced, or choose a result shape that "
                "keeps the split axis outermost",
                op=op,
            ) from None
        if lw.lane_stride is not None and (d != info.dim or out.get_shape()[d] != info.full):
            raise PtoError(
                f"{PASS}: pto.reshape moves the split axis from dim {info.dim} to dim {d}"
                + ("" if out.get_shape()[d] == info.full else f" (extent {format_dim(info.full)} -> {format_dim(out.get_shape()[d])})")
                + " inside a split region "
                f"whose ragged boundary was balanced with lane_stride = {lw.lane_stride}; the balanced lane windows "
                "do not map onto the moved axis. Make the boundary's valid extent full (or its ceil half equal to "
                "the box half) so no lane_stride is needed, or avoid the axis-moving reshape",
                op=op,
            )
        if d >= out.rank or out.get_shape()[d] == 1:
            raise PtoError(
                f"{PASS}: pto.reshape moves the split axis (dim {info.dim}) across a layout this pass cannot track "
                f"under split ({format_shape(in_full)} -> {format_shape(out.get_shape())}); the result has no dim to carry it",
                op=op,
            )
        new_type = halved_tile_type(out, d, lw.lane_stride)
        src_type = op.src.type
        assert isinstance(src_type, TileType)
        if reshape_valid_problem(src_type, new_type) is not None:
            self._reshape_box(op, out, d, new_type)
            return
        lw.retype_lane_part(rewriter, op.result, d)  # to new_type
        lw.verify_rewritten(op)

    def _reshape_box(self, op: ReshapeOp, out: TileType, d: int, lane_type: TileType) -> None:
        """The lanes' valid extents differ (a ragged or odd split axis: `valid = [?, ..]`), which a reshape's result
        type cannot state (it has no valid operand; `reshape_valid_problem`).  Each lane reshapes its whole box
        instead — `pto.set_validshape` to the box, the reshape of the fully valid box, and `pto.set_validshape` to
        the lane's part of the result's valid region (`clamp(V - sub*step, 0, step)` on `d`, the other extents the
        result's) — the same cells as the reshape with that valid region."""
        lw = self.lw
        src = op.src
        src_type = src.type
        assert isinstance(src_type, TileType)
        box_src = src_type.with_(valid=src_type.get_shape())
        widen = SetValidShapeOp(src, list(src_type.get_shape()), box_src)
        widen.location = op.location
        widen.result.name_hint = f"{_name(src)}_box"
        Rewriter.insert_op(widen, InsertPoint.before(op))
        box_out = lane_type.with_(valid=lane_type.get_shape())
        reshape = ReshapeOp(widen.result, box_out)
        reshape.location = op.location
        Rewriter.insert_op(reshape, InsertPoint.before(op))
        reshape.result.name_hint = f"{op.result.name_hint or 'reshaped'}_box"
        valid: list[int | SSAValue] = list(out.get_valid())
        valid[d] = lw.arith.lane_valid(out.get_valid()[d], lw.step_for(out.get_shape()[d]), op)
        narrow = SetValidShapeOp(reshape.result, valid, lane_type)
        narrow.location = op.location
        Rewriter.insert_op(narrow, InsertPoint.before(op))
        hint = op.result.name_hint
        op.result.replace_all_uses_with(narrow.result)
        Rewriter.erase_op(op)
        narrow.result.name_hint = hint
        lw.track(narrow.result, lw.make_info(out, d))
        lw.verify_rewritten(narrow)

    def _slice_full_width(self, op: ReshapeOp, out: TileType) -> None:
        """A reshape of a full-width input runs at full width; each lane then takes its part of the result
        (`lane_part`).  With no lane part (an odd result extent whose lane 1 is not empty) a result computed from
        whole values stays whole (its users take lane parts later, or stay full width); any other is rejected."""
        lw = self.lw
        d = lw.dim
        shape = out.get_shape()
        if out.rank <= d or shape[d] == 1 or DYNAMIC in shape:
            return  # stays full width (untracked)
        src_type = op.src.type
        assert isinstance(src_type, TileType)
        if lw.is_whole(op.src) and src_type.rank > d and src_type.get_shape()[d] == 1:
            lw.singleton_whole.add(op.result)
            return  # a whole singleton moved off the split axis stays whole: it meets singleton shards again
        step = lw.step_for(shape[d])
        part = lw.lane_part(op.result, d, step)
        if part is None:
            if lw.is_whole(op.src):
                return  # whole on both lanes (`_mark_whole`)
            check_lane_window(op, "the result of this pto.reshape", shape[d], 0, ceil_half(shape[d]), step, d)
            raise PtoError(
                f"{PASS}: the result of this {op.name} cannot be split into lane parts: "
                f"{lane_part_problem(out, d, step)}",
                op=op,
            )
        op.result.replace_uses_with_if(part, lambda use: use.operation is not part.owner)


class TransposeHalving(_PerLanePattern):
    """`pto.transpose` / `pto.transpose_view` of a per-lane tile: the split axis follows the permutation."""

    OPS = (TransposeOp, TransposeViewOp)

    def rewrite_per_lane(self, op: Operation, info: TileInfo, rewriter: PatternRewriter) -> None:
        assert isinstance(op, (TransposeOp, TransposeViewOp))
        lw = self.lw
        out = op.result.type
        assert isinstance(out, TileType)
        d = list(op.get_axes()).index(info.dim)
        lw.retype_lane_part(rewriter, op.result, d)
        lw.verify_rewritten(op)


class SetValidShapeHalving(_PerLanePattern):
    """`pto.set_validshape` of a per-lane tile: the valid size on the split dim is clamped to the lane."""

    OPS = (SetValidShapeOp,)

    def rewrite_per_lane(self, op: Operation, info: TileInfo, rewriter: PatternRewriter) -> None:
        assert isinstance(op, SetValidShapeOp)
        lw = self.lw
        out = op.result.type
        assert isinstance(out, TileType)
        d = info.dim
        entries = op.get_mixed_valid()
        full = entries[d]
        box = out.get_shape()[d]
        if isinstance(full, int) and not needs_valid_clamp(box, full, lw.lane_stride):
            lane: int | SSAValue = ceil_half(box)
        else:
            lane = lw.arith.lane_valid(full, info.step, op)
        entries[d] = lane
        new_type = halved_tile_type(out, d, lw.lane_stride, valid=lane if isinstance(lane, int) else DYNAMIC)
        new = SetValidShapeOp(op.src, entries, new_type)
        replace_rebuilt(rewriter, op, new, ("static_valid",))
        lw.track(new.result, lw.make_info(out, d))
        lw.verify_rewritten(new)
