"""Semantics of the side-effect-free `pto` ops and of `arith` (the one place they are defined).

Each implementation is registered for its op classes with `@impl` (see `registry.py`): it takes the op and its
evaluated operands and returns the list of results.  Ops with effects on the machine live beside it: GM
load/store in `gm.py`, pipe setup and cross-core transfer in `pipes.py` / `transfer.py`, lanes in `lanes.py`,
communication in `comm.py`, calls and control flow in `machine.py`.  See `docs/interpreter.md` for
the table in prose.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType
from xdsl.ir import Attribute, Operation

from pypto_mlir.dialects import pto_ops as P
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType
from pypto_mlir.dialects.pto_lanes import window_valid

from .layout import reinterpret, view_of
from .registry import impl
from .values import (
    InterpError,
    Tile,
    compute_dtype,
    make_tile,
    np_dtype,
    repad,
    static_shape,
    to_storage,
)

Handler = Callable[[Operation, list[Any]], list[Any]]


def rtype(op: Operation, i: int = 0) -> TileType:
    t = op.results[i].type
    if not isinstance(t, TileType):
        raise InterpError(f"result of '{op.name}' is not a tile")
    return t


def cval(tile: Tile) -> np.ndarray:
    """The tile's full box in its compute dtype (f32 for floats, int64 for ints)."""
    return tile.data.astype(compute_dtype(tile.data.dtype))


def emit(op: Operation, values: np.ndarray, valid: tuple[int, ...]) -> Tile:
    t = make_tile(values, rtype(op), valid)
    return repad(t)


def scalar_to_py(v: Any) -> Any:
    if isinstance(v, (np.floating,)):
        return float(v)
    if isinstance(v, np.integer):
        return int(v)
    return v


# ---------------------------------------------------------------------------------------------------------------
# Tile generators and views
# ---------------------------------------------------------------------------------------------------------------


@impl(P.CreateOp)
def _create(op, args):
    t = rtype(op)
    shape = static_shape(t)
    return [emit(op, np.zeros(shape), shape)]


@impl(P.FullOp)
def _full(op, args):
    t = rtype(op)
    shape = static_shape(t)
    return [emit(op, np.full(shape, scalar_to_py(args[0])), shape)]


@impl(P.CiOp)
def _ci(op, args):
    t = rtype(op)
    shape = static_shape(t)
    n = int(np.prod(shape))
    return [emit(op, (np.arange(n) + int(args[0])).reshape(shape), shape)]


@impl(P.RandomOp)
def _random(op, args):
    t = rtype(op)
    shape = static_shape(t)
    rng = np.random.default_rng(int(args[0]) & 0xFFFFFFFF)
    return [emit(op, rng.uniform(-1.0, 1.0, size=shape), shape)]


@impl(P.MoveOp)
def _move(op, args):
    (a,) = args
    # Layout, fractal and memory space change the physical placement only; the logical values are kept.
    return [emit(op, a.data, a.valid)]


@impl(P.ReshapeOp)
def _reshape(op, args):
    (a,) = args
    t = rtype(op)
    shape = static_shape(t)
    if a.valid != a.data.shape:
        if list(t.get_valid()) == list(shape) or any(v == DYNAMIC for v in t.get_valid()):
            raise InterpError(
                f"reshape of a partially valid tile (valid {list(a.valid)} of {list(a.data.shape)}) needs a static "
                "valid region on the result type"
            )
        return [emit(op, a.data.reshape(shape), tuple(t.get_valid()))]
    return [emit(op, a.data.reshape(shape), shape)]


@impl(P.TransposeOp)
def _transpose(op, args):
    (a,) = args
    axes = op.get_axes()
    return [emit(op, np.transpose(a.data, axes), tuple(a.valid[i] for i in axes))]


@impl(P.TransposeViewOp)
def _transpose_view(op, args):
    """A zero-copy view: the source's bytes (in the source type's physical order) read in the result type's shape
    and view.  When the result view is the source's transposed (what the verifier requires) this is the logical
    transpose; a result view that is not (e.g. a plain ND tile read as a row/row fractal-32 carrier) scrambles."""
    (a,) = args
    axes = op.get_axes()
    src_t, res_t = op.src.type, rtype(op)
    valid = tuple(a.valid[i] for i in axes)
    if a.data.ndim != 2:
        return [emit(op, np.transpose(a.data, axes), valid)]
    data = reinterpret(a.data, view_of(src_t), view_of(res_t), static_shape(res_t))
    return [emit(op, data, valid)]


def mixed_values(static: tuple[int, ...], dynamic: list[Any]) -> list[int]:
    it = iter(dynamic)
    return [int(next(it)) if s == DYNAMIC else int(s) for s in static]


@impl(P.SliceOp)
def _slice(op: P.SliceOp, args):
    a = args[0]
    n_off = len(op.offsets)
    offs = mixed_values(op.get_static_offsets(), args[1 : 1 + n_off])
    t = rtype(op)
    shape = static_shape(t)
    for d, (o, e, full) in enumerate(zip(offs, shape, a.data.shape)):
        if o < 0 or o + e > full:
            raise InterpError(f"slice window [{o}, {o + e}) on dim {d} lies outside the source extent {full}")
    win = tuple(slice(o, o + e) for o, e in zip(offs, shape))
    if op.static_valid is not None:
        valid = tuple(mixed_values(op.static_valid.get_values(), args[1 + n_off :]))
    else:
        valid = tuple(window_valid(v, o, e) for v, o, e in zip(a.valid, offs, shape))
    return [emit(op, a.data[win], valid)]


@impl(P.SetValidShapeOp)
def _set_valid(op: P.SetValidShapeOp, args):
    a = args[0]
    valid = tuple(mixed_values(op.static_valid.get_values(), args[1:]))
    # Cells that were outside the old valid region hold the pad value, which is what a read of them sees.
    return [emit(op, a.data, valid)]


# ---------------------------------------------------------------------------------------------------------------
# Cube ops (f32 accumulation)
# ---------------------------------------------------------------------------------------------------------------


def _acc_dtype(lhs: Tile) -> np.dtype:
    return np.dtype(np.int64) if lhs.data.dtype.kind in "iu" else np.dtype(np.float32)


def _mm(lhs: Tile, rhs: Tile) -> np.ndarray:
    dt = _acc_dtype(lhs)
    return np.matmul(lhs.data.astype(dt), rhs.data.astype(dt))


def _mm_valid(lhs: Tile, rhs: Tile) -> tuple[int, ...]:
    return tuple(lhs.valid[:-1]) + (rhs.valid[-1],)


@impl(P.MatmulOp, P.GemvOp, P.BatchMatmulOp)
def _matmul(op, args):
    lhs, rhs = args
    return [emit(op, _mm(lhs, rhs), _mm_valid(lhs, rhs))]


@impl(P.MatmulAccOp, P.GemvAccOp, P.BatchMatmulAccOp)
def _matmul_acc(op, args):
    acc, lhs, rhs = args
    return [emit(op, acc.data.astype(np.float32) + _mm(lhs, rhs), acc.valid)]


@impl(P.MatmulBiasOp, P.GemvBiasOp)
def _matmul_bias(op, args):
    lhs, rhs, bias = args
    return [emit(op, _mm(lhs, rhs) + bias.data.astype(np.float32), _mm_valid(lhs, rhs))]


# ---------------------------------------------------------------------------------------------------------------
# Vector ops
# ---------------------------------------------------------------------------------------------------------------


def _min_valid(a: Tile, b: Tile) -> tuple[int, ...]:
    return tuple(min(x, y) for x, y in zip(a.valid, b.valid))


def _int_div(a, b):
    with np.errstate(all="ignore"):
        safe = np.where(b == 0, 1, b)
        q = np.trunc(a / safe).astype(np.int64)
        return np.where(b == 0, 0, q)


_BINARY = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": None,
    "max": np.maximum,
    "min": np.minimum,
}


def _binop(kind: str, a: np.ndarray, b: Any) -> np.ndarray:
    with np.errstate(all="ignore"):
        if kind == "div":
            if np.asarray(a).dtype.kind in "iu":
                return _int_div(np.asarray(a), np.asarray(b))
            return np.divide(a, b)
        return _BINARY[kind](a, b)


def _mk_bin(kind: str) -> Handler:
    def fn(op, args):
        a, b = args
        return [emit(op, _binop(kind, cval(a), cval(b)), _min_valid(a, b))]

    return fn


def _mk_scalar(kind: str) -> Handler:
    def fn(op, args):
        a, s = args
        c = cval(a)
        return [emit(op, _binop(kind, c, np.asarray(scalar_to_py(s)).astype(c.dtype)), a.valid)]

    return fn


for _tile_op, _scalar_op, _k in (
    (P.AddOp, P.AddsOp, "add"),
    (P.SubOp, P.SubsOp, "sub"),
    (P.MulOp, P.MulsOp, "mul"),
    (P.DivOp, P.DivsOp, "div"),
    (P.MaxOp, P.MaxsOp, "max"),
    (P.MinOp, P.MinsOp, "min"),
):
    impl(_tile_op)(_mk_bin(_k))
    impl(_scalar_op)(_mk_scalar(_k))


def _unary(fn: Callable[[np.ndarray], np.ndarray]) -> Handler:
    def h(op, args):
        (a,) = args
        with np.errstate(all="ignore"):
            return [emit(op, fn(cval(a)), a.valid)]

    return h


impl(P.ExpOp)(_unary(np.exp))
impl(P.LogOp)(_unary(np.log))
impl(P.SqrtOp)(_unary(np.sqrt))
impl(P.RsqrtOp)(_unary(lambda x: 1.0 / np.sqrt(x)))
impl(P.RecipOp)(_unary(lambda x: 1.0 / x if x.dtype.kind == "f" else _int_div(np.ones_like(x), x)))
impl(P.NegOp)(_unary(np.negative))
impl(P.AbsOp)(_unary(np.abs))
impl(P.ReluOp)(_unary(lambda x: np.maximum(x, 0)))


@impl(P.CastOp)
def _cast(op, args):
    (a,) = args
    # make_tile converts to the result's storage dtype: round-to-nearest-even for floats, saturating rint for ints.
    return [emit(op, a.data.astype(compute_dtype(a.data.dtype)), a.valid)]


_REDUCE = {"sum": np.sum, "max": np.max, "min": np.min}


def _mk_reduce(kind: str, axis: int) -> Handler:
    def fn(op, args):
        (a,) = args
        region = cval(a)[tuple(slice(0, v) for v in a.valid)]
        keep = list(a.valid)
        keep[axis] = 1
        if region.shape[axis] == 0 or 0 in region.shape:
            out = np.zeros(keep)
            valid = tuple(keep) if region.shape[axis] else tuple(v if d != axis else 0 for d, v in enumerate(keep))
        else:
            out = _REDUCE[kind](region, axis=axis, keepdims=True)
            valid = tuple(keep)
        return [emit(op, out, valid)]

    return fn


for _op, _k, _axis in (
    (P.RowSumOp, "sum", 1),
    (P.RowMaxOp, "max", 1),
    (P.RowMinOp, "min", 1),
    (P.ColSumOp, "sum", 0),
    (P.ColMaxOp, "max", 0),
    (P.ColMinOp, "min", 0),
):
    impl(_op)(_mk_reduce(_k, _axis))


def _mk_expand(kind: str) -> Handler:
    def fn(op, args):
        a, b = args
        return [emit(op, _binop(kind, cval(a), cval(b)), a.valid)]

    return fn


for _op, _k in (
    (P.RowExpandAddOp, "add"),
    (P.RowExpandSubOp, "sub"),
    (P.RowExpandMulOp, "mul"),
    (P.RowExpandDivOp, "div"),
    (P.ColExpandAddOp, "add"),
    (P.ColExpandSubOp, "sub"),
    (P.ColExpandMulOp, "mul"),
    (P.ColExpandDivOp, "div"),
):
    impl(_op)(_mk_expand(_k))


# ---------------------------------------------------------------------------------------------------------------
# arith (scalars): index and iN as Python ints (wrapped to their width), floats as numpy scalars of their width
# ---------------------------------------------------------------------------------------------------------------


def _width(t: Attribute) -> int | None:
    if isinstance(t, IntegerType):
        return t.width.data
    return None


def wrap_int(v: int, t: Attribute) -> Any:
    w = _width(t)
    if w is None:
        return int(v)
    if w == 1:
        return int(v) & 1
    v = int(v) & ((1 << w) - 1)
    return v - (1 << w) if v >= (1 << (w - 1)) else v


def float_scalar(v: Any, t: Attribute) -> Any:
    return np_dtype(t).type(v)


def _unsigned(v: int, t: Attribute) -> int:
    w = _width(t) or 64
    return int(v) & ((1 << w) - 1)


@impl(arith.ConstantOp)
def _const(op: arith.ConstantOp, args):
    v = op.value
    t = op.result.type
    if isinstance(v, IntegerAttr):
        return [wrap_int(v.value.data, t)]
    if isinstance(v, FloatAttr):
        return [float_scalar(v.value.data, t)]
    raise InterpError(f"unsupported constant {v}")


def _int_binary(fn: Callable[[int, int, Attribute], int]) -> Handler:
    def h(op, args):
        a, b = (int(x) for x in args)
        t = op.results[0].type
        return [wrap_int(fn(a, b, t), t)]

    return h


def _sdiv(a: int, b: int) -> int:
    if b == 0:
        raise InterpError("integer division by zero")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _srem(a: int, b: int) -> int:
    if b == 0:
        raise InterpError("integer remainder by zero")
    return a - _sdiv(a, b) * b


def _floordiv(a: int, b: int) -> int:
    if b == 0:
        raise InterpError("integer division by zero")
    return a // b


def _ceildiv(a: int, b: int) -> int:
    if b == 0:
        raise InterpError("integer division by zero")
    return -((-a) // b)


impl(arith.AddiOp)(_int_binary(lambda a, b, t: a + b))
impl(arith.SubiOp)(_int_binary(lambda a, b, t: a - b))
impl(arith.MuliOp)(_int_binary(lambda a, b, t: a * b))
impl(arith.DivSIOp)(_int_binary(lambda a, b, t: _sdiv(a, b)))
impl(arith.RemSIOp)(_int_binary(lambda a, b, t: _srem(a, b)))
impl(arith.FloorDivSIOp)(_int_binary(lambda a, b, t: _floordiv(a, b)))
impl(arith.CeilDivSIOp)(_int_binary(lambda a, b, t: _ceildiv(a, b)))
impl(arith.DivUIOp)(_int_binary(lambda a, b, t: _floordiv(_unsigned(a, t), _unsigned(b, t))))
impl(arith.RemUIOp)(_int_binary(lambda a, b, t: _unsigned(a, t) - _floordiv(_unsigned(a, t), _unsigned(b, t)) * _unsigned(b, t)))
impl(arith.CeilDivUIOp)(_int_binary(lambda a, b, t: _ceildiv(_unsigned(a, t), _unsigned(b, t))))
impl(arith.MinSIOp)(_int_binary(lambda a, b, t: min(a, b)))
impl(arith.MaxSIOp)(_int_binary(lambda a, b, t: max(a, b)))
impl(arith.MinUIOp)(_int_binary(lambda a, b, t: a if _unsigned(a, t) <= _unsigned(b, t) else b))
impl(arith.MaxUIOp)(_int_binary(lambda a, b, t: a if _unsigned(a, t) >= _unsigned(b, t) else b))
impl(arith.AndIOp)(_int_binary(lambda a, b, t: a & b))
impl(arith.OrIOp)(_int_binary(lambda a, b, t: a | b))
impl(arith.XOrIOp)(_int_binary(lambda a, b, t: a ^ b))
impl(arith.ShLIOp)(_int_binary(lambda a, b, t: a << b))
impl(arith.ShRSIOp)(_int_binary(lambda a, b, t: a >> b))
impl(arith.ShRUIOp)(_int_binary(lambda a, b, t: _unsigned(a, t) >> b))


def _float_binary(fn: Callable[[Any, Any], Any]) -> Handler:
    def h(op, args):
        t = op.results[0].type
        a, b = (np.float64(x) for x in args)
        with np.errstate(all="ignore"):
            return [float_scalar(fn(a, b), t)]

    return h


impl(arith.AddfOp)(_float_binary(lambda a, b: a + b))
impl(arith.SubfOp)(_float_binary(lambda a, b: a - b))
impl(arith.MulfOp)(_float_binary(lambda a, b: a * b))
impl(arith.DivfOp)(_float_binary(lambda a, b: a / b))
impl(arith.MaximumfOp)(_float_binary(lambda a, b: np.maximum(a, b)))
impl(arith.MinimumfOp)(_float_binary(lambda a, b: np.minimum(a, b)))
impl(arith.MaxnumfOp)(_float_binary(lambda a, b: np.fmax(a, b)))
impl(arith.MinnumfOp)(_float_binary(lambda a, b: np.fmin(a, b)))


@impl(arith.NegfOp)
def _negf(op, args):
    return [float_scalar(-np.float64(args[0]), op.results[0].type)]


_CMPI = {
    0: lambda a, b, u: a == b,
    1: lambda a, b, u: a != b,
    2: lambda a, b, u: a < b,
    3: lambda a, b, u: a <= b,
    4: lambda a, b, u: a > b,
    5: lambda a, b, u: a >= b,
    6: lambda a, b, u: u(a) < u(b),
    7: lambda a, b, u: u(a) <= u(b),
    8: lambda a, b, u: u(a) > u(b),
    9: lambda a, b, u: u(a) >= u(b),
}


@impl(arith.CmpiOp)
def _cmpi(op, args):
    a, b = (int(x) for x in args)
    t = op.operands[0].type
    pred = op.predicate.value.data
    return [int(bool(_CMPI[pred](a, b, lambda v: _unsigned(v, t))))]


@impl(arith.CmpfOp)
def _cmpf(op, args):
    a, b = (float(x) for x in args)
    pred = op.predicate.value.data
    unordered = math.isnan(a) or math.isnan(b)
    ordered_ops = {
        1: a == b, 2: a > b, 3: a >= b, 4: a < b, 5: a <= b, 6: a != b,
    }
    if pred == 0:
        r = False
    elif pred == 15:
        r = True
    elif pred == 7:
        r = not unordered
    elif pred == 8:
        r = unordered
    elif 1 <= pred <= 6:
        r = (not unordered) and ordered_ops[pred]
    else:  # 9..14: unordered or ...
        r = unordered or {9: a == b, 10: a > b, 11: a >= b, 12: a < b, 13: a <= b, 14: a != b}[pred]
    return [int(r)]


@impl(arith.SelectOp)
def _select(op, args):
    c, a, b = args
    return [a if int(c) else b]


@impl(arith.IndexCastOp, arith.ExtSIOp, arith.TruncIOp)
def _icast(op, args):
    return [wrap_int(int(args[0]), op.results[0].type)]


@impl(arith.ExtUIOp)
def _extui(op, args):
    return [wrap_int(_unsigned(int(args[0]), op.operands[0].type), op.results[0].type)]


@impl(arith.SIToFPOp, arith.ExtFOp, arith.TruncFOp)
def _tofp(op, args):
    return [float_scalar(np.float64(args[0]), op.results[0].type)]


@impl(arith.UIToFPOp)
def _uitofp(op, args):
    return [float_scalar(_unsigned(int(args[0]), op.operands[0].type), op.results[0].type)]


@impl(arith.FPToSIOp, arith.FPToUIOp)
def _fptosi(op, args):
    v = float(args[0])
    if math.isnan(v) or math.isinf(v):
        raise InterpError(f"'{op.name}' of {v}")
    return [wrap_int(int(v), op.results[0].type)]


__all__ = ["InterpError", "mixed_values", "scalar_to_py", "to_storage"]
