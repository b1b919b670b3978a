"""Compute halving of LowerAutoVectorSplit: the tile generators (`pto.full`, `pto.ci`, `pto.random`: built at the
lane's shape) and the elementwise family (`ElementwiseHalving`: elementwise ops, casts, reductions off the split
axis, broadcasts, same-side moves)."""

from __future__ import annotations

from math import prod

from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import (
    GENERATOR_OPS,
    SetValidShapeOp,
)
from pypto_mlir.dialects.pto_traits import ReductionAxis, TileGenerator
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType
from pypto_mlir.dialects.pto_lanes import ceil_half
from pypto_mlir.passes.analysis.split_axis import (
    halved_tile_type,
)
from pypto_mlir.dialects.pto_traits import HalvingRule, halving_rule_of

from .base import PASS, _SplitPattern, _dynamic_box_error, check_same_axis
from .cross_lane import CrossLaneReduction


class GeneratorHalving(_SplitPattern):
    """`pto.full` / `pto.create` (vec): the result shape is halved.  `pto.ci` (a `linear` generator): when a
    lane's part is one contiguous run of the row-major order (every dim before the split axis is 1: UP_DOWN, or
    LEFT_RIGHT of a single row) the result is halved and the start moves to the lane's first cell, `start +
    subblock_idx * step * (cells per split-axis index)`; otherwise (LEFT_RIGHT of several rows: a lane's columns
    are not one run) it is generated whole on both lanes and its users take its lane part (`lane_part`).
    `pto.random` is rejected on a non-singleton split dim (its values depend on the position).  When the lanes
    hold different valid extents (an odd box, or a valid extent that is not a multiple of the lane step) a
    generator, which has no valid operand, generates the lane's box and a `pto.set_validshape` gives it the lane's
    valid extent (`_halve`)."""

    OPS = GENERATOR_OPS

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        lw = self.lw
        t = op.results[0].type
        assert isinstance(t, TileType)
        d = lw.free_axes.get(op.results[0], lw.dim)
        if t.rank <= d or t.get_shape()[d] == 1:
            return
        trait = op.get_trait(TileGenerator)
        if trait is not None and trait.linear:
            self._lane_seeded(op, t, d, rewriter)
            return
        if trait is not None and trait.position_dependent:
            raise PtoError(
                f"{PASS}: automatic split-axis halving of '{op.name}' is not supported because its generated values "
                "depend on position; changing the result type alone would give both lanes the first half's values. "
                "Move the generator out of the split function, or generate a tile whose split dim is 1",
                op=op,
            )
        if t.get_shape()[d] == DYNAMIC:
            raise _dynamic_box_error(op, d)
        self._halve(op, t, d, rewriter)

    def _lane_seeded(self, op: Operation, t: TileType, d: int, rewriter: PatternRewriter) -> None:
        """A `linear` generator (`pto.ci`): seeded at the lane's first cell, or generated whole (see the class)."""
        lw = self.lw
        shape = t.get_shape()
        if shape[d] == DYNAMIC:
            raise _dynamic_box_error(op, d)
        if any(x != 1 for x in shape[:d]) or DYNAMIC in shape[d + 1 :]:
            lw.whole.add(op.results[0])  # a lane's cells are not one run: both lanes generate the whole tile
            return
        cells = lw.step_for(shape[d]) * prod(shape[d + 1 :])
        op.operands[0] = lw.arith.scalar_offset(op.operands[0], cells, op)
        self._halve(op, t, d, rewriter)

    def _halve(self, op: Operation, t: TileType, d: int, rewriter: PatternRewriter) -> None:
        """Give the generator `op` (full type `t`) its lane part on dim `d`.  When both lanes hold the same valid
        extent the result is retyped to the lane's type; otherwise the type cannot state it (the verifier rejects
        a `?` valid extent of a generator), so the generator makes the lane's box, fully valid on `d`, and a
        `pto.set_validshape` right after it narrows it to the lane's extent `clamp(V - sub*S, 0, S)`
        (`LaneArith.lane_valid`, the formula of `dialects/pto_lanes.py`)."""
        lw = self.lw
        shape = t.get_shape()
        if halved_tile_type(t, d, lw.lane_stride).get_valid()[d] != DYNAMIC:
            lw.retype_lane_part(rewriter, op.results[0], d)
            return
        r = op.results[0]
        entries: list[int | SSAValue] = list(t.get_valid())
        entries[d] = lw.arith.lane_valid(t.get_valid()[d], lw.step_for(shape[d]), op)
        narrow = SetValidShapeOp(r, entries, halved_tile_type(t, d, lw.lane_stride))
        narrow.location = op.location
        Rewriter.insert_op(narrow, InsertPoint.after(op))
        r.replace_uses_with_if(narrow.result, lambda use: use.operation is not narrow)
        hint = r.name_hint
        box = rewriter.replace_value_with_new_type(r, halved_tile_type(t, d, lw.lane_stride, valid=ceil_half(shape[d])))
        box.name_hint = f"{hint or op.name.removeprefix('pto.')}_box"
        narrow.result.name_hint = hint
        lw.track(narrow.result, lw.make_info(t, d))
        lw.verify_rewritten(narrow)


class ElementwiseHalving(_SplitPattern):
    """The vector ops that declare an elementwise, reduction, broadcast or move rule (`LaneHalving`: casts,
    reductions off the split axis, row / col expands, same-side moves):
    when a tile operand is per-lane, the tile results are halved on that operand's split dim."""

    RULES = frozenset({HalvingRule.ELEMENTWISE, HalvingRule.REDUCTION, HalvingRule.BROADCAST, HalvingRule.MOVE})
    """The split rules this pattern implements (`LaneHalving`): only ops declaring one of them are halved here."""

    def applies(self, op: Operation) -> bool:
        return halving_rule_of(op) in self.RULES and any(isinstance(r.type, TileType) for r in op.results)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        lw = self.lw
        src = next((v for v in op.operands if v in lw.tracked), None)
        if src is None:
            return  # all tile operands full width: the op stays full width
        check_same_axis(op, f"'{op.name}' combines", list(op.operands), lw.tracked)
        info = lw.tracked[src]
        d = info.dim
        reduction = op.get_trait(ReductionAxis)
        if reduction is not None and reduction.axis == d and lw.cross_lane:
            lw.whole.add(CrossLaneReduction(lw).split(op, src, info))
            return
        if reduction is not None and reduction.axis == d:
            raise PtoError(
                f"{PASS}: reduce op '{op.name}' reduces on the split axis (dim {d}); partial reduction in a split "
                "kernel is not supported. Reduce along the other axis, split the function the other way "
                f"(pto.split = #pto.split<{'left_right' if d == 0 else 'up_down'}>), or reduce outside the split "
                "function",
                op=op,
            )
        for r in list(op.results):
            old = r.type
            if not isinstance(old, TileType) or old.rank <= d:
                continue
            if old.get_shape()[d] == 1 and info.full != 1:
                continue  # a singleton result of a wider operand (not a reduction over the split axis)
            if old.get_shape()[d] == DYNAMIC:
                raise _dynamic_box_error(op, d)
            if old == info.orig_type:
                new_type = src.type
            else:
                new_type = halved_tile_type(old, d, lw.lane_stride)
            new_res = rewriter.replace_value_with_new_type(r, new_type)
            lw.track(new_res, lw.make_info(old, d))
        lw.verify_rewritten(op)
