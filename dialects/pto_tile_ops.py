"""Tile and memory ops of the `pto` dialect: GM tensors (`create_tensor`, `load`, `store`), tile movement and
views (`move`, `reshape`, `transpose`, `transpose_view`, `slice`, `set_validshape`) and the tile generators
(`create`, `full`, `ci`, `random`): where a tile comes from, how it is moved or viewed, and where it goes.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    attr_def,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, Pure
from xdsl.utils.exceptions import VerifyException

from .pto_op_base import (
    _check_mixed,
    _check_valid_matches,
    _dense,
    _merge,
    _MixedOffsetsMixin,
    _require_shape,
    _require_space,
    _same_shape,
    _seg,
    _tile,
    _UnaryTileOp,
    check_gm_offsets,
    check_rank_fits,
    check_window,
    int_value,
    parse_addressed,
    print_addressed,
    split_mixed,
)
from .pto_traits import (
    CostFree,
    HalvingRule,
    LaneHalving,
    FirstTileAffinity,
    GmAccess,
    MoveAffinity,
    OncePerKernel,
    ResultMemoryAffinity,
    SharedAffinity,
    SlotView,
    TileGenerator,
    VectorAffinity,
)
from .pto_types import DYNAMIC, TensorType, TileType, format_dim, format_shape, transpose_view_type

# ---------------------------------------------------------------------------------------------------------------
# GM tensors
# ---------------------------------------------------------------------------------------------------------------


@irdl_op_definition
class CreateTensorOp(IRDLOperation):
    """`%gm = pto.create_tensor : !pto.tensor<16x128xf32>` — allocate a GM buffer (orchestration code)."""

    name = "pto.create_tensor"
    traits = traits_def(SharedAffinity())
    result = result_def(TensorType)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, result_type: TensorType):
        super().__init__(result_types=[result_type])


class _WindowOp(IRDLOperation, _MixedOffsetsMixin):
    """A window op: `%r = pto.<op> %x[offsets] [valid [sizes]] {attrs} : T_x -> T_r` (load, slice).

    A subclass defines its one leading operand (the tensor or tile the window is of); the window's fields are
    here, with the parser and printer that use them (xDSL lists a subclass's fields before its bases', so the
    leading operand comes first)."""

    offsets = var_operand_def()
    valid_sizes = var_operand_def()
    static_offsets = attr_def(DenseArrayBase)
    static_valid = opt_attr_def(DenseArrayBase)
    result = result_def(TileType)
    irdl_options = (AttrSizedOperandSegments(),)

    def __init__(
        self,
        base: SSAValue,
        offsets: Sequence[int | SSAValue],
        result_type: TileType,
        valid: Sequence[int | SSAValue] | None = None,
    ):
        s_off, d_off = split_mixed(offsets)
        attrs: dict[str, Attribute] = {"static_offsets": _dense(s_off)}
        d_valid: list[SSAValue] = []
        if valid is not None:
            s_valid, d_valid = split_mixed(valid)
            attrs["static_valid"] = _dense(s_valid)
        attrs["operandSegmentSizes"] = _seg(1, len(d_off), len(d_valid))
        super().__init__(operands=[base, d_off, d_valid], result_types=[result_type], attributes=attrs)

    def get_mixed_valid(self) -> list[int | SSAValue] | None:
        if self.static_valid is None:
            return None
        return _merge(self.static_valid.get_values(), self.valid_sizes)

    @classmethod
    def parse(cls, parser: Parser) -> _WindowOp:
        p = parse_addressed(parser, valid="optional", result=True)
        return p.build(cls(p.operands[0], p.offsets, p.result_type, p.valid))  # type: ignore[arg-type, return-value]

    def print(self, printer: Printer) -> None:
        sv = self.static_valid
        print_addressed(
            printer,
            self,
            [self.operands[0]],
            (self.get_static_offsets(), self.offsets),
            valid=(sv.get_values(), self.valid_sizes) if sv is not None else None,
            result=self.results[0].type,
            reserved=("static_offsets", "static_valid", "operandSegmentSizes"),
        )


@irdl_op_definition
class LoadOp(_WindowOp):
    """`%t = pto.load %src[0, %i] [valid [%v, 128]] : !pto.tensor<..> -> !pto.tile<..>` — read a GM window."""

    name = "pto.load"

    source = operand_def(TensorType)
    traits = traits_def(LaneHalving(HalvingRule.WINDOW), ResultMemoryAffinity(), MemoryReadEffect(), GmAccess(reads=("source",), tile="result"))

    def verify_(self) -> None:
        src = self.source.type
        assert isinstance(src, TensorType)
        res = _tile(self.result, "load result")
        check_gm_offsets("load", self.get_static_offsets(), self.offsets, src, res, "load result", "source")
        check_rank_fits(res, src, "load result", "the source tensor's")
        check_window(src.get_shape(), self.get_static_offsets(), res.get_shape(), "load", "the tensor's")
        if self.static_valid is not None:
            sv = self.static_valid.get_values()
            _check_mixed(sv, self.valid_sizes, "load valid sizes")
            if len(sv) != res.rank:
                raise VerifyException(f"load has {len(sv)} valid sizes but the tile has rank {res.rank}")
            for d, (s, t) in enumerate(zip(sv, res.get_valid())):
                if s != t:
                    raise VerifyException(
                        f"load valid size on dim {d} is {format_dim(s)} but the result type's valid "
                        f"extent is {format_dim(t)}"
                    )
        elif any(v == DYNAMIC for v in res.get_valid()):
            raise VerifyException("load result has a dynamic valid extent; give it as an operand: valid [%v, ...]")


@irdl_op_definition
class StoreOp(IRDLOperation, _MixedOffsetsMixin):
    """`%o2 = pto.store %t, %o[%r, 0] : !pto.tile<..>, !pto.tensor<..>` — write a tile into a GM buffer.

    The result is the destination buffer under a new SSA name (not a copy)."""

    name = "pto.store"
    traits = traits_def(
        LaneHalving(HalvingRule.WINDOW),
        FirstTileAffinity(),
        GmAccess(writes=("dest",), tile="tile"),
        OncePerKernel("adds its tile into GM (atomic)", when="atomic"),
    )

    tile = operand_def(TileType)
    dest = operand_def(TensorType)
    offsets = var_operand_def()
    static_offsets = attr_def(DenseArrayBase)
    atomic = opt_attr_def(IntegerAttr)
    result = result_def(TensorType)
    irdl_options = (AttrSizedOperandSegments(),)

    def __init__(self, tile: SSAValue, dest: SSAValue, offsets: Sequence[int | SSAValue]):
        s_off, d_off = split_mixed(offsets)
        super().__init__(
            operands=[tile, dest, d_off],
            result_types=[dest.type],
            attributes={"static_offsets": _dense(s_off), "operandSegmentSizes": _seg(1, 1, len(d_off))},
        )

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        p = parse_addressed(parser, 2)
        return p.build(cls(*p.operands, p.offsets))  # type: ignore[arg-type, return-value]

    def print(self, printer: Printer) -> None:
        print_addressed(printer, self, [self.tile, self.dest], (self.get_static_offsets(), self.offsets))

    @property
    def is_atomic(self) -> bool:
        """Whether the store accumulates into GM (`atomic` set and non-zero)."""
        return bool(int_value(self.atomic))

    def verify_(self) -> None:
        t = _tile(self.tile, "stored value")
        dst = self.dest.type
        assert isinstance(dst, TensorType)
        _require_space(t, ("vec", "acc", "mat"), "stored tile")
        check_gm_offsets("store", self.get_static_offsets(), self.offsets, dst, t, "stored tile", "destination")
        if self.result.type != dst:
            raise VerifyException("store result type must equal the destination tensor type")
        check_rank_fits(t, dst, "stored tile")
        check_window(dst.get_shape(), self.get_static_offsets(), t.get_shape(), "store", "the tensor's")


# ---------------------------------------------------------------------------------------------------------------
# Data movement and views
# ---------------------------------------------------------------------------------------------------------------


@irdl_op_definition
class MoveOp(_UnaryTileOp):
    """`%b = pto.move %a : T1 -> T2` — copy a tile to another memory space or view.

    A move between cube memory and `vec` is a cross-core boundary; otherwise it runs where its source lives."""

    name = "pto.move"
    traits = traits_def(LaneHalving(HalvingRule.MOVE), MoveAffinity(), Pure())

    def verify_(self) -> None:
        a, b = _tile(self.src, "move source"), _tile(self.result, "move result")
        if not _same_shape(a.get_shape(), b.get_shape()):
            raise VerifyException(
                f"move cannot change the shape: {format_shape(a.get_shape())} -> {format_shape(b.get_shape())}"
            )
        if a.element_type != b.element_type:
            raise VerifyException(f"move cannot change the element type: {a.element_type} -> {b.element_type}")
        if not _same_shape(a.get_valid(), b.get_valid()):
            raise VerifyException(
                f"move cannot change the valid region: {format_shape(a.get_valid())} -> {format_shape(b.get_valid())}"
            )


@irdl_op_definition
class ReshapeOp(_UnaryTileOp):
    """`%r = pto.reshape %a : T1 -> T2` — same elements, new shape."""

    name = "pto.reshape"
    traits = traits_def(LaneHalving(HalvingRule.VIEW), FirstTileAffinity(), SlotView(), Pure())

    def verify_(self) -> None:
        a, b = _tile(self.src, "reshape source"), _tile(self.result, "reshape result")
        if a.element_type != b.element_type:
            raise VerifyException("reshape cannot change the element type")
        if a.space != b.space:
            raise VerifyException("reshape cannot change the memory space")
        if a.is_static() and b.is_static():
            na = nb = 1
            for d in a.get_shape():
                na *= d
            for d in b.get_shape():
                nb *= d
            if na != nb:
                raise VerifyException(
                    f"reshape changes the element count: {format_shape(a.get_shape())} has {na}, "
                    f"{format_shape(b.get_shape())} has {nb}"
                )
        problem = reshape_valid_problem(a, b)
        if problem is not None:
            raise VerifyException(problem)


def reshape_valid_problem(src: TileType, result: TileType) -> str | None:
    """Why a `pto.reshape` from `src` to `result` cannot state its valid region, or None.  A reshape has no valid
    operand, so the result's valid region is the type's: it must be static on every static dim (a `?` could
    never be given its value; a dynamic dim is valid in full), and a source whose valid region is statically smaller than its shape must be reshaped to a result
    whose valid region is smaller than its shape too (the row-major reshape does not say which cells stay valid;
    the result type does)."""
    sv, rv = list(src.get_valid()), list(result.get_valid())
    if any(v == DYNAMIC and n != DYNAMIC for v, n in zip(rv, result.get_shape())):
        return (
            f"reshape result valid region {format_shape(rv)} has a runtime extent, but a reshape has no valid operand: "
            "state the result's valid region statically, or reshape the full box and narrow the result with "
            "pto.set_validshape"
        )
    partial_src = DYNAMIC not in sv and sv != list(src.get_shape())
    if partial_src and rv == list(result.get_shape()):
        return (
            f"reshape of a partially valid tile (valid {format_shape(sv)} of {format_shape(src.get_shape())}) needs "
            f"a partially valid result type (valid = [...] smaller than {format_shape(result.get_shape())}): the "
            "result type states which cells stay valid"
        )
    return None


class _TransposeBase(_UnaryTileOp):
    axes = opt_attr_def(DenseArrayBase)

    def get_axes(self) -> tuple[int, ...]:
        if self.axes is None:
            rank = _tile(self.src, "transpose source").rank
            return tuple(reversed(range(rank)))
        return tuple(self.axes.get_values())

    def verify_(self) -> None:
        a, b = _tile(self.src, f"{self.name} source"), _tile(self.result, f"{self.name} result")
        axes = self.get_axes()
        if sorted(axes) != list(range(a.rank)):
            raise VerifyException(f"'{self.name}' axes {list(axes)} are not a permutation of the tile's dims")
        expect = [a.get_shape()[i] for i in axes]
        _require_shape(
            expect,
            b.get_shape(),
            f"'{self.name}' result",
            f" (the source {format_shape(a.get_shape())} permuted by axes {list(axes)})",
        )
        if a.element_type != b.element_type:
            raise VerifyException(f"'{self.name}' cannot change the element type")


@irdl_op_definition
class TransposeOp(_TransposeBase):
    """`%t = pto.transpose %a [{axes = array<i64: 1, 0>}] : T1 -> T2` — data transpose (default: reverse dims)."""

    name = "pto.transpose"
    traits = traits_def(LaneHalving(HalvingRule.VIEW), FirstTileAffinity(), Pure())


@irdl_op_definition
class TransposeViewOp(_TransposeBase):
    """`%t = pto.transpose_view %a : T1 -> T2` — zero-copy transposed view."""

    name = "pto.transpose_view"
    traits = traits_def(LaneHalving(HalvingRule.VIEW), FirstTileAffinity(), SlotView(), Pure())

    def verify_(self) -> None:
        super().verify_()
        a, b = _tile(self.src, "transpose_view source"), _tile(self.result, "transpose_view result")
        want = transpose_view_type(a, self.get_axes())
        got_view = (b.space, b.blayout.data, b.slayout.data, b.fractal.data, b.pad.data, b.get_valid())
        want_view = (want.space, want.blayout.data, want.slayout.data, want.fractal.data, want.pad.data, want.get_valid())
        if got_view != want_view:
            raise VerifyException(
                f"'pto.transpose_view' is a zero-copy view (the source's bytes read in the transposed shape), so its "
                f"result must be '{want.space}' with blayout = {want.blayout.data}, slayout = {want.slayout.data}, "
                f"fractal = {want.fractal.data}, pad = {want.pad.data}, valid = {format_shape(want.get_valid())}; got "
                f"'{b.space}' with blayout = {b.blayout.data}, slayout = {b.slayout.data}, fractal = {b.fractal.data}, "
                f"pad = {b.pad.data}, valid = {format_shape(b.get_valid())}. To change the layout, pto.move the tile "
                f"first, or use pto.transpose (a data transpose)"
            )


@irdl_op_definition
class SliceOp(_WindowOp):
    """`%s = pto.slice %a[0, %j] [valid [..]] : T1 -> T2` — a window of a tile (shape from the result type)."""

    name = "pto.slice"

    src = operand_def(TileType)
    traits = traits_def(LaneHalving(HalvingRule.WINDOW), FirstTileAffinity(), SlotView(), Pure())

    def verify_(self) -> None:
        a, b = _tile(self.src, "slice source"), _tile(self.result, "slice result")
        _check_mixed(self.get_static_offsets(), self.offsets, "slice offsets")
        if len(self.get_static_offsets()) != a.rank:
            raise VerifyException(f"slice has {len(self.get_static_offsets())} offsets but the tile has rank {a.rank}")
        if b.rank != a.rank:
            raise VerifyException("slice result must have the source's rank")
        if a.element_type != b.element_type or a.space != b.space:
            raise VerifyException("slice cannot change the element type or memory space")
        check_window(a.get_shape(), self.get_static_offsets(), b.get_shape(), "slice", "the source")
        if self.static_valid is not None:
            sv = self.static_valid.get_values()
            _check_mixed(sv, self.valid_sizes, "slice valid sizes")
            _check_valid_matches(sv, b, "slice valid sizes")


@irdl_op_definition
class SetValidShapeOp(IRDLOperation):
    """`%v = pto.set_validshape %a valid [%r, 128] : T1 -> T2` — change the valid region of a tile."""

    name = "pto.set_validshape"

    src = operand_def(TileType)
    valid_sizes = var_operand_def()
    static_valid = attr_def(DenseArrayBase)
    result = result_def(TileType)
    traits = traits_def(LaneHalving(HalvingRule.VIEW), FirstTileAffinity(), SlotView(), Pure())

    def __init__(self, src: SSAValue, valid: Sequence[int | SSAValue], result_type: TileType):
        s_val, d_val = split_mixed(valid)
        super().__init__(operands=[src, d_val], result_types=[result_type], attributes={"static_valid": _dense(s_val)})

    def get_mixed_valid(self) -> list[int | SSAValue]:
        return _merge(self.static_valid.get_values(), self.valid_sizes)

    @classmethod
    def parse(cls, parser: Parser) -> SetValidShapeOp:
        p = parse_addressed(parser, offsets=False, valid="required", result=True)
        return p.build(cls(p.operands[0], p.valid, p.result_type))  # type: ignore[arg-type, return-value]

    def print(self, printer: Printer) -> None:
        print_addressed(
            printer,
            self,
            [self.src],
            valid=(self.static_valid.get_values(), self.valid_sizes),
            result=self.result.type,
            reserved=("static_valid",),
        )

    def verify_(self) -> None:
        a, b = _tile(self.src, "set_validshape source"), _tile(self.result, "set_validshape result")
        sv = self.static_valid.get_values()
        _check_mixed(sv, self.valid_sizes, "set_validshape sizes")
        if a.get_shape() != b.get_shape() or a.element_type != b.element_type or a.space != b.space:
            raise VerifyException("set_validshape may only change the valid region")
        _check_valid_matches(sv, b, "set_validshape sizes")  # b.rank == a.rank: the shapes are equal


# ---------------------------------------------------------------------------------------------------------------
# Generators
# ---------------------------------------------------------------------------------------------------------------


@irdl_op_definition
class CreateOp(IRDLOperation):
    """`%u = pto.create : !pto.tile<..>` — an uninitialised tile (shared: both cores may allocate)."""

    name = "pto.create"
    result = result_def(TileType)
    assembly_format = "attr-dict `:` type($result)"
    traits = traits_def(LaneHalving(HalvingRule.GENERATOR), SharedAffinity(), TileGenerator(), CostFree(), Pure())

    def __init__(self, result_type: TileType):
        super().__init__(result_types=[result_type])


@irdl_op_definition
class FullOp(IRDLOperation):
    """`%z = pto.full %f : f32 -> !pto.tile<..>` — a tile filled with a scalar."""

    name = "pto.full"
    value = operand_def()
    result = result_def(TileType)
    assembly_format = "$value attr-dict `:` type($value) `->` type($result)"
    traits = traits_def(LaneHalving(HalvingRule.GENERATOR), VectorAffinity(), TileGenerator(), Pure())

    def __init__(self, value: SSAValue, result_type: TileType):
        super().__init__(operands=[value], result_types=[result_type])

    def verify_(self) -> None:
        if isinstance(self.value.type, TileType):
            raise VerifyException("full takes a scalar fill value, not a tile")


class _GeneratorOp(IRDLOperation):
    """`%c = pto.<op> %s : i32 -> !pto.tile<..>`: values depend on position, so they cannot be halved blindly."""

    seed = operand_def()
    result = result_def(TileType)
    assembly_format = "$seed attr-dict `:` type($seed) `->` type($result)"
    traits = traits_def(LaneHalving(HalvingRule.GENERATOR), VectorAffinity(), TileGenerator(position_dependent=True), Pure())

    def __init__(self, seed: SSAValue, result_type: TileType):
        super().__init__(operands=[seed], result_types=[result_type])

    def verify_(self) -> None:
        _require_space(_tile(self.result, f"'{self.name}' result"), ("vec",), f"'{self.name}' result")


@irdl_op_definition
class CiOp(_GeneratorOp):
    """`%c = pto.ci %start : i32 -> T` — contiguous integers start, start+1, ... in row-major order."""

    name = "pto.ci"
    traits = traits_def(
        LaneHalving(HalvingRule.GENERATOR), VectorAffinity(), TileGenerator(position_dependent=True, linear=True), Pure()
    )


@irdl_op_definition
class RandomOp(_GeneratorOp):
    """`%r = pto.random %seed : i32 -> T` — pseudo-random values from a seed."""

    name = "pto.random"


TILE_OPS = (CreateTensorOp, LoadOp, StoreOp, MoveOp, ReshapeOp, TransposeOp, TransposeViewOp, SliceOp,
            SetValidShapeOp, CreateOp, FullOp, CiOp, RandomOp)
"""The ops of this module, in the dialect's registration order."""
