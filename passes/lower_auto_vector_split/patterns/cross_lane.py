"""Reductions over the split axis in an AUTO kernel (issue 43, part 1): each lane reduces its half, the two
partials meet in a GM workspace, and both lanes combine them into the whole result.

For `%r = pto.col_sum %x : !pto.tile<16x32xf32, vec> -> !pto.tile<1x32xf32, vec>` under up_down (`%x` halved to
`8x32`), `split_reduction` emits::

    %r_ws = pto.lane_workspace : !pto.tensor<2x1x32xf32>          // at the kernel entry, one per reduction
    ...
    %r_part = pto.col_sum %x : !pto.tile<8x32xf32, vec> -> !pto.tile<1x32xf32, vec>   // the lane's partial
    pto.lane_barrier                                               // write-after-read: only inside a loop
    %id = pto.full %c : f32 -> !pto.tile<1x32xf32, vec>           // only where a lane's half may be empty
    %r_ws_0 = pto.store %id, %r_ws[%subblock_idx, 0, 0] ...
    %r_ws_1 = pto.store %r_part, %r_ws[%subblock_idx, 0, 0] ...   // the lane's row of the workspace
    pto.lane_barrier                                               // read-after-write: both partials are there
    %r_lo = pto.load %r_ws_1[0, 0, 0] ...                          // lane 0's partial
    %r_hi = pto.load %r_ws_1[1, 0, 0] ...                          // lane 1's partial
    %r = pto.add %r_lo, %r_hi : !pto.tile<1x32xf32, vec>          // the reduction's own combine: add/max/min

`%r` is whole: both lanes hold all of it, in the same order of combination (lane 0's partial first), so both
lanes compute the same bits; a `*_expand_*` with the per-lane operand broadcasts it over the lane's half.

- **Identity.** A lane whose half holds no valid cell of the axis (an odd or ragged valid extent: lane 1 of 5
  rows in a 16-row box, or a run-time extent) reduces nothing: its partial has no valid cell, and its store
  writes nothing.  Its row is filled with the reduction's identity first (0 for sum, -inf / the type's minimum
  for max, +inf / the maximum for min), which the partial then overwrites where it has cells.  When both lanes
  are known to hold cells the fill is not emitted.
- **One workspace per reduction**, created at the kernel entry: two reductions never share a row, so only the
  reuse of one workspace by the next iteration of an enclosing loop needs a write-after-read barrier (lane 0
  storing iteration i+1's partial while lane 1 still loads iteration i's); a shared workspace would need that
  barrier between every pair of reductions.  The cost is GM space (two result tiles per reduction), which is
  small against the tiles themselves.
- **Refused** (a located error, or the fallback): a result type whose valid extent is a run-time value (the
  loads of the workspace need it as an operand, and no value of the kernel holds it).
"""

from __future__ import annotations

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_elementwise_ops import AddOp, MaxOp, MinOp
from pypto_mlir.dialects.pto_lane_ops import LaneBarrierOp, LaneWorkspaceOp
from pypto_mlir.dialects.pto_tile_ops import FullOp, LoadOp, StoreOp
from pypto_mlir.dialects.pto_traits import ReductionAxis
from pypto_mlir.dialects.pto_types import DYNAMIC, TensorType, TileType, format_shape
from pypto_mlir.passes.analysis.split_axis import TileInfo

from .base import PASS, _name, _SplitPattern

COMBINE = {"sum": AddOp, "max": MaxOp, "min": MinOp}
"""The elementwise op that combines two partial results of a reduction, by its `ReductionAxis.combine`."""


def identity_constant(combine: str, element_type) -> arith.ConstantOp:
    """`arith.constant` of the identity of `combine` in `element_type` (sum: 0; max: -inf or the integer minimum;
    min: +inf or the integer maximum)."""
    if isinstance(element_type, IntegerType):
        w = element_type.width.data
        value = {"sum": 0, "max": -(1 << (w - 1)), "min": (1 << (w - 1)) - 1}[combine]
        return arith.ConstantOp(IntegerAttr(value, element_type))
    value = {"sum": 0.0, "max": float("-inf"), "min": float("inf")}[combine]
    return arith.ConstantOp(FloatAttr(value, element_type))


def lanes_may_be_empty(info: TileInfo) -> bool:
    """Whether a lane's half of the split axis may hold no valid cell: a run-time valid extent, or a static one
    that lane 1's window starts at or after (lane 0 holds `min(V, step)` cells, lane 1 `V - step` when positive)."""
    return info.full_valid == DYNAMIC or info.full_valid <= info.step


def in_loop(op: Operation) -> bool:
    """Whether `op` runs more than once per kernel: an enclosing `scf.for` / `scf.while` (of this function)."""
    p = op.parent_op()
    while p is not None and not isinstance(p, scf.ForOp | scf.WhileOp):
        if isinstance(p, func.FuncOp):
            return False
        p = p.parent_op()
    return p is not None


class CrossLaneReduction(_SplitPattern):
    """Not a halving pattern of its own: `ElementwiseHalving` hands it a reduction over its operand's split axis
    when the lowering combines across the lanes (`SplitLowering.cross_lane`, the AUTO path)."""

    def split(self, op: Operation, src: SSAValue, info: TileInfo) -> SSAValue:
        """Lower the reduction `op` over the split axis of its per-lane operand `src` (see the module docstring);
        returns the whole result, which replaces `op`'s result for every user.  Records the combine on the
        lowering (`cross_lane_combines`)."""
        lw = self.lw
        trait = op.get_trait(ReductionAxis)
        assert trait is not None and trait.combine in COMBINE
        result = op.results[0]
        rtype = result.type
        assert isinstance(rtype, TileType)
        if DYNAMIC in rtype.get_valid():
            raise PtoError(
                f"{PASS}: reduce op '{op.name}' reduces over the split axis (dim {info.dim}), which the lanes combine "
                f"through a GM workspace, but its result '{_name(result)}' ({rtype}) has a run-time valid extent that "
                "the workspace loads cannot state (no value of the kernel holds it). Give the result a static valid "
                "extent, reduce along the other axis, or split the function the other way "
                f"(pto.split = #pto.split<{'left_right' if info.dim == 0 else 'up_down'}>)",
                op=op,
            )
        name = result.name_hint or "red"
        ws_type = TensorType([2, *rtype.get_shape()], rtype.element_type)
        ws_op = LaneWorkspaceOp(ws_type)
        ws = lw.arith.hoist(ws_op)
        ws.name_hint = f"{name}_ws"
        sub, zero = lw.arith.sub, 0
        row = [sub, *([zero] * rtype.rank)]
        new: list[Operation] = []
        looped = in_loop(op)
        if looped:
            new.append(LaneBarrierOp())  # write-after-read: the other lane has loaded the previous iteration's rows
        dest = ws
        if lanes_may_be_empty(info):
            c = identity_constant(trait.combine, rtype.element_type)
            c.result.name_hint = f"{trait.combine}_identity"
            fill = FullOp(c.result, rtype.with_(valid=rtype.get_shape()))
            fill.result.name_hint = f"{name}_identity"
            st0 = StoreOp(fill.result, dest, row)
            st0.result.name_hint = f"{name}_filled"
            new += [c, fill, st0]
            dest = st0.result
        st = StoreOp(result, dest, row)
        st.result.name_hint = f"{name}_row"
        raw = LaneBarrierOp()
        lo = LoadOp(st.result, [0] * (rtype.rank + 1), rtype)
        hi = LoadOp(st.result, [1, *([0] * rtype.rank)], rtype)
        lo.result.name_hint, hi.result.name_hint = f"{name}_lo", f"{name}_hi"
        comb = COMBINE[trait.combine](lo.result, hi.result)
        comb.result.name_hint = name
        result.name_hint = f"{name}_part"
        new += [st, raw, lo, hi, comb]
        for o in new:
            o.location = op.location
        Rewriter.insert_op(new, InsertPoint.after(op))
        result.replace_uses_with_if(comb.result, lambda use: use.operation is not st)
        for o in new:
            lw.verify_rewritten(o)
        lw.cross_lane_combines.append({
            "op": op.name,
            "value": f"%{name}",
            "combine": trait.combine,
            "split_dim": info.dim,
            "workspace": f"2 x {format_shape(rtype.get_shape())}",
            "identity_fill": lanes_may_be_empty(info),
            "in_loop": looped,
            "barriers": 2 if looped else 1,
        })
        return comb.result
