"""Runtime values of the reference interpreter: element types, GM buffers, tiles, lane parts.

* A `!pto.tensor` value is a `Buffer`: a numpy array shared by reference (a store writes into it and returns the
  same `Buffer`).
* A `!pto.tile` value is a `Tile`: a numpy array of the tile's full (box) shape in its storage dtype, plus the
  runtime valid extents.  Every element outside the valid region holds the pad value of the tile's type
  (`null` and `zero` pad with 0, `max` with the largest finite value, `min` with the smallest), so a read outside
  the valid region sees the pad value.  Ops re-establish this invariant on every tile they produce.
* Scalars (`index`, `iN`, `fN`) are Python ints and numpy float scalars of the declared width.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
)
from xdsl.ir import Attribute

from pypto_mlir.dialects.pto_types import DYNAMIC, TensorType, TileType
from pypto_mlir.dialects.pto_lanes import SPLIT_CODE_NAMES, code_for_lane_extents, lane_extents


class InterpError(Exception):
    """A runtime failure of the interpreted program (converted to a located `PtoError` by the machine)."""


def np_dtype(elem: Attribute) -> np.dtype:
    """The numpy storage dtype of a builtin element type."""
    if isinstance(elem, Float32Type):
        return np.dtype(np.float32)
    if isinstance(elem, Float16Type):
        return np.dtype(np.float16)
    if isinstance(elem, BFloat16Type):
        return np.dtype(ml_dtypes.bfloat16)
    if isinstance(elem, Float64Type):
        return np.dtype(np.float64)
    if isinstance(elem, IntegerType):
        w = elem.width.data
        if w == 1:
            return np.dtype(np.bool_)
        if w == 4:
            return np.dtype(ml_dtypes.int4)
        return np.dtype({8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}[w])
    if isinstance(elem, IndexType):
        return np.dtype(np.int64)
    name = elem.name if hasattr(elem, "name") else str(elem)
    table = {
        "f8E4M3FN": ml_dtypes.float8_e4m3fn,
        "f8E5M2": ml_dtypes.float8_e5m2,
        "f8E8M0FNU": getattr(ml_dtypes, "float8_e8m0fnu", None),
    }
    for key, dt in table.items():
        if key in str(elem) and dt is not None:
            return np.dtype(dt)
    raise InterpError(f"element type {elem} is not supported by the interpreter")


def is_float_dtype(dt: np.dtype) -> bool:
    return dt.kind == "f" or dt in _ML_FLOATS


_ML_FLOATS = {np.dtype(ml_dtypes.bfloat16), np.dtype(ml_dtypes.float8_e4m3fn), np.dtype(ml_dtypes.float8_e5m2)}
if hasattr(ml_dtypes, "float8_e8m0fnu"):
    _ML_FLOATS.add(np.dtype(ml_dtypes.float8_e8m0fnu))


def dtype_limits(dt: np.dtype) -> tuple[Any, Any]:
    if is_float_dtype(dt):
        fi = ml_dtypes.finfo(dt) if dt in _ML_FLOATS else np.finfo(dt)
        return fi.min, fi.max
    if dt == np.bool_:
        return False, True
    ii = ml_dtypes.iinfo(dt) if dt == np.dtype(ml_dtypes.int4) else np.iinfo(dt)
    return ii.min, ii.max


def pad_value(pad: str, dt: np.dtype) -> Any:
    """The value a read outside the valid region sees (`null` is treated like `zero`)."""
    lo, hi = dtype_limits(dt)
    if pad == "max":
        return hi
    if pad == "min":
        return lo
    return 0


def compute_dtype(dt: np.dtype) -> np.dtype:
    """The dtype arithmetic on `dt` is carried out in: f32 for every float of 32 bits or less, else itself."""
    if is_float_dtype(dt):
        return np.dtype(np.float64) if dt == np.float64 else np.dtype(np.float32)
    return np.dtype(np.int64) if dt != np.bool_ else dt


def to_storage(values: np.ndarray, dt: np.dtype) -> np.ndarray:
    """Round/convert computed values to a storage dtype (nearest-even for floats, saturating rint for ints)."""
    if is_float_dtype(dt):
        return np.asarray(values).astype(dt)
    if dt == np.bool_:
        return np.asarray(values).astype(dt)
    v = np.asarray(values)
    if v.dtype.kind == "f" or v.dtype in _ML_FLOATS:
        v = np.rint(v.astype(np.float64))
        lo, hi = dtype_limits(dt)
        v = np.nan_to_num(v, nan=0.0)
        v = np.clip(v, int(lo), int(hi))
    return v.astype(dt)


@dataclass(eq=False)
class Buffer:
    """A GM tensor buffer (`!pto.tensor`): passed by reference.  `defined`: for a buffer whose contents are
    undefined at kernel entry (a `pto.lane_workspace`), which cells some core or lane has written (else None)."""

    data: np.ndarray
    name: str = ""
    defined: np.ndarray | None = None


@dataclass(eq=False)
class SlotLease:
    """A consumer's hold on one ring slot, from its `tpop` to its `tfree`.

    A popped tile is a view of the slot, not a copy: once the slot is freed the producer may refill it, so any
    later read of the tile (or of a view derived from it) would see the next tile.  The machine reports such a
    read as `use of a tile after its slot was freed`, naming the pop, the free and the read."""

    ring: Any
    entry: Any
    consumer: Any
    pop_op: Any
    free_op: Any = None

    @property
    def freed(self) -> bool:
        return self.free_op is not None


@dataclass(eq=False)
class Tile:
    """An on-chip tile: the full box in its storage dtype, the runtime valid extents, the type it was made with."""

    data: np.ndarray
    valid: tuple[int, ...]
    type: TileType
    # Set on a tile that is a view of a ring slot (a popped tile, or a slot-view op's result derived from one): the
    # lease of that slot, so tfree can release it and a read after the release is reported.
    lease: SlotLease | None = field(default=None)

    @property
    def pad(self) -> str:
        return self.type.pad.data

    def valid_view(self) -> np.ndarray:
        return self.data[tuple(slice(0, v) for v in self.valid)]


def static_shape(t: TileType | TensorType, what: str = "tile") -> tuple[int, ...]:
    shape = t.get_shape()
    if any(d == DYNAMIC for d in shape):
        raise InterpError(f"{what} type {t} has a dynamic shape; the interpreter needs static tile shapes")
    return shape


def make_tile(values: np.ndarray, ttype: TileType, valid: tuple[int, ...] | None = None) -> Tile:
    """A tile of type `ttype` holding `values` (any shape that fits the box; the rest is pad).

    `valid` is the runtime valid region; the type's static valid extents take precedence over it where given.
    """
    shape = static_shape(ttype)
    dt = np_dtype(ttype.element_type)
    rt_valid = resolve_valid(ttype, valid if valid is not None else shape)
    data = np.full(shape, pad_value(ttype.pad.data, dt), dtype=dt)
    src = np.asarray(values)
    if src.ndim != len(shape):
        raise InterpError(f"internal: value of rank {src.ndim} for a rank-{len(shape)} tile")
    win = tuple(slice(0, min(a, b, v)) for a, b, v in zip(src.shape, shape, rt_valid))
    data[win] = to_storage(src[win], dt)
    return Tile(data, rt_valid, ttype)


def resolve_valid(ttype: TileType, runtime: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Per dim: the type's static valid extent where it has one, else the runtime extent (clamped to the box)."""
    shape = ttype.get_shape()
    out = []
    for d, (tv, rv) in enumerate(zip(ttype.get_valid(), runtime)):
        v = rv if tv == DYNAMIC else tv
        v = max(0, min(int(v), shape[d]))
        out.append(v)
    return tuple(out)


def repad(tile: Tile) -> Tile:
    """Re-establish the invariant: every element outside the valid region holds the pad value."""
    dt = tile.data.dtype
    pv = pad_value(tile.pad, dt)
    for d, v in enumerate(tile.valid):
        if v < tile.data.shape[d]:
            idx = [slice(None)] * tile.data.ndim
            idx[d] = slice(v, None)
            tile.data[tuple(idx)] = pv
    return tile


# ---------------------------------------------------------------------------------------------------------------
# Lane parts: how a split delivers each AIV lane its part of a full tile, and how two halves join again
# ---------------------------------------------------------------------------------------------------------------

# The lane arithmetic (lane extents clamp(V - L*S, 0, S), split codes, their names and axes) is the compiler's
# one definition in dialects/pto_lanes.py; the names below are what the interpreter calls it.
SPLIT_NAMES = SPLIT_CODE_NAMES
code_for_extents = code_for_lane_extents


def shard_part(full: Tile, axis: int, lane: int, box: int, stride: int, part_type: TileType) -> Tile:
    """Lane `lane`'s part of `full`: box rows (or columns) [lane*stride, lane*stride + box), valid clamp(V-L*S, 0, S)."""
    start = lane * stride
    idx = [slice(None)] * full.data.ndim
    idx[axis] = slice(start, start + box)
    values = full.data[tuple(idx)]
    valid = list(full.valid)
    valid[axis] = min(lane_extents(full.valid[axis], stride)[lane], box)
    part = make_tile(values, part_type, tuple(valid))
    return repad(part)


def gather_parts(parts: list[Tile], axis: int, full_type: TileType) -> Tile:
    """Join two lane parts on `axis`: lane 1's box follows lane 0's box; the valid extent is e0 (+ e1 if e0 fills its box)."""
    p0, p1 = parts
    box = p0.data.shape[axis]
    values = np.concatenate([p0.data, p1.data], axis=axis)
    e0, e1 = p0.valid[axis], p1.valid[axis]
    if e0 < box and e1 > 0:
        raise InterpError(
            f"the two lanes' parts cannot be gathered: lane 0 holds {e0} of its {box} cells and lane 1 holds {e1}; "
            "a gather joins lane 1's box right after lane 0's, so lane 0 must be full when lane 1 is not empty"
        )
    other = [d for d in range(len(p0.valid)) if d != axis]
    for d in other:
        if p0.valid[d] != p1.valid[d]:
            raise InterpError(
                f"the two lanes' parts disagree on the valid extent of dim {d} ({p0.valid[d]} vs {p1.valid[d]})"
            )
    valid = list(p0.valid)
    valid[axis] = e0 + e1
    return repad(make_tile(values, full_type, tuple(valid)))
