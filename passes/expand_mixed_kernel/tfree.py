"""tfree insertion (reference §4.2, seed step 10): every consumer-side tpop gets exactly one matching tfree.

Per block (nested blocks first, each independently), every `tpop` of the side starts a *chain* (the values that
share its slot: views, `scf.if`/`scf.for`/`scf.while` results and loop arguments that carry it; see
`analysis/slots.py`).  The chain's last use in the block (an op reading a chain value, directly or inside its
regions) decides where the slot is released:

- no use: right after the tpop;
- the block's terminator (yield/return) is the last use: right before the terminator;
- otherwise: right after the last use.

A chain value the terminator passes out *live* (a loop result read after the loop, the next iteration's
argument, an `scf.if` result that is read) cannot be released in the block: the terminator passes a copy
(`%<tile>_copy = pto.move`) instead, and the slot is released after the copy.  (The reference frees before the
yield, and the cube may overwrite the slot while the loop result is still read.)

An existing tfree of the side's kind whose operand traces back to the tpop (through views, same-side moves,
if/for/while results) is rewritten to free the tpop result itself (its attributes kept); if it sits before the
last use it is moved after it.  tpops are never moved.

Only tfrees move: tpops and the ops of other chains keep their order, and each chain is released after its
own last use, independently of the others (so a slot popped later may be released earlier; delaying it
behind an older chain could starve the producer of a slot and deadlock a loop that pops again).
The new tfree carries the tpop's `id` (never `split`) and the tpop's location.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.ir import Block, Operation
from xdsl.traits import IsTerminator

from pypto_mlir.dialects.pto_op_base import int_value
from pypto_mlir.dialects.pto_ops import MoveOp
from pypto_mlir.dialects.pto_traits import CoreSide, PipeDirection

from ..analysis.slots import block_chains, check_slot_depth, live_escapes, pops_reached, shares_slot
from ..common import with_loc
from .pipe_metadata import Side, nested_blocks, set_name_hint, side_of
from .mx_scale import mx_ring_hint


def finalize_tfrees(f: func.FuncOp, side: CoreSide) -> None:
    """Insert or move the tfrees of every tpop of `side` in `f`."""
    s = side_of(side)
    for block in f.body.blocks:
        _finalize_block(block, s)


def _copy_live_escapes(block: Block, s: Side) -> None:
    """A chain value the terminator passes out of the block while it is still read there (a loop result read
    after the loop, the next iteration's argument, an `scf.if` result) would outlive its slot: the terminator
    passes a copy (`%<tile>_copy = pto.move`) instead, so the slot can be freed in its block."""
    _, _, chains = block_chains(block, s.tpop, ignore=lambda op: isinstance(op, s.tfree))
    term = block.last_op
    for ch in chains:
        for i, _what in live_escapes(ch, block, ignore=lambda op: isinstance(op, s.tfree)):
            assert term is not None
            v = term.operands[i]
            copy = with_loc(MoveOp(v, v.type), ch.pop)  # type: ignore[arg-type]
            set_name_hint(copy.results[0], f"{v.name_hint or ch.pop.results[0].name_hint or 'slot'}_copy")
            block.insert_op_before(copy, term)
            term.operands = [copy.results[0] if j == i else w for j, w in enumerate(term.operands)]


def _finalize_block(block: Block, s: Side) -> None:
    for op in list(block.ops):
        for inner in nested_blocks(op):
            _finalize_block(inner, s)
    if not any(isinstance(op, s.tpop) for op in block.ops):
        return
    _copy_live_escapes(block, s)
    ops, index, chains = block_chains(block, s.tpop, ignore=lambda op: isinstance(op, s.tfree))

    # Existing tfrees of this side: attach each to the chain its operand traces back to, and free the tpop itself.
    existing: dict[Operation, list[Operation]] = {ch.pop: [] for ch in chains}
    for op in ops:
        if not isinstance(op, s.tfree):
            continue
        candidates = set(pops_reached(op.operands[0], s.tpop))
        for ch in chains:
            if ch.pop not in candidates:
                continue
            if index[ch.pop] < index[op] and shares_slot(op.operands[0], {ch.pop.results[0]}, through_moves=True):
                existing[ch.pop].append(op)
                if op.operands[0] is not ch.pop.results[0]:
                    op.operands = [ch.pop.results[0]]
                break

    # Where each chain's slot must be released: `slot` = index of the op after which the tfree goes; `k - 0.5`
    # means "right before the terminator ops[k]".
    after: dict[float, list[Operation]] = {}
    for ch in chains:
        last = ch.last_use if ch.last_use is not None else index[ch.pop]
        slot: float = last - 0.5 if last != index[ch.pop] and ops[last].has_trait(IsTerminator) else last
        keep = existing[ch.pop][0] if existing[ch.pop] else None
        if keep is not None and index[keep] > last and not ops[last].has_trait(IsTerminator):
            slot = max(slot, index[keep])
        if keep is not None and index[keep] == slot:
            continue  # already in place
        if keep is not None:
            keep.detach()
            free = keep
        else:
            tid = int_value(ch.pop.id)  # None when the tpop states no id (the tfree then states none)
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


def check_local_depth(
    f: func.FuncOp, side: CoreSide, depth: int, setting: str, ring: bool = False, fix: str | None = None, note: str = ""
) -> None:
    """Reject a schedule in which `side` holds more popped slots of a pipe at once than `depth` (run after tfree
    insertion; counted by `analysis.slots.check_slot_depth`).

    `setting` names where the depth comes from, for the message (e.g. "pto.local_slot_num = 1 on @f").  With
    `ring`, `depth` is the ring's slot_num (no local depth given): holding more than that would hang both cores;
    `fix` replaces the message's default advice and `note` ends it."""
    s = side_of(side)
    d = PipeDirection.to_consumer(side).tag

    def describe(live: int, depth: int, setting: str, pop: Operation) -> str:
        head = f"{s.upper} function '{f.sym_name.data}' holds {live} popped {d} slots at once here, but "
        if ring:
            return (
                head + f"the ring has only {depth} slots ({setting}): the producer could never push this tile, so "
                f"both cores would hang; "
                + (fix or "release a slot (use the held tiles) before this pop or raise pto.slot_num")
                + mx_ring_hint(f) + note
            )
        return (
            head + f"the local consumer depth is {depth} ({setting}); the pass does not reorder consumers: release a "
            f"slot before this pop or raise the local depth"
        )

    check_slot_depth(f, s.tpop, s.tfree, lambda pid: (depth, setting), describe)
