"""Semantics of the MX matmuls (`pto.matmul_mx`, `_acc`, `_bias`): each group of 32 elements along K of the left
(right) operand is multiplied by its `f8E8M0FNU` scale (a power of two) before the f32 matmul."""

from __future__ import annotations

import numpy as np

from pypto_mlir.dialects.pto_mx_ops import MX_GROUP, MatmulMxAccOp, MatmulMxBiasOp, MatmulMxOp

from .registry import impl
from .semantics import emit
from .values import Tile


def _scaled_mm(lhs: Tile, ls: Tile, rhs: Tile, rs: Tile) -> np.ndarray:
    a = lhs.data.astype(np.float32) * np.repeat(ls.data.astype(np.float32), MX_GROUP, axis=1)
    b = rhs.data.astype(np.float32) * np.repeat(rs.data.astype(np.float32), MX_GROUP, axis=0)
    return np.matmul(a, b)


def _valid(lhs: Tile, rhs: Tile) -> tuple[int, ...]:
    return (lhs.valid[0], rhs.valid[1])


@impl(MatmulMxOp)
def _matmul_mx(op, args):
    lhs, ls, rhs, rs = args
    return [emit(op, _scaled_mm(lhs, ls, rhs, rs), _valid(lhs, rhs))]


@impl(MatmulMxAccOp)
def _matmul_mx_acc(op, args):
    acc, lhs, ls, rhs, rs = args
    return [emit(op, acc.data.astype(np.float32) + _scaled_mm(lhs, ls, rhs, rs), acc.valid)]


@impl(MatmulMxBiasOp)
def _matmul_mx_bias(op, args):
    lhs, ls, rhs, rs, bias = args
    return [emit(op, _scaled_mm(lhs, ls, rhs, rs) + bias.data.astype(np.float32), _valid(lhs, rhs))]
