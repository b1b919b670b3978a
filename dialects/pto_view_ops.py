"""Tile view and lane-addressed ops beyond the contract's minimum: `pto.reinterpret_view`, `pto.extract`,
`pto.gather_row` (docs/dialect.md, "Views and lane-addressed ops"), and `pto.tensor_cast` (the same GM buffer
under a compatible type: how a `?` dimension is bound at a Group member call).

They follow the contract's conventions: parameters are inherent attributes, offsets are mixed static/dynamic
lists, the result type gives shape, memory space and view, and every check is a located verifier error.
"""

from __future__ import annotations

from collections.abc import Sequence
from xdsl.dialects.builtin import DenseArrayBase, IntegerType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    attr_def,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .pto_op_base import (
    _check_mixed,
    _dense,
    _MixedOffsetsMixin,
    _require_space,
    _seg,
    _tile,
    check_window,
    parse_addressed,
    print_addressed,
    split_mixed,
)
from .pto_traits import HalvingRule, LaneHalving, FirstTileAffinity, ResultMemoryAffinity, CostFree, SharedAffinity, SlotView, TensorView, VectorAffinity
from .pto_types import DYNAMIC, TensorType, TileType, element_bits, format_shape, is_cube_memory


def rescale_innermost(dims: Sequence[int], src_elem: Attribute, elem: Attribute) -> list[int] | None:
    """`dims` (of `src_elem` elements) counted in `elem` elements: every dim kept, the innermost one scaled by the
    ratio of the element widths (the bytes of a row are kept).  None if that dim is not a whole number of the new
    elements (or is dynamic and the widths differ)."""
    out = list(dims)
    a, b = element_bits(src_elem), element_bits(elem)
    last = out[-1]
    if last == DYNAMIC:
        return out if a == b else None
    if (last * a) % b:
        return None
    out[-1] = last * a // b
    return out


def reinterpret_inferred_shape(src: TileType, elem: Attribute) -> list[int] | None:
    """The shape `pto.reinterpret_view` infers for `src` viewed as `elem` (`rescale_innermost` of its shape)."""
    return rescale_innermost(src.get_shape(), src.element_type, elem)


def reinterpret_inferred_valid(src: TileType, elem: Attribute) -> list[int] | None:
    """The valid region `pto.reinterpret_view` infers for `src` viewed as `elem`, scaled as the shape is; a
    run-time (`?`) innermost extent stays `?` (it is scaled at run time, where it must be a whole number of the new
    elements: the interpreter checks it)."""
    valid = list(src.get_valid())
    if valid and valid[-1] == DYNAMIC:
        return valid
    return rescale_innermost(valid, src.element_type, elem)


@irdl_op_definition
class ReinterpretViewOp(IRDLOperation):
    """`%b = pto.reinterpret_view %a : T1 -> T2` — the same bytes seen as another element type (zero copy).

    The inferred result shape keeps every dim and scales the innermost one by the ratio of the element widths
    (`16x16xf32 -> 16x32xi16`); a result of another shape with the same byte count is an *explicit shape*
    (allowed, but not inside a split kernel: E-REINTERP)."""

    name = "pto.reinterpret_view"
    src = operand_def(TileType)
    result = result_def(TileType)
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"
    traits = traits_def(LaneHalving(HalvingRule.VIEW), FirstTileAffinity(), SlotView(), Pure())

    def __init__(self, src: SSAValue, result_type: TileType):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        a, b = _tile(self.src, "reinterpret_view source"), _tile(self.result, "reinterpret_view result")
        if a.space != b.space:
            raise VerifyException(
                f"reinterpret_view cannot change the memory space ('{a.space}' -> '{b.space}'); use pto.move"
            )
        if a.rank == 0 or b.rank == 0:
            raise VerifyException("reinterpret_view needs tiles of rank at least 1")
        inferred = reinterpret_inferred_shape(a, b.element_type)
        if inferred == list(b.get_shape()):
            want_valid = reinterpret_inferred_valid(a, b.element_type)
            if want_valid is None or list(b.get_valid()) != want_valid:
                raise VerifyException(
                    f"reinterpret_view result must have valid {format_shape(want_valid or a.get_valid())} (the "
                    f"source's valid region {format_shape(a.get_valid())} in {b.element_type} elements), got "
                    f"{format_shape(b.get_valid())}"
                )
            return
        # an explicit shape: the same number of bytes, both fully valid and static
        if not (a.is_static() and b.is_static()):
            raise VerifyException(
                f"reinterpret_view result shape {format_shape(b.get_shape())} is not the inferred "
                f"{format_shape(inferred) if inferred else 'shape'}; an explicit shape needs static shapes"
            )
        if not (a.is_fully_valid() and b.is_fully_valid()):
            raise VerifyException("reinterpret_view with an explicit shape needs fully valid tiles")
        na = nb = 1
        for d in a.get_shape():
            na *= d
        for d in b.get_shape():
            nb *= d
        if na * element_bits(a.element_type) != nb * element_bits(b.element_type):
            raise VerifyException(
                f"reinterpret_view must keep the byte size: {format_shape(a.get_shape())}x{a.element_type} has "
                f"{na * element_bits(a.element_type) // 8} bytes, {format_shape(b.get_shape())}x{b.element_type} has "
                f"{nb * element_bits(b.element_type) // 8}"
            )


class _AddressedWindowOp(IRDLOperation, _MixedOffsetsMixin):
    """`%r = pto.<op> %src[offsets] : T1 -> T2` (one tile operand, a mixed offset list, no valid list)."""

    def __init__(self, src: SSAValue, offsets: Sequence[int | SSAValue], result_type: TileType):
        s_off, d_off = split_mixed(offsets)
        super().__init__(
            operands=[src, d_off],
            result_types=[result_type],
            attributes={"static_offsets": _dense(s_off), "operandSegmentSizes": _seg(1, len(d_off))},
        )

    @classmethod
    def parse(cls, parser: Parser) -> _AddressedWindowOp:
        p = parse_addressed(parser, result=True)
        return p.build(cls(p.operands[0], p.offsets, p.result_type))  # type: ignore[arg-type, return-value]

    def print(self, printer: Printer) -> None:
        offsets = (self.get_static_offsets(), self.offsets)  # type: ignore[attr-defined]
        print_addressed(printer, self, [self.operands[0]], offsets, result=self.results[0].type)


@irdl_op_definition
class ExtractOp(_AddressedWindowOp):
    """`%e = pto.extract %a[%row, %col] : T1 -> T2` — copy the 2-D window at (row, col), shaped as the result
    type, into a tile of the same core side (`vec -> vec`, `mat -> left/right/...`): pypto's `tile.extract`."""

    name = "pto.extract"
    src = operand_def(TileType)
    offsets = var_operand_def()
    static_offsets = attr_def(DenseArrayBase)
    result = result_def(TileType)
    irdl_options = (AttrSizedOperandSegments(),)
    traits = traits_def(LaneHalving(HalvingRule.WINDOW), ResultMemoryAffinity(), Pure())

    def verify_(self) -> None:
        a, b = _tile(self.src, "extract source"), _tile(self.result, "extract result")
        offs = self.get_static_offsets()
        _check_mixed(offs, self.offsets, "extract offsets")
        if a.rank != 2 or b.rank != 2:
            raise VerifyException(f"extract needs 2-D tiles, got ranks {a.rank} and {b.rank}")
        if len(offs) != 2:
            raise VerifyException(f"extract takes a (row, col) offset, got {len(offs)} offsets")
        if a.element_type != b.element_type:
            raise VerifyException("extract cannot change the element type")
        if is_cube_memory(a.space) != is_cube_memory(b.space):
            raise VerifyException(
                f"extract stays on one core: '{a.space}' -> '{b.space}' crosses between cube and vector; use pto.move"
            )
        if not b.is_fully_valid():
            raise VerifyException("extract result must be fully valid (the window is read whole)")
        check_window(a.get_shape(), offs, b.get_shape(), "extract", "the source")


@irdl_op_definition
class GatherRowOp(IRDLOperation):
    """`%g = pto.gather_row %src, %idx[%off] : T_src, T_idx -> T` — row i of the result is row
    `idx[i] + off` of `%src` (pypto's `tile.gather_row`; `off` is its `src_offset`)."""

    name = "pto.gather_row"
    src = operand_def(TileType)
    indices = operand_def(TileType)
    offsets = var_operand_def()
    static_offsets = attr_def(DenseArrayBase)
    result = result_def(TileType)
    irdl_options = (AttrSizedOperandSegments(),)
    traits = traits_def(LaneHalving(HalvingRule.WINDOW), VectorAffinity(), Pure())

    def __init__(self, src: SSAValue, indices: SSAValue, offset: int | SSAValue, result_type: TileType):
        s_off, d_off = split_mixed([offset])
        super().__init__(
            operands=[src, indices, d_off],
            result_types=[result_type],
            attributes={"static_offsets": _dense(s_off), "operandSegmentSizes": _seg(1, 1, len(d_off))},
        )

    @classmethod
    def parse(cls, parser: Parser) -> GatherRowOp:
        p = parse_addressed(
            parser, 2, result=True, one_offset="pto.gather_row takes one source row offset: %idx[OFFSET]"
        )
        assert p.offsets is not None
        return p.build(cls(*p.operands, p.offsets[0], p.result_type))  # type: ignore[arg-type, return-value]

    def print(self, printer: Printer) -> None:
        offsets = (self.static_offsets.get_values(), self.offsets)
        print_addressed(printer, self, [self.src, self.indices], offsets, result=self.result.type)

    def verify_(self) -> None:
        s = _tile(self.src, "gather_row source")
        i = _tile(self.indices, "gather_row indices")
        r = _tile(self.result, "gather_row result")
        _check_mixed(self.static_offsets.get_values(), self.offsets, "gather_row offset")
        if len(self.static_offsets.get_values()) != 1:
            raise VerifyException("gather_row takes exactly one source row offset")
        for t, what in ((s, "source"), (i, "indices"), (r, "result")):
            _require_space(t, ("vec",), f"gather_row {what}")
            if t.rank != 2:
                raise VerifyException(f"gather_row {what} must be 2-D, got rank {t.rank}")
        if not isinstance(i.element_type, IntegerType) or i.element_type.width.data != 32:
            raise VerifyException(f"gather_row indices must be i32, got {i.element_type}")
        m, n = r.get_shape()
        if i.get_shape() not in ((m, 1),) and DYNAMIC not in (m,):
            raise VerifyException(
                f"gather_row indices must have shape {format_shape([m, 1])} (one row index per result row), got "
                f"{format_shape(i.get_shape())}"
            )
        if s.element_type != r.element_type:
            raise VerifyException("gather_row cannot change the element type")
        if s.get_shape()[1] != n:
            raise VerifyException(
                f"gather_row result rows must be as wide as the source's: {format_shape(s.get_shape())} -> "
                f"{format_shape(r.get_shape())}"
            )


def tensor_types_compatible(a: TensorType, b: TensorType) -> bool:
    """Same rank, element type and layout, and every dimension equal or `?` on one side."""
    sa, sb = list(a.get_shape()), list(b.get_shape())
    return (
        len(sa) == len(sb)
        and a.element_type == b.element_type
        and a.layout == b.layout
        and all(x == y or DYNAMIC in (x, y) for x, y in zip(sa, sb))
    )


@irdl_op_definition
class TensorCastOp(IRDLOperation):
    """`%c = pto.tensor_cast %t : T1 -> T2` — the same GM buffer under a compatible type (a dimension made `?`
    or bound to a static extent), like MLIR's `tensor.cast`.  `func.call` needs argument types equal to the
    callee's, so a Group passes its static tensor to a member's `?` parameter through a cast; ExpandMixedKernel
    phase 4 then re-binds the member's dimension to the Group's (docs/expand-mixed-kernel.md)."""

    name = "pto.tensor_cast"
    src = operand_def(TensorType)
    result = result_def(TensorType)
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"
    traits = traits_def(SharedAffinity(), Pure(), TensorView(), CostFree())

    def __init__(self, src: SSAValue, result_type: TensorType):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        a, b = self.src.type, self.result.type
        assert isinstance(a, TensorType) and isinstance(b, TensorType)
        if not tensor_types_compatible(a, b):
            raise VerifyException(
                f"tensor_cast needs compatible types (the same rank, element type and layout; each dimension equal "
                f"or ? on one side), got {a} -> {b}"
            )


ADDRESSED_VIEW_OPS = (ReinterpretViewOp, ExtractOp, GatherRowOp, TensorCastOp)

__all__ = [
    "ADDRESSED_VIEW_OPS",
    "ExtractOp",
    "GatherRowOp",
    "ReinterpretViewOp",
    "TensorCastOp",
    "tensor_types_compatible",
    "reinterpret_inferred_shape",
    "reinterpret_inferred_valid",
]
