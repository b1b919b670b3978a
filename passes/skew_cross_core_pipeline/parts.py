"""A loop body cut in two: the produce part (the first `cut` ops of the body) and the consume part (the rest, up
to the `scf.yield`), and whether the skew may run the produce part D iterations ahead of the consume part.

It may when (each rule's refusal is a why-not sentence):
- every op's cross-core traffic is a fixed list (`rings.op_events`: no loop with transfers inside, an `scf.if`
  whose branches do the same transfers);
- every popped slot is freed in the part that popped it (a slot held across the D iterations would need D more
  slots, and the tfree pairing would cross the skew);
- a value the consume part uses from the produce part of the same iteration is recomputed there (`remat`: the op
  and what it needs are cloned into the consume part, and leave the produce part when nothing else there uses
  them) when it is side-effect free, or a load of a GM tensor that neither core writes; any other value (a pop's
  tile, an `scf.if`'s result, a load of a written tensor) would have to live D iterations: refused;
- each loop-carried value (`iter_args`) belongs to one part: the part that computes what the `scf.yield` gives
  it, or that reads it; the produce part reading a value the consume part carries is "the produce part depends on
  the consume part of an earlier iteration" -- the skew would read it D iterations too early;
- no GM tensor written in one part is read or written in the other (their order on this core changes), and the
  body accesses no GM tensor the other core also accesses with a write by either: a transfer in one iteration's
  consume part (a GM fence's pop at the iteration's end) orders accesses in the next iteration's produce part,
  which the skew runs first.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import func, scf
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.traits import is_side_effect_free

from pypto_mlir.dialects.pto_traits import CoreSide, GmAccess, PipeFree, PipePop

from ..analysis.hazards import tensor_roots
from .rings import Event, event_of, op_events


@dataclass(frozen=True)
class Cut:
    """A valid cut of `loop`'s body (module doc)."""

    side: CoreSide
    loop: scf.ForOp
    cut: int
    """The produce part is the first `cut` ops of the body (the `scf.yield` excluded)."""
    produce_args: tuple[int, ...]
    """The iter_args (by index) the produce part carries; the others are the consume part's."""
    remat: tuple[Operation, ...]
    """Produce-part ops the consume part recomputes, in body order."""
    moved: frozenset[Operation]
    """The ops of `remat` the produce part no longer needs (only the consume part used them)."""
    produce_events: tuple[Event, ...]
    consume_events: tuple[Event, ...]

    @property
    def whole(self) -> bool:
        """The cut leaves one part empty: the loop runs as it is."""
        return self.cut == 0 or self.cut == len(body_ops(self.loop))


class Uncut(Exception):
    """Why a cut is not valid (a sentence) and the op it is about."""

    def __init__(self, message: str, op: Operation):
        super().__init__(message)
        self.op = op


def body_ops(loop: scf.ForOp) -> list[Operation]:
    """The ops of `loop`'s body but its `scf.yield`."""
    return list(loop.body.block.ops)[:-1]


def _top_index(loop: scf.ForOp) -> dict[Operation, int]:
    """Each op nested in `loop`'s body -> the index of the body op holding it."""
    out: dict[Operation, int] = {}
    for i, op in enumerate(body_ops(loop)):
        for inner in op.walk():
            out[inner] = i
    return out


def _recomputable(op: Operation, readonly: frozenset[int]) -> bool:
    """Side-effect free with no region, or a load of GM tensors that are parameters no core of the Group writes
    (`readonly`: their indices)."""
    if op.regions or event_of(op) is not None:
        return False
    if is_side_effect_free(op):
        return True
    trait = op.get_trait(GmAccess)
    if trait is None or trait.written_tensors(op):
        return False
    roots = [r for v in trait.read_tensors(op) for r in tensor_roots(v)]
    return all(isinstance(r, BlockArgument) and isinstance(r.block.parent_op(), func.FuncOp) and r.index in readonly
               for r in roots)


def _param_roots(f: func.FuncOp, op: Operation, which: str, memo: dict) -> set[int]:
    """The indices of the parameters of `f` the GM accesses of `op` (nested ones included) read or write."""
    out: set[int] = set()
    for inner in op.walk():
        trait = inner.get_trait(GmAccess)
        if trait is None:
            continue
        values = trait.read_tensors(inner) if which == "read" else trait.written_tensors(inner)
        for v in values:
            out |= {r.index for r in tensor_roots(v, memo) if isinstance(r, BlockArgument) and r.block is f.body.block}
    return out


def _gm_roots(ops: list[Operation]) -> tuple[set[SSAValue], set[SSAValue]]:
    """(the GM tensors `ops` read, those they write), as `tensor_roots`."""
    reads: set[SSAValue] = set()
    writes: set[SSAValue] = set()
    memo: dict = {}
    for top in ops:
        for op in top.walk():
            trait = op.get_trait(GmAccess)
            if trait is None:
                continue
            for v in trait.read_tensors(op):
                reads |= tensor_roots(v, memo)
            for v in trait.written_tensors(op):
                writes |= tensor_roots(v, memo)
    return reads, writes


@dataclass(frozen=True)
class GmSharing:
    """Which Group parameters (by index; both members take the Group's list) the two cores share in GM."""

    readonly: frozenset[int]
    """Written by neither core."""
    shared: frozenset[int]
    """Written by one core and read or written by the other."""

    @staticmethod
    def of(aic: func.FuncOp, aiv: func.FuncOp) -> GmSharing:
        sets = []
        for f in (aic, aiv):
            memo: dict = {}
            sets.append((_param_roots(f, f, "read", memo), _param_roots(f, f, "write", memo)))
        (rc, wc), (rv, wv) = sets
        n = len(aic.body.block.args)
        return GmSharing(frozenset(range(n)) - wc - wv, frozenset((wc & (rv | wv)) | (wv & rc)))


def plan_cut(loop: scf.ForOp, side: CoreSide, cut: int, gm: GmSharing) -> Cut:
    """The cut of `loop`'s body after its first `cut` ops, if valid (module doc); raises `Uncut`.  `gm`: which
    Group parameters the cores share."""
    readonly = gm.readonly
    ops = body_ops(loop)
    top = _top_index(loop)
    events: list[list[Event]] = []
    for op in ops:
        events.append(op_events(op))  # NoSkeleton propagates: no cut of this body is valid
    in_produce = {op: top[op] < cut for op in top}

    # every popped slot freed in the part that popped it
    for op, i in top.items():
        if op.get_trait(PipeFree) is None:
            continue
        owner = op.operands[0].owner
        if not isinstance(owner, Operation) or owner.get_trait(PipePop) is None or owner not in top:
            continue
        if in_produce[owner] != in_produce[op]:
            raise Uncut("a popped slot would be freed in the other part of the iteration than its pop", op)

    # values flowing from the produce part to the consume part of the same iteration
    remat: set[Operation] = set()

    def recompute(v: SSAValue, user: Operation) -> None:
        owner = v.owner
        if not isinstance(owner, Operation) or owner not in top or not in_produce[owner] or owner in remat:
            return
        if not _recomputable(owner, readonly):
            raise Uncut(
                f"the consume part uses a value the produce part computes in the same iteration "
                f"('{owner.name}'), which would have to live D iterations", user)
        remat.add(owner)
        for operand in owner.operands:
            recompute(operand, user)

    for op in ops[cut:]:
        for inner in op.walk():
            for v in inner.operands:
                recompute(v, inner)

    # loop-carried values
    body = loop.body.block
    yield_op = body.last_op
    assert isinstance(yield_op, scf.YieldOp)
    produce_args: list[int] = []
    for i, arg in enumerate(body.args[1:]):
        parts = {in_produce[u.operation] for u in arg.uses if u.operation in top}
        carried = yield_op.operands[i]
        owner = carried.owner
        if isinstance(owner, Operation) and owner in top:
            parts_def = {in_produce[owner]}
        elif carried in body.args[1:] and carried is not arg:
            raise Uncut("a loop-carried value is yielded as another one", yield_op)
        else:
            parts_def = set()
        every = parts | parts_def
        if len(every) > 1:
            user = next((u.operation for u in arg.uses if u.operation in top and
                         in_produce[u.operation] not in parts_def), yield_op)
            if parts_def == {False}:
                raise Uncut("the produce part depends on the consume part of an earlier iteration (it reads a "
                            "loop-carried value the consume part computes)", user)
            raise Uncut("the consume part reads a loop-carried value the produce part computes, which the skew "
                        "would advance D iterations too far", user)
        if every == {True}:
            produce_args.append(i)

    # GM shared with the other core: the transfers that order those accesses (ExpandMixedKernel's fences, or a
    # data transfer that already orders them) would be reordered against them across iterations
    f = loop.parent_op()
    if 0 < cut < len(ops) and isinstance(f, func.FuncOp):
        memo: dict = {}
        for op in ops:
            if (_param_roots(f, op, "read", memo) | _param_roots(f, op, "write", memo)) & gm.shared:
                raise Uncut("the loop accesses a GM tensor the other core also accesses, one of them writing it: the "
                            "skew would reorder those accesses against the transfers that order them", op)

    # GM order on this core
    reads_p, writes_p = _gm_roots(ops[:cut])
    reads_c, writes_c = _gm_roots(ops[cut:])
    if writes_p & (reads_c | writes_c) or writes_c & reads_p:
        raise Uncut("both parts access a GM tensor one of them writes, and the skew reorders them on this core",
                    loop)

    # the recomputed ops the produce part no longer needs (latest first: a use by a moved op does not count)
    order = {op: i for i, op in enumerate(loop.walk())}
    moved: set[Operation] = set()
    for op in sorted(remat, key=order.__getitem__, reverse=True):
        users = {u.operation for r in op.results for u in r.uses}
        if all(not in_produce.get(u, False) or u in moved for u in users if u is not yield_op) and not any(
                u is yield_op for u in users):
            moved.add(op)
    return Cut(
        side, loop, cut, tuple(produce_args), tuple(sorted(remat, key=order.__getitem__)), frozenset(moved),
        tuple(e for ev in events[:cut] for e in ev), tuple(e for ev in events[cut:] for e in ev),
    )
