"""MX (microscaling) matmuls beyond the contract: `pto.matmul_mx`, `pto.matmul_mx_acc`, `pto.matmul_mx_bias`
(pypto `tile.matmul_mx{,_acc,_bias}`; docs/dialect.md, "MX matmuls").

`C = (L * 2^SL) x (R * 2^SR)`: every 32 consecutive elements along K of the left operand share one
`f8E8M0FNU` scale of `%ls` (`left_scale`, shape `[M, K/32]`), and of the right operand one scale of `%rs`
(`right_scale`, shape `[K/32, N]`).  Cube ops (`CubeAffinity`), like the matmul family.
"""

from __future__ import annotations

from xdsl.dialects.builtin import Float8E8M0FNUType
from xdsl.ir import SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .pto_matmul_ops import check_acc_and_bias, check_ranks
from .pto_op_base import _require_shape, _require_space, _same_shape, _tile
from .pto_traits import CubeAffinity, CubeCompute
from .pto_types import DYNAMIC, TileType

MX_GROUP = 32  # elements along K that share one scale


class _MatmulMxBase(IRDLOperation):
    traits = traits_def(CubeAffinity(), CubeCompute(), Pure())
    result = result_def(TileType)

    def verify_(self) -> None:
        """One verifier for the three ops: `matmul_mx_acc` has an `acc` operand, `matmul_mx_bias` a `bias`."""
        lhs, ls, rhs, rs = self.lhs, self.lhs_scale, self.rhs, self.rhs_scale  # type: ignore[attr-defined]
        acc, bias = getattr(self, "acc", None), getattr(self, "bias", None)
        l, r, out = _tile(lhs, "lhs"), _tile(rhs, "rhs"), _tile(self.result, "result")
        lst, rst = _tile(ls, "lhs scale"), _tile(rs, "rhs scale")
        _require_space(l, ("left",), f"'{self.name}' lhs")
        _require_space(r, ("right",), f"'{self.name}' rhs")
        _require_space(lst, ("left_scale",), f"'{self.name}' lhs scale")
        _require_space(rst, ("right_scale",), f"'{self.name}' rhs scale")
        _require_space(out, ("acc",), f"'{self.name}' result")
        check_ranks(((l, "lhs"), (r, "rhs"), (lst, "lhs scale"), (rst, "rhs scale"), (out, "result")), 2, "")
        (m, k), (k2, n) = l.get_shape(), r.get_shape()
        if not _same_shape([k], [k2]):
            raise VerifyException(f"contraction mismatch: lhs has K={k}, rhs has K={k2}")
        if k != DYNAMIC and k % MX_GROUP:
            raise VerifyException(f"K ({k}) must be a multiple of the scale group {MX_GROUP}")
        kg = k // MX_GROUP if k != DYNAMIC else DYNAMIC
        for t, expect, what in ((lst, [m, kg], "lhs scale"), (rst, [kg, n], "rhs scale")):
            if not isinstance(t.element_type, Float8E8M0FNUType):
                raise VerifyException(f"{what} must hold f8E8M0FNU scales, got {t.element_type}")
            why = f" (one scale per {MX_GROUP} elements along K)"
            _require_shape(expect, t.get_shape(), f"'{self.name}' {what}", why)
        if l.element_type != r.element_type:
            raise VerifyException("operands must have the same element type")
        _require_shape([m, n], out.get_shape(), "result")
        check_acc_and_bias(self, out, n, acc, bias, "", "bias")


@irdl_op_definition
class MatmulMxOp(_MatmulMxBase):
    """`%c = pto.matmul_mx %l, %ls, %r, %rs : left, left_scale, right, right_scale -> acc`."""

    name = "pto.matmul_mx"
    lhs = operand_def(TileType)
    lhs_scale = operand_def(TileType)
    rhs = operand_def(TileType)
    rhs_scale = operand_def(TileType)
    assembly_format = (
        "$lhs `,` $lhs_scale `,` $rhs `,` $rhs_scale attr-dict `:` type($lhs) `,` type($lhs_scale) `,` type($rhs) "
        "`,` type($rhs_scale) `->` type($result)"
    )

    def __init__(self, lhs: SSAValue, ls: SSAValue, rhs: SSAValue, rs: SSAValue, result_type: TileType):
        super().__init__(operands=[lhs, ls, rhs, rs], result_types=[result_type])


@irdl_op_definition
class MatmulMxAccOp(_MatmulMxBase):
    """`%c2 = pto.matmul_mx_acc %c, %l, %ls, %r, %rs : acc, left, left_scale, right, right_scale -> acc`."""

    name = "pto.matmul_mx_acc"
    acc = operand_def(TileType)
    lhs = operand_def(TileType)
    lhs_scale = operand_def(TileType)
    rhs = operand_def(TileType)
    rhs_scale = operand_def(TileType)
    assembly_format = (
        "$acc `,` $lhs `,` $lhs_scale `,` $rhs `,` $rhs_scale attr-dict `:` type($acc) `,` type($lhs) `,` "
        "type($lhs_scale) `,` type($rhs) `,` type($rhs_scale) `->` type($result)"
    )

    def __init__(self, acc: SSAValue, lhs: SSAValue, ls: SSAValue, rhs: SSAValue, rs: SSAValue, result_type: TileType):
        super().__init__(operands=[acc, lhs, ls, rhs, rs], result_types=[result_type])


@irdl_op_definition
class MatmulMxBiasOp(_MatmulMxBase):
    """`%c = pto.matmul_mx_bias %l, %ls, %r, %rs, %b : left, left_scale, right, right_scale, bias -> acc`."""

    name = "pto.matmul_mx_bias"
    lhs = operand_def(TileType)
    lhs_scale = operand_def(TileType)
    rhs = operand_def(TileType)
    rhs_scale = operand_def(TileType)
    bias = operand_def(TileType)
    assembly_format = (
        "$lhs `,` $lhs_scale `,` $rhs `,` $rhs_scale `,` $bias attr-dict `:` type($lhs) `,` type($lhs_scale) `,` "
        "type($rhs) `,` type($rhs_scale) `,` type($bias) `->` type($result)"
    )

    def __init__(self, lhs: SSAValue, ls: SSAValue, rhs: SSAValue, rs: SSAValue, bias: SSAValue, result_type: TileType):
        super().__init__(operands=[lhs, ls, rhs, rs, bias], result_types=[result_type])


MX_OPS = (MatmulMxOp, MatmulMxAccOp, MatmulMxBiasOp)

__all__ = ["MX_GROUP", "MX_OPS", "MatmulMxAccOp", "MatmulMxBiasOp", "MatmulMxOp"]
