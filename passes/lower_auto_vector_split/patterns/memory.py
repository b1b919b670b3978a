"""GM access halving of LowerAutoVectorSplit: `pto.load` of a per-lane window (`LoadHalving`, which records the
load so a later slice can fold into it) and `pto.store` at the lane offset (`StoreOffsets`), with the rules for a
whole tile stored by both lanes (`shared_store`, `check_whole_store`)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import func, scf
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import (
    LoadOp,
    StoreOp,
)
from pypto_mlir.dialects.pto_traits import GmAccess
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType
from pypto_mlir.passes.analysis.split_axis import (
    TileInfo,
    halved_tile_type,
)
from .base import PASS, _PerLanePattern, _SplitPattern, _localize_valid_list, _name, lane_part_problem, lane_shifted_offsets, lane_window_offsets, replace_rebuilt


def shared_store(op: StoreOp) -> Operation | None:
    """Why a store of the same cells from both lanes would race: another op of the function that may write the
    same tensor (a `pto.store`, or a put/get as its `GmAccess` trait states; tensors matched by `tensor_roots`), or the enclosing loop when `op` runs more than once; None when neither."""
    from pypto_mlir.passes.analysis.hazards import tensor_roots

    func_op = op.parent_op()
    while func_op is not None and not isinstance(func_op, func.FuncOp):
        if isinstance(func_op, (scf.ForOp, scf.WhileOp)):
            return func_op
        func_op = func_op.parent_op()
    if func_op is None:
        return None
    memo: dict = {}
    roots = tensor_roots(op.dest, memo)
    for other in func_op.walk():
        if other is op or (trait := other.get_trait(GmAccess)) is None:
            continue
        if any(roots & tensor_roots(t, memo) for t in trait.written_tensors(other)):
            return other
    return None


def check_whole_store(op: StoreOp, v: SSAValue, d: int, step: int) -> None:
    """A tile full width on both lanes with no lane part is stored by both lanes (the same cells, the same values).
    That is only safe when no other store writes the same tensor and the store runs once (`shared_store`): the two
    lanes' stores have no defined order."""
    other = shared_store(op)
    if other is None:
        return
    t = v.type
    assert isinstance(t, TileType)
    if t.rank >= 2 and t.rank > d and t.get_shape()[d] not in (1, DYNAMIC):
        why = f"which this pass computes whole on both lanes and cannot slice into lane parts ({lane_part_problem(t, d, step)})"
    elif t.rank > d and t.get_shape()[d] == DYNAMIC:  # reference PR #2585: a dynamic split extent is not halved
        why = f"which is never halved (its split extent on dim {d} is dynamic, '?', and has no lane part to cut)"
    else:
        why = f"which is never halved (a rank-{t.rank} tile: both lanes hold it whole) and has no lane part on dim {d}"
    again = (
        f"this store runs again in the enclosing '{other.name}'"
        if isinstance(other, (scf.ForOp, scf.WhileOp))
        else "another store writes the same tensor"
        if isinstance(other, StoreOp)
        else f"a '{other.name}' writes the same tensor too"
    )
    raise PtoError(
        f"{PASS}: this pto.store writes '{_name(v)}' ({t}), {why}, so both lanes would store the whole tile; "
        f"{again}, and the two lanes' stores have no defined order. Make the split extent even (pad the tile), or "
        "store this value to a tensor of its own, written once",
        op=op,
    )


@dataclass(frozen=True)
class LoadWindow:
    """A vec `pto.load` as written (before halving): its source, offsets, full-width type and attributes."""

    source: SSAValue
    offsets: list[int | SSAValue]
    full_type: TileType
    attributes: dict


class LoadHalving(_SplitPattern):
    """A vec `pto.load`: halve the window on the split dim, offset it by `subblock_idx * step`, clamp the valid."""

    OPS = (LoadOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, LoadOp)
        lw = self.lw
        t = op.result.type
        assert isinstance(t, TileType)
        window = lane_window_offsets(lw, op, t, op.source.type.rank)  # type: ignore[union-attr]
        if window is None:
            return  # rank-1 loads and singleton split dims stay full width (untracked)
        d, step, offsets = window
        written = LoadWindow(op.source, op.get_mixed_offsets(), t, dict(op.attributes))
        valid, vt = _localize_valid_list(lw, op, t, d, op.get_mixed_valid(), step)
        new_type = halved_tile_type(t, d, lw.lane_stride, valid=vt)
        new = LoadOp(op.source, offsets, new_type, valid=valid)
        replace_rebuilt(rewriter, op, new, ("static_offsets", "static_valid", "operandSegmentSizes"))
        lw.track(new.result, lw.make_info(t, d))
        lw.load_windows[new.result] = written


class StoreOffsets(_PerLanePattern):
    """`pto.store` of a per-lane tile: the window on the tile's split dim moves by `subblock_idx * step` (a
    full-width tile keeps its offsets)."""

    OPS = (StoreOp,)
    OPERAND = "tile"

    def rewrite_per_lane(self, op: Operation, info: TileInfo, rewriter: PatternRewriter) -> None:
        assert isinstance(op, StoreOp) and isinstance(op.tile.type, TileType)
        offsets = lane_shifted_offsets(self.lw, op, op.tile.type, op.dest.type.rank, info)  # type: ignore[union-attr]
        new = StoreOp(op.tile, op.dest, offsets)
        replace_rebuilt(rewriter, op, new, ("static_offsets", "operandSegmentSizes"))
