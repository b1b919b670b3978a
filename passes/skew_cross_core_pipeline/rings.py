"""The cross-core traffic of a kernel as a skeleton: which ring each push / pop / free uses, in program order, and
a run of the two cores' skeletons under pto-isa's flow control, to prove a schedule free of deadlock at a depth.

A ring is a pipe id and a direction.  The skeleton of an op is the list of its transfers in program order (the
ops nested in it included); an `scf.if` has one only when both branches do the same transfers in the same order
(then which branch runs does not change the traffic); a loop inside a loop body has none this module can state.

`runs_to_end` plays the two skeletons of a schedule (one per core: the AIV lanes run the same code on their own
rings, so one lane stands for both) against each other with the counters of `pypto_mlir.timing.flow`: a push
waits for a free signal where `producer_waits` says so, a pop waits for its tile, the consumer signals free as
`consumer_signals_free` says, at the pop on a2a3 (`releases_at_pop`) and at the tfree on a5.  Whether a core
waits does not depend on data, only on these counters, so a skeleton that runs to its end shows that the
kernel's real run cannot deadlock at that depth, and the least depth at which it does is what the schedule needs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.ir import Block, Operation

from pypto_mlir.dialects.pto_traits import CoreSide, PipeDirection, PipeFree, PipePop, PipePush, PipeTransfer
from pypto_mlir.timing.flow import consumer_signals_free, depth_is_guarded, producer_waits, wait_number

Ring = tuple[int, PipeDirection]
"""A ring: (pipe id, direction)."""

PUSH, POP, FREE = "push", "pop", "free"


@dataclass(frozen=True)
class Event:
    """One transfer of a skeleton: `kind` (push, pop or free) on `ring`."""

    kind: str
    ring: Ring

    def __str__(self) -> str:
        return f"{self.kind} {self.ring[1].tag}#{self.ring[0]}"


class NoSkeleton(Exception):
    """The traffic of an op is not a fixed list (its message says why, for a why-not)."""

    def __init__(self, message: str, op: Operation):
        super().__init__(message)
        self.op = op


def event_of(op: Operation) -> Event | None:
    """The transfer `op` is, or None."""
    trait = op.get_trait(PipeTransfer)
    if trait is None:
        return None
    kind = PUSH if isinstance(trait, PipePush) else POP if isinstance(trait, PipePop) else FREE
    assert isinstance(trait, (PipePush, PipePop, PipeFree))
    return Event(kind, (op.pipe_id, trait.direction))  # type: ignore[attr-defined]


def block_events(block: Block, loop_trip=None) -> list[Event]:
    """The skeleton of `block`'s ops.  `loop_trip(loop)`: the trip count to repeat a nested loop's skeleton by
    (None, or no `loop_trip`: a nested loop with transfers raises `NoSkeleton`)."""
    out: list[Event] = []
    for op in block.ops:
        out.extend(op_events(op, loop_trip))
    return out


def op_events(op: Operation, loop_trip=None) -> list[Event]:
    """The skeleton of `op` (see the module doc); raises `NoSkeleton`."""
    own = event_of(op)
    if own is not None:
        return [own]
    if isinstance(op, scf.IfOp):
        then = block_events(op.true_region.block, loop_trip) if op.true_region.blocks else []
        other = block_events(op.false_region.block, loop_trip) if op.false_region.blocks else []
        if then != other:
            raise NoSkeleton(
                "the two branches of an scf.if in the loop do different cross-core transfers "
                f"({_describe(then)} / {_describe(other)}), so which ring a later transfer uses depends on the branch",
                op,
            )
        return then
    if isinstance(op, (scf.ForOp, scf.WhileOp)):
        inner = [e for region in op.regions for b in region.blocks for e in block_events(b, loop_trip)]
        if not inner:
            return []
        trip = loop_trip(op) if loop_trip is not None and isinstance(op, scf.ForOp) else None
        if trip is None:
            raise NoSkeleton("a loop inside it does cross-core transfers (only the transfers of a flat body are "
                             "reordered)", op)
        return inner * trip
    return [e for region in op.regions for b in region.blocks for e in block_events(b, loop_trip)]


def _describe(events: Sequence[Event]) -> str:
    return ", ".join(str(e) for e in events) or "none"


def ring_counts(events: Iterable[Event]) -> dict[Ring, int]:
    """How many pushes and pops each ring has in `events` (frees are not ring order: they follow their pops)."""
    out: dict[Ring, int] = {}
    for e in events:
        if e.kind != FREE:
            out[e.ring] = out.get(e.ring, 0) + 1
    return out


@dataclass
class _RingState:
    pushed: int = 0
    popped: int = 0
    signals: int = 0


def runs_to_end(streams: dict[CoreSide, list[Event]], depth: int, releases_at_pop: bool) -> bool:
    """Whether the two cores' skeletons `streams` run to their ends with every ring `depth` slots deep (module
    doc).  Tile counts are per ring."""
    rings: dict[Ring, _RingState] = {}
    pos = {side: 0 for side in streams}
    while True:
        moved = False
        for side, events in streams.items():
            while pos[side] < len(events):
                e = events[pos[side]]
                st = rings.setdefault(e.ring, _RingState())
                if e.kind == PUSH:
                    t = st.pushed
                    if producer_waits(t, depth) and st.signals <= wait_number(t, depth):
                        break
                    st.pushed += 1
                elif e.kind == POP:
                    if st.popped >= st.pushed:
                        break
                    st.popped += 1
                    if releases_at_pop and consumer_signals_free(st.popped - 1, depth):
                        st.signals += 1
                elif not releases_at_pop and st.popped > 0 and consumer_signals_free(st.popped - 1, depth):
                    st.signals += 1
                pos[side] += 1
                moved = True
        if all(pos[s] == len(ev) for s, ev in streams.items()):
            return True
        if not moved:
            return False


def least_depth(runs: Iterable[dict[CoreSide, list[Event]]], releases_at_pop: bool, limit: int) -> int | None:
    """The least depth (guarded by pto-isa's flow control: `depth_is_guarded`) up to `limit` at which every
    schedule of `runs` runs to its end, or None."""
    runs = list(runs)
    for d in range(1, limit + 1):
        if depth_is_guarded(d) and all(runs_to_end(r, d, releases_at_pop) for r in runs):
            return d
    return None
