"""GM-mediated cross-core sync (reference §6 "GM cross-lane sync"; seed "经 GM 中转的跨核依赖", step 2a), built
on the hazard analysis (`analysis/hazards.py`) instead of the reference's rules.

The reference fences only a cube store that is the *only* store of its tensor and is followed, in its block,
by a vector load; it misses a WAR on a scratch tensor reused across iterations, several stores before a
load, a load that reads the previous iteration's store, V->C exchanges through GM and pairs in different
scopes.  Here every cross-core dependence (RAW, WAR, WAW; C->V and V->C; within an iteration and
loop-carried) that no transfer orders already gets a fence.

A fence is a handshake on the kernel's pipe (pipe 0), written into the *mixed* function before the split, so
that the split puts each half on its side and keeps it in program order:

    <src op>                                  // the op holding the first access
    [%tok = pto.create : T]                   // the token, when the access's own tile cannot be sent
    pto.tpush_to_aiv %tile {split = 0}        // C->V (the producer is the cube); V->C: pto.tpush_to_aic
    ...                                       // no cross-core op in between
    %<tensor>_gm_sync = pto.tpop_from_aic {split = 0} : T'   // V->C: pto.tpop_from_aiv, in `mat`
    <sink op>                                 // the op holding the second access (or the iteration's end)

and tfree placement frees the token right after its pop.  The token is the stored (or loaded) tile when
the access sits directly in the fence's block and its tile is static and fully valid (the reference sends
the stored tile); otherwise a `pto.create` of the same static shape, or, for an access that moves no tile
(a `pto.tensor_put` / `pto.tensor_get`), of `TOKEN_SHAPE` f16.

Placement (the deadlock-freedom argument is in docs/expand-mixed-kernel-protocol.md):
- the push goes right after src's op; the pop as late as possible: right before sink's op (the iteration's
  terminator for a loop-carried dependence), but never after an op that is or holds a cross-core transfer
  (of either direction), so the consumer runs only non-blocking code between the push point and the pop;
- fences are placed innermost block first, and in a block from the last push point backwards; a dependence
  that a transfer (or an earlier fence) already orders gets none; dependences sharing a block, a push point
  and a direction share one fence (popped before the earliest sink).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import Float16Type
from xdsl.ir import Block, Operation
from xdsl.traits import IsTerminator

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import CreateOp
from pypto_mlir.dialects.pto_traits import CoreSide, PipeDirection
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType

from ..analysis.affinity import AffinityAnalysis
from ..analysis.hazards import Access, Aliases, Dependence, dependences, gm_accesses, has_transfer, is_ordered
from ..common import with_loc
from ..decisions import op_ref, record, recording
from .pipe_metadata import set_name_hint, side_of

_CORE = {side.affinity: side for side in CoreSide}


@dataclass
class _Fence:
    deps: list[Dependence]

    @property
    def first(self) -> Dependence:
        return self.deps[0]


def _depth(block: Block) -> int:
    n = 0
    parent = block.parent_op()
    while parent is not None and parent.parent_block() is not None:
        n += 1
        parent = parent.parent_block().parent_op()  # type: ignore[union-attr]
    return n


def gm_dependences(f: func.FuncOp, affinity: AffinityAnalysis, aliases: Aliases | None = None) -> list[Dependence]:
    """The cross-core GM dependences of the mixed function `f` (located error if one cannot be fenced); the
    parameters in `aliases` (bound to one buffer by a caller) are one tensor."""
    return dependences(gm_accesses(list(f.walk()), lambda op: _CORE.get(affinity.get(op)), aliases))


def insert_gm_fences(f: func.FuncOp, affinity: AffinityAnalysis, aliases: Aliases | None = None) -> int:
    """Fence every cross-core GM dependence of the mixed function `f` that no transfer orders; returns how
    many fences were written (the caller recomputes the affinity when any was)."""
    groups: dict[tuple[Block, Operation, str], _Fence] = {}
    for dep in gm_dependences(f, affinity, aliases):
        if is_ordered(dep):
            continue
        groups.setdefault((dep.block, dep.after, dep.direction), _Fence([])).deps.append(dep)
    order = sorted(
        groups.values(),
        key=lambda g: (-_depth(g.first.block), -g.first.block.get_operation_index(g.first.after)),
    )
    written = 0
    for fence in order:
        live = [d for d in fence.deps if not is_ordered(d)]  # a fence placed since may order it now
        if live:
            _write_fence(live)
            written += 1
            if recording():
                record(
                    "ExpandMixedKernel", f.sym_name.data, "fence",
                    direction=live[0].direction.value,
                    after=op_ref(live[0].after),
                    hazards=[_hazard_facts(d) for d in live],
                )
    return written


def _hazard_facts(dep: Dependence) -> dict:
    """A dependence a fence closes, for the decision log: the kind, the two accesses (core, op, location) and
    the tensor, and whether it is carried by a loop (from one iteration to the next)."""

    def access(a: Access) -> dict:
        name = a.tensor.name_hint
        return {"core": a.core.value, **op_ref(a.op), "writes": a.write, "tensor": f"%{name}" if name else None}

    return {"kind": dep.kind, "first": access(dep.src), "then": access(dep.sink), "loop_carried": dep.carried}


TOKEN_SHAPE = (16, 16)
"""The shape of the token of an access that moves no tile (a tensor_put / tensor_get): 16x16 f16 is one
512-byte fractal, a whole tile in every memory space (the token's values are never read)."""


def _token_type(acc: Access, space: str) -> TileType:
    tile = acc.tile
    if tile is None:
        return TileType.get(list(TOKEN_SHAPE), Float16Type(), space)
    t = tile.type
    assert isinstance(t, TileType)
    shape = t.get_shape()
    if any(d == DYNAMIC for d in shape):
        raise PtoError(
            f"ExpandMixedKernel: this '{acc.op.name}' takes part in a cross-core GM dependence, but its tile has "
            f"a dynamic shape, so no fence token of its size can be sent through the pipe; give the tile a static "
            f"shape (with a dynamic valid region) or use separate buffers for the two cores",
            op=acc.op,
        )
    return TileType.get(list(shape), t.element_type, space)


def _write_fence(deps: list[Dependence]) -> None:
    dep = deps[0]
    block, after, d = dep.block, dep.after, dep.direction
    src = dep.src
    t = src.tile.type if src.tile is not None else None
    producer, consumer = side_of(d.producer), side_of(d.consumer)
    # a C->V token keeps the space of the cube tile (acc, mat); otherwise it lives where the producer pops
    producer_space = t.space if isinstance(t, TileType) and d is PipeDirection.C2V else producer.pop_space
    direct = (
        after is src.op
        and isinstance(t, TileType)
        and t.is_static()
        and list(t.get_valid()) == list(t.get_shape())
    )
    new: list[Operation] = []
    if direct:
        token = src.tile
        assert token is not None
    else:
        create = with_loc(CreateOp(_token_type(src, producer_space)), after)
        set_name_hint(create.results[0], "gm_token")
        new.append(create)
        token = create.results[0]
    push = with_loc(producer.tpush(token, split=0), src.op)
    new.append(push)
    anchor = after
    for op in new:
        block.insert_op_after(op, anchor)
        anchor = op

    # The pop: before the earliest sink, but no later than the first op that is or holds a transfer.
    sinks = {x.before for x in deps}
    at = push.next_op
    while at is not None and at not in sinks and not at.has_trait(IsTerminator) and not has_transfer(at):
        at = at.next_op
    assert at is not None  # every block ends with its terminator
    pop_type = _token_type(src, consumer.pop_space)
    pop = with_loc(consumer.tpop(pop_type, split=0), dep.sink.op)
    roots = sorted(r.name_hint for x in deps for r in x.src.roots & x.sink.roots if r.name_hint)
    set_name_hint(pop.results[0], f"{roots[0]}_gm_sync" if roots else "gm_sync")
    block.insert_op_before(pop, at)
