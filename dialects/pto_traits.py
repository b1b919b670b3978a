"""Op facts of the `pto` dialect, as xDSL `OpTrait`s attached to the op classes in `pto_ops.py`.

An analysis asks an op what it is with `op.has_trait(T)` / `op.get_trait(T)`; it never compares op names or
class-level strings.  The facts:

- **Affinity** (exactly one per `pto` op, a subclass of `AffinityTrait`): which core an op needs on its own,
  `intrinsic(op)` -> `Affinity`.  `CubeAffinity`, `VectorAffinity`, `SharedAffinity` are fixed;
  `ResultMemoryAffinity` (load) and `FirstTileAffinity` (store, views, ...) follow a tile's memory space;
  `MoveAffinity` (pto.move) is MIXED when it crosses cube <-> vec, except right after a transfer;
  `BoundaryAffinity` (aiv_shard, aic_gather) is MIXED; `RegionAffinity` (split_aiv_scope) is the roll-up of
  its body, which `passes/analysis/affinity.py` computes.
- **Pipe protocol**: `PipePush`, `PipePop`, `PipeFree` (subclasses of `PipeTransfer`), each with its
  `direction` (`PipeDirection.C2V` / `V2C`) and the core `side` that runs it; `PipeSetup` (reserve_buffer,
  import_peer_buffer) and its subclass `PipeInit` (`*_initialize_pipe`, with its `side`).
- `SlotView`: the result is a view of the first operand's buffer (no copy), so a popped slot stays in use while
  the view is used.
- `AllocatesResult`: the op's only effect is allocating its result's buffer (lane_workspace): removable when
  unused, kept while used.
- `GmAccess`: the GM tensors an op reads and writes, named by operand (load, store, tile_put/get, tensor_put/get),
  and the tile it moves, if any: the hazard analysis takes its accesses from this trait only.
- `TileGenerator`: makes a tile from scalars only (full, create, ci, random); `position_dependent` when its
  values depend on the element position (ci, random), so the tile cannot be halved by halving its type. It also
  verifies: a generator has no valid operand, so a `?` valid extent of a static dim of its result is an error.
- `NoDuplicate`: a SHARED op that must not be copied onto both cores (reference: `set_no_duplicate`).
- `OncePerKernel(effect, when)`: the op's GM effect must happen once per kernel instance, so it must not be
  duplicated on both AIV lanes either (an atomic store adds twice, a put or a signal reaches the peer twice);
  `once_per_kernel(op)` says whether (and why) an op instance is one.
- `ReductionAxis(axis, combine)` / `BroadcastAxis(axis)`: the dim a row/col reduction reduces (and how it combines
  cells: sum, max, min), or a row/col expand
  broadcasts along (row ops: 1, col ops: 0).
- `CostFree`, `Transcendental`: what the timing model (`pypto_mlir.timing.costs`) charges beyond the unit an op
  runs on: nothing for an op that only names memory or reads a core register (create, tensor_cast,
  get_subblock_idx), extra vector repeats for a transcendental or divide.
- `LaneHalving(rule)`: how LowerAutoVectorSplit lane-splits the op (`HalvingRule`). The split is opt-in: a vector
  op is halved only by the pattern of the rule it declares, and a vector op that declares none is a located error
  in a split kernel, never halved by default (a scan or a sort halved as if elementwise would be a miscompile).

This module depends only on xDSL and `pto_types`, so both the dialect and the passes can import it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum

from xdsl.ir import Operation, SSAValue
from xdsl.traits import EffectInstance, MemoryEffect, MemoryEffectKind, OpTrait
from xdsl.utils.exceptions import VerifyException

from .pto_types import DYNAMIC, FunctionKind, TileType, format_shape, is_cube_memory


class Affinity(Enum):
    """Which core an op (or a region, rolled up) needs."""

    CUBE = "cube"
    VECTOR = "vector"
    SHARED = "shared"
    MIXED = "mixed"

    def __str__(self) -> str:
        return self.value


class CoreSide(StrEnum):
    """One half of an expanded kernel: the cube core (AIC) or the vector cores (AIV)."""

    AIC = "aic"
    AIV = "aiv"

    @property
    def other(self) -> CoreSide:
        return CoreSide.AIV if self is CoreSide.AIC else CoreSide.AIC

    @property
    def affinity(self) -> Affinity:
        return Affinity.CUBE if self is CoreSide.AIC else Affinity.VECTOR

    @staticmethod
    def of_affinity(affinity: Affinity) -> CoreSide:
        """The side a non-mixed kernel of roll-up `affinity` becomes: CUBE -> AIC, anything else -> AIV."""
        return CoreSide.AIC if affinity == Affinity.CUBE else CoreSide.AIV

    @property
    def kind(self) -> FunctionKind:
        """The `#pto.kind<K>` of this side's function."""
        return FunctionKind.AIC if self is CoreSide.AIC else FunctionKind.AIV

    @staticmethod
    def of_kind(kind: FunctionKind | None) -> CoreSide | None:
        """The side a function of `#pto.kind<kind>` runs on (None unless aic / aiv)."""
        return CoreSide.AIC if kind == FunctionKind.AIC else CoreSide.AIV if kind == FunctionKind.AIV else None

    @property
    def pop_space(self) -> str:
        """The memory space this side's tpops land in (AIC: `mat`, AIV: `vec`)."""
        return "mat" if self is CoreSide.AIC else "vec"

    @property
    def ring_space(self) -> str:
        """Where this side's consumer ring lives: where its pops land (public pto-isa RingFIFO: the C2V ring in
        the AIV's UB, `vec`; the V2C ring in the AIC's L1, `mat`).  The one home of the ring's memory space."""
        return self.pop_space

    def half_name(self, kernel: str) -> str:
        """The name of the function ExpandMixedKernel makes of `kernel` for this side: `k_aic` / `k_aiv`.  The one
        home of that naming rule (`kernel_of_half` reads it back)."""
        return f"{kernel}_{self.value}"

    @staticmethod
    def kernel_of_half(name: str) -> tuple[str, CoreSide] | None:
        """(kernel, side) when `name` is a side's function name (`half_name`), else None."""
        for side in CoreSide:
            suffix = side.half_name("")
            if name.endswith(suffix):
                return name[: -len(suffix)], side
        return None

    @property
    def tag(self) -> str:
        """The side as messages write it: `AIC` / `AIV` (not `upper`, which would hide `str.upper()`)."""
        return self.value.upper()

    @property
    def label(self) -> str:
        """The side with its core named, for messages: `AIC (cube)` / `AIV (vector)`."""
        return "AIC (cube)" if self is CoreSide.AIC else "AIV (vector)"


class PipeDirection(StrEnum):
    """A cross-core pipe direction: cube to vector (C2V) or vector to cube (V2C)."""

    C2V = "c2v"
    V2C = "v2c"

    @property
    def producer(self) -> CoreSide:
        return CoreSide.AIC if self is PipeDirection.C2V else CoreSide.AIV

    @property
    def consumer(self) -> CoreSide:
        return self.producer.other

    @staticmethod
    def from_producer(side: CoreSide) -> PipeDirection:
        """The direction whose producer is `side` (AIC: C2V, AIV: V2C)."""
        return PipeDirection.C2V if side is CoreSide.AIC else PipeDirection.V2C

    @staticmethod
    def to_consumer(side: CoreSide) -> PipeDirection:
        """The direction whose consumer is `side` (the pipe it pops: AIC: V2C, AIV: C2V)."""
        return PipeDirection.from_producer(side.other)

    @property
    def bit(self) -> int:
        """The bit of this direction in an `*_initialize_pipe` `dir_mask` (C2V = 1, V2C = 2)."""
        return 1 if self is PipeDirection.C2V else 2

    @property
    def tag(self) -> str:
        """The direction as messages write it: `C2V` / `V2C`."""
        return self.value.upper()


def memory_affinity(space: str) -> Affinity:
    """The core a tile in memory space `space` lives on."""
    return Affinity.CUBE if is_cube_memory(space) else Affinity.VECTOR


# -- affinity -----------------------------------------------------------------------------------------------------


class AffinityTrait(OpTrait):
    """Base of the affinity traits; every `pto` op has exactly one."""

    def intrinsic(self, op: Operation) -> Affinity:
        raise NotImplementedError


@dataclass(frozen=True)
class CubeAffinity(AffinityTrait):
    """Runs on the cube core (matmuls, cube-side pipe ops)."""

    def intrinsic(self, op: Operation) -> Affinity:
        return Affinity.CUBE


@dataclass(frozen=True)
class VectorAffinity(AffinityTrait):
    """Runs on the vector cores (elementwise, reductions, vector-side pipe ops)."""

    def intrinsic(self, op: Operation) -> Affinity:
        return Affinity.VECTOR


@dataclass(frozen=True)
class SharedAffinity(AffinityTrait):
    """Either core may run it; ExpandMixedKernel copies it to both sides (create, create_tensor, yield, setup)."""

    def intrinsic(self, op: Operation) -> Affinity:
        return Affinity.SHARED


@dataclass(frozen=True)
class ResultMemoryAffinity(AffinityTrait):
    """Runs where its result tile lives (load)."""

    def intrinsic(self, op: Operation) -> Affinity:
        t = op.results[0].type
        return memory_affinity(t.space) if isinstance(t, TileType) else Affinity.SHARED


@dataclass(frozen=True)
class FirstTileAffinity(AffinityTrait):
    """Runs where its first tile operand lives (store, reshape, slice, transpose, set_validshape)."""

    def intrinsic(self, op: Operation) -> Affinity:
        for v in op.operands:
            if isinstance(v.type, TileType):
                return memory_affinity(v.type.space)
        return Affinity.SHARED


def is_transfer_sourced(value: SSAValue) -> bool:
    """Produced by a tpop, aiv_shard or aic_gather (so a following crossing move is a placement, not a boundary)."""
    owner = value.owner
    return isinstance(owner, Operation) and (owner.has_trait(PipePop) or owner.has_trait(BoundaryAffinity))


@dataclass(frozen=True)
class MoveAffinity(AffinityTrait):
    """`pto.move`: a cube <-> vec crossing is MIXED (a boundary), unless its source was just transferred (then it
    is a placement on the destination's side); a same-side move runs where its source lives."""

    @staticmethod
    def direction(op: Operation) -> PipeDirection | None:
        """C2V / V2C for a crossing move, None for a same-side one."""
        src, dst = op.operands[0].type, op.results[0].type
        if not isinstance(src, TileType) or not isinstance(dst, TileType):
            return None
        a, b = is_cube_memory(src.space), is_cube_memory(dst.space)
        if a and not b:
            return PipeDirection.C2V
        if b and not a:
            return PipeDirection.V2C
        return None

    def intrinsic(self, op: Operation) -> Affinity:
        if self.direction(op) is None:
            src = op.operands[0].type
            return memory_affinity(src.space) if isinstance(src, TileType) else Affinity.VECTOR
        if is_transfer_sourced(op.operands[0]):
            dst = op.results[0].type
            assert isinstance(dst, TileType)
            return memory_affinity(dst.space)
        return Affinity.MIXED


@dataclass(frozen=True)
class BoundaryAffinity(AffinityTrait):
    """An explicit split boundary (aiv_shard: C2V, aic_gather: V2C): MIXED, it joins both sides."""

    direction: PipeDirection

    def intrinsic(self, op: Operation) -> Affinity:
        return Affinity.MIXED


@dataclass(frozen=True)
class RegionAffinity(AffinityTrait):
    """A region op (split_aiv_scope): SHARED on its own; its affinity is the roll-up of its body."""

    def intrinsic(self, op: Operation) -> Affinity:
        return Affinity.SHARED


# -- the pipe protocol --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PipeTransfer(OpTrait):
    """A tpush, tpop or tfree on a pipe of direction `direction`."""

    direction: PipeDirection

    @property
    def side(self) -> CoreSide:
        """The core that runs the op."""
        return self.direction.consumer


@dataclass(frozen=True)
class PipePush(PipeTransfer):
    """Sends its tile operand into the next slot (tpush_to_aiv: C2V on the AIC, tpush_to_aic: V2C on the AIV)."""

    @property
    def side(self) -> CoreSide:
        return self.direction.producer


@dataclass(frozen=True)
class PipePop(PipeTransfer):
    """Takes the next slot as its result tile (tpop_from_aic: C2V on the AIV, tpop_from_aiv: V2C on the AIC)."""


@dataclass(frozen=True)
class PipeFree(PipeTransfer):
    """Releases a popped slot back to the producer (tfree_to_aic: C2V on the AIV, tfree_to_aiv: V2C on the AIC)."""


@dataclass(frozen=True)
class PipeSetup(OpTrait):
    """Pipe setup emitted at a kernel's entry (reserve_buffer, import_peer_buffer, *_initialize_pipe)."""


@dataclass(frozen=True)
class PipeInit(PipeSetup):
    """`aic_initialize_pipe` / `aiv_initialize_pipe`: initialises the pipes of one core side."""

    side: CoreSide


# -- values and buffers -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ContextualVerify(OpTrait):
    """The op's `verify_` reads IR beyond the op itself (a defining op, the enclosing function, the module): its
    verdict is not a function of its attributes and operand/result types, so the verifier's memo
    (`pypto_mlir.verify.VerifyMemo`) checks it every time. Every `pto` op verifier today reads only the op's own
    attributes, properties and types; a new one that looks further must carry this trait."""


@dataclass(frozen=True)
class CubeCompute(OpTrait):
    """The op is a matrix multiply on the cube unit (matmul, gemv, batch and MX forms): its first operand is the
    left matrix (`... x M x K`) and its result the `... x M x N` accumulator.  The timing model charges it by
    fractal blocks (`pypto_mlir.timing.costs`)."""


@dataclass(frozen=True)
class CostFree(OpTrait):
    """No unit spends cycles on the op: it names memory (an uninitialised tile, a GM tensor under another type) or
    reads a core register (the lane id); the timing model charges 0."""


@dataclass(frozen=True)
class Transcendental(OpTrait):
    """A vector op the hardware runs as a transcendental or a divide (exp, log, sqrt, rsqrt, recip, div and its
    scalar and row/col expand forms): the timing model charges `vector_transcendental` repeats per 256 bytes."""


@dataclass(frozen=True)
class SlotView(OpTrait):
    """The result is a view of (the same buffer as) the first operand: slice, reshape, transpose_view,
    set_validshape.  `pto.transpose` copies, so it is not one."""


@dataclass(frozen=True)
class GmAccess(OpTrait):
    """The op reads the GM tensors of the operands named in `reads` and writes those named in `writes` (a
    write's result, when the op has one, is the written tensor under a new name, as `pto.store`'s is); `tile`
    names the operand or result holding the tile it moves between a core and GM (None: a tensor-to-tensor copy,
    which holds no tile).  A peer rank (put/get) does not change the facts: the tensor is matched by name, so a
    peer's copy is taken to be the local one (conservative; peer 0 is this device).  The signal ops (`notify`, `wait`,
    `defer_wait`) have no `GmAccess`: a signal word is a synchronisation variable updated atomically, not data a
    fence must order (a `wait` itself blocks until the `notify` it waits for has landed)."""

    reads: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()
    tile: str | None = None

    def read_tensors(self, op: Operation) -> list[SSAValue]:
        return [getattr(op, n) for n in self.reads]

    def written_tensors(self, op: Operation) -> list[SSAValue]:
        return [getattr(op, n) for n in self.writes]

    def tile_value(self, op: Operation) -> SSAValue | None:
        return getattr(op, self.tile) if self.tile is not None else None

    def written_by_result(self, op: Operation) -> SSAValue | None:
        """The tensor operand the op's result renames (None: the op returns no written tensor)."""
        if len(self.writes) != 1 or len(op.results) != 1:
            return None
        return getattr(op, self.writes[0])


class AllocatesResult(MemoryEffect):
    """The op's only effect is allocating the buffer its result names (`lane_workspace`): xDSL's DCE removes it
    when the result is unused and keeps it while used (MLIR's rule for an allocation of the op's own result).
    xDSL's `MemoryAllocEffect` names no value, which DCE must treat as an effect on something else."""

    @classmethod
    def get_effects(cls, op: Operation) -> set[EffectInstance]:
        return {EffectInstance(MemoryEffectKind.ALLOC, r) for r in op.results}


class TensorView(OpTrait):
    """The op's result is the GM buffer of its first operand under another type (`pto.tensor_cast`): no data
    moves, and every access of the result is an access of the operand's buffer."""


def viewed_tensor(value: SSAValue) -> SSAValue | None:
    """The tensor `value` is a view of (the first operand of a `TensorView` op), or None."""
    owner = value.owner
    if isinstance(owner, Operation) and owner.has_trait(TensorView):
        return owner.operands[0]
    return None


def renamed_tensor(value: SSAValue) -> SSAValue | None:
    """The tensor operand `value` renames when it is the result of a GM-writing op (a store, a put, a
    tensor_get: the destination under a new name, not a copy); None otherwise."""
    owner = value.owner
    if not isinstance(owner, Operation):
        return None
    trait = owner.get_trait(GmAccess)
    return trait.written_by_result(owner) if trait is not None else None


@dataclass(frozen=True)
class TileGenerator(OpTrait):
    """Makes a tile from scalars only (full, create, ci, random).  `position_dependent`: the values depend on
    the element position (ci, random), so halving the result type does not halve the values.  `linear`: the value
    of a cell is the seed plus the cell's row-major position (ci), so a part of the tile that is one contiguous
    run of that order is the same generator seeded at its first cell's position."""

    position_dependent: bool = False
    linear: bool = False

    def verify(self, op: Operation) -> None:
        """A generator has no valid operand, so its result's valid region is its type's: a `?` valid extent of a
        static dim could never be given its value (the interpreter and the hardware would take the whole box)."""
        t = op.results[0].type
        if not isinstance(t, TileType):
            return
        valid, shape = t.get_valid(), t.get_shape()
        dims = [d for d, (v, n) in enumerate(zip(valid, shape)) if v == DYNAMIC and n != DYNAMIC]
        if dims:
            raise VerifyException(
                f"'{op.name}' result valid region {format_shape(valid)} has a runtime extent on dim {dims[0]}, but "
                f"'{op.name}' has no valid operand to bind it: state the valid extents statically, or generate the "
                "full box and narrow it with pto.set_validshape"
            )


@dataclass(frozen=True)
class NoDuplicate(OpTrait):
    """A SHARED op that must run on one side only, not be copied to both (reference `set_no_duplicate`)."""


@dataclass(frozen=True)
class OncePerKernel(OpTrait):
    """The op's effect on GM is observable per execution, not only by the cells it leaves: run twice it adds
    twice (`pto.store {atomic}`), or a peer receives its remote write or signal twice (`tile_put`,
    `tensor_put`, `notify`).  So when both AIV lanes run the same code on a value they both hold whole, one
    lane must perform it (or each lane its own part).  `effect` says what it does, for messages; `when` names
    an integer attribute that makes the op one when non-zero (None: always)."""

    effect: str
    when: str | None = None


def once_per_kernel(op: Operation) -> str | None:
    """What `op` does that must happen once per kernel instance (`OncePerKernel.effect`), or None when running
    it on both lanes is harmless (a plain store of the same values, a get, a load)."""
    trait = op.get_trait(OncePerKernel)
    if trait is None:
        return None
    if trait.when is not None:
        attr = op.attributes.get(trait.when)
        if not (attr is not None and getattr(getattr(attr, "value", None), "data", 0)):
            return None
    return trait.effect


@dataclass(frozen=True)
class ReductionAxis(OpTrait):
    """A reduction along dim `axis` (row_*: 1, the result has one column; col_*: 0, one row) that combines cells
    with `combine` (`sum`, `max` or `min`): associative and commutative, so partial results of disjoint parts of
    the axis combine with the same operation (LowerAutoVectorSplit's cross-lane reduction, `cross_lane.py`)."""

    axis: int
    combine: str


@dataclass(frozen=True)
class BroadcastAxis(OpTrait):
    """A row/col expand: its second operand is broadcast along dim `axis` (row_expand_*: 1, col_expand_*: 0)."""

    axis: int



class HalvingRule(StrEnum):
    """The split rule an op declares (`LaneHalving`), one per family of LowerAutoVectorSplit's patterns
    (passes/lower_auto_vector_split/patterns/)."""

    ELEMENTWISE = "elementwise"  # each cell from the same cell of the operands: the halves are independent
    REDUCTION = "reduction"  # a row / col reduction (`ReductionAxis`): halved off the split axis only
    BROADCAST = "broadcast"  # a row / col expand (`BroadcastAxis`)
    MOVE = "move"  # a same-side pto.move (a cube <-> vector one is a boundary)
    GENERATOR = "generator"  # built from scalars at the lane's shape (`TileGenerator`)
    WINDOW = "window"  # reads or writes a window of a tensor or tile at lane-shifted offsets (load, store, slice, ...)
    VIEW = "view"  # a view whose split axis is tracked through it (reshape, transpose, set_validshape, ...)
    BOUNDARY = "boundary"  # aiv_shard / aic_gather: already per lane, kept as written
    TRANSFER = "transfer"  # pipe ops: split codes re-stamped, tiles never halved
    LANE_ID = "lane id"  # pto.get_subblock_idx: the lane's own id
    WHOLE = "whole"  # runs unchanged on both lanes (copies of whole tensors, the lane barrier and workspace)


@dataclass(frozen=True)
class LaneHalving(OpTrait):
    """The op's split rule for LowerAutoVectorSplit (`HalvingRule`); every op that can run on the vector cores
    declares one (tests/dialects/test_op_traits.py checks it)."""

    rule: HalvingRule


def halving_rule_of(op: Operation) -> HalvingRule | None:
    """The split rule `op` declares, or None when it declares none."""
    trait = op.get_trait(LaneHalving)
    return trait.rule if trait is not None else None


__all__ = [
    "Affinity",
    "AffinityTrait",
    "AllocatesResult",
    "BoundaryAffinity",
    "BroadcastAxis",
    "ContextualVerify",
    "CoreSide",
    "CubeAffinity",
    "FirstTileAffinity",
    "GmAccess",
    "HalvingRule",
    "LaneHalving",
    "MoveAffinity",
    "NoDuplicate",
    "OncePerKernel",
    "PipeDirection",
    "PipeFree",
    "PipeInit",
    "PipePop",
    "PipePush",
    "PipeSetup",
    "PipeTransfer",
    "ReductionAxis",
    "RegionAffinity",
    "ResultMemoryAffinity",
    "SharedAffinity",
    "SlotView",
    "TileGenerator",
    "VectorAffinity",
    "halving_rule_of",
    "is_transfer_sourced",
    "memory_affinity",
    "once_per_kernel",
    "renamed_tensor",
    "TensorView",
    "viewed_tensor",
]
