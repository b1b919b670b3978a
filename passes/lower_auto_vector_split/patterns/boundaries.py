"""The cube<->vector boundaries of LowerAutoVectorSplit (reference §2.1-§2.2): a C->V `pto.move` becomes
`pto.aiv_shard` (`C2VBoundary`, with the shard-placement rules: split codes, widened and full transfers, shards no
code can place carried whole), a V->C move of a per-lane tile gets a `pto.aic_gather` (`V2CBoundary`), and
hand-written tpush/tpop get their split codes re-stamped (`TransferRestamp`)."""

from __future__ import annotations


from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import (
    AicGatherOp,
    AivShardOp,
    GetSubblockIdxOp,
    MoveOp,
    SetValidShapeOp,
    SliceOp,
    TPopFromAicOp,
    TPopFromAivOp,
    TPushToAicOp,
    TPushToAivOp,
    i64_attr,
)
from pypto_mlir.dialects.pto_traits import PipeDirection
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType, format_dim
from pypto_mlir.passes.analysis.affinity import move_direction
from pypto_mlir.passes.analysis.mx_scale import SCALE_SPACES, scale_kind, scale_mat_type
from pypto_mlir.passes.analysis.split_codes import gather_split_code, shard_split_code, widened_shard_extent
from pypto_mlir.dialects.pto_lanes import (
    lane_step,
    needs_valid_clamp,
    split_code_of_dim,
    split_dim_of_code,
)
from pypto_mlir.passes.analysis.split_axis import (
    LaneArith,
    halved_tile_type,
)
from .base import PASS, _SplitPattern, _dynamic_box_error, _name, _ours, _window_step


def check_shard_valid(op: Operation, src: TileType, dim: int, lane_stride: int | None) -> None:
    """The valid-extent rules of a C->V shard (reference `CheckSplitBoundaryCarriesValid`)."""
    shape, valid = src.get_shape(), src.get_valid()
    if valid[1] == shape[1]:
        return
    if dim == 1:
        raise PtoError(
            f"{PASS}: LEFT_RIGHT splits the column axis, but this tile's valid column extent ({format_dim(valid[1])}) "
            f"does not cover the full box ({format_dim(shape[1])}); the lanes' column windows cannot be localized. "
            "Make the columns fully valid before the boundary, or use an UP_DOWN split",
            op=op,
        )
    if valid[1] == DYNAMIC:
        raise PtoError(
            f"{PASS}: the C->V boundary tile's valid column extent is a runtime value narrower than the physical "
            f"box ({format_dim(shape[1])}); an UP_DOWN shard can only carry a narrowed column extent that is static. "
            "Make the column extent static (or full) before the boundary",
            op=op,
        )
    if needs_valid_clamp(shape[0], valid[0], lane_stride):
        raise PtoError(
            f"{PASS}: UP_DOWN split with BOTH a per-lane row extent (valid {format_dim(valid[0])} of {format_dim(shape[0])} rows) "
            f"and a narrowed column extent (valid {format_dim(valid[1])} of {format_dim(shape[1])}) cannot be carried by one "
            "shard. Make the rows fully valid and even, or the columns fully valid, before the boundary",
            op=op,
        )


def _shard_problem(src: TileType, d: int, lane_stride: int | None, op: Operation) -> tuple[PtoError | None, bool]:
    """Why pto-isa cannot carry this C->V boundary as a split transfer (the shard's valid-extent rules, or a split
    code that cannot place the lanes), or None when it can; and whether the valid-extent rules hold (so that only
    the split code, if anything, is amiss)."""
    try:
        check_shard_valid(op, src, d, lane_stride)
    except PtoError as e:
        return e, False
    try:
        shard_split_code(src, split_code_of_dim(d), lane_stride, op)
    except PtoError as e:
        return e, True
    return None, True


def full_transfer_fits(src: TileType, d: int, step: int) -> bool:
    """Whether a boundary tile can be carried whole and lane-sliced (`_window_step`)."""
    return _window_step(src, d, step) is not None


def shard_by_full_transfer(
    src: SSAValue, vec_type: TileType, lane_type: TileType, d: int, step: int, arith: LaneArith, at: Operation
) -> tuple[MoveOp, SliceOp]:
    """A C->V boundary whose lanes no split code can place, carried whole: a plain `pto.move` of the full tile
    (ExpandMixedKernel gives it split code 0, so each lane receives the whole tile), then a lane-local
    `pto.slice` of the lane's part — box rows `[l*step, l*step + ceil(box/2))`, valid `clamp(V - l*step, 0,
    step)`: exactly the part `aiv_shard` would have delivered (`lane_type`).  Inserted before `at`."""
    move = MoveOp(src, vec_type)
    move.location = at.location
    Rewriter.insert_op(move, InsertPoint.before(at))
    window = _window_step(vec_type, d, step)
    assert window is not None
    offsets: list[int | SSAValue] = [0] * vec_type.rank
    offsets[d] = 0 if window == 0 else arith.offset(0, window, at)
    valid: list[int | SSAValue] | None = None
    if lane_type.get_valid()[d] == DYNAMIC:
        valid = list(vec_type.get_valid())
        valid[d] = arith.lane_valid(vec_type.get_valid()[d], step, at)
    sl = SliceOp(move.result, offsets, lane_type, valid=valid)
    sl.location = at.location
    Rewriter.insert_op(sl, InsertPoint.before(at))
    return move, sl


def widening_of(src: TileType, split: int, lane_type: TileType, lane_stride: int | None, at: Operation) -> list[int] | None:
    """The valid extents `shard_widened` carries this shard with, or None when no widening places the lanes or a
    valid extent is a run-time value (the narrowing would need it as an SSA value).  A shard breaking the
    valid-extent rules (`check_shard_valid`: LEFT_RIGHT with partially valid columns, UP_DOWN with per-lane rows
    and narrowed columns; issue 43) carries whole columns: the column extent is widened to the box first.  Then
    the split-axis extent is widened to one a split code places (`widened_shard_extent`), if it is not already."""
    d = split_dim_of_code(split)
    if any(v == DYNAMIC for t in (src, lane_type) for i, v in enumerate(t.get_valid()) if i != d):
        return None
    valid = list(src.get_valid())
    if DYNAMIC in valid or src.rank != 2 or DYNAMIC in src.get_shape():
        return None
    try:
        check_shard_valid(at, src, d, lane_stride)
    except PtoError:
        valid[1] = src.get_shape()[1]
    wide = widened_shard_extent(src.with_(valid=valid), split, lane_stride)
    if wide is not None:
        valid[d] = wide
    final = src.with_(valid=valid)
    if valid == list(src.get_valid()) or _shard_problem(final, d, lane_stride, at)[0] is not None:
        return None
    return valid


def shard_widened(
    src: SSAValue, split: int, wide: list[int], lane_type: TileType, lane_stride: int | None, arith: LaneArith,
    at: Operation,
) -> SetValidShapeOp:
    """A C->V boundary whose lanes no split code can place, and that cannot be carried whole either (lane 1's
    window would pass an odd box), carried with its valid split-axis extent widened (`widened_shard_extent`): a
    `pto.set_validshape` on the cube side widens V to the smallest placeable W, `pto.aiv_shard` carries the lanes'
    parts with the code W places (odd or even), and a `pto.set_validshape` on each lane narrows its part back to
    `clamp(V - l*step, 0, step)`.  Each lane's window starts where it did (at `l*step`), so the narrowed part holds
    exactly the cells `aiv_shard` would have delivered; the extra cells carried are the source's cells outside its
    valid region, which nothing reads.  `wide` is `widening_of`'s valid extents (the column extent widened to the
    box too when the shard's valid-extent rules ask for whole columns; each lane narrows it back as well).
    Inserted before `at`; returns the narrowing op (of type `lane_type`)."""
    src_type = src.type
    assert isinstance(src_type, TileType)
    d = split_dim_of_code(split)
    valid = list(wide)
    widen = SetValidShapeOp(src, valid, src_type.with_(valid=valid))
    shard = AivShardOp(widen.result, split, lane_type, lane_stride=lane_stride)
    for new in (widen, shard):
        new.location = at.location
        Rewriter.insert_op(new, InsertPoint.before(at))
    step = lane_step(src_type.get_shape()[d], lane_stride)
    lane_valid: list[int | SSAValue] = list(lane_type.get_valid())
    lane_valid[d] = arith.lane_valid(src_type.get_valid()[d], step, at)
    narrow = SetValidShapeOp(shard.result, lane_valid, lane_type)
    narrow.location = at.location
    Rewriter.insert_op(narrow, InsertPoint.before(at))
    if src.name_hint:
        widen.result.name_hint = f"{src.name_hint}_wide"
    return narrow


def carry_unplaceable_shards_whole(root: Operation) -> None:
    """Every `pto.aiv_shard` under `root` (an explicit-boundary region's, after splicing) whose split code pto-isa
    cannot place is carried whole instead (`shard_by_full_transfer`, with a `pto.get_subblock_idx` of its own),
    when lane 1's window fits the box, and else with its valid extent widened to one a code places
    (`shard_widened`); the lane type, and so every user, is unchanged."""
    for op in list(root.walk()):
        if not isinstance(op, AivShardOp) or op.split.value.data == 0:
            continue
        src, res = op.src.type, op.result.type
        assert isinstance(src, TileType) and isinstance(res, TileType)
        d = op.split.value.data - 1
        stride = op.lane_stride.value.data if op.lane_stride is not None else None
        if src.rank != 2 or DYNAMIC in (src.get_shape()[d], src.get_valid()[d]):
            continue  # a run-time extent cannot be lane-sliced here: left to ExpandMixedKernel's split-code error
        try:
            shard_split_code(src, op.split.value.data, stride, op)
            continue
        except PtoError:
            pass
        step = lane_step(src.get_shape()[d], stride)
        fits = full_transfer_fits(src, d, step)
        wide = None if fits else widening_of(src, op.split.value.data, res, stride, op)
        if not fits and wide is None:
            continue  # left to ExpandMixedKernel's split-code error
        idx = GetSubblockIdxOp()
        idx.location = op.location
        idx.result.name_hint = "lane"
        Rewriter.insert_op(idx, InsertPoint.before(op))
        name = op.result.name_hint
        if fits:
            vec = TileType.get(list(src.get_shape()), src.element_type, "vec", valid=list(src.get_valid()))
            move, last = shard_by_full_transfer(op.src, vec, res, d, step, LaneArith(idx.result, idx), op)
            if name:
                move.result.name_hint = f"{name}_whole"
        else:
            assert wide is not None
            narrow = shard_widened(op.src, op.split.value.data, wide, res, stride, LaneArith(idx.result, idx), op)
            last = narrow
            if name:
                narrow.src.name_hint = f"{name}_wide"
        op.result.replace_all_uses_with(last.result)
        op.detach()
        op.erase()
        if name:
            last.result.name_hint = name


class C2VBoundary(_SplitPattern):
    """`%v = pto.move %cube : <cube> -> vec` => `%v = pto.aiv_shard %cube {split[, lane_stride]}` (per-lane half)."""

    OPS = (MoveOp,)

    def applies(self, op: Operation) -> bool:
        return isinstance(op, MoveOp) and move_direction(op) is PipeDirection.C2V

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, MoveOp)
        lw = self.lw
        src, res = op.src.type, op.result.type
        assert isinstance(src, TileType) and isinstance(res, TileType)
        d = lw.dim
        if src.rank != 2:
            raise PtoError(
                f"{PASS}: the C->V boundary becomes pto.aiv_shard, which requires a 2D tile, but got rank "
                f"{src.rank}; reshape the cube tile to 2D before moving it to the vector side",
                op=op,
            )
        if src.get_shape()[d] == DYNAMIC:
            raise _dynamic_box_error(op, d)
        new_type = halved_tile_type(res, d, lw.lane_stride)
        problem, _ = _shard_problem(src, d, lw.lane_stride, op)
        if problem is not None:
            step = lw.step_for(src.get_shape()[d])
            runtime_other = any(v == DYNAMIC for i, v in enumerate(res.get_valid()) if i != d)
            # A run-time valid extent on the split axis cannot be lane-sliced here (the slice would need the
            # extent as a value): reported, with the fallback hint (a split code cannot place it either).
            runtime_split = src.get_valid()[d] == DYNAMIC
            name = op.result.name_hint
            fits = full_transfer_fits(src, d, step)
            # Lane 1's window passes an odd box: carry a widened extent (whole columns where the shard's
            # valid-extent rules ask for them, and a split-axis extent a code places).
            wide = widening_of(src, split_code_of_dim(d), new_type, lw.lane_stride, op) if not fits else None
            if wide is not None:  # (a run-time split extent has none)
                narrow = shard_widened(op.src, split_code_of_dim(d), wide, new_type, lw.lane_stride, lw.arith, op)
                rewriter.replace(op, [], [narrow.result])  # the widening, the shard and the narrowing are in place
                if name:
                    narrow.src.name_hint = f"{name}_wide"
                    narrow.result.name_hint = name
                lw.track(narrow.result, lw.make_info(res, d))
                lw.own_shards.add(narrow.result)
                return
            if not fits or runtime_split or (new_type.get_valid()[d] == DYNAMIC and runtime_other):
                raise PtoError(_ours(problem.message), op=op) from None
            move, sl = shard_by_full_transfer(op.src, res, new_type, d, step, lw.arith, op)
            rewriter.replace(op, [], [sl.result])  # the move and the slice are already in place
            if name:
                move.result.name_hint = f"{name}_whole"
                sl.result.name_hint = name
            lw.track(sl.result, lw.make_info(res, d))
            return
        shard = AivShardOp(op.src, split_code_of_dim(d), new_type, lane_stride=lw.lane_stride)
        shard.location = op.location
        rewriter.replace(op, shard)
        shard.result.name_hint = op.result.name_hint
        lw.track(shard.result, lw.make_info(res, d))
        lw.own_shards.add(shard.result)


class V2CBoundary(_SplitPattern):
    """`%c = pto.move %v : vec -> <cube>` => `%c_mat = pto.aic_gather %v {split}` + `%c = pto.move %c_mat`."""

    def applies(self, op: Operation) -> bool:
        return isinstance(op, MoveOp) and move_direction(op) is PipeDirection.V2C

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, MoveOp)
        lw = self.lw
        v = op.src
        info = lw.info(v)
        if info is None and lw.is_whole(v):
            return  # a full-width chain crosses whole (split code 0: the cube takes lane 0's tile)
        if info is None:
            raise PtoError(
                f"{PASS}: the V->C boundary pto.move here carries a full-width vector operand '{_name(v)}'. "
                "pto.aic_gather reassembles the two AIV lanes' per-lane halves into the full tile the cube expects, "
                "so its operand must be a value the split halving produced (a pto.load / pto.slice / elementwise "
                "result inside the vector sub-region). An un-halved value has no half to gather — either derive the "
                "per-lane half first (load or slice the value inside the split function) and move that to the cube "
                "side, or, if the split axis is a singleton that cannot be halved, keep the value on the vector side",
                op=op,
            )
        vt, res = v.type, op.result.type
        assert isinstance(vt, TileType) and isinstance(res, TileType)
        if info.dim not in (0, 1) or vt.rank != 2:
            raise PtoError(
                f"{PASS}: the V->C boundary operand '{_name(v)}' carries its split on dim {info.dim} of a rank-"
                f"{vt.rank} tile, but pto.aic_gather reassembles a 2D tile along dim 0 or dim 1 only; reshape the "
                "value back to a 2D tile whose split axis is dim 0 or 1 before moving it to the cube",
                op=op,
            )
        gshape = list(vt.get_shape())
        gshape[info.dim] = 2 * gshape[info.dim]
        if tuple(gshape) != res.get_shape():
            raise PtoError(
                f"{PASS}: the V->C boundary operand '{_name(v)}' has an odd split extent ({info.full} on dim "
                f"{info.dim}): the two lanes' boxes of {info.half} gather to {gshape[info.dim]}, which does not fit "
                f"the {res.get_shape()[info.dim]}-wide cube tile. Make the split extent even (pad the tile) before "
                "the V->C boundary",
                op=op,
            )
        gtype = TileType.get(list(res.get_shape()), res.element_type, "mat", valid=list(res.get_valid()))
        if res.space in SCALE_SPACES and scale_kind(res) is not None:
            gtype = scale_mat_type(res)  # an MX scale keeps its row/row or col/col layout (analysis/mx_scale.py)
        gather = AicGatherOp(v, split_code_of_dim(info.dim), gtype)
        gather.location = op.location
        if op.result.name_hint:
            gather.result.name_hint = f"{op.result.name_hint}_mat"
        move = MoveOp(gather.result, res, attributes=dict(op.attributes))
        move.location = op.location
        rewriter.replace(op, [gather, move])
        move.result.name_hint = op.result.name_hint


class TransferRestamp(_SplitPattern):
    """Hand-written transfers in an AUTO body (reference §2.3, first rows): the pair's split code is re-stamped
    from the full-width tile (`ShardSplitCode` for C->V, `GatherSplitCode` for V->C); a `tpop_from_aic` result
    becomes the per-lane half and is tracked; a `tpop_from_aiv` keeps its full type."""

    OPS = (TPushToAivOp, TPopFromAicOp, TPushToAicOp, TPopFromAivOp)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        lw = self.lw
        mode = split_code_of_dim(lw.dim)
        if isinstance(op, (TPushToAivOp, TPopFromAicOp)):
            full = op.operands[0].type if isinstance(op, TPushToAivOp) else op.results[0].type
            assert isinstance(full, TileType)
            if full.rank != 2:
                raise PtoError(
                    f"{PASS}: '{op.name}' carries a rank-{full.rank} tile across a split boundary; the split "
                    "transfer needs a 2D tile. Reshape the tile to 2D before the transfer",
                    op=op,
                )
            if full.get_shape()[lw.dim] == DYNAMIC:
                raise _dynamic_box_error(op, lw.dim)
            op.split = i64_attr(shard_split_code(full, mode, lw.lane_stride, op))
            if lw.lane_stride is not None:
                op.lane_stride = i64_attr(lw.lane_stride)
            if isinstance(op, TPopFromAicOp):
                lw.retype_lane_part(rewriter, op.results[0], lw.dim)
            return
        if isinstance(op, TPushToAicOp):
            info = lw.info(op.operands[0])
            if info is None:
                raise PtoError(
                    f"{PASS}: this pto.tpush_to_aic sends a full-width vector operand '{_name(op.operands[0])}' "
                    "across the V->C boundary of a split kernel; the cube re-joins the two lanes' halves, so send "
                    "a value the split halving produced (or keep the value on the vector side)",
                    op=op,
                )
            if info.dim not in (0, 1):
                raise PtoError(
                    f"{PASS}: the V->C boundary operand '{_name(op.operands[0])}' carries its split on dim "
                    f"{info.dim}, but a split transfer re-joins a 2D tile along dim 0 or dim 1 only",
                    op=op,
                )
            op.split = i64_attr(gather_split_code(info.orig_type, split_code_of_dim(info.dim), op))
            return
        full = op.results[0].type
        assert isinstance(full, TileType)
        if full.rank == 2 and full.get_shape()[lw.dim] != DYNAMIC:
            op.split = i64_attr(gather_split_code(full, mode, op))
