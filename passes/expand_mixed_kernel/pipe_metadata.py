"""What the cross-core pipe protocol needs to know about one AIC or AIV body (reference §4.1 "metadata").

Shared by tfree insertion, automatic pipe setup, the local-depth check and the MixedKernelExpanded verifier:
which side an op belongs to, which pipe direction a transfer op uses, its tile size, and the setup ops present.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, Operation, SSAValue

from pypto_mlir.dialects.pto_ops import (
    SETUP_OPS,
    TRANSFER_OPS,
    AicInitializePipeOp,
    AivInitializePipeOp,
    ImportPeerBufferOp,
    ReserveBufferOp,
    TFreeToAicOp,
    TFreeToAivOp,
    TPopFromAicOp,
    TPopFromAivOp,
    TPushToAicOp,
    TPushToAivOp,
)
from pypto_mlir.dialects.pto_traits import CoreSide, PipeDirection, PipeFree, PipeTransfer
from pypto_mlir.dialects.pto_types import TileType, tile_bytes

from ..analysis.traits import op_trait

DEFAULT_SLOT_NUM = 2
"""Ring depth the automatic setup emits when the function has no `pto.slot_num` (reference: 2, always emitted)."""

AUTO_BASE = -1
"""`base = auto` of `pto.reserve_buffer`: the address is assigned later."""


@dataclass(frozen=True)
class Side:
    """The protocol ops of one core side: what it pops, how it frees, how it initialises its pipe."""

    core: CoreSide
    tpop: type[Operation]
    tfree: type[Operation]
    wrong_tfree: type[Operation]
    tpush: type[Operation]
    init: type[Operation]

    @property
    def upper(self) -> str:
        return self.core.tag

    @property
    def pop_space(self) -> str:
        """Where this side's pops must land."""
        return self.core.pop_space

    def buffer_op(self, d: PipeDirection) -> type[Operation]:
        """The op that makes this side's buffer of direction `d`: the consumer reserves the ring, the producer
        imports the peer's."""
        return ReserveBufferOp if d.consumer is self.core else ImportPeerBufferOp


AIC = Side(CoreSide.AIC, TPopFromAivOp, TFreeToAivOp, TFreeToAicOp, TPushToAivOp, AicInitializePipeOp)
AIV = Side(CoreSide.AIV, TPopFromAicOp, TFreeToAicOp, TFreeToAivOp, TPushToAicOp, AivInitializePipeOp)


def side_of(core: CoreSide) -> Side:
    """The protocol ops of `core`."""
    return AIC if core == CoreSide.AIC else AIV


def direction_of(op: Operation) -> PipeDirection | None:
    """C2V / V2C for a tpush or tpop (None for anything else)."""
    trait = op_trait(op, PipeTransfer)
    return trait.direction if trait is not None and not isinstance(trait, PipeFree) else None


def transfer_tile(op: Operation) -> TileType | None:
    """The tile a tpush sends or a tpop receives."""
    if isinstance(op, (TPushToAivOp, TPushToAicOp)):
        t = op.tile.type
    elif isinstance(op, (TPopFromAicOp, TPopFromAivOp)):
        t = op.result.type
    else:
        return None
    return t if isinstance(t, TileType) else None


def transfer_bytes(op: Operation) -> int | None:
    t = transfer_tile(op)
    return tile_bytes(t) if t is not None else None


def is_zero_i32(v: SSAValue) -> bool:
    """An `arith.constant 0 : i32` (the placeholder of an inactive pipe direction)."""
    owner = v.owner
    if not isinstance(owner, arith.ConstantOp):
        return False
    attr = owner.value
    return isinstance(attr, IntegerAttr) and attr.value.data == 0


@dataclass
class PipeMetadata:
    """Cross-core ops of one body, in walk order."""

    transfers: list[Operation] = field(default_factory=list)
    setup: list[Operation] = field(default_factory=list)

    @property
    def c2v(self) -> bool:
        return any(direction_of(op) is PipeDirection.C2V for op in self.transfers)

    @property
    def v2c(self) -> bool:
        return any(direction_of(op) is PipeDirection.V2C for op in self.transfers)

    @property
    def dir_mask(self) -> int:
        return (PipeDirection.C2V.bit if self.c2v else 0) | (PipeDirection.V2C.bit if self.v2c else 0)

    def sizes(self) -> list[int | None]:
        return [transfer_bytes(op) for op in self.transfers]


@cache
def _metadata_list(cls: type[Operation]) -> str | None:
    """Which `PipeMetadata` list an op of class `cls` goes to (`transfers`, `setup` or none), decided once per
    class: the `isinstance` checks against the op tuples are the cost of a walk over every function."""
    if issubclass(cls, TRANSFER_OPS):
        return "transfers"
    if issubclass(cls, SETUP_OPS):
        return "setup"
    return None


def collect_pipe_metadata(f: func.FuncOp) -> PipeMetadata:
    md = PipeMetadata()
    for op in f.walk():
        kind = _metadata_list(type(op))
        if kind == "transfers":
            md.transfers.append(op)
        elif kind == "setup":
            md.setup.append(op)
    return md


def nested_blocks(op: Operation) -> list[Block]:
    return [b for r in op.regions for b in r.blocks]


def set_name_hint(value: SSAValue, name: str) -> None:
    """Give `value` the name hint `name`, made a valid SSA name (a quoted symbol may hold any character)."""
    clean = re.sub(r"[^\w$.-]", "_", name)
    if not clean or clean[0].isdigit():
        clean = "_" + clean
    value.name_hint = clean
