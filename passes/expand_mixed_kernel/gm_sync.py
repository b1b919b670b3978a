"""GM-mediated cross-core sync (reference §6 "GM cross-lane sync"; seed "经 GM 中转的跨核依赖", step 2a).

A cube `pto.store` into a GM tensor that the vector side later `pto.load`s is a cross-core dependency no
`pto.move` shows.  It is fenced with a data-less handshake: the AIC pushes the stored tile right after the
store, the AIV pops a token right before the load (and frees it at once, see `tfree.py`).

Considered: stores and loads whose own affinity is single-sided (cube or vector).  The *origin* of a tensor is
found by following `pto.store` results back to their destination.  For each origin, in store order, a fence
is emitted iff
  1. exactly one store (on either side) writes that origin,
  2. that store is a cube store, and
  3. a vector load of the origin comes later in the store's block, or inside an op that comes later in it;
     the earliest such load is used.
When the load is nested (inside a loop or branch after the store), the pop is hoisted to just before that
op in the store's block, so the push and the pop execute the same number of times.  A vector store read by
the cube (V->C) is never fenced: the raw tile would need the V->C fractal adapter.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.ir import Block, Operation, OpResult, SSAValue

from pypto_mlir.dialects.pto_ops import LoadOp, StoreOp, TPopFromAicOp, TPushToAivOp
from pypto_mlir.dialects.pto_types import TileType

from ..analysis.affinity import Affinity, AffinityAnalysis
from ..common import with_loc
from .pipe_metadata import set_name_hint


@dataclass
class GmSync:
    store: Operation
    load: Operation
    anchor: Operation | None = None
    """The op of the store's block before which the token is popped: the load itself, or the op enclosing it."""
    origin_name: str | None = None


def gm_origin(v: SSAValue, memo: dict[SSAValue, SSAValue] | None = None) -> SSAValue:
    """Follow `pto.store` results back to the tensor they write.

    With `memo`, every value passed on the way is remembered with its origin, so resolving all the stores of
    a chain costs one walk of the chain, not one per store."""
    path: list[SSAValue] = []
    while isinstance(v, OpResult) and isinstance(v.op, StoreOp) and len(path) < 10000:
        if memo is not None and v in memo:
            v = memo[v]
            break
        path.append(v)
        v = v.op.dest
    if memo is not None:
        for p in path:
            memo[p] = v
    return v


def collect_gm_syncs(f: func.FuncOp, affinity: AffinityAnalysis) -> list[GmSync]:
    """The C->V GM fences of the mixed function `f` (before it is split)."""
    stores: list[StoreOp] = []
    loads: list[LoadOp] = []
    for op in f.walk():
        if isinstance(op, StoreOp) and affinity.get(op) in (Affinity.CUBE, Affinity.VECTOR):
            stores.append(op)
        elif isinstance(op, LoadOp) and affinity.get(op) == Affinity.VECTOR:
            loads.append(op)
    memo: dict[SSAValue, SSAValue] = {}
    by_origin: dict[SSAValue, list[StoreOp]] = {}
    for st in stores:
        by_origin.setdefault(gm_origin(st.dest, memo), []).append(st)
    loads_of: dict[SSAValue, list[LoadOp]] = {}
    for ld in loads:
        loads_of.setdefault(gm_origin(ld.source, memo), []).append(ld)
    orders = _BlockOrders()
    syncs: list[GmSync] = []
    for origin, group in by_origin.items():
        if len(group) != 1:
            continue
        st = group[0]
        if affinity.get(st) != Affinity.CUBE or not isinstance(st.tile.type, TileType):
            continue
        match = _earliest_later_load(st, loads_of.get(origin, []), orders)
        if match is None:
            continue
        load, anchor = match
        syncs.append(GmSync(st, load, anchor, origin.name_hint))
    return syncs


class _BlockOrders:
    """Positions of the ops of a block (its own ops, and every op nested in it in walk order), computed once
    per block."""

    def __init__(self) -> None:
        self._own: dict[Block, dict[Operation, int]] = {}
        self._walk: dict[Block, dict[Operation, int]] = {}

    def own(self, block: Block) -> dict[Operation, int]:
        if block not in self._own:
            self._own[block] = {op: i for i, op in enumerate(block.ops)}
        return self._own[block]

    def walk(self, block: Block) -> dict[Operation, int]:
        if block not in self._walk:
            self._walk[block] = {op: i for i, op in enumerate(block.walk())}
        return self._walk[block]


def _earliest_later_load(
    st: StoreOp, loads: list[LoadOp], orders: _BlockOrders
) -> tuple[LoadOp, Operation] | None:
    """The first (in walk order) of `loads` (those of the store's origin) that comes after `st` in its block,
    with the op of that block that is or encloses it."""
    block = st.parent_block()
    if block is None:
        return None
    order = orders.own(block)
    here = order[st]
    best: tuple[int, LoadOp, Operation] | None = None
    for ld in loads:
        anchor = block.find_ancestor_op_in_block(ld)  # the op of the store's block that is (or encloses) the load
        if anchor is None or order[anchor] <= here:
            continue
        key = orders.walk(block).get(ld, 0)
        if best is None or key < best[0]:
            best = (key, ld, anchor)
    return (best[1], best[2]) if best is not None else None


def emit_gm_syncs(syncs: list[GmSync], aic_map: dict[Operation, Operation], aiv_map: dict[Operation, Operation]) -> None:
    """Insert each fence into the split bodies (skipped when either side no longer has its op)."""
    for sync in syncs:
        anchor = sync.anchor if sync.anchor is not None else sync.load
        st = aic_map.get(sync.store)
        at = aiv_map.get(anchor)
        if not isinstance(st, StoreOp) or at is None or at.parent_block() is None or st.parent_block() is None:
            continue
        stored = st.tile.type
        assert isinstance(stored, TileType)
        push = with_loc(TPushToAivOp(st.tile, split=0), st)
        st.parent_block().insert_op_after(push, st)  # type: ignore[union-attr]
        token_type = TileType.get(stored.get_shape(), stored.element_type, "vec")
        pop = with_loc(TPopFromAicOp(token_type, split=0), at)
        set_name_hint(pop.result, f"{sync.origin_name}_gm_sync" if sync.origin_name else "gm_sync")
        at.parent_block().insert_op_before(pop, at)  # type: ignore[union-attr]
