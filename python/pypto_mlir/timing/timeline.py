"""The timing model's schedule: what each core ran (a `Timeline`, recorded once by the interpreter) and when each
op would start and end under the cost table (`replay`, a discrete-event schedule, run for any ring depths).

A Group run is recorded as one `Timeline`: per core (the AIC, each AIV lane) the ops it ran in program order
(loops unrolled, the branch taken), each with its modelled cost (`costs.cost_of`), and for the pipe handshakes
the ring and the entry they work on.  Which ops run does not depend on the ring depth (a depth only decides when
a producer may refill a slot), so one recording answers every depth: `replay` schedules the recorded ops with
the depths it is given.

The schedule: every core has a clock, starting at 0; an op starts when its core is free and, for
  * a `tpop` of entry n: when every producer's push of entry n has ended (a push ends with its ready signal);
  * a `tpush` that pto-isa makes wait for a free signal (`flow.producer_waits`: not the first `depth` pushes,
    then once per sync period): when every consumer has sent the free signal this wait consumes (the w-th wait
    takes the w-th signal; a consumer signals at the end of a `tpop` on a2a3, of a `tfree` on a5, once per sync
    period: `flow.consumer_signals_free`);
  * a `lane_barrier` (the k-th of its lane): when every lane that reaches a k-th barrier has arrived at it (its
    core was free), so the lane that arrives first waits for the other;
and ends `cycles` later.  Anything else (a GM access, a vector op, a matmul) only waits for its core.  Comm
signals between Groups and the lane rendezvous (`aic_gather`) of unexpanded kernels are not modelled.  The cycles are modelled
cycles, not hardware time (see `costs.py`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from xdsl.ir import Operation

from .flow import consumer_signals_free, producer_waits, releases_at_pop, unguarded_reuses

RingKey = tuple[int, str]
"""(pipe id, direction `C->V` / `V->C`): one ring of a Group."""


@dataclass
class Item:
    """One op a core ran: its cost, and for a handshake (`sync` = push / pop / free) the ring and entry; for a
    lane barrier (`sync` = barrier) which of the lane's barriers it is (`index`)."""

    op: Operation
    cycles: int
    unit: str
    sync: str | None = None
    ring: RingKey | None = None
    index: int = -1


@dataclass
class Track:
    """The ops one core ran, in order.  `key` is the core's key in a ring (the AIC side or the lane number)."""

    label: str
    key: Any
    items: list[Item] = field(default_factory=list)


@dataclass
class RingInfo:
    name: str
    slot_num: int
    producers: int
    consumers: int


@dataclass
class Timeline:
    """One Group run (or a kernel launched alone): its cores' tracks and its rings."""

    label: str
    target: str | None
    tracks: list[Track] = field(default_factory=list)
    rings: dict[RingKey, RingInfo] = field(default_factory=dict)


@dataclass
class Placed:
    """Where `replay` placed one item: it became ready at `ready` (its core was free), started at `start`."""

    ready: int
    start: int
    end: int

    @property
    def wait(self) -> int:
        return self.start - self.ready


@dataclass
class Schedule:
    """The result of `replay`: per track the placed items, the makespan, and per ring the stall cycles.

    `deadlock` names the cores that could not finish (the depths given are too shallow for the program: a core
    holds more popped slots, or pushes further ahead, than the ring allows)."""

    timeline: Timeline
    depths: dict[RingKey, int]
    placed: list[list[Placed]]
    makespan: int
    full_stall: dict[RingKey, int]
    empty_stall: dict[RingKey, int]
    deadlock: list[str] = field(default_factory=list)

    @property
    def unguarded(self) -> list[str]:
        """The rings whose depth lets pto-isa's flow control refill a slot before the consumer's free of the tile
        it held was waited for (an odd depth from 5 on: `flow.unguarded_reuses`), with that first push."""
        out = []
        for key, info in sorted(self.timeline.rings.items()):
            pushes = max((it.index + 1 for t in self.timeline.tracks for it in t.items
                          if it.sync == "push" and it.ring == key), default=0)
            bad = unguarded_reuses(self.depths[key], pushes)
            if bad:
                out.append(f"{info.name} at depth {self.depths[key]} (push {bad[0]})")
        return out

    def busy(self, i: int) -> int:
        return sum(it.cycles for it in self.timeline.tracks[i].items)

    def busy_by_unit(self, i: int) -> dict[str, int]:
        out: dict[str, int] = defaultdict(int)
        for it in self.timeline.tracks[i].items:
            if it.cycles:
                out[it.unit] += it.cycles
        return dict(out)

    def waiting(self, i: int) -> int:
        return sum(p.wait for p in self.placed[i])

    def overlap_bound(self) -> int:
        """max(cube busy, busiest vector lane busy): the makespan if the cores never waited for each other."""
        return max((self.busy(i) for i in range(len(self.timeline.tracks))), default=0)


def replay(tl: Timeline, depths: dict[RingKey, int] | None = None) -> Schedule:
    """Schedule the recorded ops of `tl` with ring depths `depths` (default: the depths the run had), under
    pto-isa's flow control (`flow.py`)."""
    d = {k: r.slot_num for k, r in tl.rings.items()}
    d.update(depths or {})
    at_pop = releases_at_pop(tl.target)
    pushed: dict[tuple[RingKey, int], list[int]] = defaultdict(list)  # (ring, entry) -> push end per producer
    signals: dict[RingKey, dict[int, list[int]]] = defaultdict(dict)  # ring -> consumer track -> free signal ends
    waited: dict[tuple[int, RingKey], int] = defaultdict(int)  # (producer track, ring) -> free signals consumed
    n = len(tl.tracks)
    parties: dict[int, int] = defaultdict(int)  # barrier k -> how many lanes reach it
    for t in tl.tracks:
        for it in t.items:
            if it.sync == "barrier":
                parties[it.index] += 1
    arrived: dict[int, dict[int, int]] = defaultdict(dict)  # barrier k -> track -> when it arrived
    clock, pos = [0] * n, [0] * n
    placed: list[list[Placed]] = [[] for _ in range(n)]
    full: dict[RingKey, int] = defaultdict(int)
    empty: dict[RingKey, int] = defaultdict(int)
    while True:
        moved = False
        for i, track in enumerate(tl.tracks):
            items = track.items
            while pos[i] < len(items):
                it = items[pos[i]]
                ready = clock[i]
                start = ready
                ring = it.ring
                if it.sync == "barrier":
                    here = arrived[it.index]
                    here.setdefault(i, ready)
                    if len(here) < parties[it.index]:
                        break
                    start = max(here.values())
                elif it.sync == "pop":
                    ends = pushed.get((ring, it.index))
                    if ends is None or len(ends) < tl.rings[ring].producers:
                        break
                    start = max(ready, max(ends))
                    empty[ring] += start - ready
                elif it.sync == "push" and producer_waits(it.index, d[ring]):
                    w = waited[(i, ring)]
                    per = signals[ring]
                    if len(per) < tl.rings[ring].consumers or any(len(ts) <= w for ts in per.values()):
                        break
                    start = max(ready, max(ts[w] for ts in per.values()))
                    full[ring] += start - ready
                    waited[(i, ring)] += 1
                end = start + it.cycles
                if it.sync == "push":
                    pushed[(ring, it.index)].append(end)
                elif it.sync == ("pop" if at_pop else "free") and consumer_signals_free(it.index, d[ring]):
                    signals[ring].setdefault(i, []).append(end)
                placed[i].append(Placed(ready, start, end))
                clock[i] = end
                pos[i] += 1
                moved = True
        if all(pos[i] == len(t.items) for i, t in enumerate(tl.tracks)):
            break
        if not moved:
            stuck = [t.label for i, t in enumerate(tl.tracks) if pos[i] < len(t.items)]
            return Schedule(tl, d, placed, max(clock, default=0), dict(full), dict(empty), deadlock=stuck)
    return Schedule(tl, d, placed, max(clock, default=0), dict(full), dict(empty))


def makespan(timelines: list[Timeline], depths: dict[RingKey, int] | None = None) -> int | None:
    """The modelled cycles of a whole run (its Groups one after another, as the interpreter runs them); None if
    some Group deadlocks with these depths, or if a depth leaves a slot reuse unguarded (`Schedule.unguarded`):
    such a schedule is faster only because it may overwrite a tile its consumer still reads."""
    total = 0
    for tl in timelines:
        s = replay(tl, depths)
        if s.deadlock or s.unguarded:
            return None
        total += s.makespan
    return total
