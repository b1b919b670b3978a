"""What a `tpop` receives: the tile (or the lanes' parts) a ring entry holds, delivered in the popped type.

C->V: the AIC's tile whole (split code 0) or this lane's part of it (a split code, with the lane stride); V->C:
lane 0's tile or the two lanes' halves joined.  The bytes are read the way the target's transfer lays them out
(`layout.py`: a5 copies the vector tile's bytes as they are, a2a3 lays them out in NZ), and every mismatch
between the push and the pop (element type, box, split code, lane stride, MX scale carrier) is an error.
`pipes.py` calls `deliver` once the entry is complete; nothing here waits or touches the ring's counters.
"""

from __future__ import annotations

import numpy as np

from pypto_mlir.dialects import pto_ops as P
from pypto_mlir.dialects.pto_traits import CoreSide, PipeDirection
from pypto_mlir.dialects.pto_types import TileType
from pypto_mlir.dialects.pto_lanes import code_for_lane_extents, split_dim_of_code
from pypto_mlir.passes.analysis.mx_scale import is_scale_carrier, scale_kind

from .lanes import check_static_valid
from .layout import NZ as NZ_LAYOUT
from .layout import reinterpret, view_of
from .state import Ctx, Entry, Ring, loc_str
from .values import (
    SPLIT_NAMES,
    InterpError,
    Tile,
    gather_parts,
    lane_extents,
    make_tile,
    np_dtype,
    repad,
    shard_part,
    static_shape,
)


def deliver(target: str | None, op, e: Entry, ring: Ring, code: int, t: TileType, ctx: Ctx) -> Tile:
    """The tile the `tpop` `op` (result type `t`, split code `code`) on core `ctx` receives from entry `e`."""
    shape = static_shape(t)
    if ring.direction is PipeDirection.C2V:
        full = e.parts[CoreSide.AIC]
        if full.data.dtype != np.dtype(np_dtype(t.element_type)):
            raise InterpError(f"this tpop expects {t.element_type} but the tile pushed at {loc_str(e.push_ops[CoreSide.AIC])} holds {full.type.element_type}")
        if code == 0:
            _same_box(full, shape, e.push_ops[CoreSide.AIC])
            return repad(make_tile(full.data, t, full.valid))
        axis = split_dim_of_code(code)
        box = shape[axis]
        stride = _stride(op, e, CoreSide.AIC, box)
        _check_code(code, axis, full.valid[axis], stride, e.push_ops[CoreSide.AIC])
        part = shard_part(full, axis, ctx.lane or 0, box, stride, t)
        check_static_valid(t, part, ctx.lane or 0, full.valid[axis], stride, axis)
        return part
    # v2c: the cube receives lane 0's tile (code 0) or the two halves joined (split codes).
    p0 = e.parts[0]
    if p0.data.dtype != np.dtype(np_dtype(t.element_type)):
        raise InterpError(f"this tpop expects {t.element_type} but the tile pushed at {loc_str(e.push_ops[0])} holds {p0.type.element_type}")
    if target == "a5" and t.space == "mat" and scale_kind(t) is not None:
        for prod, part in e.parts.items():
            if not is_scale_carrier(part.type):
                raise InterpError(
                    f"this tpop receives an MX scale ({t}), but the tile pushed at {loc_str(e.push_ops[prod])} is "
                    f"{part.type}: the a5 V->C insert of a scale takes only a row/row fractal-32 carrier (a "
                    "col/col scale goes through pto.transpose_view)"
                )
    carrier = tuple(reversed(shape))
    if code == 0:
        if _transposed(target, p0, shape):  # a transposed view's bytes, read in the popped shape
            return repad(make_tile(_arrived(target, p0, t, shape), t, tuple(reversed(p0.valid))))
        _same_box(p0, shape, e.push_ops[0])
        return repad(make_tile(_arrived(target, p0, t), t, p0.valid))
    axis = split_dim_of_code(code)
    if code in (3, 4):
        raise InterpError(f"split = {code} ({SPLIT_NAMES[code]}) has no vector->cube form; a gather is always even")
    if target == "a5" and carrier != tuple(shape) and all(
        tuple(e.parts[lane].data.shape) == carrier[:axis] + (carrier[axis] // 2,) + carrier[axis + 1 :]
        for lane in (0, 1)
    ):
        # Transposed carriers: the two parts join on `axis` in the pushed (carrier) shape, and the cube reads
        # the joined bytes in its own shape and view.
        joined = gather_parts([e.parts[0], e.parts[1]], axis, p0.type.with_(shape=carrier))
        data = reinterpret(joined.data, view_of(p0.type), view_of(t), shape)
        return repad(make_tile(data, t, tuple(reversed(joined.valid))))
    for lane in (0, 1):
        if e.parts[lane].data.shape[axis] * 2 != shape[axis]:
            raise InterpError(
                f"lane {lane} pushed a {list(e.parts[lane].data.shape)} part at {loc_str(e.push_ops[lane])}, "
                f"which is not half of this tpop's {list(shape)} on dim {axis}"
            )
    parts = [Tile(_arrived(target, e.parts[lane], t), e.parts[lane].valid, e.parts[lane].type) for lane in (0, 1)]
    return gather_parts(parts, axis, t)


def _transposed(target: str | None, part: Tile, shape) -> bool:
    """On a5 the slot holds bytes: a tile pushed in the transposed shape (a `transpose_view` carrier) is read
    in the popped shape.  a2a3 re-lays the tile out on the way, so it has no such reading."""
    pushed = tuple(part.data.shape)
    return target == "a5" and len(pushed) == 2 and pushed != tuple(shape) and pushed == tuple(reversed(shape))


def _arrived(target: str | None, part: Tile, t: TileType, shape=None) -> np.ndarray:
    """A V->C tile as the cube reads it: the bytes in the slot, read with the popped type's view.

    On a5 the transfer copies the vector tile's bytes as they are (reference `RequiresVtoCFractalAdapt`): the
    slot holds the pushed tile in its own view, hence the `_nz` adapter.  On a2a3 the transfer lays the tile
    out in NZ on the way ("Mat only supports NZ").  A popped view that differs from the slot's gives scrambled
    cells (see `layout.py`); C->V transfers convert to the popped view on both targets."""
    if target == "a5":
        written = view_of(part.type)
    elif target == "a2a3":
        written = NZ_LAYOUT + (t.fractal.data,)
    else:
        return part.data
    return reinterpret(part.data, written, view_of(t), shape)


def _same_box(pushed: Tile, shape, push_op) -> None:
    if tuple(pushed.data.shape) != tuple(shape):
        raise InterpError(
            f"this tpop expects a {list(shape)} tile but the tpush at {loc_str(push_op)} sent "
            f"{list(pushed.data.shape)}"
        )


def _stride(op, e: Entry, prod, box: int) -> int:
    s_pop = op.stride
    s_push = e.strides.get(prod)
    if s_pop is not None and s_push is not None and s_pop != s_push:
        raise InterpError(
            f"lane_stride mismatch: this tpop has {s_pop} but the tpush at {loc_str(e.push_ops[prod])} has {s_push}"
        )
    return s_pop or s_push or box


def _check_code(code: int, axis: int, full_valid: int, stride: int, push_op) -> None:
    e0, e1 = lane_extents(full_valid, stride)
    expected = code_for_lane_extents(axis, e0, e1)
    if expected != code:
        fix = "no split code can place them" if expected is None else f"expected split = {expected}"
        raise InterpError(
            f"split = {code} ({SPLIT_NAMES[code]}) does not fit the lanes' extents: the tile pushed at "
            f"{loc_str(push_op)} has {full_valid} valid cells on dim {axis}, so with a lane stride of {stride} "
            f"lane 0 holds {e0} and lane 1 holds {e1}; {fix}"
        )
