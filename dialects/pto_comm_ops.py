"""Device-to-device communication ops (pypto's `pld.*`): `pto.tile_put`, `pto.tile_get`, `pto.tensor_put`,
`pto.tensor_get`, `pto.notify`, `pto.wait`, `pto.defer_wait` (docs/dialect.md, "Communication").

- put/get move data between this device and a peer device's GM (`to %peer` / `from %peer`, an index or integer
  rank).  The hardware stages them through a vector tile (TPUT/TGET), so they are VECTOR ops (a stated lane).
- `notify` adds `value` to one i32 element of a signal tensor on the peer; `wait` blocks until an element of a
  local signal tensor reaches `value`; `defer_wait` is a wait the runtime resolves before the task starts
  (the "deferred waiter"; ExpandMixedKernel audits its task contract).  These are scalar/GM ops: no core
  affinity (SHARED).  `notify` is also *no-duplicate* (the `NoDuplicate` trait): it must run once, on the vector side,
  never duplicated onto the cube, whose copy could release the peer before the vector lanes' puts have landed.
- `tile_put`, `tensor_put` and `notify` carry `OncePerKernel`: a peer receives each execution, so when both AIV
  lanes run them on a value both hold whole, one lane must (LowerAutoVectorSplit, docs/lower-auto-vector-split.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import DenseArrayBase, IndexType, IntegerAttr, IntegerType
from xdsl.ir import SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    attr_def,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect
from xdsl.irdl import traits_def
from xdsl.utils.exceptions import VerifyException

from .pto_op_base import (
    _check_int_range,
    _check_mixed,
    _dense,
    _MixedOffsetsMixin,
    _require_space,
    _seg,
    _tile,
    check_gm_offsets,
    check_rank_fits,
    check_window,
    i64_attr,
    parse_addressed,
    print_addressed,
    split_mixed,
)
from .pto_traits import HalvingRule, LaneHalving, GmAccess, NoDuplicate, OncePerKernel, SharedAffinity, VectorAffinity
from .pto_types import DYNAMIC, TensorType, TileType, format_shape


def _check_peer(v: SSAValue, what: str) -> None:
    if not isinstance(v.type, (IndexType, IntegerType)):
        raise VerifyException(f"{what} peer rank must be an index or integer value, got {v.type}")


# ---------------------------------------------------------------------------------------------------------------
# Data: put / get
# ---------------------------------------------------------------------------------------------------------------


@irdl_op_definition
class TilePutOp(IRDLOperation, _MixedOffsetsMixin):
    """`%o2 = pto.tile_put %t, %dst[offsets] to %peer : TILE, TENSOR` — write a vec tile into the peer device's
    copy of `%dst` (pypto `pld.tile.put`); returns `%dst` under a new name, as `pto.store` does."""

    name = "pto.tile_put"
    tile = operand_def(TileType)
    dest = operand_def(TensorType)
    peer = operand_def()
    offsets = var_operand_def()
    static_offsets = attr_def(DenseArrayBase)
    result = result_def(TensorType)
    irdl_options = (AttrSizedOperandSegments(),)
    traits = traits_def(
        LaneHalving(HalvingRule.WINDOW),
        VectorAffinity(),
        GmAccess(writes=("dest",), tile="tile"),
        OncePerKernel("writes the peer's GM (a remote put)"),
    )

    def __init__(self, tile: SSAValue, dest: SSAValue, offsets: Sequence[int | SSAValue], peer: SSAValue):
        s_off, d_off = split_mixed(offsets)
        super().__init__(
            operands=[tile, dest, peer, d_off],
            result_types=[dest.type],
            attributes={"static_offsets": _dense(s_off), "operandSegmentSizes": _seg(1, 1, 1, len(d_off))},
        )

    @classmethod
    def parse(cls, parser: Parser) -> TilePutOp:
        p = parse_addressed(parser, 2, peer="to")
        return p.build(cls(*p.operands, p.offsets, p.peer))  # type: ignore[arg-type, return-value]

    def print(self, printer: Printer) -> None:
        print_addressed(
            printer, self, [self.tile, self.dest], (self.get_static_offsets(), self.offsets), peer=("to", self.peer)
        )

    def verify_(self) -> None:
        t = _tile(self.tile, "tile_put operand")
        dst = self.dest.type
        assert isinstance(dst, TensorType)
        _require_space(t, ("vec",), "tile_put operand (TPUT stages it through the vector side)")
        _check_peer(self.peer, "tile_put")
        offs = self.get_static_offsets()
        check_gm_offsets("tile_put", offs, self.offsets, dst, t, "tile_put tile", "destination")
        check_rank_fits(t, dst, "tile_put tile")
        if self.result.type != dst:
            raise VerifyException("tile_put result type must equal the destination tensor type")
        check_window(dst.get_shape(), offs, t.get_shape(), "tile_put", "the tensor's")


@irdl_op_definition
class TileGetOp(IRDLOperation, _MixedOffsetsMixin):
    """`%t = pto.tile_get %src[offsets] from %peer : TENSOR -> TILE` — read a window of the peer device's copy of
    `%src` into a vec tile (pypto `pld.tile.get`)."""

    name = "pto.tile_get"
    source = operand_def(TensorType)
    peer = operand_def()
    offsets = var_operand_def()
    static_offsets = attr_def(DenseArrayBase)
    result = result_def(TileType)
    irdl_options = (AttrSizedOperandSegments(),)
    traits = traits_def(LaneHalving(HalvingRule.WINDOW), VectorAffinity(), MemoryReadEffect(), GmAccess(reads=("source",), tile="result"))

    def __init__(self, source: SSAValue, offsets: Sequence[int | SSAValue], peer: SSAValue, result_type: TileType):
        s_off, d_off = split_mixed(offsets)
        super().__init__(
            operands=[source, peer, d_off],
            result_types=[result_type],
            attributes={"static_offsets": _dense(s_off), "operandSegmentSizes": _seg(1, 1, len(d_off))},
        )

    @classmethod
    def parse(cls, parser: Parser) -> TileGetOp:
        p = parse_addressed(parser, peer="from", result=True)
        return p.build(cls(p.operands[0], p.offsets, p.peer, p.result_type))  # type: ignore[arg-type, return-value]

    def print(self, printer: Printer) -> None:
        print_addressed(
            printer,
            self,
            [self.source],
            (self.get_static_offsets(), self.offsets),
            peer=("from", self.peer),
            result=self.result.type,
        )

    def verify_(self) -> None:
        src = self.source.type
        assert isinstance(src, TensorType)
        t = _tile(self.result, "tile_get result")
        _require_space(t, ("vec",), "tile_get result (TGET stages it through the vector side)")
        _check_peer(self.peer, "tile_get")
        offs = self.get_static_offsets()
        check_gm_offsets("tile_get", offs, self.offsets, src, t, "tile_get result", "source")
        check_rank_fits(t, src, "tile_get result")
        if not t.is_fully_valid():
            raise VerifyException("tile_get result must be fully valid")
        check_window(src.get_shape(), offs, t.get_shape(), "tile_get", "the tensor's")


class _TensorCopyOp(IRDLOperation):
    """`%d2 = pto.tensor_<put|get> %src, %dst <to|from> %peer : TENSOR, TENSOR` — a whole-tensor copy."""

    PEER_KEYWORD: ClassVar[str] = "to"

    source = operand_def(TensorType)
    dest = operand_def(TensorType)
    peer = operand_def()
    result = result_def(TensorType)
    traits = traits_def(LaneHalving(HalvingRule.WHOLE), VectorAffinity(), GmAccess(reads=("source",), writes=("dest",)))

    def __init__(self, source: SSAValue, dest: SSAValue, peer: SSAValue):
        super().__init__(operands=[source, dest, peer], result_types=[dest.type])

    @classmethod
    def parse(cls, parser: Parser) -> _TensorCopyOp:
        p = parse_addressed(parser, 2, offsets=False, peer=cls.PEER_KEYWORD)
        return p.build(cls(*p.operands, p.peer))  # type: ignore[arg-type, return-value]

    def print(self, printer: Printer) -> None:
        print_addressed(printer, self, [self.source, self.dest], peer=(self.PEER_KEYWORD, self.peer), reserved=())

    def verify_(self) -> None:
        a, b = self.source.type, self.dest.type
        assert isinstance(a, TensorType) and isinstance(b, TensorType)
        _check_peer(self.peer, self.name)
        if a.element_type != b.element_type:
            raise VerifyException(f"cannot change the element type ({a.element_type} -> {b.element_type})")
        sa, sb = a.get_shape(), b.get_shape()
        if len(sa) != len(sb) or any(x != y and DYNAMIC not in (x, y) for x, y in zip(sa, sb)):
            raise VerifyException(f"copies a whole tensor: shapes {format_shape(sa)} and {format_shape(sb)} differ")
        if self.result.type != b:
            raise VerifyException("result type must equal the destination tensor type")


@irdl_op_definition
class TensorPutOp(_TensorCopyOp):
    """`%d2 = pto.tensor_put %src, %dst to %peer : T, T` — copy local `%src` into the peer's `%dst`."""

    name = "pto.tensor_put"
    PEER_KEYWORD: ClassVar[str] = "to"
    traits = traits_def(
        LaneHalving(HalvingRule.WHOLE),
        VectorAffinity(),
        GmAccess(reads=("source",), writes=("dest",)),
        OncePerKernel("writes the peer's GM (a remote put)"),
    )


@irdl_op_definition
class TensorGetOp(_TensorCopyOp):
    """`%d2 = pto.tensor_get %src, %dst from %peer : T, T` — copy the peer's `%src` into local `%dst`."""

    name = "pto.tensor_get"
    PEER_KEYWORD: ClassVar[str] = "from"


# ---------------------------------------------------------------------------------------------------------------
# Signals: notify / wait / defer_wait
# ---------------------------------------------------------------------------------------------------------------


class _SignalOp(IRDLOperation, _MixedOffsetsMixin):
    """`pto.<op> %sig[offsets] [to %peer] {value = N : i64} : TENSOR` on one i32 element of a signal tensor."""

    HAS_PEER: ClassVar[bool] = False

    signal = operand_def(TensorType)
    peer = var_operand_def()
    offsets = var_operand_def()
    static_offsets = attr_def(DenseArrayBase)
    value = opt_attr_def(IntegerAttr)
    irdl_options = (AttrSizedOperandSegments(),)
    traits = traits_def(SharedAffinity())

    def __init__(
        self, signal: SSAValue, offsets: Sequence[int | SSAValue], value: int = 1, peer: SSAValue | None = None
    ):
        s_off, d_off = split_mixed(offsets)
        peers = [peer] if peer is not None else []
        super().__init__(
            operands=[signal, peers, d_off],
            attributes={
                "static_offsets": _dense(s_off),
                "operandSegmentSizes": _seg(1, len(peers), len(d_off)),
                "value": i64_attr(value),
            },
        )

    def get_value(self) -> int:
        return self.value.value.data if self.value is not None else 1

    @classmethod
    def parse(cls, parser: Parser) -> _SignalOp:
        p = parse_addressed(parser, peer="to" if cls.HAS_PEER else None)
        op = cls(p.operands[0], p.offsets, 1, p.peer)  # type: ignore[arg-type]
        if "value" not in p.attrs:
            del op.attributes["value"]
        return p.build(op)  # type: ignore[return-value]

    def print(self, printer: Printer) -> None:
        peer = ("to", self.peer[0]) if self.peer else None
        print_addressed(printer, self, [self.signal], (self.get_static_offsets(), self.offsets), peer=peer)

    def verify_(self) -> None:
        sig = self.signal.type
        assert isinstance(sig, TensorType)
        if not (isinstance(sig.element_type, IntegerType) and sig.element_type.width.data == 32):
            raise VerifyException(f"signal tensor must hold i32 elements, got {sig.element_type}")
        offs = self.get_static_offsets()
        _check_mixed(offs, self.offsets, "signal offsets")
        if len(offs) != sig.rank:
            raise VerifyException(f"has {len(offs)} offsets but the signal tensor has rank {sig.rank}")
        check_window(sig.get_shape(), offs, [1] * sig.rank, "signal", "the tensor's")
        if self.HAS_PEER != bool(self.peer):
            raise VerifyException(f"{'needs a' if self.HAS_PEER else 'takes no'} peer rank")
        if self.peer:
            _check_peer(self.peer[0], self.name)
        _check_int_range(self, "value", 0 if not self.HAS_PEER else -(2**31), 2**31 - 1, required=False)


@irdl_op_definition
class NotifyOp(_SignalOp):
    """`pto.notify %sig[%i] to %peer {value = 1 : i64} : TENSOR` — add `value` (default 1) to the peer's signal."""

    name = "pto.notify"
    HAS_PEER: ClassVar[bool] = True
    traits = traits_def(SharedAffinity(), NoDuplicate(), OncePerKernel("signals the peer"))


@irdl_op_definition
class WaitOp(_SignalOp):
    """`pto.wait %sig[%i] {value = 1 : i64} : TENSOR` — block until the local signal reaches `value` (default 1)."""

    name = "pto.wait"


@irdl_op_definition
class DeferWaitOp(_SignalOp):
    """`pto.defer_wait %sig[%i] {value = 1 : i64} : TENSOR` — a wait the runtime resolves before the task is
    dispatched (the deferred waiter); only valid in a pure-AIV task launched directly by orchestration code."""

    name = "pto.defer_wait"


COMM_OPS = (TilePutOp, TileGetOp, TensorPutOp, TensorGetOp, NotifyOp, WaitOp, DeferWaitOp)

__all__ = [
    "COMM_OPS",
    "DeferWaitOp",
    "NotifyOp",
    "TensorGetOp",
    "TensorPutOp",
    "TileGetOp",
    "TilePutOp",
    "WaitOp",
]
