"""Cube (matmul) ops of the `pto` dialect: `matmul{,_acc,_bias}`, `gemv{,_acc,_bias}`, `batch_matmul{,_acc}`,
with one verifier for the family (`_MatmulBase`) and the rank / accumulator / bias checks the MX matmuls of
`pto_mx_ops.py` share.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.ir import Operation, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .pto_op_base import _require_shape, _require_space, _same_shape, _tile
from .pto_traits import CubeAffinity, CubeCompute
from .pto_types import DYNAMIC, TileType, format_shape

# ---------------------------------------------------------------------------------------------------------------
# Cube ops
# ---------------------------------------------------------------------------------------------------------------


def check_ranks(tiles: Sequence[tuple[TileType, str]], rank: int, prefix: str) -> None:
    """Every (tile, what) of a matmul has rank `rank`; `prefix` starts the message (the op's quoted name or "")."""
    for t, what in tiles:
        if t.rank != rank:
            raise VerifyException(f"{prefix}{what} must have rank {rank}, got {t.rank}")


def check_acc_and_bias(
    op: Operation, out: TileType, n: int, acc: SSAValue | None, bias: SSAValue | None, prefix: str, bias_what: str
) -> None:
    """A matmul's accumulator has the result type, and its bias is a `[1, N]` tile in `bias` memory; `prefix`
    starts the messages (the op's quoted name or ""), `bias_what` names the bias operand."""
    if acc is not None and acc.type != out:
        raise VerifyException(f"{prefix}accumulator type {acc.type} must equal the result type {out}")
    if bias is not None:
        bt = _tile(bias, bias_what)
        _require_space(bt, ("bias",), f"'{op.name}' bias")
        if not _same_shape(bt.get_shape(), [1, n]):
            raise VerifyException(f"{prefix}bias must have shape [1, {n}], got {format_shape(bt.get_shape())}")


class _MatmulBase(IRDLOperation):
    GEMV: ClassVar[bool] = False
    BATCH: ClassVar[bool] = False
    traits = traits_def(CubeAffinity(), CubeCompute(), Pure())
    result = result_def(TileType)

    def verify_(self) -> None:
        """One verifier for the family: the `_acc` forms have an `acc` operand, the `_bias` forms a `bias`."""
        lhs, rhs = self.lhs, self.rhs  # type: ignore[attr-defined]
        acc, bias = getattr(self, "acc", None), getattr(self, "bias", None)
        l, r, out = _tile(lhs, "matmul lhs"), _tile(rhs, "matmul rhs"), _tile(self.result, "matmul result")
        _require_space(l, ("left",), f"'{self.name}' lhs")
        _require_space(r, ("right",), f"'{self.name}' rhs")
        _require_space(out, ("acc",), f"'{self.name}' result")
        check_ranks(((l, "lhs"), (r, "rhs"), (out, "result")), 3 if self.BATCH else 2, f"'{self.name}' ")
        ls, rs, os_ = l.get_shape(), r.get_shape(), out.get_shape()
        m, k = ls[-2], ls[-1]
        k2, n = rs[-2], rs[-1]
        if not _same_shape([k], [k2]):
            raise VerifyException(
                f"'{self.name}' contraction mismatch: lhs {format_shape(ls)} has K={k}, rhs {format_shape(rs)} has K={k2}"
            )
        expect = ([ls[0]] if self.BATCH else []) + [m, n]
        _require_shape(expect, os_, f"'{self.name}' result")
        if self.GEMV and m not in (1, DYNAMIC):
            raise VerifyException(f"'{self.name}' lhs must have one row, got {m}")
        if l.element_type != r.element_type:
            raise VerifyException(
                f"'{self.name}' operands must have the same element type, got {l.element_type} and {r.element_type}"
            )
        check_acc_and_bias(self, out, n, acc, bias, f"'{self.name}' ", "matmul bias")


class _Matmul2(_MatmulBase):
    lhs = operand_def(TileType)
    rhs = operand_def(TileType)
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)"

    def __init__(self, lhs: SSAValue, rhs: SSAValue, result_type: TileType):
        super().__init__(operands=[lhs, rhs], result_types=[result_type])


class _MatmulAcc(_MatmulBase):
    acc = operand_def(TileType)
    lhs = operand_def(TileType)
    rhs = operand_def(TileType)
    assembly_format = (
        "$acc `,` $lhs `,` $rhs attr-dict `:` type($acc) `,` type($lhs) `,` type($rhs) `->` type($result)"
    )

    def __init__(self, acc: SSAValue, lhs: SSAValue, rhs: SSAValue, result_type: TileType):
        super().__init__(operands=[acc, lhs, rhs], result_types=[result_type])


class _MatmulBias(_MatmulBase):
    lhs = operand_def(TileType)
    rhs = operand_def(TileType)
    bias = operand_def(TileType)
    assembly_format = (
        "$lhs `,` $rhs `,` $bias attr-dict `:` type($lhs) `,` type($rhs) `,` type($bias) `->` type($result)"
    )

    def __init__(self, lhs: SSAValue, rhs: SSAValue, bias: SSAValue, result_type: TileType):
        super().__init__(operands=[lhs, rhs, bias], result_types=[result_type])


@irdl_op_definition
class MatmulOp(_Matmul2):
    """`%c = pto.matmul %l, %r : left, right -> acc` — C = L x R."""

    name = "pto.matmul"


@irdl_op_definition
class MatmulAccOp(_MatmulAcc):
    """`%c2 = pto.matmul_acc %c, %l, %r : acc, left, right -> acc` — C += L x R."""

    name = "pto.matmul_acc"


@irdl_op_definition
class MatmulBiasOp(_MatmulBias):
    """`%c = pto.matmul_bias %l, %r, %b : left, right, bias -> acc` — C = L x R + bias (broadcast over rows)."""

    name = "pto.matmul_bias"


@irdl_op_definition
class GemvOp(_Matmul2):
    name = "pto.gemv"
    GEMV: ClassVar[bool] = True


@irdl_op_definition
class GemvAccOp(_MatmulAcc):
    name = "pto.gemv_acc"
    GEMV: ClassVar[bool] = True


@irdl_op_definition
class GemvBiasOp(_MatmulBias):
    name = "pto.gemv_bias"
    GEMV: ClassVar[bool] = True


@irdl_op_definition
class BatchMatmulOp(_Matmul2):
    name = "pto.batch_matmul"
    BATCH: ClassVar[bool] = True


@irdl_op_definition
class BatchMatmulAccOp(_MatmulAcc):
    name = "pto.batch_matmul_acc"
    BATCH: ClassVar[bool] = True


MATMUL_OPS = (MatmulOp, MatmulAccOp, MatmulBiasOp, GemvOp, GemvAccOp, GemvBiasOp, BatchMatmulOp, BatchMatmulAccOp)
