"""Cross-core pipe ops of the `pto` dialect: the transfers (`tpush_to_aiv` / `tpush_to_aic`, `tpop_from_aic` /
`tpop_from_aiv`), the slot releases (`tfree_to_aic` / `tfree_to_aiv`) and the pipe setup (`reserve_buffer`,
`import_peer_buffer`, `aic_initialize_pipe` / `aiv_initialize_pipe`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, StringAttr, SymbolRefAttr, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation, attr_def, irdl_op_definition, operand_def, opt_attr_def, result_def, traits_def
from xdsl.utils.exceptions import VerifyException

from .pto_op_base import _check_int_range, _require_space, _tile, i64_attr, int_value
from .pto_traits import (
    HalvingRule,
    LaneHalving,
    CoreSide,
    CubeAffinity,
    PipeDirection,
    PipeFree,
    PipeInit,
    PipePop,
    PipePush,
    PipeSetup,
    SharedAffinity,
    VectorAffinity,
)
from .pto_types import TileType, is_cube_memory

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

    @property
    def split_code(self) -> int:
        """The pto-isa split code of the transfer (0 none .. 4, `dialects/pto_lanes.py`)."""
        return self.split.value.data  # type: ignore[attr-defined]

    @property
    def pipe_id(self) -> int:
        """The frontend pipe the transfer belongs to (`id`, default 0)."""
        return int_value(self.id) or 0  # type: ignore[attr-defined]

    @property
    def stride(self) -> int | None:
        """Where lane 1's window starts on the split axis when a ragged boundary was balanced (`lane_stride`)."""
        return int_value(self.lane_stride)  # type: ignore[attr-defined]

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
    traits = traits_def(LaneHalving(HalvingRule.TRANSFER), CubeAffinity(), PipePush(PipeDirection.C2V))

    def verify_(self) -> None:
        super().verify_()
        t = _tile(self.tile, "tpush_to_aiv operand")
        if not is_cube_memory(t.space):
            raise VerifyException(f"tpush_to_aiv sends a cube-side tile, but its operand is in '{t.space}'")


@irdl_op_definition
class TPushToAicOp(_TPushOp):
    """`pto.tpush_to_aic %t {split = 0 : i64} : T` — a vector lane pushes a tile to the cube (V->C)."""

    name = "pto.tpush_to_aic"
    traits = traits_def(LaneHalving(HalvingRule.TRANSFER), VectorAffinity(), PipePush(PipeDirection.V2C))

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
    traits = traits_def(LaneHalving(HalvingRule.TRANSFER), VectorAffinity(), PipePop(PipeDirection.C2V))


@irdl_op_definition
class TPopFromAivOp(_TPopOp):
    """`%p = pto.tpop_from_aiv {split = 0 : i64} : T` — the cube takes the next V->C slot."""

    name = "pto.tpop_from_aiv"
    traits = traits_def(LaneHalving(HalvingRule.TRANSFER), CubeAffinity(), PipePop(PipeDirection.V2C))


class _TFreeOp(IRDLOperation):
    tile = operand_def(TileType)
    id = opt_attr_def(IntegerAttr)
    assembly_format = "$tile attr-dict `:` type($tile)"

    def __init__(self, tile: SSAValue, id: int | None = None):
        attrs: dict[str, Attribute] = {}
        if id is not None:
            attrs["id"] = i64_attr(id)
        super().__init__(operands=[tile], attributes=attrs)

    @property
    def pipe_id(self) -> int:
        """The frontend pipe of the freed slot (`id`, default 0)."""
        return int_value(self.id) or 0

    def verify_(self) -> None:
        _check_int_range(self, "id", 0, None, required=False)


@irdl_op_definition
class TFreeToAicOp(_TFreeOp):
    """`pto.tfree_to_aic %p : T` — a vector lane releases a popped C->V slot back to the cube."""

    name = "pto.tfree_to_aic"
    traits = traits_def(LaneHalving(HalvingRule.TRANSFER), VectorAffinity(), PipeFree(PipeDirection.C2V))


@irdl_op_definition
class TFreeToAivOp(_TFreeOp):
    """`pto.tfree_to_aiv %p : T` — the cube releases a popped V->C slot back to the vector side."""

    name = "pto.tfree_to_aiv"
    traits = traits_def(LaneHalving(HalvingRule.TRANSFER), CubeAffinity(), PipeFree(PipeDirection.V2C))


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

    @property
    def ring_bytes(self) -> int:
        """The bytes of the ring (`size`: slot size x depth)."""
        return self.size.value.data

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


def implicit_slot_num(dir_mask: int | None) -> int:
    """The ring depth PTOAS derives for a pipe that states no `slot_num`: 4 when it carries both directions
    (`dir_mask` 3), 8 for one.  The one home of this rule (the interpreter, the verifiers and the ring-depth choice
    ask it)."""
    return 4 if dir_mask == PipeDirection.C2V.bit | PipeDirection.V2C.bit else 8


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

    @property
    def pipe_id(self) -> int:
        """The frontend pipe this setup initialises (`id`, default 0)."""
        return int_value(self.id) or 0

    @property
    def directions(self) -> int:
        """The `dir_mask`: the bits (`PipeDirection.bit`) of the directions the pipe carries."""
        return self.dir_mask.value.data

    @property
    def slot_bytes(self) -> int:
        """The bytes of one slot (`slot_size`)."""
        return self.slot_size.value.data

    @property
    def explicit_depth(self) -> int | None:
        """The ring depth the op states (`slot_num`), or None."""
        return int_value(self.slot_num)

    @property
    def local_depth(self) -> int | None:
        """The on-chip (consumer) ring depth the op states (`local_slot_num`), or None."""
        return int_value(self.local_slot_num)

    @property
    def depth(self) -> int:
        """The ring depth: `slot_num`, else the one PTOAS derives from the directions (`implicit_slot_num`)."""
        sn = self.explicit_depth
        return sn if sn is not None else implicit_slot_num(self.directions)

    @property
    def consumer_depth(self) -> int:
        """The depth of the consumer's on-chip ring: `local_slot_num`, else `depth`."""
        lsn = self.local_depth
        return lsn if lsn is not None else self.depth

    def verify_(self) -> None:
        _check_int_range(self, "dir_mask", 1, 3)
        _check_int_range(self, "slot_size", 1, None)
        _check_int_range(self, "slot_num", 1, None, required=False)
        _check_int_range(self, "local_slot_num", 1, None, required=False)
        _check_int_range(self, "id", 0, None, required=False)
        sn, lsn = self.explicit_depth, self.local_depth
        if sn is not None and lsn is not None and lsn > sn:
            raise VerifyException(f"'{self.name}' local_slot_num {lsn} exceeds slot_num {sn}")


@irdl_op_definition
class AicInitializePipeOp(_InitializePipeOp):
    """`pto.aic_initialize_pipe %c2v, %v2c {dir_mask, slot_size, slot_num} : i32, i32` — cube side."""

    name = "pto.aic_initialize_pipe"
    traits = traits_def(LaneHalving(HalvingRule.TRANSFER), CubeAffinity(), PipeInit(CoreSide.AIC))


@irdl_op_definition
class AivInitializePipeOp(_InitializePipeOp):
    """`pto.aiv_initialize_pipe %c2v, %v2c {dir_mask, slot_size, slot_num} : i32, i32` — vector side."""

    name = "pto.aiv_initialize_pipe"
    traits = traits_def(LaneHalving(HalvingRule.TRANSFER), VectorAffinity(), PipeInit(CoreSide.AIV))


def pipe_init_of(f: Operation) -> _InitializePipeOp | None:
    """The `*_initialize_pipe` of the function `f` (its first in walk order, when a hand-written kernel has
    several), or None."""
    return next((op for op in f.walk() if isinstance(op, _InitializePipeOp)), None)


PIPE_OPS = (TPushToAivOp, TPushToAicOp, TPopFromAicOp, TPopFromAivOp, TFreeToAicOp, TFreeToAivOp, ReserveBufferOp,
            ImportPeerBufferOp, AicInitializePipeOp, AivInitializePipeOp)
"""The ops of this module, in the dialect's registration order."""
