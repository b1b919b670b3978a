"""The shared base of the `pto` op families (`pto_*_ops.py`): attribute and verifier helpers, the mixed
static/dynamic index lists, the one custom syntax of the offset-addressed ops (`parse_addressed` /
`print_addressed`) with its window checks, and `_UnaryTileOp`, the `%r = pto.<op> %src : T1 -> T2` base of the
movement, cast and reduction ops.  It defines no op; every family module imports from it, it imports none of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import DenseArrayBase, IndexType, IntegerAttr, IntegerType, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation, operand_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from .pto_types import DYNAMIC, TensorType, TileType, format_shape

# ---------------------------------------------------------------------------------------------------------------
# Shared helpers
# ---------------------------------------------------------------------------------------------------------------

def i64_attr(value: int) -> IntegerAttr:
    return IntegerAttr(value, i64)


def int_value(attr: IntegerAttr | None) -> int | None:
    """The Python int of an integer attribute field (an op's IRDL accessor), None when the op does not carry it;
    the typed way to read a field such as `init.slot_num` (never by its name through `op.attributes`)."""
    return None if attr is None else attr.value.data


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


def _require_vec(op: Operation, *values: SSAValue) -> None:
    for v in values:
        t = _tile(v, f"'{op.name}' operand")
        if t.space != "vec":
            raise VerifyException(
                f"'{op.name}' is a vector op; its tiles must be in memory space 'vec', but one is in '{t.space}'"
            )


# ---------------------------------------------------------------------------------------------------------------
# An op base shared by several families
# ---------------------------------------------------------------------------------------------------------------


class _UnaryTileOp(IRDLOperation):
    """`%r = pto.<op> %src : T1 -> T2`."""

    src = operand_def(TileType)
    result = result_def(TileType)
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, result_type: TileType, attributes: dict[str, Attribute] | None = None):
        super().__init__(operands=[src], result_types=[result_type], attributes=attributes or {})
