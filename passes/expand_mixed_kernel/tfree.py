"""tfree insertion (reference §4.2, seed step 10): every consumer-side tpop gets exactly one matching tfree.

Per block (nested blocks first, each independently), every `tpop` of the side starts a *chain*: its result plus
every value that aliases the popped slot — results of view ops (slice, reshape, transpose_view, set_validshape),
`scf.if` results whose branches both yield the chain, `scf.for` results carrying it.  The chain's last use in the
block (an op reading a chain value, directly or inside its regions) decides where the slot is released:

- no use: right after the tpop;
- the block's terminator (yield/return) is the last use: right before the terminator;
- otherwise: right after the last use.

An existing tfree of the side's kind whose operand traces back to the tpop (through views, same-side moves,
if/for results) is rewritten to free the tpop result itself (its attributes kept); if it sits before the last
use it is moved after it.  tpops are never moved.

Only tfrees move: tpops and the ops of other chains keep their order, and each chain is released after its
own last use, independently of the others (so a slot popped later may be released earlier; delaying it
behind an older chain could starve the producer of a slot and deadlock a loop that pops again).
The new tfree carries the tpop's `id` (never `split`) and the tpop's location.
"""

from __future__ import annotations

import heapq

from xdsl.dialects import func, scf
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.traits import IsTerminator

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import MoveOp, get_int_attr

from ..common import with_loc
from .pipe_metadata import VIEW_OPS, Side, nested_blocks, side_of, yielded


def finalize_tfrees(f: func.FuncOp, side: str) -> None:
    """Insert or move the tfrees of every tpop of `side` ("aic" or "aiv") in `f`."""
    s = side_of(side)
    for block in f.body.blocks:
        _finalize_block(block, s)


def _reaches(v: SSAValue, chain: set[SSAValue], through_moves: bool, depth: int = 0) -> bool:
    """Whether `v` is (a view of) a chain value, looking through if/for results and loop-carried arguments."""
    while depth < 256:
        depth += 1
        if v in chain:
            return True
        if isinstance(v, OpResult):
            owner = v.op
            if isinstance(owner, VIEW_OPS) or (through_moves and isinstance(owner, MoveOp)):
                v = owner.operands[0]
                continue
            if isinstance(owner, scf.IfOp):
                branches = [r.blocks[0] for r in owner.regions if r.blocks]
                if len(branches) != 2:
                    return False
                return all(
                    len(yielded(b)) > v.index and _reaches(yielded(b)[v.index], chain, through_moves, depth)
                    for b in branches
                )
            if isinstance(owner, scf.ForOp):
                i = v.index
                if i < len(owner.iter_args) and _reaches(owner.iter_args[i], chain, through_moves, depth):
                    return True
                body = owner.body.blocks[0]
                ys = yielded(body)
                return i < len(ys) and _reaches(ys[i], chain, through_moves, depth)
            return False
        if isinstance(v, BlockArgument):
            parent = v.block.parent_op()
            if isinstance(parent, scf.ForOp) and v.index > 0 and v.index - 1 < len(parent.iter_args):
                v = parent.iter_args[v.index - 1]
                continue
        return False
    return False


def _pops_reached(v: SSAValue, s: Side) -> list[Operation]:
    """The tpops of `s` that `v` may trace back to along the edges `_reaches` follows (any branch): a superset
    of the chains an existing tfree can belong to, so only those are checked with `_reaches`."""
    found: list[Operation] = []
    stack = [v]
    seen: set[SSAValue] = set()
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        if isinstance(v, OpResult):
            owner = v.op
            if isinstance(owner, s.tpop):
                found.append(owner)
            elif isinstance(owner, VIEW_OPS) or isinstance(owner, MoveOp):
                stack.append(owner.operands[0])
            elif isinstance(owner, scf.IfOp):
                for r in owner.regions:
                    if r.blocks and len(yielded(r.blocks[0])) > v.index:
                        stack.append(yielded(r.blocks[0])[v.index])
            elif isinstance(owner, scf.ForOp):
                if v.index < len(owner.iter_args):
                    stack.append(owner.iter_args[v.index])
                ys = yielded(owner.body.blocks[0])
                if v.index < len(ys):
                    stack.append(ys[v.index])
        elif isinstance(v, BlockArgument):
            parent = v.block.parent_op()
            if isinstance(parent, scf.ForOp) and v.index > 0 and v.index - 1 < len(parent.iter_args):
                stack.append(parent.iter_args[v.index - 1])
    return found


class _Chain:
    def __init__(self, pop: Operation):
        self.pop = pop
        self.values: set[SSAValue] = {pop.results[0]}
        self.existing: list[Operation] = []


def _last_use(
    ch: _Chain, block: Block, ops: list[Operation], index: dict[Operation, int], skip: set[Operation]
) -> int:
    """Index in `block` of the last op reading a value of the chain (the tpop's own index when none does).

    Use-driven: the users of every chain value are climbed to their op in `block` and visited in block order,
    so that each op sees the chain as it is up to that op; a visited view op adds its results to the chain, a
    visited `scf.if`/`scf.for` the results that carry the slot (`_reaches`). Every op reading a chain value is
    reached this way (the results of an if/for only reach the chain through a read inside it), and ops in
    `skip` (the existing tfrees) do not count as uses."""
    start = index[ch.pop]
    last = start
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
        if op in skip:
            continue
        added: list[SSAValue] = []
        if isinstance(op, (scf.IfOp, scf.ForOp)):
            for r in op.results:
                if r not in ch.values and _reaches(r, ch.values, through_moves=False):
                    ch.values.add(r)
                    added.append(r)
        last = i
        if isinstance(op, VIEW_OPS):
            ch.values.update(op.results)
            added.extend(op.results)
        for r in added:
            enqueue_users(r)
    return last


def _finalize_block(block: Block, s: Side) -> None:
    for op in list(block.ops):
        for inner in nested_blocks(op):
            _finalize_block(inner, s)
    ops = list(block.ops)
    chains = [_Chain(op) for op in ops if isinstance(op, s.tpop)]
    if not chains:
        return
    index = {op: i for i, op in enumerate(ops)}

    # Existing tfrees of this side: attach each to the chain its operand traces back to, and free the tpop itself.
    for op in ops:
        if not isinstance(op, s.tfree):
            continue
        candidates = set(_pops_reached(op.operands[0], s))
        for ch in chains:
            if ch.pop not in candidates:
                continue
            if index[ch.pop] < index[op] and _reaches(op.operands[0], {ch.pop.results[0]}, through_moves=True):
                ch.existing.append(op)
                if op.operands[0] is not ch.pop.results[0]:
                    op.operands = [ch.pop.results[0]]
                break
    own_frees = {e for ch in chains for e in ch.existing}

    # Where each chain's slot must be released: `slot` = index of the op after which the tfree goes; `k - 0.5`
    # means "right before the terminator ops[k]".
    after: dict[float, list[Operation]] = {}
    for ch in chains:
        last = _last_use(ch, block, ops, index, own_frees)
        slot: float = last - 0.5 if last != index[ch.pop] and ops[last].has_trait(IsTerminator) else last
        keep = ch.existing[0] if ch.existing else None
        if keep is not None and index[keep] > last and not ops[last].has_trait(IsTerminator):
            slot = max(slot, index[keep])
        if keep is not None and index[keep] == slot:
            continue  # already in place
        if keep is not None:
            keep.detach()
            free = keep
        else:
            tid = get_int_attr(ch.pop, "id")
            free = with_loc(s.tfree(ch.pop.results[0], id=tid), ch.pop)
        after.setdefault(slot, []).append(free)

    for slot, frees in after.items():
        if slot != int(slot):
            term = ops[int(slot + 0.5)]
            for free in frees:
                block.insert_op_before(free, term)
            continue
        anchor = ops[int(slot)]
        for free in frees:
            block.insert_op_after(free, anchor)
            anchor = free


def check_local_depth(f: func.FuncOp, side: str, depth: int, setting: str) -> None:
    """Reject a schedule in which `side` holds more popped slots at once than `depth` (run after tfree insertion).

    `setting` names where the depth comes from, for the message (e.g. "pto.local_slot_num = 1 on @f")."""
    s = side_of(side)
    for block in f.body.blocks:
        _check_block(f, block, s, depth, 0, setting)


def _check_block(f: func.FuncOp, block: Block, s: Side, depth: int, live: int, setting: str) -> None:
    for op in block.ops:
        if isinstance(op, s.tpop):
            live += 1
            if live > depth:
                d = "V2C" if s.name == "aic" else "C2V"
                raise PtoError(
                    f"{s.upper} function '{f.sym_name.data}' holds {live} popped {d} slots at once here, but the local "
                    f"consumer depth is {depth} ({setting}); the pass does not reorder consumers: release a slot "
                    f"before this pop or raise the local depth",
                    op=op,
                )
        elif isinstance(op, s.tfree):
            live = max(0, live - 1)
        for inner in nested_blocks(op):
            _check_block(f, inner, s, depth, live, setting)
