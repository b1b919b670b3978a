"""Lower an AUTO kernel again with a refused value's producers computed whole (issue 43, classes 1, 2, 4, 13).

Some refusals are a per-lane value meeting a value it cannot be combined with lane by lane: the two branches of
an `scf.if` yield a result split on different axes (one branch moved the split axis with a reshape round trip
through a flat row, or a transpose pair, the other did not), or one per lane and one whole with no lane part (an
odd box); an elementwise op combines operands split on different axes, or a per-lane operand with a value both
lanes hold whole.  The pass raises these as `LaneMismatch`, naming the per-lane values involved.

Any vector value can instead be computed whole on both lanes, the unsplit program's value, when its producers can
(`full_width.whole_chain`: back to loads, C->V boundaries and generators, through `scf.for` / `scf.if`, reshapes
and transposes); its users then take its lane part on the axis of the per-lane data they meet (`lane_part`, a
window of one tile), or stay whole.  So the kernel is lowered again, from the copy as written, with the chain of
one of those values kept whole — a value split on another axis than the function's first (its users then meet it
on the function's axis), else the others in order.  A lowering refused again adds a root named by its own refusal;
the search is depth first over these root sets (`pass_._attempt`): a value whose chain cannot run whole, or that
cannot be found in the kernel as written (a value the lowering created), is skipped; after `MAX_LOWERINGS`
lowerings, or when no root set is left, the first refusal stands.

Soundness: both lanes computing a value whole compute exactly the unsplit kernel's value (the same loads, the
same boundary tiles, the same generators), so every lane part taken of it holds the cells a halved producer would
have held; GM writes of whole values follow the rules of whole values (a plain store alone written by both lanes,
a lane part where another store or a once-per-kernel effect needs one; the cross-lane race check runs on the
result).  The cost: the chain's vector work runs on both lanes instead of being halved.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from pypto_mlir.diagnostics import location_of
from pypto_mlir.dialects.pto_lanes import split_dim_of

from pypto_mlir.dialects.pto_types import TileType

from ..lowering import SplitLowering
from ..patterns.base import LaneMismatch
from .full_width import whole_chain

MAX_ROOTS = 4
"""The most values one lowering keeps whole."""

MAX_LOWERINGS = 8
"""The most lowerings of one kernel on one axis (the first, and the retries with values kept whole)."""


@dataclass(frozen=True)
class RootKey:
    """A value of the kernel as written, by the position of its op in `walk()` order: result `index` of that op
    (`region < 0`), or argument `index` of block `block` of its region `region`."""

    op: int
    index: int
    region: int = -1
    block: int = 0

    def value(self, ops: list[Operation]) -> SSAValue:
        op = ops[self.op]
        if self.region < 0:
            return op.results[self.index]
        return op.regions[self.region].blocks[self.block].args[self.index]


def resolve(keys: list[RootKey], f: func.FuncOp) -> tuple[SSAValue, ...]:
    """The values of `keys` in `f`, a copy of the kernel as written (the same `walk()` order)."""
    ops = list(f.walk())
    return tuple(k.value(ops) for k in keys)


def _key_of(v: SSAValue, as_written: dict[Operation, Operation], index: dict[Operation, int]) -> RootKey | None:
    """The key of the value of the kernel as written that the partly lowered `v` stands for; None when `v` was
    created by the lowering."""
    if isinstance(v, OpResult):
        op = as_written.get(v.op)
        if op is not None:
            return RootKey(index[op], v.index)
        return _rebuilt_key(v, index)
    assert isinstance(v, BlockArgument)
    owner = v.block.parent_op()
    op = as_written.get(owner) if owner is not None else None
    if op is None or owner is None:
        return None
    region = v.block.parent
    assert region is not None
    r = owner.regions.index(region)
    return RootKey(index[op], v.index, r, list(region.blocks).index(v.block))


def _rebuilt_key(v: OpResult, index: dict[Operation, int]) -> RootKey | None:
    """The key of the value a rebuilt op's result `v` replaced (a C->V move that became an `aiv_shard`, a load or
    slice rebuilt halved): the one op as written at the same source location with a result of the same name.
    (A wrong match would only keep another value whole, which is sound too; `whole_chain` decides.)"""
    loc = location_of(v.op)
    if loc is None or not v.name_hint:
        return None
    found = [
        RootKey(i, r.index) for op, i in index.items() if location_of(op) == loc
        for r in op.results if r.name_hint == v.name_hint
    ]
    return found[0] if len(found) == 1 else None


def whole_candidates(
    e: Exception, mode: str, as_written: dict[Operation, Operation], pristine: func.FuncOp, taken: list[RootKey]
) -> list[RootKey]:
    """The values whose producers to keep whole, each in a next lowering of the kernel refused with `e` (with the
    roots `taken` already whole), best first: none when `e` is not a `LaneMismatch` or `MAX_ROOTS` are taken, else
    the values it names that can run whole, those split on another axis than the function's first."""
    if not isinstance(e, LaneMismatch) or len(taken) >= MAX_ROOTS:
        return []
    dim = split_dim_of(mode)
    ops = list(pristine.walk())
    index = {op: i for i, op in enumerate(ops)}
    found: list[RootKey] = []
    for v, _ in sorted(e.wholes, key=lambda w: w[1] == dim):  # another axis than the function's first
        key = _key_of(v, as_written, index)
        if key is None or key in taken or key in found:
            continue
        if whole_chain(key.value(ops)) is not None:
            found.append(key)
    return found


def halves_something(lw: SplitLowering) -> bool:
    """Whether a lowering with roots kept whole still gives the lanes halves of some vector tile.  One that keeps
    every vector value whole is the unsplit kernel run twice (the cube's tiles sent whole to both lanes), not a
    split: the first refusal stands (the kernel falls back unsplit by default)."""
    return any(isinstance(v.type, TileType) and v.type.space == "vec" for v in lw.tracked)


__all__ = ["MAX_LOWERINGS", "MAX_ROOTS", "RootKey", "halves_something", "resolve", "whole_candidates"]
