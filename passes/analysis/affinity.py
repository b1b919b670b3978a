"""Core affinity: which core (cube AIC, vector AIV, either, or both) an op or region needs.

One implementation, used by LowerAutoVectorSplit (is the function mixed? which ops are halved?) and by
ExpandMixedKernel (which side keeps which op?).  Rules (reference `expand-mixed-kernel.reference.md` §2):

- Each `pto` op carries exactly one affinity trait (`dialects/pto_traits.py`), whose `intrinsic(op)` gives its
  affinity on its own: `CubeAffinity` / `VectorAffinity` / `SharedAffinity`; `ResultMemoryAffinity` (load: by
  the result's memory space); `FirstTileAffinity` (store, reshape, slice, ...: by the first tile operand's
  memory space); `MoveAffinity` (a cube<->vec crossing is MIXED, a same-side move runs where its source lives);
  `BoundaryAffinity` (aiv_shard / aic_gather: MIXED); `RegionAffinity` (split_aiv_scope: the roll-up of its body).
- Ops of other dialects (arith, func.call, terminators) are SHARED; `scf.for/if/while` roll up their bodies.
- `combine`: equal -> same; SHARED is the identity; anything else -> MIXED.
- A crossing move whose source was produced by a tpop, `aiv_shard` or `aic_gather` is relabelled by its
  destination memory (it is a same-side placement after the transfer, not a new boundary).
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.ir import Block, Operation, Region

from pypto_mlir.dialects.pto_traits import (
    Affinity,
    AffinityTrait,
    MoveAffinity,
    NoDuplicate,
    PipeDirection,
    is_transfer_sourced,
)

from .traits import op_has_trait, op_trait


def combine(a: Affinity, b: Affinity) -> Affinity:
    if a == b:
        return a
    if a == Affinity.SHARED:
        return b
    if b == Affinity.SHARED:
        return a
    return Affinity.MIXED


def move_direction(op: Operation) -> PipeDirection | None:
    """C2V, V2C or None for a `pto.move` (None for any other op or a same-side move)."""
    return MoveAffinity.direction(op) if op_has_trait(op, MoveAffinity) else None


def is_boundary_move(op: Operation) -> bool:
    """A cube<->vector `pto.move` that must become a tpush/tpop pair."""
    return move_direction(op) is not None and not is_transfer_sourced(op.operands[0])  # type: ignore[union-attr]


def intrinsic_affinity(op: Operation) -> Affinity:
    """The affinity of one op on its own (regions not rolled up; see `AffinityAnalysis` for that).  Ops of other
    dialects (arith, scf, func) have no affinity trait and are SHARED."""
    trait = op_trait(op, AffinityTrait)
    return Affinity.SHARED if trait is None else trait.intrinsic(op)


def placed_affinity(op: Operation) -> Affinity:
    """The side an op is *placed* on when a mixed kernel is split: its intrinsic affinity, except that a
    no-duplicate shared op (`NoDuplicate`, e.g. `pto.notify`) goes to the vector side only (reference: the
    region placement `core_placement` AIV; here it applies in the whole mixed kernel)."""
    a = intrinsic_affinity(op)
    if a == Affinity.SHARED and op_has_trait(op, NoDuplicate):
        return Affinity.VECTOR
    return a


class AffinityAnalysis:
    """Affinity of every op, with region ops rolled up over their bodies; computed once, then looked up.

    `placement=True` classifies by `placed_affinity` (where ExpandMixedKernel puts each op of a kernel it has
    already found mixed); the default, the intrinsic affinity, decides whether a kernel is mixed."""

    def __init__(self, root: Operation, placement: bool = False):
        self._cache: dict[Operation, Affinity] = {}
        self._of = placed_affinity if placement else intrinsic_affinity
        self._visit(root)

    def _visit(self, op: Operation) -> Affinity:
        a = self._of(op)
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
    "placed_affinity",
]
