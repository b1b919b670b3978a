"""Semantics of the view and lane-addressed ops added beyond the contract (`pto.reinterpret_view`,
`pto.extract`, `pto.gather_row`, `pto.tensor_cast`); registered by op class like `semantics.py` (see `registry.py`)."""

from __future__ import annotations

import numpy as np

from pypto_mlir.dialects.pto_types import DYNAMIC
from pypto_mlir.dialects.pto_view_ops import ExtractOp, GatherRowOp, ReinterpretViewOp, TensorCastOp, rescale_innermost

from .registry import impl
from .semantics import emit, mixed_values, rtype
from .values import InterpError, static_shape


@impl(ReinterpretViewOp)
def _reinterpret_view(op, args):
    (a,) = args
    t = rtype(op)
    shape = static_shape(t)
    # The same bytes, row-major, read as the new element type.
    raw = np.ascontiguousarray(a.data).view(np.uint8).reshape(-1)
    from .values import np_dtype

    values = raw.view(np_dtype(t.element_type)).reshape(shape)
    if tuple(t.get_valid()) == tuple(shape):
        valid = shape
    else:
        # The source's runtime valid region scaled as the shape is (a `?` extent of the type is only known here);
        # an explicit shape needs a fully valid source (verifier), so this is the inferred-shape case.
        scaled = rescale_innermost(list(a.valid), a.type.element_type, t.element_type)
        if scaled is None:
            raise InterpError(
                f"reinterpret_view of a tile with valid region {list(a.valid)} ({a.type.element_type} elements): "
                f"its innermost valid extent is not a whole number of {t.element_type} elements"
            )
        valid = tuple(scaled)
    return [emit(op, values, valid)]


@impl(TensorCastOp)
def _tensor_cast(op: TensorCastOp, args):
    """The same buffer; a static dimension of the result type must be the buffer's extent there."""
    (buf,) = args
    want = list(op.result.type.get_shape())
    got = list(buf.data.shape)
    if len(got) != len(want) or any(w != DYNAMIC and w != g for w, g in zip(want, got)):
        raise InterpError(f"tensor_cast to {op.result.type} of a buffer of shape {'x'.join(map(str, got))}")
    return [buf]


@impl(ExtractOp)
def _extract(op: ExtractOp, args):
    a = args[0]
    offs = mixed_values(op.get_static_offsets(), args[1:])
    shape = static_shape(rtype(op))
    for d, (o, e, full) in enumerate(zip(offs, shape, a.data.shape)):
        if o < 0 or o + e > full:
            raise InterpError(f"extract window [{o}, {o + e}) on dim {d} lies outside the source extent {full}")
    win = tuple(slice(o, o + e) for o, e in zip(offs, shape))
    return [emit(op, a.data[win], shape)]


@impl(GatherRowOp)
def _gather_row(op: GatherRowOp, args):
    src, idx = args[0], args[1]
    (off,) = mixed_values(op.static_offsets.get_values(), args[2:])
    shape = static_shape(rtype(op))
    rows = idx.data[:, 0].astype(np.int64) + int(off)
    valid_rows = min(idx.valid[0], shape[0])
    out = np.zeros(shape, dtype=src.data.dtype)
    for i in range(valid_rows):
        r = int(rows[i])
        if r < 0 or r >= src.valid[0]:
            raise InterpError(
                f"gather_row: result row {i} reads source row {r} (index {int(idx.data[i, 0])} + offset {int(off)}), "
                f"outside the source's {src.valid[0]} valid rows"
            )
        out[i] = src.data[r]
    return [emit(op, out, (valid_rows, min(src.valid[1], shape[1])))]
