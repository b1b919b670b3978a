"""The AIV lane split ops of the `pto` dialect: the lane id (`get_subblock_idx`), the split boundaries between
the cube and the two vector lanes (`aiv_shard`, C->V; `aic_gather`, V->C) and the `split_aiv_scope` region
with its terminator `yield`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    attr_def,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, Pure, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from .pto_lanes import ceil_half, double, split_dim_of_code

from .pto_op_base import _check_int_range, _require_shape, _require_space, _same_shape, _tile, i64_attr, int_value
from .pto_traits import CostFree, HalvingRule, LaneHalving, BoundaryAffinity, PipeDirection, RegionAffinity, SharedAffinity, VectorAffinity
from .pto_types import DYNAMIC, SPLIT_MODES, SplitAttr, TileType, format_shape, is_cube_memory

# ---------------------------------------------------------------------------------------------------------------
# The lane id
# ---------------------------------------------------------------------------------------------------------------


@irdl_op_definition
class GetSubblockIdxOp(IRDLOperation):
    """`%i = pto.get_subblock_idx : index` — the AIV lane (0 or 1) this code runs on."""

    name = "pto.get_subblock_idx"
    result = result_def(IndexType)
    assembly_format = "attr-dict `:` type($result)"
    traits = traits_def(LaneHalving(HalvingRule.LANE_ID), VectorAffinity(), CostFree(), Pure())

    def __init__(self):
        super().__init__(result_types=[IndexType()])


# ---------------------------------------------------------------------------------------------------------------
# Split boundaries and regions
# ---------------------------------------------------------------------------------------------------------------


def _check_split_attr(op: Operation, hi: int) -> int:
    _check_int_range(op, "split", 0, hi)
    return op.split.value.data  # type: ignore[attr-defined]


def _check_boundary_shape(
    what: str, a: TileType, b: TileType, split: int, lane_extent: Callable[[int], int], how: str
) -> int | None:
    """The shapes across a split boundary (aiv_shard, aic_gather): the same element type; split 0 keeps the shape;
    a split changes the split dim of a 2-D tile by `lane_extent` (`how` says how, in the message).  The split
    dim, or None for split 0."""
    if a.element_type != b.element_type:
        raise VerifyException(f"{what} cannot change the element type")
    if split == 0:
        if not _same_shape(a.get_shape(), b.get_shape()):
            raise VerifyException(
                f"{what} with split = 0 must keep the shape: {format_shape(a.get_shape())} -> "
                f"{format_shape(b.get_shape())}"
            )
        return None
    if a.rank != 2:
        raise VerifyException(f"{what} with a split needs a 2-D tile, got rank {a.rank}")
    dim = split_dim_of_code(split)
    expect = list(a.get_shape())
    expect[dim] = lane_extent(expect[dim])
    _require_shape(expect, b.get_shape(), f"{what} result", f" ({how} along dim {dim} for split = {split})")
    return dim


@irdl_op_definition
class AivShardOp(IRDLOperation):
    """`%h = pto.aiv_shard %qk {split = 1 : i64[, lane_stride = S]} : cube T -> half vec T` (C->V boundary)."""

    name = "pto.aiv_shard"
    src = operand_def(TileType)
    split = attr_def(IntegerAttr)
    lane_stride = opt_attr_def(IntegerAttr)
    result = result_def(TileType)
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"
    traits = traits_def(LaneHalving(HalvingRule.BOUNDARY), BoundaryAffinity(PipeDirection.C2V), Pure())

    def __init__(self, src: SSAValue, split: int, result_type: TileType, lane_stride: int | None = None):
        attrs: dict[str, Attribute] = {"split": i64_attr(split)}
        if lane_stride is not None:
            attrs["lane_stride"] = i64_attr(lane_stride)
        super().__init__(operands=[src], result_types=[result_type], attributes=attrs)

    @property
    def split_code(self) -> int:
        """The split (0 none, 1 up_down, 2 left_right; `dialects/pto_lanes.py`)."""
        return self.split.value.data

    @property
    def stride(self) -> int | None:
        """Where lane 1's window starts on the split axis when a ragged boundary is balanced (`lane_stride`)."""
        return int_value(self.lane_stride)

    def verify_(self) -> None:
        split = _check_split_attr(self, 2)
        a, b = _tile(self.src, "aiv_shard operand"), _tile(self.result, "aiv_shard result")
        if not is_cube_memory(a.space):
            raise VerifyException(f"aiv_shard operand must be a cube-side tile, but it is in '{a.space}'")
        _require_space(b, ("vec",), "aiv_shard result")
        how = f"each lane's half of {format_shape(a.get_shape())}"
        dim = _check_boundary_shape("aiv_shard", a, b, split, ceil_half, how)
        if dim is None:
            return
        stride = self.stride
        if stride is not None:
            _check_int_range(self, "lane_stride", 1, None)
            box = a.get_shape()[dim]
            if stride is not None and box != DYNAMIC and stride > ceil_half(box):
                raise VerifyException(f"aiv_shard lane_stride {stride} exceeds the lane box {ceil_half(box)}")


@irdl_op_definition
class AicGatherOp(IRDLOperation):
    """`%g = pto.aic_gather %h {split = 1 : i64} : half vec T -> full mat T` (V->C boundary)."""

    name = "pto.aic_gather"
    src = operand_def(TileType)
    split = attr_def(IntegerAttr)
    result = result_def(TileType)
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"
    traits = traits_def(LaneHalving(HalvingRule.BOUNDARY), BoundaryAffinity(PipeDirection.V2C), Pure())

    def __init__(self, src: SSAValue, split: int, result_type: TileType):
        super().__init__(operands=[src], result_types=[result_type], attributes={"split": i64_attr(split)})

    @property
    def split_code(self) -> int:
        """The split (0 none, 1 up_down, 2 left_right; `dialects/pto_lanes.py`)."""
        return self.split.value.data

    def verify_(self) -> None:
        split = _check_split_attr(self, 2)
        a, b = _tile(self.src, "aic_gather operand"), _tile(self.result, "aic_gather result")
        _require_space(a, ("vec",), "aic_gather operand")
        _require_space(b, ("mat",), "aic_gather result")
        _check_boundary_shape("aic_gather", a, b, split, double, f"both lanes' {format_shape(a.get_shape())} joined")


@irdl_op_definition
class YieldOp(IRDLOperation):
    """`pto.yield %v : T` — terminator of `pto.split_aiv_scope`."""

    name = "pto.yield"
    values = var_operand_def()
    traits = traits_def(SharedAffinity(), IsTerminator(), Pure())

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[list(values)])

    @classmethod
    def parse(cls, parser: Parser) -> YieldOp:
        refs = []
        attrs: dict[str, Attribute] = {}
        first = parser.parse_optional_unresolved_operand()
        if first is not None:
            refs.append(first)
            while parser.parse_optional_punctuation(",") is not None:
                refs.append(parser.parse_unresolved_operand())
        attrs = parser.parse_optional_attr_dict()
        values: list[SSAValue] = []
        if refs:
            parser.parse_punctuation(":")
            pos = parser.pos
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            if len(types) != len(refs):
                parser.raise_error(f"pto.yield has {len(refs)} values but {len(types)} types", pos, parser.pos)
            values = [parser.resolve_operand(r, t) for r, t in zip(refs, types)]
        op = cls(*values)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.values:
            printer.print_string(" ")
            printer.print_list(self.values, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        if self.values:
            printer.print_string(" : ")
            printer.print_list([v.type for v in self.values], printer.print_attribute)


@irdl_op_definition
class SplitAivScopeOp(IRDLOperation):
    """A `pl.split_aiv` region: the body runs on both AIV lanes; `%aiv_id` is the lane index.

    `%r = pto.split_aiv_scope up_down (%aiv_id) -> (T) { ... pto.yield %v : T }`.
    `mode` none is task-parallel (the author dispatches by `%aiv_id`); up_down/left_right split the data."""

    name = "pto.split_aiv_scope"
    mode = attr_def(SplitAttr)
    res = var_result_def()
    body = region_def("single_block")
    traits = traits_def(RegionAffinity(), RecursiveMemoryEffect())

    def __init__(self, mode: str, result_types: Sequence[Attribute], body: Region):
        super().__init__(result_types=[list(result_types)], regions=[body], attributes={"mode": SplitAttr(mode)})

    @property
    def aiv_id(self) -> SSAValue:
        return self.body.block.args[0]

    @classmethod
    def parse(cls, parser: Parser) -> SplitAivScopeOp:
        pos = parser.pos
        mode = parser.parse_identifier(" (split mode none, up_down or left_right) expected")
        if mode not in SPLIT_MODES:
            parser.raise_error(f"unknown split mode '{mode}', expected one of: {', '.join(SPLIT_MODES)}", pos, parser.pos)
        parser.parse_punctuation("(")
        arg = parser.parse_argument(expect_type=False).resolve(IndexType())
        parser.parse_punctuation(")")
        types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region([arg])
        op = cls(mode, types, body)
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.mode.data} (")
        printer.print_ssa_value(self.aiv_id)
        printer.print_string(")")
        if self.res:
            printer.print_string(" -> (")
            printer.print_list([r.type for r in self.res], printer.print_attribute)
            printer.print_string(")")
        printer.print_op_attributes(self.attributes, reserved_attr_names=("mode",), print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        if self.mode.data not in SPLIT_MODES:
            raise VerifyException(
                f"split_aiv_scope mode '{self.mode.data}' is a kernel's request, not a region's mode: a region "
                f"states its mode ({', '.join(SPLIT_MODES)})"
            )
        block = self.body.block
        if len(block.args) != 1 or not isinstance(block.args[0].type, IndexType):
            raise VerifyException("split_aiv_scope body must have exactly one 'index' argument (the lane id)")
        term = block.last_op
        if not isinstance(term, YieldOp):
            raise VerifyException("split_aiv_scope body must end with pto.yield")
        if [v.type for v in term.values] != [r.type for r in self.res]:
            raise VerifyException(
                f"split_aiv_scope yields ({', '.join(str(v.type) for v in term.values)}) but its results are "
                f"({', '.join(str(r.type) for r in self.res)}); the pto.yield types must match the result types"
            )


SPLIT_OPS = (GetSubblockIdxOp, AivShardOp, AicGatherOp, YieldOp, SplitAivScopeOp)
"""The ops of this module, in the dialect's registration order."""
