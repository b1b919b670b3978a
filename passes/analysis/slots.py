"""Slot chains: which values share a popped FIFO slot, and where that slot is last used (the one slot analysis).

A `tpop` hands its side a tile that *is* a slot of the ring: the slot is reused by the producer as soon as the
consumer frees it (`tfree`).  The slot stays in use while any value that shares it can still be read.  A
*chain* is the tpop's result plus every value that shares the slot:

- the results of the view ops (`slice`, `reshape`, `transpose_view`, `set_validshape`; `pto.move` and
  `pto.transpose` copy, so their results do not share it);
- the results of an `scf.if` of which either branch yields a chain value at that position (the result *may*
  be the slot, so the slot stays in use while it is read);
- the results of an `scf.for` / `scf.while` that carry a chain value, and the loop's region arguments that
  do (iter_args).

A chain is looked at in the block of its tpop (every tpop is freed in its own block).  Its *uses* in that block
are the ops that read a chain value, directly or inside their regions; its *last use* is the latest of them.
A chain value passed out of the block by the block's terminator (an `scf.yield` / `scf.condition` /
`func.return` operand) *escapes*; the escape is *live* when what receives it (the parent's result, the next
iteration's region argument, the caller) can be read.  A slot whose chain escapes live cannot be freed in its
block at all: tfree placement copies the tile (`pto.move`) before the terminator and yields the copy.

Users (one analysis, three users): tfree placement (`expand_mixed_kernel/tfree.py`), the MixedKernelExpanded
verifier (`expand_mixed_kernel/verifier.py`: a free before a use, or before a live escape, is rejected), and
the slot-depth check (`most_held`: the least ring depth a schedule runs at; `check_slot_depth`: local_slot_num
and the ring depth slot_num).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.dialects import func, scf
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_traits import SlotView
from pypto_mlir.dialects.pto_ops import (
    SplitAivScopeOp,
    YieldOp,
    TFREE_OPS,
    TPOP_OPS,
    MoveOp,
)

from .traits import op_has_trait

# Ops with the `SlotView` trait (including reinterpret_view, beyond the contract): the result is a view of (the
# same buffer as) the first operand: a
# popped slot stays in use while any of these views is used.  `pto.transpose` and `pto.move` copy, so they are
# not views.

_MAX_DEPTH = 256


def _yielded(block: Block) -> list[SSAValue]:
    term = block.last_op
    if isinstance(term, scf.YieldOp):
        return list(term.operands)
    if isinstance(term, scf.ConditionOp):
        return list(term.args)
    if isinstance(term, YieldOp):
        return list(term.operands)
    return []


def _branches(op: scf.IfOp) -> list[Block]:
    return [r.blocks[0] for r in op.regions if r.blocks]


def _carried(inits: list[SSAValue], body: Block, i: int) -> list[list[SSAValue]]:
    """A loop value at position `i`: the initial value or the value the body yields back (either one)."""
    ys = _yielded(body)
    return [[src[i]] for src in (inits, ys) if i < len(src)]


def flow_sources(v: SSAValue) -> list[list[SSAValue]]:
    """The values control flow passes into `v`, one step back, as alternatives: `v` is one of them when it is
    *all* values of one alternative (an `scf.if` result needs both branches; a loop value may be the initial
    value or the yielded one; a `pto.split_aiv_scope` result is what its `pto.yield` passes out).  Empty when `v`
    is made by an op (or is a function argument).

    Shared by the slot chains here and by the GM tensor roots of `analysis/hazards.py`."""
    if isinstance(v, OpResult):
        owner = v.op
        if isinstance(owner, scf.IfOp):
            bs = _branches(owner)
            if len(bs) == 2 and all(len(_yielded(b)) > v.index for b in bs):
                return [[_yielded(b)[v.index] for b in bs]]
        elif isinstance(owner, scf.ForOp):
            return _carried(list(owner.iter_args), owner.body.blocks[0], v.index)
        elif isinstance(owner, scf.WhileOp):
            return _carried([], owner.before_region.blocks[0], v.index)
        elif isinstance(owner, SplitAivScopeOp):  # a region's result is what its pto.yield passes out
            out = _yielded(owner.body.block)
            return [[out[v.index]]] if len(out) > v.index else []
        return []
    if isinstance(v, BlockArgument):
        parent = v.block.parent_op()
        if isinstance(parent, scf.ForOp) and v.index > 0:
            return _carried(list(parent.iter_args), parent.body.blocks[0], v.index - 1)
        if isinstance(parent, scf.WhileOp):
            if v.block is parent.before_region.blocks[0]:
                return _carried(list(parent.arguments), parent.after_region.blocks[0], v.index)
            return _carried([], parent.before_region.blocks[0], v.index)
    return []


def _sources(v: SSAValue, through_moves: bool) -> list[list[SSAValue]]:
    """`flow_sources`, plus the source of a view (and, with `through_moves`, of a same-side copy)."""
    if isinstance(v, OpResult) and (op_has_trait(v.op, SlotView) or (through_moves and isinstance(v.op, MoveOp))):
        return [[v.op.operands[0]]]
    return flow_sources(v)


def shares_slot(v: SSAValue, chain: set[SSAValue], through_moves: bool = False, may: bool = False) -> bool:
    """Whether `v` is (a view of, a control-flow result carrying) a value of `chain`.

    By default `v` must *be* the slot on every path: an `scf.if` result counts only when both branches yield a
    chain value (what a tfree needs: it must free that slot whichever branch ran).  With `may`, one path is
    enough: an `scf.if` that yields the popped tile in one branch and another tile in the other *may* hold the
    slot, so the slot stays in use while that result is read (what liveness needs).

    With `through_moves`, same-side copies (`pto.move`, e.g. the AIC's mat -> left placement) are followed too:
    that is how an existing tfree written on the moved tile is traced back to its tpop."""
    seen: set[SSAValue] = set()
    every = any if may else all

    def go(x: SSAValue, depth: int) -> bool:
        if x in chain:
            return True
        if x in seen or depth > _MAX_DEPTH:
            return False
        seen.add(x)
        return any(every(go(y, depth + 1) for y in alt) for alt in _sources(x, through_moves) if alt)

    return go(v, 0)


def pops_reached(v: SSAValue, tpop: type[Operation] | tuple[type[Operation], ...] = TPOP_OPS) -> list[Operation]:
    """The tpops `v` may trace back to along any edge `shares_slot(..., through_moves=True)` follows."""
    found: list[Operation] = []
    stack = [v]
    seen: set[SSAValue] = set()
    while stack:
        x = stack.pop()
        if x in seen:
            continue
        seen.add(x)
        if isinstance(x, OpResult) and isinstance(x.op, tpop):
            found.append(x.op)
            continue
        for alt in _sources(x, through_moves=True):
            stack.extend(alt)
    return found


@dataclass
class Chain:
    """The values sharing the slot of one tpop, as seen in the tpop's block."""

    pop: Operation
    values: set[SSAValue] = field(default_factory=set)
    uses: list[int] = field(default_factory=list)
    """Indices (in the block) of the ops that read a chain value, ascending."""

    def __post_init__(self) -> None:
        self.values.add(self.pop.results[0])

    @property
    def last_use(self) -> int | None:
        return self.uses[-1] if self.uses else None


def block_chains(
    block: Block,
    tpop: type[Operation] | tuple[type[Operation], ...] = TPOP_OPS,
    ignore: Callable[[Operation], bool] = lambda op: isinstance(op, TFREE_OPS),
) -> tuple[list[Operation], dict[Operation, int], list[Chain]]:
    """The chains of the tpops (`tpop`) of `block`: (the block's ops, their indices, one chain per tpop).

    Use-driven: the users of every chain value are climbed to their op in `block` and visited in block order,
    so each op sees the chain as it is up to that op; a visited view op adds its results to the chain, a
    visited `scf.if`/`scf.for`/`scf.while` the results that carry the slot.  Ops for which `ignore` holds (the
    tfrees) do not count as uses."""
    ops = list(block.ops)
    index = {op: i for i, op in enumerate(ops)}
    chains = [Chain(op) for op in ops if isinstance(op, tpop)]
    for ch in chains:
        _collect_uses(ch, block, ops, index, ignore)
    return ops, index, chains


def _collect_uses(
    ch: Chain, block: Block, ops: list[Operation], index: dict[Operation, int], ignore: Callable[[Operation], bool]
) -> None:
    start = index[ch.pop]
    heap: list[int] = []
    queued: set[int] = set()

    def enqueue_users(v: SSAValue) -> None:
        for use in v.uses:
            anc = block.find_ancestor_op_in_block(use.operation)
            if anc is None:
                continue
            i = index[anc]
            if i > start and i not in queued:
                queued.add(i)
                heapq.heappush(heap, i)

    enqueue_users(ch.pop.results[0])
    while heap:
        i = heapq.heappop(heap)
        op = ops[i]
        if ignore(op):
            continue
        added: list[SSAValue] = []
        if isinstance(op, (scf.IfOp, scf.ForOp, scf.WhileOp)):
            for r in op.results:
                if r not in ch.values and shares_slot(r, ch.values, may=True):
                    ch.values.add(r)
                    added.append(r)
        ch.uses.append(i)
        if op_has_trait(op, SlotView):
            ch.values.update(op.results)
            added.extend(op.results)
        for r in added:
            enqueue_users(r)


def _has_live_use(v: SSAValue, ignore: Callable[[Operation], bool]) -> bool:
    return any(not ignore(u.operation) for u in v.uses)


def live_escapes(
    ch: Chain, block: Block, ignore: Callable[[Operation], bool] = lambda op: isinstance(op, TFREE_OPS)
) -> list[tuple[int, str]]:
    """The terminator operand positions through which a chain value leaves `block` *live*, each with what
    reads it (for messages): the parent's result, the next iteration's argument, the after-region's argument,
    or the caller."""
    term = block.last_op
    if term is None:
        return []
    parent = block.parent_op()
    out: list[tuple[int, str]] = []
    for i, v in enumerate(term.operands):
        if v not in ch.values:
            continue
        if isinstance(term, func.ReturnOp):
            out.append((i, "the caller"))
            continue
        receivers: list[tuple[SSAValue, str]] = []
        if isinstance(term, scf.ConditionOp):
            if i == 0:
                continue
            j = i - 1
            assert isinstance(parent, scf.WhileOp)
            if j < len(parent.results):
                receivers.append((parent.results[j], f"result #{j} of the scf.while"))
            after = parent.after_region.blocks[0]
            if j < len(after.args):
                receivers.append((after.args[j], "the loop body's argument"))
        elif isinstance(term, scf.YieldOp):
            if isinstance(parent, scf.IfOp) and i < len(parent.results):
                receivers.append((parent.results[i], f"result #{i} of the scf.if"))
            elif isinstance(parent, scf.ForOp):
                if i < len(parent.results):
                    receivers.append((parent.results[i], f"result #{i} of the scf.for (after the loop)"))
                if i + 1 < len(block.args):
                    receivers.append((block.args[i + 1], "the next iteration's iter_arg"))
            elif isinstance(parent, scf.WhileOp):
                before = parent.before_region.blocks[0]
                if i < len(before.args):
                    receivers.append((before.args[i], "the next iteration's loop-carried argument"))
            else:
                receivers.append((v, "the parent op"))
        else:
            receivers.append((v, f"'{term.name}'"))
        live = [what for r, what in receivers if r is v or _has_live_use(r, ignore)]
        if live:
            out.append((i, live[0]))
    return out


# -- how many slots a side holds at once ---------------------------------------------------------------------------


def _held_counts(f: func.FuncOp, tpop: type[Operation], tfree: type[Operation]):
    """Each tpop of `f` with (its pipe id, how many popped slots of that pipe `f` holds right after it).  Frees and
    pops are counted per block in program order; a nested block starts with the count of its parent at the op that
    holds it (every tpop is freed in its own block)."""

    def walk(block: Block, live: dict[int, int]):
        live = dict(live)
        for op in block.ops:
            if isinstance(op, tpop):
                pid = op.pipe_id
                live[pid] = live.get(pid, 0) + 1
                yield op, pid, live[pid]
            elif isinstance(op, tfree):
                pid = op.pipe_id
                live[pid] = max(0, live.get(pid, 0) - 1)
            for r in op.regions:
                for inner in r.blocks:
                    yield from walk(inner, live)

    for block in f.body.blocks:
        yield from walk(block, {})


def most_held(f: func.FuncOp, tpop: type[Operation], tfree: type[Operation]) -> int:
    """The most popped slots of one pipe `f` holds at once (0 when it pops nothing): the least ring depth its
    schedule runs at."""
    return max((live for _, _, live in _held_counts(f, tpop, tfree)), default=0)


def check_slot_depth(f: func.FuncOp, tpop: type[Operation], tfree: type[Operation], depth_of, describe) -> None:
    """Reject a schedule of `f` that holds more popped slots of one pipe at once than the pipe's depth.

    `depth_of(pipe_id)` gives (depth, setting) or None (no limit known); `describe(live, depth, setting, pop)`
    builds the message, raised at the first pop that goes over (counted as `_held_counts` does)."""
    for op, pid, live in _held_counts(f, tpop, tfree):
        got = depth_of(pid)
        if got is not None and live > got[0]:
            raise PtoError(describe(live, got[0], got[1], op), op=op)
