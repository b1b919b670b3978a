"""Types and attributes of the `pto` dialect.

`!pto.tensor` is a buffer in global memory (GM); `!pto.tile` is an on-chip tile with a memory space and a
*view* (block/scatter layout, fractal size, pad value, valid region).  A tile type always stores its full view;
the printer leaves out every field equal to the memory space's *implicit view*, so two equal types print the
same and `print -> parse -> print` is a fixed point (see `docs/dialect.md`).

Dynamic extents (shape or valid) are stored as `DYNAMIC` and printed `?`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    Float8E4M3FNType,
    Float8E8M0FNUType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    BFloat16Type,
    IntAttr,
    IntegerType,
    StringAttr,
)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

DYNAMIC = DYNAMIC_INDEX
"""Marker of a dynamic extent (printed `?`); the same value as MLIR's `ShapedType::kDynamic`."""

# ---------------------------------------------------------------------------------------------------------------
# Enumerations
# ---------------------------------------------------------------------------------------------------------------

MEMORY_SPACES = ("vec", "mat", "left", "right", "acc", "bias", "left_scale", "right_scale")
CUBE_MEMORY_SPACES = frozenset(MEMORY_SPACES) - {"vec"}
LAYOUTS = ("none_box", "row_major", "col_major")
PADS = ("null", "zero", "max", "min")
TENSOR_LAYOUTS = ("nd", "dn", "nz", "mx_a_zz", "mx_b_nn")
# The MX scale layouts of a GM tensor (reference TensorView MX_A_ZZ / MX_B_NN): an f8E8M0FNU 2-D scale.
MX_TENSOR_LAYOUTS = ("mx_a_zz", "mx_b_nn")
TARGETS = ("a2a3", "a5")


class FunctionKind(StrEnum):
    """The K of a function's `#pto.kind<K>` (its role); `kind_of` / `set_kind` speak only this type."""

    OPAQUE = "opaque"
    ORCHESTRATION = "orchestration"
    INCORE = "incore"
    AIC = "aic"
    AIV = "aiv"
    GROUP = "group"
    SPMD = "spmd"
    INLINE = "inline"


KINDS = tuple(k.value for k in FunctionKind)
SPLIT_MODES = ("none", "up_down", "left_right")
"""The split modes of a kernel or a `split_aiv_scope` region (the contract's; `mode_int` is their code)."""
AUTO_SPLIT = "auto"
"""`#pto.split<auto>` (beyond the contract): LowerAutoVectorSplit chooses `up_down` or `left_right` for the author;
only a function's request, never a region's mode or a split code (docs/dialect.md)."""
SPLIT_REQUESTS = (*SPLIT_MODES, AUTO_SPLIT)


def is_cube_memory(space: str) -> bool:
    """A memory space is cube-side iff it is not `vec` (the reference defines it negatively)."""
    return space in CUBE_MEMORY_SPACES


class _KeywordAttr(ParametrizedAttribute):
    """Base of the one-keyword attributes `#pto.target<..>`, `#pto.kind<..>`, `#pto.split<..>`."""

    value: StringAttr
    KEYWORDS: ClassVar[tuple[str, ...]] = ()

    def __init__(self, value: str | StringAttr):
        super().__init__(StringAttr(value) if isinstance(value, str) else value)

    @property
    def data(self) -> str:
        return self.value.data

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            pos = parser.pos
            word = parser.parse_optional_identifier()
            if word not in cls.KEYWORDS:
                parser.raise_error(
                    f"unknown {cls.name} value '{word}', expected one of: {', '.join(cls.KEYWORDS)}",
                    pos,
                    parser.pos,
                )
        return (StringAttr(word),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.value.data}>")

    def verify(self) -> None:
        if self.value.data not in self.KEYWORDS:
            raise VerifyException(
                f"unknown {self.name} value '{self.value.data}', expected one of: {', '.join(self.KEYWORDS)}"
            )


KIB = 1024

MEMORY_CAPACITIES: dict[str, dict[str, int]] = {
    "a2a3": {
        "vec": 192 * KIB,
        "mat": 512 * KIB,
        "left": 64 * KIB,
        "right": 64 * KIB,
        "acc": 128 * KIB,
        "bias": 1 * KIB,
    },
    "a5": {
        "vec": 256 * KIB,
        "mat": 512 * KIB,
        "left": 64 * KIB,
        "right": 64 * KIB,
        "acc": 256 * KIB,
        "bias": 4 * KIB,
        "left_scale": 4 * KIB,
        "right_scale": 4 * KIB,
    },
}
"""Bytes each memory space holds on one core, per target (the one table; sources in docs/memory-budget.md).
`vec` is the UB of *one* vector core (an AI core has two, each with its own UB); the cube-side spaces belong
to the one cube core. A space missing from a target's row has no public figure here and is not checked."""

MEMORY_NAMES: dict[str, str] = {
    "vec": "UB",
    "mat": "L1",
    "left": "L0A",
    "right": "L0B",
    "acc": "L0C",
    "bias": "bias table",
    "left_scale": "L0A scale",
    "right_scale": "L0B scale",
}
"""The hardware name of each memory space, for messages (`vec (UB)`)."""


def memory_capacity(target: str, space: str) -> int | None:
    """Bytes memory space `space` holds on one core of `target`; None when not known (not checked)."""
    return MEMORY_CAPACITIES.get(target, {}).get(space)


@irdl_attr_definition
class TargetAttr(_KeywordAttr):
    """`#pto.target<a2a3|a5>`: the backend a module is compiled for, and its per-core memory capacities.

    `capacities` gives the bytes of each memory space on one core (`MEMORY_CAPACITIES`, sources in
    docs/memory-budget.md):

    | space (hardware)        | a2a3    | a5      |
    |-------------------------|---------|---------|
    | `vec` (UB, per AIV)     | 192 KiB | 256 KiB |
    | `mat` (L1)              | 512 KiB | 512 KiB |
    | `left` (L0A)            | 64 KiB  | 64 KiB  |
    | `right` (L0B)           | 64 KiB  | 64 KiB  |
    | `acc` (L0C)             | 128 KiB | 256 KiB |
    | `bias` (bias table)     | 1 KiB   | 4 KiB   |
    | `left_scale` (L0A MX)   | -       | 4 KiB   |
    | `right_scale` (L0B MX)  | -       | 4 KiB   |
    """

    name = "pto.target"
    KEYWORDS = TARGETS

    @property
    def capacities(self) -> dict[str, int]:
        """Bytes per memory space on one core of this target (a space not listed is not checked)."""
        return dict(MEMORY_CAPACITIES.get(self.data, {}))

    def capacity(self, space: str) -> int | None:
        return memory_capacity(self.data, space)


@irdl_attr_definition
class KindAttr(_KeywordAttr):
    """`#pto.kind<K>`: the role of a function (incore kernel, aic/aiv half, group wrapper, ...)."""

    name = "pto.kind"
    KEYWORDS = KINDS


@irdl_attr_definition
class SplitAttr(_KeywordAttr):
    """`#pto.split<none|up_down|left_right|auto>`: how the vector part of a kernel is split over the two AIV lanes
    (`auto`: LowerAutoVectorSplit chooses the axis)."""

    name = "pto.split"
    KEYWORDS = SPLIT_REQUESTS

    @property
    def mode_int(self) -> int:
        """The mode's code (0 none, 1 up_down, 2 left_right); `auto` has none (it is resolved before any code)."""
        return SPLIT_MODES.index(self.value.data)


def kind_of(op: Operation) -> FunctionKind | None:
    """The `#pto.kind<K>` of a function, as the keyword K (None when it has none)."""
    attr = op.attributes.get("pto.kind")
    return FunctionKind(attr.data) if isinstance(attr, KindAttr) else None


def set_kind(op: Operation, kind: FunctionKind) -> None:
    """Give a function the `#pto.kind<K>` of `kind`."""
    op.attributes["pto.kind"] = KindAttr(FunctionKind(kind).value)


# ---------------------------------------------------------------------------------------------------------------
# Function and module attributes: their one spelling and typed accessors
# ---------------------------------------------------------------------------------------------------------------

TARGET_ATTR = "pto.target"
"""Module attribute `pto.target = #pto.target<a2a3|a5>`."""
SPLIT_ATTR = "pto.split"
"""Function attribute `pto.split = #pto.split<none|up_down|left_right|auto>`."""


class FuncFlag(StrEnum):
    """The unit attributes a function may carry (present or absent); `has_flag` / `set_flag` speak only this."""

    SPLIT_AIV = "pto.split_aiv"
    """The kernel's vector part runs on both AIV lanes (set by LowerAutoVectorSplit, or written by hand)."""
    SPLIT_AIV_REGION_VALIDATED = "pto.split_aiv_region_validated"
    """LowerAutoVectorSplit has lowered and checked the kernel's explicit `split_aiv_scope` regions."""
    DUAL_AIV_DISPATCH = "pto.dual_aiv_dispatch"
    """An unsplit a2a3 AIV kernel that both lanes run (each on its own copy of the pipe)."""
    SYNC_START = "pto.sync_start"
    """The kernel starts with a cross-core barrier."""
    PROTOCOL_PENDING = "pto.protocol_pending"
    """An AIC / AIV half that `split-mixed-kernel` made and whose pipe protocol the later phases of
    `expand-mixed-kernel` still complete (tfrees, pipe setup, ring depth); `choose-ring-depth` removes it, so
    it is never in the pipeline's output (passes/expand_mixed_kernel/phase.py)."""


class FuncInt(StrEnum):
    """The integer attributes a function may carry; `int_attr_of` reads them."""

    SLOT_NUM = "pto.slot_num"
    LOCAL_SLOT_NUM = "pto.local_slot_num"
    CORE_NUM = "pto.core_num"


def has_flag(op: Operation, flag: FuncFlag) -> bool:
    """Whether a function carries the unit attribute `flag`."""
    return flag.value in op.attributes


def set_flag(op: Operation, flag: FuncFlag, on: bool = True) -> None:
    """Add (`on`) or remove the unit attribute `flag` of a function."""
    if on:
        from xdsl.dialects.builtin import UnitAttr

        op.attributes[flag.value] = UnitAttr()
    else:
        op.attributes.pop(flag.value, None)


def int_attr_of(op: Operation, name: FuncInt) -> int | None:
    """The value of a function's integer attribute `name`, or None when absent (or not an integer)."""
    from xdsl.dialects.builtin import IntegerAttr

    attr = op.attributes.get(name.value)
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def target_of(module: Operation) -> str | None:
    """The module's backend keyword (`a2a3` / `a5`), or None when it has no `#pto.target`."""
    attr = module.attributes.get(TARGET_ATTR)
    return attr.data if isinstance(attr, TargetAttr) else None


def split_mode_of(f: Operation) -> str:
    """A function's split mode keyword: `none` when it has no `#pto.split`."""
    attr = f.attributes.get(SPLIT_ATTR)
    return attr.data if isinstance(attr, SplitAttr) else "none"


def set_split_mode(f: Operation, mode: str) -> None:
    """Give a function `pto.split = #pto.split<mode>`."""
    f.attributes[SPLIT_ATTR] = SplitAttr(mode)


# ---------------------------------------------------------------------------------------------------------------
# Element types
# ---------------------------------------------------------------------------------------------------------------


def element_bits(elem: Attribute) -> int:
    """Bit width of a tile/tensor element type."""
    if isinstance(elem, IntegerType):
        return elem.width.data
    if isinstance(elem, Float32Type):
        return 32
    if isinstance(elem, Float64Type):
        return 64
    if isinstance(elem, (Float16Type, BFloat16Type)):
        return 16
    if isinstance(elem, (Float8E4M3FNType, Float8E5M2Type)):
        return 8
    bw = getattr(elem, "bitwidth", None)
    if isinstance(bw, int):
        return bw
    raise VerifyException(f"unsupported element type {elem}")


def is_element_type(elem: Attribute) -> bool:
    try:
        element_bits(elem)
    except VerifyException:
        return False
    return True


def format_dim(d: int) -> str:
    """A dim or valid extent as the type syntax writes it: `?` for a dynamic one (never the internal sentinel)."""
    return "?" if d == DYNAMIC else str(d)


def format_shape(shape: Sequence[int]) -> str:
    """A shape or valid list for messages: `[16, ?]`."""
    return "[" + ", ".join(format_dim(d) for d in shape) + "]"


def _parse_dim(parser: AttrParser) -> int:
    if parser.parse_optional_punctuation("?") is not None:
        return DYNAMIC
    return parser.parse_integer(allow_boolean=False, allow_negative=False, context_msg=" or '?' expected")


def _int_array(values: Sequence[int]) -> ArrayAttr[IntAttr]:
    return ArrayAttr(tuple(IntAttr(v) for v in values))


def _verified_params(cls, parser: AttrParser, params: tuple[Attribute, ...], start: int) -> tuple[Attribute, ...]:
    """Run the type's verifier on freshly parsed parameters, so that an invalid type is a located parse error
    (at the type's text) instead of an exception escaping the parser."""
    try:
        cls.new(params).verify()
    except VerifyException as e:
        parser.raise_error(str(e), start, parser.pos)
    return params


def _parse_positive(parser: AttrParser, what: str) -> int:
    pos = parser.pos
    value = parser.parse_optional_integer(allow_boolean=False, allow_negative=True)
    if value is None or value <= 0:
        parser.raise_error(f"{what} must be a positive integer", pos, parser.pos)
    return value


# ---------------------------------------------------------------------------------------------------------------
# !pto.tensor
# ---------------------------------------------------------------------------------------------------------------


class _Shaped:
    """The shape accessors of `!pto.tensor` and `!pto.tile` (both store `shape` as an array of ints)."""

    shape: ArrayAttr[IntAttr]

    def get_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    @property
    def rank(self) -> int:
        return len(self.shape.data)

    @staticmethod
    def _parse_shape_prefix(parser: AttrParser) -> tuple[list[int], Attribute]:
        """`16x?xf32` after the `<`: the shape (DYNAMIC for `?`) and the element type."""
        shape, elem = parser.parse_ranked_shape()
        return [DYNAMIC if d == DYNAMIC_INDEX else d for d in shape], elem

    def _print_shape_prefix(self, printer: Printer) -> None:
        """`<16x?xf32`: what `_parse_shape_prefix` reads, with the opening `<`."""
        dims = "x".join(format_dim(d) for d in self.get_shape())
        printer.print_string("<" + (dims + "x" if dims else ""))
        printer.print_attribute(self.element_type)  # type: ignore[attr-defined]


@irdl_attr_definition
class TensorType(_Shaped, ParametrizedAttribute, TypeAttribute):
    """`!pto.tensor<16x128xbf16[, dn]>`: a buffer in global memory; passing it passes a reference."""

    name = "pto.tensor"

    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    layout: StringAttr

    def __init__(self, shape: Sequence[int], element_type: Attribute, layout: str = "nd"):
        super().__init__(_int_array(shape), element_type, StringAttr(layout))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        with parser.in_angle_brackets():
            shape, elem = cls._parse_shape_prefix(parser)
            layout = "nd"
            if parser.parse_optional_punctuation(",") is not None:
                pos = parser.pos
                layout = parser.parse_identifier(f" (tensor layout {', '.join(TENSOR_LAYOUTS)}) expected")
                if layout not in TENSOR_LAYOUTS:
                    parser.raise_error(
                        f"unknown tensor layout '{layout}', expected one of: {', '.join(TENSOR_LAYOUTS)}",
                        pos,
                        parser.pos,
                    )
        return _verified_params(cls, parser, (_int_array(shape), elem, StringAttr(layout)), start)

    def print_parameters(self, printer: Printer) -> None:
        self._print_shape_prefix(printer)
        if self.layout.data != "nd":
            printer.print_string(f", {self.layout.data}")
        printer.print_string(">")

    def verify(self) -> None:
        if not is_element_type(self.element_type):
            raise VerifyException(
                f"!pto.tensor element type must be an integer or float type (f32, bf16, i8, ...), got {self.element_type}"
            )
        if self.layout.data not in TENSOR_LAYOUTS:
            raise VerifyException(f"unknown tensor layout '{self.layout.data}'")
        if self.layout.data in MX_TENSOR_LAYOUTS and (
            not isinstance(self.element_type, Float8E8M0FNUType) or len(self.get_shape()) != 2
        ):
            raise VerifyException(
                f"!pto.tensor layout '{self.layout.data}' is an MX scale layout (mx_a_zz: the [M, K/32] left scale, "
                f"mx_b_nn: the [K/32, N] right scale): it needs a 2-D f8E8M0FNU tensor, got "
                f"{len(self.get_shape())}-D {self.element_type}"
            )
        for d in self.get_shape():
            if d != DYNAMIC and d < 0:
                raise VerifyException("!pto.tensor dimensions must be non-negative or '?'")


# ---------------------------------------------------------------------------------------------------------------
# !pto.tile
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TileView:
    """The view fields of a tile type (layouts, fractal bytes, pad value)."""

    blayout: str
    slayout: str
    fractal: int
    pad: str = "null"


def implicit_view(shape: Sequence[int], space: str) -> TileView:
    """The view a memory space gives a tile when none is written (the canonical, omitted form)."""
    column = len(shape) == 2 and shape[1] == 1 and shape[0] != 1
    flat_b = "col_major" if column else "row_major"
    if space in ("mat", "left"):
        return TileView("col_major", "row_major", 512)
    if space == "right":
        return TileView("row_major", "col_major", 512)
    if space == "acc":
        return TileView("col_major", "row_major", 1024)
    if space == "left_scale":
        return TileView("row_major", "row_major", 32)
    if space == "right_scale":
        return TileView("col_major", "col_major", 32)
    return TileView(flat_b, "none_box", 512)


NZ = ("col_major", "row_major")
ZN = ("row_major", "col_major")


@irdl_attr_definition
class TileType(_Shaped, ParametrizedAttribute, TypeAttribute):
    """`!pto.tile<16x128xf32, vec[, blayout = .., slayout = .., fractal = N, pad = .., valid = [..]]>`.

    All view fields are stored; use `TileType.get` to build one with the implicit view filled in.
    """

    name = "pto.tile"

    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    memory_space: StringAttr
    blayout: StringAttr
    slayout: StringAttr
    fractal: IntAttr
    pad: StringAttr
    valid: ArrayAttr[IntAttr]

    @staticmethod
    def get(
        shape: Sequence[int],
        element_type: Attribute,
        memory_space: str,
        *,
        blayout: str | None = None,
        slayout: str | None = None,
        fractal: int | None = None,
        pad: str | None = None,
        valid: Sequence[int] | None = None,
    ) -> TileType:
        imp = implicit_view(shape, memory_space)
        return TileType(
            _int_array(shape),
            element_type,
            StringAttr(memory_space),
            StringAttr(blayout if blayout is not None else imp.blayout),
            StringAttr(slayout if slayout is not None else imp.slayout),
            IntAttr(fractal if fractal is not None else imp.fractal),
            StringAttr(pad if pad is not None else imp.pad),
            _int_array(valid if valid is not None else shape),
        )

    # -- accessors -----------------------------------------------------------------------------------------
    def get_valid(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.valid.data)

    @property
    def space(self) -> str:
        return self.memory_space.data

    @property
    def view(self) -> TileView:
        return TileView(self.blayout.data, self.slayout.data, self.fractal.data, self.pad.data)

    @property
    def layouts(self) -> tuple[str, str]:
        return (self.blayout.data, self.slayout.data)

    def is_static(self) -> bool:
        return all(d != DYNAMIC for d in self.get_shape())

    def is_fully_valid(self) -> bool:
        return self.get_valid() == self.get_shape()

    def with_(
        self,
        *,
        shape: Sequence[int] | None = None,
        element_type: Attribute | None = None,
        memory_space: str | None = None,
        blayout: str | None = None,
        slayout: str | None = None,
        fractal: int | None = None,
        pad: str | None = None,
        valid: Sequence[int] | None = None,
        reset_view: bool = False,
    ) -> TileType:
        """A copy with some fields replaced.

        `reset_view=True` recomputes the implicit view of the (new) memory space for every view field not given;
        otherwise the current view is kept.  A new `shape` without a `valid` makes the tile fully valid.
        """
        new_shape = list(shape) if shape is not None else list(self.get_shape())
        new_valid = list(valid) if valid is not None else (new_shape if shape is not None else list(self.get_valid()))
        space = memory_space if memory_space is not None else self.space
        if reset_view:
            return TileType.get(
                new_shape,
                element_type or self.element_type,
                space,
                blayout=blayout,
                slayout=slayout,
                fractal=fractal,
                pad=pad if pad is not None else self.pad.data,
                valid=new_valid,
            )
        return TileType.get(
            new_shape,
            element_type or self.element_type,
            space,
            blayout=blayout if blayout is not None else self.blayout.data,
            slayout=slayout if slayout is not None else self.slayout.data,
            fractal=fractal if fractal is not None else self.fractal.data,
            pad=pad if pad is not None else self.pad.data,
            valid=new_valid,
        )

    # -- syntax --------------------------------------------------------------------------------------------
    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        with parser.in_angle_brackets():
            shape, elem = cls._parse_shape_prefix(parser)
            if parser.parse_optional_punctuation(",") is None:
                parser.raise_error(
                    "expected ', <memory space>' after the element type, e.g. !pto.tile<16x128xf32, vec>"
                )
            pos = parser.pos
            space = parser.parse_identifier(" (memory space) expected")
            if space not in MEMORY_SPACES:
                parser.raise_error(
                    f"unknown memory space '{space}', expected one of: {', '.join(MEMORY_SPACES)}", pos, parser.pos
                )
            fields: dict[str, object] = {}
            while parser.parse_optional_punctuation(",") is not None:
                pos = parser.pos
                key = parser.parse_identifier(" (tile view field) expected")
                if key in fields:
                    parser.raise_error(f"tile view field '{key}' given twice", pos, parser.pos)
                parser.parse_punctuation("=")
                if key in ("blayout", "slayout"):
                    vpos = parser.pos
                    value = parser.parse_identifier()
                    if value not in LAYOUTS:
                        parser.raise_error(
                            f"unknown {key} '{value}', expected one of: {', '.join(LAYOUTS)}", vpos, parser.pos
                        )
                    fields[key] = value
                elif key == "pad":
                    vpos = parser.pos
                    value = parser.parse_identifier()
                    if value not in PADS:
                        parser.raise_error(f"unknown pad '{value}', expected one of: {', '.join(PADS)}", vpos, parser.pos)
                    fields[key] = value
                elif key == "fractal":
                    fields[key] = _parse_positive(parser, "tile fractal size (bytes)")
                elif key == "valid":
                    fields[key] = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: _parse_dim(parser))
                else:
                    parser.raise_error(
                        f"unknown tile view field '{key}', expected blayout, slayout, fractal, pad or valid",
                        pos,
                        parser.pos,
                    )
        imp = implicit_view(shape, space)
        valid = fields.get("valid", shape)
        params = (
            _int_array(shape),
            elem,
            StringAttr(space),
            StringAttr(fields.get("blayout", imp.blayout)),  # type: ignore[arg-type]
            StringAttr(fields.get("slayout", imp.slayout)),  # type: ignore[arg-type]
            IntAttr(fields.get("fractal", imp.fractal)),  # type: ignore[arg-type]
            StringAttr(fields.get("pad", imp.pad)),  # type: ignore[arg-type]
            _int_array(valid),  # type: ignore[arg-type]
        )
        return _verified_params(cls, parser, params, start)

    def print_parameters(self, printer: Printer) -> None:
        shape = self.get_shape()
        self._print_shape_prefix(printer)
        printer.print_string(f", {self.space}")
        imp = implicit_view(shape, self.space)
        if self.blayout.data != imp.blayout:
            printer.print_string(f", blayout = {self.blayout.data}")
        if self.slayout.data != imp.slayout:
            printer.print_string(f", slayout = {self.slayout.data}")
        if self.fractal.data != imp.fractal:
            printer.print_string(f", fractal = {self.fractal.data}")
        if self.pad.data != imp.pad:
            printer.print_string(f", pad = {self.pad.data}")
        if self.get_valid() != shape:
            printer.print_string(", valid = [" + ", ".join(format_dim(d) for d in self.get_valid()) + "]")
        printer.print_string(">")

    def verify(self) -> None:
        if not is_element_type(self.element_type):
            raise VerifyException(
                f"!pto.tile element type must be an integer or float type (f32, bf16, i8, ...), got {self.element_type}"
            )
        if self.space not in MEMORY_SPACES:
            raise VerifyException(f"unknown memory space '{self.space}'")
        for f in (self.blayout, self.slayout):
            if f.data not in LAYOUTS:
                raise VerifyException(f"unknown tile layout '{f.data}'")
        if self.pad.data not in PADS:
            raise VerifyException(f"unknown pad value '{self.pad.data}'")
        if self.fractal.data <= 0:
            raise VerifyException("tile fractal size must be positive")
        shape, valid = self.get_shape(), self.get_valid()
        if len(valid) != len(shape):
            raise VerifyException(
                f"tile valid region has {len(valid)} extents but the tile has rank {len(shape)}; give one per dim"
            )
        for i, (d, v) in enumerate(zip(shape, valid)):
            if d != DYNAMIC and d < 0:
                raise VerifyException("tile dimensions must be non-negative or '?'")
            if v != DYNAMIC and (v < 0 or (d != DYNAMIC and v > d)):
                raise VerifyException(
                    f"tile valid extent {v} on dim {i} exceeds the dimension {format_dim(d)}; "
                    f"a valid extent must lie in [0, {format_dim(d)}] or be '?'"
                )


_SWAPPED_LAYOUT = {"row_major": "col_major", "col_major": "row_major", "none_box": "none_box"}


def transpose_view_type(t: TileType, axes: Sequence[int]) -> TileType:
    """The type of the zero-copy `pto.transpose_view` of `t` by `axes`: the same bytes read as the permuted shape.

    Shape and valid region are permuted.  A 2-D tile transposed by (1, 0) swaps row_major and col_major in both
    `blayout` and `slayout` (fractal and pad kept): column-major [a, b] bytes are row-major [b, a] bytes, and a
    (16 x n) row-major fractal box is an (n x 16) column-major one.  Any other rank or the identity keeps the view.
    """
    shape = [t.get_shape()[i] for i in axes]
    valid = [t.get_valid()[i] for i in axes]
    if t.rank == 2 and tuple(axes) == (1, 0):
        return t.with_(
            shape=shape, valid=valid, blayout=_SWAPPED_LAYOUT[t.blayout.data], slayout=_SWAPPED_LAYOUT[t.slayout.data]
        )
    return t.with_(shape=shape, valid=valid)


def tile_bytes(tile: TileType) -> int | None:
    """Byte size of a tile: ceil(product of the shape x element bits / 8); None if a dimension is dynamic."""
    n = 1
    for d in tile.get_shape():
        if d == DYNAMIC:
            return None
        n *= d
    return (n * element_bits(tile.element_type) + 7) // 8
