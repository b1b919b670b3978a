"""Split-axis arithmetic: how a tile is halved over the two AIV lanes.

Used by LowerAutoVectorSplit (AUTO path and the explicit `split_aiv_scope` region path) and available to
ExpandMixedKernel.  Two layers:

* **Tile types** on top of the lane arithmetic of `lanes.py` (lane extents, steps, split axes: one home there),
  unit-tested in `tests/passes/analysis/test_split_axis.py`: `halved_tile_type(t, dim, stride)`, `with_dim`, and the reshape
  split tracking `reshape_split_target`.
* **IR emission** (`LaneArith`): the index arithmetic the rewritten IR needs, with `arith` ops on `index`
  values: the lane offset `orig + subblock_idx * step` (the `0 +` folded) and the clamped lane valid extent
  `min(max(V, subblock_idx * S) - subblock_idx * S, S)`.  Values that only depend on the lane index and
  constants are emitted once, right after an *anchor* op (the `pto.get_subblock_idx` that defines the lane
  index), so they dominate every use and are shared.

Terminology: *box* is the physical extent of the split dim (`shape[dim]`), *valid* the logical extent
(`valid[dim]`), *half* the per-lane box `ceil(box / 2)`, *step* the distance between the two lanes' first rows
(`lane_stride` when a ragged boundary was balanced, else the half).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from pypto_mlir.dialects.pto_types import DYNAMIC, TileType, implicit_view
from pypto_mlir.dialects.pto_view_ops import reinterpret_inferred_shape

from pypto_mlir.dialects.pto_lanes import ceil_half, lane_extent_ops, lane_extents, localized_valid

# ---------------------------------------------------------------------------------------------------------------
# Tile types
# ---------------------------------------------------------------------------------------------------------------


def halved_tile_type(t: TileType, dim: int, lane_stride: int | None = None, valid: int | None = None) -> TileType:
    """`t` with `dim` halved (ceil) and its valid extent localized; other dims, element type and memory kept.

    A view equal to the implicit view of the old shape becomes the implicit view of the new shape (so an
    `Nx1` column that stays a column keeps printing canonically); an explicit view is carried.  `valid`
    overrides the localized valid entry (e.g. `DYNAMIC` when the caller computes it at runtime)."""
    shape = list(t.get_shape())
    vals = list(t.get_valid())
    box = shape[dim]
    new_valid = localized_valid(box, vals[dim], lane_stride) if valid is None else valid
    shape[dim] = ceil_half(box)
    vals[dim] = new_valid
    implicit = implicit_view(t.get_shape(), t.space)
    if t.view == implicit:
        return t.with_(shape=shape, valid=vals, reset_view=True)
    return t.with_(shape=shape, valid=vals)


def reinterpret_halves(lane_src: TileType, out: TileType, dim: int, lane_stride: int | None = None) -> bool:
    """Whether a lane's part `lane_src` (split on `dim`) of a `pto.reinterpret_view` source, seen as `out`'s element
    type, is that lane's half of the full view `out` (`halved_tile_type`).  The view rescales the innermost dim,
    so on that dim the lane's bytes are `step * width` from the row's start: the per-lane view is exact when the
    source step, in new elements, is the view's own step (`16 x f32 -> 32 x i16` of `[8, 32] -> [8, 64]`), not
    for an odd source extent (`31 x f32`: lane 1 starts at i16 column 32, the view's halves at 31) nor when a
    lane's part is not a whole number of the wider elements (`31 x i16 -> f32`)."""
    return reinterpret_inferred_shape(lane_src, out.element_type) == list(halved_tile_type(out, dim, lane_stride).get_shape())


def with_dim(t: TileType, dim: int, extent: int, valid: int) -> TileType:
    """`t` with `shape[dim] = extent`, `valid[dim] = valid` (view handled as in `halved_tile_type`)."""
    shape = list(t.get_shape())
    vals = list(t.get_valid())
    shape[dim] = extent
    vals[dim] = valid
    if t.view == implicit_view(t.get_shape(), t.space):
        return t.with_(shape=shape, valid=vals, reset_view=True)
    return t.with_(shape=shape, valid=vals)


def _prod(dims) -> int:
    n = 1
    for d in dims:
        n *= d
    return n


class ReshapeSplitError(Exception):
    """A reshape the split tracking cannot follow; `kind` is `odd` (E-RESHAPE-ODD) or `track` (E-RESHAPE-TRACK)."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


def reshape_split_target(in_shape: list[int] | tuple[int, ...], in_dim: int, out_shape: list[int] | tuple[int, ...]) -> int:
    """Where the split axis `in_dim` of a full-width `in_shape` lands in a row-major reshape to `out_shape`.

    Each lane holds the window `[l*step, l*step + half)` of `in_dim`, i.e. (with `P = prod(in[:in_dim])`,
    `I = prod(in[in_dim+1:])`) the flat cells `a*n*I + l*step*I + [0, half*I)` for every outer index `a < P`:
    `P` runs of `half*I` cells.  The lane's own reshape of its half is the result's window on dim `d` exactly
    when the result describes the same runs: `prod(out[:d]) == P` (the outer dims keep their product) and
    either `out[d] == n` (the split dim itself is kept, any extent, any step: the reshape only regroups the dims
    around it) or both extents are even and `(n/2)*I == (out[d]/2)*prod(out[d+1:])` (the halves regroup into
    another dim, e.g. `[16, 1] -> [1, 16]` or `[16, 4] -> [4, 16]`).  `d` is the first result dim with that
    prefix product and a non-unit extent.

    A row-major reshape that does *not* keep the prefix product scatters a lane's half (`[8, 16] -> [1, 128]`
    under LEFT_RIGHT: a lane's 8 columns of every row are not the 64 first or last cells of the result).
    Raises `ReshapeSplitError('odd')` when an odd split extent has no result dim that keeps it,
    `ReshapeSplitError('track')` when no result dim fits.  A dynamic shape is only followed with a unit prefix
    (same axis, as before: the caller checks the result dim)."""
    n = in_shape[in_dim]
    if n == DYNAMIC or DYNAMIC in in_shape or DYNAMIC in out_shape:
        if DYNAMIC in in_shape[:in_dim] or _prod(in_shape[:in_dim]) != 1:
            raise ReshapeSplitError("track")
        return in_dim
    outer = _prod(in_shape[:in_dim])
    inner = _prod(in_shape[in_dim + 1 :])
    for d, ext in enumerate(out_shape):
        pre = _prod(out_shape[:d])
        if pre > outer:
            break
        if pre != outer or ext == 1:
            continue
        if ext == n:
            return d
        if n % 2 == 0 and ext % 2 == 0 and (ext // 2) * _prod(out_shape[d + 1 :]) == (n // 2) * inner:
            return d
        break
    raise ReshapeSplitError("odd" if n % 2 == 1 else "track")


@dataclass(frozen=True)
class TileInfo:
    """How a halved (per-lane) tile relates to the full tile it replaces.

    `dim`: the split axis of this tile (a reshape may have moved it off the function's split dim);
    `half`: the per-lane box; `full`: the full box; `full_valid`: the full valid extent (`DYNAMIC` if runtime);
    `step`: the lane step used for offsets; `orig_type`: the full-width type before halving."""

    dim: int
    half: int
    full: int
    full_valid: int
    step: int
    orig_type: TileType


# ---------------------------------------------------------------------------------------------------------------
# IR emission
# ---------------------------------------------------------------------------------------------------------------


class LaneArith:
    """Emits the lane index arithmetic of a split function or region.

    `sub` is the lane index (`%subblock_idx`); `anchor` the op after which lane-only values are hoisted
    (normally `sub`'s defining op).  All values are `index`."""

    def __init__(self, sub: SSAValue, anchor: Operation):
        self.sub = sub
        self._anchor = anchor
        self._last = anchor
        self._consts: dict[int, SSAValue] = {}
        self._lane_offsets: dict[int, SSAValue] = {}
        self._shifted: dict[tuple[int, int], SSAValue] = {}
        self._clamps: dict[tuple[int, int], SSAValue] = {}
        self._first_lane: SSAValue | None = None

    # -- hoisted values --------------------------------------------------------------------------------------
    def _hoist(self, op: Operation) -> SSAValue:
        op.location = self._anchor.location
        Rewriter.insert_op(op, InsertPoint.after(self._last))
        self._last = op
        return op.results[0]

    def hoist(self, op: Operation) -> SSAValue:
        """Insert `op` (whose operands are defined by then) among the hoisted values after the lane index, located
        at the anchor; returns its first result (a value created once per kernel, e.g. a lane workspace)."""
        return self._hoist(op)

    def const(self, value: int) -> SSAValue:
        """A hoisted `arith.constant value : index`."""
        if value not in self._consts:
            c = arith.ConstantOp.from_int_and_width(value, IndexType())
            c.result.name_hint = f"c{value}"
            self._consts[value] = self._hoist(c)
        return self._consts[value]

    def is_first_lane(self) -> SSAValue:
        """`subblock_idx == 0` (hoisted, shared): the condition of an op only lane 0 performs."""
        if self._first_lane is None:
            cmp = arith.CmpiOp(self.sub, self.const(0), "eq")
            cmp.result.name_hint = "is_lane0"
            self._first_lane = self._hoist(cmp)
        return self._first_lane

    def lane_offset(self, step: int) -> SSAValue:
        """`subblock_idx * step` (hoisted, shared)."""
        if step not in self._lane_offsets:
            c = self.const(step)
            self._lane_offsets[step] = self._hoist(arith.MuliOp(self.sub, c))
        return self._lane_offsets[step]

    def offset(self, orig: int | SSAValue, step: int, before: Operation) -> SSAValue:
        """`orig + subblock_idx * step`; `0 +` folded; static `orig` hoisted, dynamic `orig` emitted before `before`."""
        lane = self.lane_offset(step)
        if isinstance(orig, int):
            if orig == 0:
                return lane
            key = (orig, step)
            if key not in self._shifted:
                self._shifted[key] = self._hoist(arith.AddiOp(self.const(orig), lane))
            return self._shifted[key]
        orig = self.to_index(orig, before)
        add = arith.AddiOp(orig, lane)
        add.location = before.location
        Rewriter.insert_op(add, InsertPoint.before(before))
        return add.result

    def scalar_offset(self, orig: SSAValue, step: int, before: Operation) -> SSAValue:
        """`orig + subblock_idx * step` in `orig`'s own integer type (a scalar such as a `pto.ci` start, not an
        index offset): the hoisted `lane_offset(step)`, cast to that type, added before `before`."""
        lane = self.lane_offset(step)
        if not isinstance(orig.type, IndexType):
            cast = arith.IndexCastOp(lane, orig.type)
            cast.location = before.location
            Rewriter.insert_op(cast, InsertPoint.before(before))
            lane = cast.result
        add = arith.AddiOp(orig, lane)
        add.location = before.location
        Rewriter.insert_op(add, InsertPoint.before(before))
        return add.result

    def add_static(self, orig: int | SSAValue, k: int, before: Operation) -> int | SSAValue:
        """`orig + k` for a static `k`: folded for a static `orig`, else an `arith.addi` with a hoisted constant,
        emitted before `before`."""
        if isinstance(orig, int):
            return orig + k
        add = arith.AddiOp(self.to_index(orig, before), self.const(k))
        add.location = before.location
        Rewriter.insert_op(add, InsertPoint.before(before))
        return add.result

    def to_index(self, value: SSAValue, before: Operation) -> SSAValue:
        if isinstance(value.type, IndexType):
            return value
        if isinstance(value.type, IntegerType):
            cast = arith.IndexCastOp(value, IndexType())
            cast.location = before.location
            Rewriter.insert_op(cast, InsertPoint.before(before))
            return cast.result
        raise TypeError(f"not an integer value: {value.type}")

    def lane_valid(self, valid: int | SSAValue, step: int, before: Operation) -> int | SSAValue:
        """The lane's valid extent `min(max(V, sub*S) - sub*S, S)`: an int when both lanes agree (static V),
        else an `index` value (hoisted for static V, emitted before `before` for a runtime V)."""
        if isinstance(valid, int):
            a, b = lane_extents(valid, step)
            if a == b:
                return a
            key = (valid, step)
            if key not in self._clamps:
                self._clamps[key] = self._emit_clamp(self.const(valid), step, hoist=True, before=before)
            return self._clamps[key]
        return self._emit_clamp(self.to_index(valid, before), step, hoist=False, before=before)

    def _emit_clamp(self, v: SSAValue, step: int, hoist: bool, before: Operation) -> SSAValue:
        ops = lane_extent_ops(v, self.lane_offset(step), self.const(step))
        for op in ops:
            if hoist:
                self._hoist(op)
            else:
                op.location = before.location
                Rewriter.insert_op(op, InsertPoint.before(before))
        return ops[-1].results[0]


__all__ = [
    "LaneArith",
    "ReshapeSplitError",
    "TileInfo",
    "halved_tile_type",
    "reshape_split_target",
    "with_dim",
]
