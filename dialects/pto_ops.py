"""Operations of the `pto` dialect.

Every op is a written-out class; what the analyses need to know about it (its core affinity, its role in the pipe
protocol, whether its result is a view, ...) are xDSL traits from `pto_traits.py`, asked with `op.has_trait(T)` /
`op.get_trait(T)`.  Op parameters are inherent *attributes* (not properties), so the generic form reads
`{split = 0 : i64}`.  Offsets are mixed static/dynamic lists as in `tensor.extract_slice`: the static values
are in `static_offsets` (dynamic entries hold `DYNAMIC`), the dynamic ones are `offsets` operands.

Side effects drive generic DCE: pure tile ops carry `Pure`, `load` only reads (`MemoryReadEffect`), and store,
transfer (tpush/tpop/tfree) and setup ops declare no effect trait, i.e. unknown effects, so nothing removes them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolRefAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    attr_def,
    base,
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
from xdsl.traits import (
    IsTerminator,
    MemoryReadEffect,
    Pure,
    RecursiveMemoryEffect,
)
from xdsl.utils.exceptions import VerifyException

# The lane arithmetic's one home is passes/analysis/lanes.py; it depends only on pto_types, so no import cycle.
from pypto_mlir.passes.analysis.lanes import ceil_half, double, split_dim_of_code

from .pto_traits import (
    BoundaryAffinity,
    BroadcastAxis,
    CoreSide,
    CubeAffinity,
    FirstTileAffinity,
    GmAccess,
    MoveAffinity,
    PipeDirection,
    PipeFree,
    PipeInit,
    PipePop,
    PipePush,
    PipeSetup,
    ReductionAxis,
    RegionAffinity,
    ResultMemoryAffinity,
    SharedAffinity,
    SlotView,
    TileGenerator,
    VectorAffinity,
)
from .pto_types import (
    DYNAMIC,
    SPLIT_MODES,
    SplitAttr,
    TensorType,
    TileType,
    format_dim,
    format_shape,
    is_cube_memory,
    transpose_view_type,
)

# ---------------------------------------------------------------------------------------------------------------
# Shared helpers
# ---------------------------------------------------------------------------------------------------------------

def i64_attr(value: int) -> IntegerAttr:
    return IntegerAttr(value, i64)


def get_int_attr(op: Operation, name: str) -> int | None:
    attr = op.attributes.get(name)
    if isinstance(attr, IntegerAttr):
        return attr.value.data
    return None


def _dense(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(values))


def _tile(value: SSAValue | Attribute, what: str) -> TileType:
    t = value.type if isinstance(value, SSAValue) else value
    if not isinstance(t, TileType):
        raise VerifyException(f"{what} must be a !pto.tile, got {t}")
    return t


def _require_space(t: TileType, spaces: Sequence[str], what: str) -> None:
    if t.space not in spaces:
        allowed = " or ".join(f"'{s}'" for s in spaces)
        raise VerifyException(f"{what} must be in memory space {allowed}, but it is in '{t.space}'")


def _same_shape(a: Sequence[int], b: Sequence[int]) -> bool:
    """Shapes agree where both are static."""
    return len(a) == len(b) and all(x == y or DYNAMIC in (x, y) for x, y in zip(a, b))


def _require_shape(expect: Sequence[int], got: Sequence[int], what: str, why: str = "") -> None:
    """`got` must agree with `expect` where both are static: `<what> must have shape <expect><why>, got <got>`."""
    if not _same_shape(expect, got):
        raise VerifyException(f"{what} must have shape {format_shape(expect)}{why}, got {format_shape(got)}")


def _check_int_range(op: Operation, name: str, lo: int, hi: int | None, required: bool = True) -> None:
    attr = op.attributes.get(name)
    if attr is None:
        if required:
            raise VerifyException(f"'{op.name}' requires an integer attribute '{name}'")
        return
    if not isinstance(attr, IntegerAttr):
        raise VerifyException(f"'{op.name}' attribute '{name}' must be an integer, got {attr}")
    v = attr.value.data
    if v < lo or (hi is not None and v > hi):
        bound = f"in [{lo}, {hi}]" if hi is not None else f">= {lo}"
        raise VerifyException(f"'{op.name}' attribute '{name}' must be {bound}, got {v}")


# -- mixed static/dynamic index lists ---------------------------------------------------------------------------


def parse_optional_defined_operand(parser: Parser) -> SSAValue | None:
    """Parse `%name` (or `%name#i`) naming a value defined earlier, whose type the syntax does not repeat (the
    dynamic entries of an offset or valid list may be `index` or any integer type)."""
    operand = parser.parse_optional_unresolved_operand()
    if operand is None:
        return None
    values = parser.ssa_values.get(operand.operand_name)
    if values is None:
        parser.raise_error(
            f"%{operand.operand_name} is used before it is defined; a dynamic offset or size must be defined "
            f"earlier in the function",
            operand.span,
        )
    if operand.index >= len(values):
        parser.raise_error(
            f"%{operand.operand_name} has {len(values)} values, no #{operand.index}",
            operand.span,
        )
    return values[operand.index]


def parse_mixed_list(parser: Parser) -> tuple[list[int], list[SSAValue]]:
    """Parse `[0, %i, 16]` into (static values with DYNAMIC holes, dynamic operands)."""
    static: list[int] = []
    dynamic: list[SSAValue] = []

    def one() -> None:
        operand = parse_optional_defined_operand(parser)
        if operand is not None:
            static.append(DYNAMIC)
            dynamic.append(operand)
        elif parser.parse_optional_punctuation("?") is not None:
            parser.raise_error("'?' is not allowed here; pass the dynamic value as an SSA operand")
        else:
            start = parser._current_token.span.start
            value = parser.parse_integer(allow_boolean=False, context_msg=" or SSA value expected")
            if not DYNAMIC < value < 2**63:  # DYNAMIC (-2**63) marks an SSA entry in the static list
                parser.raise_error(
                    f"{value} does not fit: a constant entry must lie in [-(2^63 - 1), 2^63 - 1] "
                    "(-2^63 is reserved for the entries given as SSA values)",
                    start,
                    parser._current_token.span.start,
                )
            static.append(value)

    parser.parse_comma_separated_list(parser.Delimiter.SQUARE, one)
    return static, dynamic


def print_mixed_list(printer: Printer, static: Sequence[int], dynamic: Sequence[SSAValue]) -> None:
    printer.print_string("[")
    it = iter(dynamic)
    for i, s in enumerate(static):
        if i:
            printer.print_string(", ")
        if s == DYNAMIC:
            printer.print_operand(next(it))
        else:
            printer.print_string(str(s))
    printer.print_string("]")


def _check_mixed(static: Sequence[int], dynamic: Sequence[SSAValue], what: str) -> None:
    n_dyn = sum(1 for s in static if s == DYNAMIC)
    if n_dyn != len(dynamic):
        raise VerifyException(f"{what} has {n_dyn} dynamic entries but {len(dynamic)} SSA operands")
    for v in dynamic:
        if not isinstance(v.type, (IndexType, IntegerType)):
            raise VerifyException(f"{what} entries must be index or integer values, got {v.type}")


def _check_valid_matches(sizes: Sequence[int], result: TileType, what: str) -> None:
    """The valid sizes an op states (`static_valid`) must be its result type's valid region, dim for dim."""
    if len(sizes) != result.rank or any(s != t for s, t in zip(sizes, result.get_valid())):
        raise VerifyException(f"{what} must match the result type's valid region")


class _MixedOffsetsMixin:
    """Accessors for ops with `static_offsets` + `offsets`."""

    def get_static_offsets(self) -> tuple[int, ...]:
        return tuple(self.static_offsets.get_values())  # type: ignore[attr-defined]

    def get_mixed_offsets(self) -> list[int | SSAValue]:
        """The offsets as a list of Python ints (static) and SSA values (dynamic)."""
        out: list[int | SSAValue] = []
        it = iter(self.offsets)  # type: ignore[attr-defined]
        for s in self.get_static_offsets():
            out.append(next(it) if s == DYNAMIC else s)
        return out


def split_mixed(values: Sequence[int | SSAValue]) -> tuple[list[int], list[SSAValue]]:
    static: list[int] = []
    dynamic: list[SSAValue] = []
    for v in values:
        if isinstance(v, int):
            static.append(v)
        else:
            static.append(DYNAMIC)
            dynamic.append(v)
    return static, dynamic


def _merge(static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[int | SSAValue]:
    it = iter(dynamic)
    return [next(it) if s == DYNAMIC else s for s in static]


def _seg(*sizes: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, list(sizes))


# -- the custom syntax of the offset-addressed ops --------------------------------------------------------------


def parse_peer(parser: Parser, keyword: str) -> SSAValue:
    """Parse `<keyword> %peer` (the peer device rank of a communication op)."""
    parser.parse_keyword(keyword)
    peer = parse_optional_defined_operand(parser)
    if peer is None:
        parser.raise_error(f"expected the peer rank after '{keyword}' (an index or integer SSA value)")
    return peer


@dataclass
class Addressed:
    """What `parse_addressed` read: the leading operands (resolved with their types), the offsets, the valid
    sizes, the peer, the attribute dict and the result type (each None where the syntax has no such part)."""

    operands: list[SSAValue]
    offsets: list[int | SSAValue] | None
    valid: list[int | SSAValue] | None
    peer: SSAValue | None
    attrs: dict[str, Attribute]
    result_type: Attribute | None

    def build(self, op: Operation) -> Operation:
        """`op` (built from the parsed parts) with the parsed attribute dict added."""
        op.attributes.update(self.attrs)
        return op


def parse_addressed(
    parser: Parser,
    lead: int = 1,
    *,
    offsets: bool = True,
    valid: str = "",
    peer: str | None = None,
    result: bool = False,
    one_offset: str | None = None,
) -> Addressed:
    """Parse the one syntax of the ops that address a window or a peer:

        %a[, %b][OFFSETS] [valid [SIZES]] [<peer> %p] {attrs} : T_a[, T_b] [-> T_r]

    `lead` operands, then a mixed offset list (`offsets`), a `valid` list (`valid`: "" none, "optional", or
    "required"), a peer rank after the keyword `peer`, and a result type after `->` (`result`).  `one_offset`:
    the error raised on the offset list when it does not hold exactly one entry."""
    refs = [parser.parse_unresolved_operand()]
    for _ in range(lead - 1):
        parser.parse_punctuation(",")
        refs.append(parser.parse_unresolved_operand())
    offs = None
    if offsets:
        pos = parser.pos
        s_off, d_off = parse_mixed_list(parser)
        if one_offset is not None and len(s_off) != 1:
            parser.raise_error(one_offset, pos, parser.pos)
        offs = _merge(s_off, d_off)
    sizes = None
    if valid == "required":
        parser.parse_keyword("valid")
    if valid == "required" or (valid == "optional" and parser.parse_optional_keyword("valid") is not None):
        s_val, d_val = parse_mixed_list(parser)
        sizes = _merge(s_val, d_val)
    peer_value = parse_peer(parser, peer) if peer is not None else None
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    operands: list[SSAValue] = []
    for i, ref in enumerate(refs):
        if i:
            parser.parse_punctuation(",")
        operands.append(parser.resolve_operand(ref, parser.parse_type()))
    rtype = None
    if result:
        parser.parse_punctuation("->")
        rtype = parser.parse_type()
    return Addressed(operands, offs, sizes, peer_value, attrs, rtype)


def print_addressed(
    printer: Printer,
    op: Operation,
    lead: Sequence[SSAValue],
    offsets: tuple[Sequence[int], Sequence[SSAValue]] | None = None,
    *,
    valid: tuple[Sequence[int], Sequence[SSAValue]] | None = None,
    peer: tuple[str, SSAValue] | None = None,
    result: Attribute | None = None,
    reserved: Sequence[str] = ("static_offsets", "operandSegmentSizes"),
) -> None:
    """Print what `parse_addressed` reads: `offsets` and `valid` as (static, dynamic), `peer` as (keyword, value)."""
    printer.print_string(" ")
    printer.print_list(lead, printer.print_operand)
    if offsets is not None:
        print_mixed_list(printer, *offsets)
    if valid is not None:
        printer.print_string(" valid ")
        print_mixed_list(printer, *valid)
    if peer is not None:
        printer.print_string(f" {peer[0]} ")
        printer.print_operand(peer[1])
    printer.print_op_attributes(op.attributes, reserved_attr_names=reserved)
    printer.print_string(" : ")
    printer.print_list([v.type for v in lead], printer.print_attribute)
    if result is not None:
        printer.print_string(" -> ")
        printer.print_attribute(result)


def check_gm_offsets(
    what: str, static: Sequence[int], dynamic: Sequence[SSAValue], tensor: TensorType, tile: TileType, tile_what: str,
    role: str,
) -> None:
    """The offsets of a tile window in a GM tensor (load, store, tile_get, tile_put): well formed, one per tensor
    dim, and the tile holds the tensor's element type.  `what` names the op, `tile_what` its tile, `role` the
    tensor ("source" / "destination")."""
    _check_mixed(static, dynamic, f"{what} offsets")
    if len(static) != tensor.rank:
        raise VerifyException(f"{what} has {len(static)} offsets but the {role} tensor has rank {tensor.rank}")
    if tile.element_type != tensor.element_type:
        raise VerifyException(
            f"{tile_what} element type {tile.element_type} differs from the tensor's {tensor.element_type}"
        )


def check_rank_fits(tile: TileType, tensor: TensorType, tile_what: str, tensor_what: str = "the tensor's") -> None:
    """A tile addresses the trailing dims of a GM tensor, so it has at most the tensor's rank."""
    if tile.rank > tensor.rank:
        raise VerifyException(f"{tile_what} has rank {tile.rank}, more than {tensor_what} {tensor.rank}")


def check_window(shape: Sequence[int], offs: Sequence[int], box: Sequence[int], what: str, whose: str) -> None:
    """The window `box` at `offs` lies inside `shape` on every static dim (a tile may address the trailing dims
    of a tensor of higher rank: the dims are aligned at the end)."""
    lead = len(shape) - len(box)
    for d, (dim, off, ext) in enumerate(zip(shape[lead:], offs[lead:], box)):
        if DYNAMIC not in (dim, off, ext) and off + ext > dim:
            raise VerifyException(f"{what} window [{off}, {off + ext}) on dim {d} lies outside {whose} extent {dim}")


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
    traits = traits_def(ResultMemoryAffinity(), MemoryReadEffect(), GmAccess(reads=("source",), tile="result"))

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
    traits = traits_def(FirstTileAffinity(), GmAccess(writes=("dest",), tile="tile"))

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


class _UnaryTileOp(IRDLOperation):
    """`%r = pto.<op> %src : T1 -> T2`."""

    src = operand_def(TileType)
    result = result_def(TileType)
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, result_type: TileType, attributes: dict[str, Attribute] | None = None):
        super().__init__(operands=[src], result_types=[result_type], attributes=attributes or {})


@irdl_op_definition
class MoveOp(_UnaryTileOp):
    """`%b = pto.move %a : T1 -> T2` — copy a tile to another memory space or view.

    A move between cube memory and `vec` is a cross-core boundary; otherwise it runs where its source lives."""

    name = "pto.move"
    traits = traits_def(MoveAffinity(), Pure())

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
    traits = traits_def(FirstTileAffinity(), SlotView(), Pure())

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
    traits = traits_def(FirstTileAffinity(), Pure())


@irdl_op_definition
class TransposeViewOp(_TransposeBase):
    """`%t = pto.transpose_view %a : T1 -> T2` — zero-copy transposed view."""

    name = "pto.transpose_view"
    traits = traits_def(FirstTileAffinity(), SlotView(), Pure())

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
    traits = traits_def(FirstTileAffinity(), SlotView(), Pure())

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
    traits = traits_def(FirstTileAffinity(), SlotView(), Pure())

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
    traits = traits_def(SharedAffinity(), TileGenerator(), Pure())

    def __init__(self, result_type: TileType):
        super().__init__(result_types=[result_type])


@irdl_op_definition
class FullOp(IRDLOperation):
    """`%z = pto.full %f : f32 -> !pto.tile<..>` — a tile filled with a scalar."""

    name = "pto.full"
    value = operand_def()
    result = result_def(TileType)
    assembly_format = "$value attr-dict `:` type($value) `->` type($result)"
    traits = traits_def(VectorAffinity(), TileGenerator(), Pure())

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
    traits = traits_def(VectorAffinity(), TileGenerator(position_dependent=True), Pure())

    def __init__(self, seed: SSAValue, result_type: TileType):
        super().__init__(operands=[seed], result_types=[result_type])

    def verify_(self) -> None:
        _require_space(_tile(self.result, f"'{self.name}' result"), ("vec",), f"'{self.name}' result")


@irdl_op_definition
class CiOp(_GeneratorOp):
    """`%c = pto.ci %start : i32 -> T` — contiguous integers start, start+1, ... in row-major order."""

    name = "pto.ci"


@irdl_op_definition
class RandomOp(_GeneratorOp):
    """`%r = pto.random %seed : i32 -> T` — pseudo-random values from a seed."""

    name = "pto.random"


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
    traits = traits_def(CubeAffinity(), Pure())
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


# ---------------------------------------------------------------------------------------------------------------
# Vector ops
# ---------------------------------------------------------------------------------------------------------------


def _require_vec(op: Operation, *values: SSAValue) -> None:
    for v in values:
        t = _tile(v, f"'{op.name}' operand")
        if t.space != "vec":
            raise VerifyException(
                f"'{op.name}' is a vector op; its tiles must be in memory space 'vec', but one is in '{t.space}'"
            )


class _BinaryOp(IRDLOperation):
    """`%s = pto.<op> %a, %b : T` — elementwise on two tiles of one type."""

    T: ClassVar = VarConstraint("T", base(TileType))
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"
    traits = traits_def(VectorAffinity(), Pure())

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
    traits = traits_def(VectorAffinity(), Pure())

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
    traits = traits_def(VectorAffinity(), Pure())

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


@irdl_op_definition
class LogOp(_ElementwiseUnaryOp):
    """`pto.log`: log(a)."""

    name = "pto.log"


@irdl_op_definition
class SqrtOp(_ElementwiseUnaryOp):
    """`pto.sqrt`: sqrt(a)."""

    name = "pto.sqrt"


@irdl_op_definition
class RsqrtOp(_ElementwiseUnaryOp):
    """`pto.rsqrt`: 1 / sqrt(a)."""

    name = "pto.rsqrt"


@irdl_op_definition
class RecipOp(_ElementwiseUnaryOp):
    """`pto.recip`: 1 / a."""

    name = "pto.recip"


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
    traits = traits_def(VectorAffinity(), Pure())

    def verify_(self) -> None:
        _require_vec(self, self.src, self.result)
        a, b = _tile(self.src, "cast source"), _tile(self.result, "cast result")
        if not _same_shape(a.get_shape(), b.get_shape()):
            raise VerifyException("cast cannot change the shape")


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
    traits = traits_def(VectorAffinity(), Pure())

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
    traits = traits_def(ReductionAxis(1))


@irdl_op_definition
class RowMaxOp(_ReduceOp):
    """`pto.row_max`: max, reduce each row to one column."""

    name = "pto.row_max"
    traits = traits_def(ReductionAxis(1))


@irdl_op_definition
class RowMinOp(_ReduceOp):
    """`pto.row_min`: min, reduce each row to one column."""

    name = "pto.row_min"
    traits = traits_def(ReductionAxis(1))


@irdl_op_definition
class ColSumOp(_ReduceOp):
    """`pto.col_sum`: sum, reduce each column to one row."""

    name = "pto.col_sum"
    traits = traits_def(ReductionAxis(0))


@irdl_op_definition
class ColMaxOp(_ReduceOp):
    """`pto.col_max`: max, reduce each column to one row."""

    name = "pto.col_max"
    traits = traits_def(ReductionAxis(0))


@irdl_op_definition
class ColMinOp(_ReduceOp):
    """`pto.col_min`: min, reduce each column to one row."""

    name = "pto.col_min"
    traits = traits_def(ReductionAxis(0))


REDUCE_OPS = (RowSumOp, RowMaxOp, RowMinOp, ColSumOp, ColMaxOp, ColMinOp)


class _ExpandOp(_RowOrColumnOp, IRDLOperation):
    """`%d = pto.row_expand_sub %a, %m : T, [M,1]` — broadcast `%m` over the row (col ops: `[1,N]`)."""

    AXIS_TRAIT: ClassVar[type[BroadcastAxis]] = BroadcastAxis
    T: ClassVar = VarConstraint("T", base(TileType))
    src = operand_def(T)
    operand = operand_def(TileType)
    result = result_def(T)
    assembly_format = "$src `,` $operand attr-dict `:` type($src) `,` type($operand)"
    traits = traits_def(VectorAffinity(), Pure())

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
    traits = traits_def(BroadcastAxis(1))


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
    traits = traits_def(BroadcastAxis(0))


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


@irdl_op_definition
class GetSubblockIdxOp(IRDLOperation):
    """`%i = pto.get_subblock_idx : index` — the AIV lane (0 or 1) this code runs on."""

    name = "pto.get_subblock_idx"
    result = result_def(IndexType)
    assembly_format = "attr-dict `:` type($result)"
    traits = traits_def(VectorAffinity(), Pure())

    def __init__(self):
        super().__init__(result_types=[IndexType()])


# ---------------------------------------------------------------------------------------------------------------
# Split boundaries and regions
# ---------------------------------------------------------------------------------------------------------------


def _check_split_attr(op: Operation, hi: int) -> int:
    _check_int_range(op, "split", 0, hi)
    return get_int_attr(op, "split") or 0


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
    traits = traits_def(BoundaryAffinity(PipeDirection.C2V), Pure())

    def __init__(self, src: SSAValue, split: int, result_type: TileType, lane_stride: int | None = None):
        attrs: dict[str, Attribute] = {"split": i64_attr(split)}
        if lane_stride is not None:
            attrs["lane_stride"] = i64_attr(lane_stride)
        super().__init__(operands=[src], result_types=[result_type], attributes=attrs)

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
        stride = get_int_attr(self, "lane_stride")
        if self.attributes.get("lane_stride") is not None:
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
    traits = traits_def(BoundaryAffinity(PipeDirection.V2C), Pure())

    def __init__(self, src: SSAValue, split: int, result_type: TileType):
        super().__init__(operands=[src], result_types=[result_type], attributes={"split": i64_attr(split)})

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


# ---------------------------------------------------------------------------------------------------------------
# Cross-core transfer
# ---------------------------------------------------------------------------------------------------------------


class _TransferAttrs:
    """The attributes of a tpush / tpop: the split code, the pipe `id`, the `lane_stride` (their IRDL fields, the
    builder and the range checks; xDSL collects the fields of this mixin after the op's own operand or result)."""

    split = attr_def(IntegerAttr)
    id = opt_attr_def(IntegerAttr)
    lane_stride = opt_attr_def(IntegerAttr)

    @staticmethod
    def _transfer_attributes(split: int, id: int | None, lane_stride: int | None) -> dict[str, Attribute]:
        attrs: dict[str, Attribute] = {"split": i64_attr(split)}
        if id is not None:
            attrs["id"] = i64_attr(id)
        if lane_stride is not None:
            attrs["lane_stride"] = i64_attr(lane_stride)
        return attrs

    def verify_(self: Operation) -> None:  # type: ignore[misc]
        _check_int_range(self, "split", 0, 4)
        _check_int_range(self, "id", 0, None, required=False)
        _check_int_range(self, "lane_stride", 1, None, required=False)


class _TPushOp(_TransferAttrs, IRDLOperation):
    tile = operand_def(TileType)
    assembly_format = "$tile attr-dict `:` type($tile)"

    def __init__(self, tile: SSAValue, split: int = 0, id: int | None = None, lane_stride: int | None = None):
        super().__init__(operands=[tile], attributes=self._transfer_attributes(split, id, lane_stride))


@irdl_op_definition
class TPushToAivOp(_TPushOp):
    """`pto.tpush_to_aiv %t {split = 0 : i64} : T` — the cube pushes a tile to the vector side (C->V)."""

    name = "pto.tpush_to_aiv"
    traits = traits_def(CubeAffinity(), PipePush(PipeDirection.C2V))

    def verify_(self) -> None:
        super().verify_()
        t = _tile(self.tile, "tpush_to_aiv operand")
        if not is_cube_memory(t.space):
            raise VerifyException(f"tpush_to_aiv sends a cube-side tile, but its operand is in '{t.space}'")


@irdl_op_definition
class TPushToAicOp(_TPushOp):
    """`pto.tpush_to_aic %t {split = 0 : i64} : T` — a vector lane pushes a tile to the cube (V->C)."""

    name = "pto.tpush_to_aic"
    traits = traits_def(VectorAffinity(), PipePush(PipeDirection.V2C))

    def verify_(self) -> None:
        super().verify_()
        _require_space(_tile(self.tile, "tpush_to_aic operand"), ("vec",), "tpush_to_aic operand")


class _TPopOp(_TransferAttrs, IRDLOperation):
    result = result_def(TileType)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, result_type: TileType, split: int = 0, id: int | None = None, lane_stride: int | None = None):
        super().__init__(result_types=[result_type], attributes=self._transfer_attributes(split, id, lane_stride))


@irdl_op_definition
class TPopFromAicOp(_TPopOp):
    """`%p = pto.tpop_from_aic {split = 0 : i64} : T` — a vector lane takes the next C->V slot."""

    name = "pto.tpop_from_aic"
    traits = traits_def(VectorAffinity(), PipePop(PipeDirection.C2V))


@irdl_op_definition
class TPopFromAivOp(_TPopOp):
    """`%p = pto.tpop_from_aiv {split = 0 : i64} : T` — the cube takes the next V->C slot."""

    name = "pto.tpop_from_aiv"
    traits = traits_def(CubeAffinity(), PipePop(PipeDirection.V2C))


class _TFreeOp(IRDLOperation):
    tile = operand_def(TileType)
    id = opt_attr_def(IntegerAttr)
    assembly_format = "$tile attr-dict `:` type($tile)"

    def __init__(self, tile: SSAValue, id: int | None = None):
        attrs: dict[str, Attribute] = {}
        if id is not None:
            attrs["id"] = i64_attr(id)
        super().__init__(operands=[tile], attributes=attrs)

    def verify_(self) -> None:
        _check_int_range(self, "id", 0, None, required=False)


@irdl_op_definition
class TFreeToAicOp(_TFreeOp):
    """`pto.tfree_to_aic %p : T` — a vector lane releases a popped C->V slot back to the cube."""

    name = "pto.tfree_to_aic"
    traits = traits_def(VectorAffinity(), PipeFree(PipeDirection.C2V))


@irdl_op_definition
class TFreeToAivOp(_TFreeOp):
    """`pto.tfree_to_aiv %p : T` — the cube releases a popped V->C slot back to the vector side."""

    name = "pto.tfree_to_aiv"
    traits = traits_def(CubeAffinity(), PipeFree(PipeDirection.V2C))


# ---------------------------------------------------------------------------------------------------------------
# Pipe setup
# ---------------------------------------------------------------------------------------------------------------


@irdl_op_definition
class ReserveBufferOp(IRDLOperation):
    """`%rb = pto.reserve_buffer {name = "..", size = N : i64, base = -1 : i64} : i32` — consumer-side slot ring."""

    name = "pto.reserve_buffer"
    traits = traits_def(SharedAffinity(), PipeSetup())
    buffer_name = attr_def(StringAttr, attr_name="name")
    size = attr_def(IntegerAttr)
    base_addr = attr_def(IntegerAttr, attr_name="base")
    result = result_def(i32)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, name: str, size: int, base: int = -1):
        super().__init__(
            result_types=[i32],
            attributes={"name": StringAttr(name), "size": i64_attr(size), "base": i64_attr(base)},
        )

    def verify_(self) -> None:
        _check_int_range(self, "size", 1, None)
        _check_int_range(self, "base", -1, None)


@irdl_op_definition
class ImportPeerBufferOp(IRDLOperation):
    """`%ib = pto.import_peer_buffer {name = "..", peer_func = @f_aiv} : i32` — the producer's view of the ring."""

    name = "pto.import_peer_buffer"
    traits = traits_def(SharedAffinity(), PipeSetup())
    buffer_name = attr_def(StringAttr, attr_name="name")
    peer_func = attr_def(SymbolRefAttr)
    result = result_def(i32)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, name: str, peer_func: str):
        super().__init__(
            result_types=[i32], attributes={"name": StringAttr(name), "peer_func": SymbolRefAttr(peer_func)}
        )


class _InitializePipeOp(IRDLOperation):
    c2v_buffer = operand_def(i32)
    v2c_buffer = operand_def(i32)
    dir_mask = attr_def(IntegerAttr)
    slot_size = attr_def(IntegerAttr)
    slot_num = opt_attr_def(IntegerAttr)
    local_slot_num = opt_attr_def(IntegerAttr)
    id = opt_attr_def(IntegerAttr)
    assembly_format = "$c2v_buffer `,` $v2c_buffer attr-dict `:` type($c2v_buffer) `,` type($v2c_buffer)"

    def __init__(
        self,
        c2v: SSAValue,
        v2c: SSAValue,
        dir_mask: int,
        slot_size: int,
        slot_num: int | None = None,
        local_slot_num: int | None = None,
        id: int | None = None,
    ):
        attrs: dict[str, Attribute] = {"dir_mask": i64_attr(dir_mask), "slot_size": i64_attr(slot_size)}
        if slot_num is not None:
            attrs["slot_num"] = i64_attr(slot_num)
        if local_slot_num is not None:
            attrs["local_slot_num"] = i64_attr(local_slot_num)
        if id is not None:
            attrs["id"] = i64_attr(id)
        super().__init__(operands=[c2v, v2c], attributes=attrs)

    def verify_(self) -> None:
        _check_int_range(self, "dir_mask", 1, 3)
        _check_int_range(self, "slot_size", 1, None)
        _check_int_range(self, "slot_num", 1, None, required=False)
        _check_int_range(self, "local_slot_num", 1, None, required=False)
        _check_int_range(self, "id", 0, None, required=False)
        sn, lsn = get_int_attr(self, "slot_num"), get_int_attr(self, "local_slot_num")
        if sn is not None and lsn is not None and lsn > sn:
            raise VerifyException(f"'{self.name}' local_slot_num {lsn} exceeds slot_num {sn}")


@irdl_op_definition
class AicInitializePipeOp(_InitializePipeOp):
    """`pto.aic_initialize_pipe %c2v, %v2c {dir_mask, slot_size, slot_num} : i32, i32` — cube side."""

    name = "pto.aic_initialize_pipe"
    traits = traits_def(CubeAffinity(), PipeInit(CoreSide.AIC))


@irdl_op_definition
class AivInitializePipeOp(_InitializePipeOp):
    """`pto.aiv_initialize_pipe %c2v, %v2c {dir_mask, slot_size, slot_num} : i32, i32` — vector side."""

    name = "pto.aiv_initialize_pipe"
    traits = traits_def(VectorAffinity(), PipeInit(CoreSide.AIV))


ALL_OPS: list[type[Operation]] = [
    CreateTensorOp,
    LoadOp,
    StoreOp,
    MoveOp,
    ReshapeOp,
    TransposeOp,
    TransposeViewOp,
    SliceOp,
    SetValidShapeOp,
    CreateOp,
    FullOp,
    CiOp,
    RandomOp,
    MatmulOp,
    MatmulAccOp,
    MatmulBiasOp,
    GemvOp,
    GemvAccOp,
    GemvBiasOp,
    BatchMatmulOp,
    BatchMatmulAccOp,
    *BINARY_OPS,
    *SCALAR_OPS,
    *UNARY_OPS,
    CastOp,
    *REDUCE_OPS,
    *EXPAND_OPS,
    GetSubblockIdxOp,
    AivShardOp,
    AicGatherOp,
    YieldOp,
    SplitAivScopeOp,
    TPushToAivOp,
    TPushToAicOp,
    TPopFromAicOp,
    TPopFromAivOp,
    TFreeToAicOp,
    TFreeToAivOp,
    ReserveBufferOp,
    ImportPeerBufferOp,
    AicInitializePipeOp,
    AivInitializePipeOp,
]

def _with_trait(trait: type) -> tuple[type[Operation], ...]:
    """The op classes of this dialect that carry `trait` (in `ALL_OPS` order)."""
    return tuple(cls for cls in ALL_OPS if cls.has_trait(trait))  # type: ignore[attr-defined]


# Op families, each defined once.  Those that a trait describes are derived from it.
MATMUL_OPS = (MatmulOp, MatmulAccOp, MatmulBiasOp, GemvOp, GemvAccOp, GemvBiasOp, BatchMatmulOp, BatchMatmulAccOp)
TPUSH_OPS = _with_trait(PipePush)
TPOP_OPS = _with_trait(PipePop)
TFREE_OPS = _with_trait(PipeFree)
TRANSFER_OPS = TPUSH_OPS + TPOP_OPS
"""The ops that move a tile through a pipe (tpush and tpop; tfree only releases a slot)."""
SETUP_OPS = _with_trait(PipeSetup)
INIT_OPS = _with_trait(PipeInit)
VIEW_OPS = _with_trait(SlotView)
GENERATOR_OPS = _with_trait(TileGenerator)
