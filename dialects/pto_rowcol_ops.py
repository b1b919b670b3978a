"""Row / column vector ops of the `pto` dialect: the reductions (`row_sum`, `row_max`, `row_min`, `col_sum`,
`col_max`, `col_min`) and the expands that broadcast a reduced column or row back over a tile
(`row_expand_{add,sub,mul,div}`, `col_expand_{add,sub,mul,div}`); one family because both ask one rule, the
2-D source collapsed along the op's axis (`_RowOrColumnOp`).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Operation, SSAValue
from xdsl.irdl import IRDLOperation, VarConstraint, base, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .pto_op_base import _require_shape, _require_vec, _tile, _UnaryTileOp
from .pto_traits import HalvingRule, LaneHalving, BroadcastAxis, ReductionAxis, Transcendental, VectorAffinity
from .pto_types import TileType, format_shape


def _row_or_column(op: Operation, a: TileType, axis: int) -> list[int]:
    """The shape of a 2-D tile `a` collapsed along `axis` (1: one column `[M, 1]`, 0: one row `[1, N]`): the
    result of a reduction, or the operand a row/col expand broadcasts."""
    if a.rank != 2:
        raise VerifyException(f"'{op.name}' needs a 2-D tile, got rank {a.rank}")
    m, n = a.get_shape()
    return [m, 1] if axis == 1 else [1, n]


class _RowOrColumnOp:
    """A row/col op (reduction or expand): it works along the dim of its `AXIS_TRAIT` trait (row ops: 1, col
    ops: 0), and one of its tiles is its 2-D source collapsed along that dim."""

    AXIS_TRAIT: ClassVar[type[ReductionAxis] | type[BroadcastAxis]]

    @property
    def axis(self) -> int:
        """The dim this op reduces or broadcasts along (its `AXIS_TRAIT` trait)."""
        trait = self.get_trait(self.AXIS_TRAIT)  # type: ignore[attr-defined]
        assert trait is not None
        return trait.axis

    def _check_collapsed(self, a: TileType, b: TileType, what: str, why: str = "") -> None:
        """`b` (the op's `what`) has the shape of `a` collapsed along `axis`; `why` is said after the shape."""
        expect = _row_or_column(self, a, self.axis)  # type: ignore[arg-type]
        _require_shape(expect, b.get_shape(), f"'{self.name}' {what}", why)  # type: ignore[attr-defined]


class _ReduceOp(_RowOrColumnOp, _UnaryTileOp):
    """`%m = pto.row_max %a : [M,N] -> [M,1]` (row ops) / `pto.col_max %a : [M,N] -> [1,N]` (col ops)."""

    AXIS_TRAIT: ClassVar[type[ReductionAxis]] = ReductionAxis
    traits = traits_def(LaneHalving(HalvingRule.REDUCTION), VectorAffinity(), Pure())

    def verify_(self) -> None:
        _require_vec(self, self.src, self.result)
        a, b = _tile(self.src, "reduction source"), _tile(self.result, "reduction result")
        self._check_collapsed(a, b, "result", f" (the source {format_shape(a.get_shape())} reduced along dim {self.axis})")
        if a.element_type != b.element_type:
            raise VerifyException(f"'{self.name}' cannot change the element type")


@irdl_op_definition
class RowSumOp(_ReduceOp):
    """`pto.row_sum`: sum, reduce each row to one column."""

    name = "pto.row_sum"
    traits = traits_def(ReductionAxis(1, "sum"))


@irdl_op_definition
class RowMaxOp(_ReduceOp):
    """`pto.row_max`: max, reduce each row to one column."""

    name = "pto.row_max"
    traits = traits_def(ReductionAxis(1, "max"))


@irdl_op_definition
class RowMinOp(_ReduceOp):
    """`pto.row_min`: min, reduce each row to one column."""

    name = "pto.row_min"
    traits = traits_def(ReductionAxis(1, "min"))


@irdl_op_definition
class ColSumOp(_ReduceOp):
    """`pto.col_sum`: sum, reduce each column to one row."""

    name = "pto.col_sum"
    traits = traits_def(ReductionAxis(0, "sum"))


@irdl_op_definition
class ColMaxOp(_ReduceOp):
    """`pto.col_max`: max, reduce each column to one row."""

    name = "pto.col_max"
    traits = traits_def(ReductionAxis(0, "max"))


@irdl_op_definition
class ColMinOp(_ReduceOp):
    """`pto.col_min`: min, reduce each column to one row."""

    name = "pto.col_min"
    traits = traits_def(ReductionAxis(0, "min"))


REDUCE_OPS = (RowSumOp, RowMaxOp, RowMinOp, ColSumOp, ColMaxOp, ColMinOp)


class _ExpandOp(_RowOrColumnOp, IRDLOperation):
    """`%d = pto.row_expand_sub %a, %m : T, [M,1]` — broadcast `%m` over the row (col ops: `[1,N]`)."""

    AXIS_TRAIT: ClassVar[type[BroadcastAxis]] = BroadcastAxis
    T: ClassVar = VarConstraint("T", base(TileType))
    src = operand_def(T)
    operand = operand_def(TileType)
    result = result_def(T)
    assembly_format = "$src `,` $operand attr-dict `:` type($src) `,` type($operand)"
    traits = traits_def(LaneHalving(HalvingRule.BROADCAST), VectorAffinity(), Pure())

    def __init__(self, src: SSAValue, operand: SSAValue):
        super().__init__(operands=[src, operand], result_types=[src.type])

    def verify_(self) -> None:
        _require_vec(self, self.src, self.operand)
        a, b = _tile(self.src, "broadcast source"), _tile(self.operand, "broadcast operand")
        self._check_collapsed(a, b, "operand")
        if a.element_type != b.element_type:
            raise VerifyException(f"'{self.name}' operands must have the same element type")


@irdl_op_definition
class RowExpandAddOp(_ExpandOp):
    """`pto.row_expand_add`: add, broadcast a [M, 1] column along each row."""

    name = "pto.row_expand_add"
    traits = traits_def(BroadcastAxis(1))


@irdl_op_definition
class RowExpandSubOp(_ExpandOp):
    """`pto.row_expand_sub`: sub, broadcast a [M, 1] column along each row."""

    name = "pto.row_expand_sub"
    traits = traits_def(BroadcastAxis(1))


@irdl_op_definition
class RowExpandMulOp(_ExpandOp):
    """`pto.row_expand_mul`: mul, broadcast a [M, 1] column along each row."""

    name = "pto.row_expand_mul"
    traits = traits_def(BroadcastAxis(1))


@irdl_op_definition
class RowExpandDivOp(_ExpandOp):
    """`pto.row_expand_div`: div, broadcast a [M, 1] column along each row."""

    name = "pto.row_expand_div"
    traits = traits_def(BroadcastAxis(1), Transcendental())


@irdl_op_definition
class ColExpandAddOp(_ExpandOp):
    """`pto.col_expand_add`: add, broadcast a [1, N] row down each column."""

    name = "pto.col_expand_add"
    traits = traits_def(BroadcastAxis(0))


@irdl_op_definition
class ColExpandSubOp(_ExpandOp):
    """`pto.col_expand_sub`: sub, broadcast a [1, N] row down each column."""

    name = "pto.col_expand_sub"
    traits = traits_def(BroadcastAxis(0))


@irdl_op_definition
class ColExpandMulOp(_ExpandOp):
    """`pto.col_expand_mul`: mul, broadcast a [1, N] row down each column."""

    name = "pto.col_expand_mul"
    traits = traits_def(BroadcastAxis(0))


@irdl_op_definition
class ColExpandDivOp(_ExpandOp):
    """`pto.col_expand_div`: div, broadcast a [1, N] row down each column."""

    name = "pto.col_expand_div"
    traits = traits_def(BroadcastAxis(0), Transcendental())


EXPAND_OPS = (
    RowExpandAddOp,
    RowExpandSubOp,
    RowExpandMulOp,
    RowExpandDivOp,
    ColExpandAddOp,
    ColExpandSubOp,
    ColExpandMulOp,
    ColExpandDivOp,
)


ROW_COL_OPS = (*REDUCE_OPS, *EXPAND_OPS)
"""The ops of this module, in the dialect's registration order."""
