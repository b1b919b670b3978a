"""Elementwise vector ops of the `pto` dialect: tile-tile (`add`, `sub`, `mul`, `div`, `max`, `min`), tile-scalar
(`adds` ... `mins`), unary (`exp`, `log`, `sqrt`, `rsqrt`, `recip`, `neg`, `abs`, `relu`) and the element-type
conversion `cast`.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation, VarConstraint, base, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .pto_op_base import _require_vec, _same_shape, _tile, _UnaryTileOp
from .pto_traits import HalvingRule, LaneHalving, Transcendental, VectorAffinity
from .pto_types import TileType

# ---------------------------------------------------------------------------------------------------------------
# Vector ops
# ---------------------------------------------------------------------------------------------------------------


class _BinaryOp(IRDLOperation):
    """`%s = pto.<op> %a, %b : T` — elementwise on two tiles of one type."""

    T: ClassVar = VarConstraint("T", base(TileType))
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"
    traits = traits_def(LaneHalving(HalvingRule.ELEMENTWISE), VectorAffinity(), Pure())

    def __init__(self, lhs: SSAValue, rhs: SSAValue, result_type: Attribute | None = None):
        super().__init__(operands=[lhs, rhs], result_types=[result_type or lhs.type])

    def verify_(self) -> None:
        _require_vec(self, self.lhs)


class _ScalarBinaryOp(IRDLOperation):
    """`%s = pto.<op>s %a, %f : T, f32` — elementwise tile-scalar."""

    T: ClassVar = VarConstraint("T", base(TileType))
    src = operand_def(T)
    scalar = operand_def()
    result = result_def(T)
    assembly_format = "$src `,` $scalar attr-dict `:` type($src) `,` type($scalar)"
    traits = traits_def(LaneHalving(HalvingRule.ELEMENTWISE), VectorAffinity(), Pure())

    def __init__(self, src: SSAValue, scalar: SSAValue):
        super().__init__(operands=[src, scalar], result_types=[src.type])

    def verify_(self) -> None:
        _require_vec(self, self.src)
        if isinstance(self.scalar.type, TileType):
            raise VerifyException(f"'{self.name}' takes a scalar second operand, not a tile")


class _ElementwiseUnaryOp(IRDLOperation):
    """`%e = pto.<op> %a : T`."""

    T: ClassVar = VarConstraint("T", base(TileType))
    src = operand_def(T)
    result = result_def(T)
    assembly_format = "$src attr-dict `:` type($result)"
    traits = traits_def(LaneHalving(HalvingRule.ELEMENTWISE), VectorAffinity(), Pure())

    def __init__(self, src: SSAValue, result_type: Attribute | None = None):
        super().__init__(operands=[src], result_types=[result_type or src.type])

    def verify_(self) -> None:
        _require_vec(self, self.src)


@irdl_op_definition
class AddOp(_BinaryOp):
    """`pto.add`: a + b."""

    name = "pto.add"


@irdl_op_definition
class SubOp(_BinaryOp):
    """`pto.sub`: a - b."""

    name = "pto.sub"


@irdl_op_definition
class MulOp(_BinaryOp):
    """`pto.mul`: a * b."""

    name = "pto.mul"


@irdl_op_definition
class DivOp(_BinaryOp):
    """`pto.div`: a / b."""

    name = "pto.div"
    traits = traits_def(Transcendental())


@irdl_op_definition
class MaxOp(_BinaryOp):
    """`pto.max`: max(a, b)."""

    name = "pto.max"


@irdl_op_definition
class MinOp(_BinaryOp):
    """`pto.min`: min(a, b)."""

    name = "pto.min"


@irdl_op_definition
class AddsOp(_ScalarBinaryOp):
    """`pto.adds`: a + s."""

    name = "pto.adds"


@irdl_op_definition
class SubsOp(_ScalarBinaryOp):
    """`pto.subs`: a - s."""

    name = "pto.subs"


@irdl_op_definition
class MulsOp(_ScalarBinaryOp):
    """`pto.muls`: a * s."""

    name = "pto.muls"


@irdl_op_definition
class DivsOp(_ScalarBinaryOp):
    """`pto.divs`: a / s."""

    name = "pto.divs"
    traits = traits_def(Transcendental())


@irdl_op_definition
class MaxsOp(_ScalarBinaryOp):
    """`pto.maxs`: max(a, s)."""

    name = "pto.maxs"


@irdl_op_definition
class MinsOp(_ScalarBinaryOp):
    """`pto.mins`: min(a, s)."""

    name = "pto.mins"


@irdl_op_definition
class ExpOp(_ElementwiseUnaryOp):
    """`pto.exp`: exp(a)."""

    name = "pto.exp"
    traits = traits_def(Transcendental())


@irdl_op_definition
class LogOp(_ElementwiseUnaryOp):
    """`pto.log`: log(a)."""

    name = "pto.log"
    traits = traits_def(Transcendental())


@irdl_op_definition
class SqrtOp(_ElementwiseUnaryOp):
    """`pto.sqrt`: sqrt(a)."""

    name = "pto.sqrt"
    traits = traits_def(Transcendental())


@irdl_op_definition
class RsqrtOp(_ElementwiseUnaryOp):
    """`pto.rsqrt`: 1 / sqrt(a)."""

    name = "pto.rsqrt"
    traits = traits_def(Transcendental())


@irdl_op_definition
class RecipOp(_ElementwiseUnaryOp):
    """`pto.recip`: 1 / a."""

    name = "pto.recip"
    traits = traits_def(Transcendental())


@irdl_op_definition
class NegOp(_ElementwiseUnaryOp):
    """`pto.neg`: -a."""

    name = "pto.neg"


@irdl_op_definition
class AbsOp(_ElementwiseUnaryOp):
    """`pto.abs`: |a|."""

    name = "pto.abs"


@irdl_op_definition
class ReluOp(_ElementwiseUnaryOp):
    """`pto.relu`: max(a, 0)."""

    name = "pto.relu"


BINARY_OPS = (AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp)
SCALAR_OPS = (AddsOp, SubsOp, MulsOp, DivsOp, MaxsOp, MinsOp)
UNARY_OPS = (ExpOp, LogOp, SqrtOp, RsqrtOp, RecipOp, NegOp, AbsOp, ReluOp)


@irdl_op_definition
class CastOp(_UnaryTileOp):
    """`%h = pto.cast %a : T1 -> T2` — convert the element type (same shape)."""

    name = "pto.cast"
    traits = traits_def(LaneHalving(HalvingRule.ELEMENTWISE), VectorAffinity(), Pure())

    def verify_(self) -> None:
        _require_vec(self, self.src, self.result)
        a, b = _tile(self.src, "cast source"), _tile(self.result, "cast result")
        if not _same_shape(a.get_shape(), b.get_shape()):
            raise VerifyException("cast cannot change the shape")


ELEMENTWISE_OPS = (*BINARY_OPS, *SCALAR_OPS, *UNARY_OPS, CastOp)
"""The ops of this module, in the dialect's registration order."""
