"""Core affinity: which core (cube AIC, vector AIV, either, or both) an op or region needs.

One implementation, used by LowerAutoVectorSplit (is the function mixed? which ops are halved?) and by
ExpandMixedKernel (which side keeps which op?).  Rules (reference `expand-mixed-kernel.reference.md` §2):

- Each `pto` op declares its kind in `AFFINITY` (see `dialects/pto_ops.py`):
  `cube` / `vector` / `shared`; `result_memory` (load: by the result's memory space); `first_tile` (store,
  reshape, slice, ...: by the first tile operand's memory space); `move` (a cube<->vec crossing is MIXED, a
  same-side move runs where its source lives); `boundary` (aiv_shard / aic_gather: MIXED); `region`
  (split_aiv_scope: the roll-up of its body).
- Ops of other dialects (arith, func.call, terminators) are SHARED; `scf.for/if/while` roll up their bodies.
- `combine`: equal -> same; SHARED is the identity; anything else -> MIXED.
- A crossing move whose source was produced by a tpop, `aiv_shard` or `aic_gather` is relabelled by its
  destination memory (it is a same-side placement after the transfer, not a new boundary).
"""

from __future__ import annotations

from enum import Enum

from xdsl.dialects import func
from xdsl.ir import Block, Operation, Region, SSAValue

from pypto_mlir.dialects.pto_ops import AicGatherOp, AivShardOp, MoveOp, TPopFromAicOp, TPopFromAivOp
from pypto_mlir.dialects.pto_types import TileType, is_cube_memory


class Affinity(Enum):
    CUBE = "cube"
    VECTOR = "vector"
    SHARED = "shared"
    MIXED = "mixed"

    def __str__(self) -> str:
        return self.value


def combine(a: Affinity, b: Affinity) -> Affinity:
    if a == b:
        return a
    if a == Affinity.SHARED:
        return b
    if b == Affinity.SHARED:
        return a
    return Affinity.MIXED


def _side(space: str) -> Affinity:
    return Affinity.CUBE if is_cube_memory(space) else Affinity.VECTOR


def move_direction(op: Operation) -> str | None:
    """`c2v`, `v2c` or None for a `pto.move` (None for any other op or a same-side move)."""
    if not isinstance(op, MoveOp):
        return None
    src, dst = op.src.type, op.result.type
    if not isinstance(src, TileType) or not isinstance(dst, TileType):
        return None
    a, b = is_cube_memory(src.space), is_cube_memory(dst.space)
    if a and not b:
        return "c2v"
    if b and not a:
        return "v2c"
    return None


def is_transfer_sourced(value: SSAValue) -> bool:
    """Produced by a tpop, aiv_shard or aic_gather (so a following crossing move is a placement, not a boundary)."""
    owner = value.owner
    return isinstance(owner, (TPopFromAicOp, TPopFromAivOp, AivShardOp, AicGatherOp))


def is_boundary_move(op: Operation) -> bool:
    """A cube<->vector `pto.move` that must become a tpush/tpop pair."""
    return move_direction(op) is not None and not is_transfer_sourced(op.operands[0])  # type: ignore[union-attr]


def intrinsic_affinity(op: Operation) -> Affinity:
    """The affinity of one op on its own (regions not rolled up; see `AffinityAnalysis` for that)."""
    kind = getattr(type(op), "AFFINITY", None)
    if kind is None:
        return Affinity.SHARED
    if kind == "cube":
        return Affinity.CUBE
    if kind == "vector":
        return Affinity.VECTOR
    if kind == "shared":
        return Affinity.SHARED
    if kind == "boundary":
        return Affinity.MIXED
    if kind == "result_memory":
        t = op.results[0].type
        return _side(t.space) if isinstance(t, TileType) else Affinity.SHARED
    if kind == "first_tile":
        for v in op.operands:
            if isinstance(v.type, TileType):
                return _side(v.type.space)
        return Affinity.SHARED
    if kind == "move":
        d = move_direction(op)
        if d is None:
            src = op.operands[0].type
            return _side(src.space) if isinstance(src, TileType) else Affinity.VECTOR
        if is_transfer_sourced(op.operands[0]):
            dst = op.results[0].type
            assert isinstance(dst, TileType)
            return _side(dst.space)
        return Affinity.MIXED
    if kind == "region":
        return Affinity.SHARED
    raise AssertionError(f"unknown AFFINITY kind {kind!r} on {op.name}")


class AffinityAnalysis:
    """Affinity of every op, with region ops rolled up over their bodies; computed once, then looked up."""

    def __init__(self, root: Operation):
        self._cache: dict[Operation, Affinity] = {}
        self._visit(root)

    def _visit(self, op: Operation) -> Affinity:
        a = intrinsic_affinity(op)
        for region in op.regions:
            a = combine(a, self._visit_region(region))
        self._cache[op] = a
        return a

    def _visit_region(self, region: Region) -> Affinity:
        a = Affinity.SHARED
        for block in region.blocks:
            a = combine(a, self._visit_block(block))
        return a

    def _visit_block(self, block: Block) -> Affinity:
        a = Affinity.SHARED
        for op in block.ops:
            a = combine(a, self._visit(op))
        return a

    def __getitem__(self, op: Operation) -> Affinity:
        return self._cache[op]

    def get(self, op: Operation) -> Affinity:
        a = self._cache.get(op)
        return a if a is not None else self._visit(op)

    def of_block(self, block: Block) -> Affinity:
        a = Affinity.SHARED
        for op in block.ops:
            a = combine(a, self.get(op))
        return a


def function_affinity(f: func.FuncOp) -> Affinity:
    """The roll-up of a function body (SHARED for an empty or declaration-only function)."""
    if not f.body.blocks:
        return Affinity.SHARED
    analysis = AffinityAnalysis(f)
    return analysis.of_block(f.body.block)


def is_mixed(f: func.FuncOp) -> bool:
    """A function is mixed iff its body rolls up to MIXED (a lone boundary move is enough)."""
    return function_affinity(f) == Affinity.MIXED


__all__ = [
    "Affinity",
    "AffinityAnalysis",
    "combine",
    "function_affinity",
    "intrinsic_affinity",
    "is_boundary_move",
    "is_mixed",
    "is_transfer_sourced",
    "move_direction",
]
