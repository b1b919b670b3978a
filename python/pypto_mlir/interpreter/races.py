"""A happens-before race detector for GM accesses of the cores (and lanes) of one Group run.

Every core (the AIC, each AIV lane) is a thread with a vector clock.  The synchronisation edges are the pipe
handshakes (a GM fence is a tpush/tpop token pair) and the lane rendezvous:

* a `tpush` releases the producer's clock into the ring entry; the `tpop` of that entry acquires it;
* a `tfree` releases the consumer's clock into the entry; the producer's later `tpush` into the same physical slot
  (entry n + slot_num) acquires it;
* the two lanes meeting at an `aic_gather` or a `lane_barrier` acquire each other's clock.

Every GM access (a `load` window, the valid region of a `store`) is recorded with its thread's clock.  Two accesses
of one tensor from different threads race if their boxes overlap, at least one writes, they are not both atomic
adds, they are not two plain stores of the same values (a store duplicated on both lanes: the cells end the
same whichever lands last), and neither happens before the other.  Because the clocks follow the handshakes and not the order the
scheduler happened to run the cores in, every such pair is found whatever the schedule.

Separately, a write whose effect must happen once per kernel (`OncePerKernel`: an atomic store, a put, a
notify) performed by two threads of one run from the same op on overlapping cells is a *duplicate*, ordered or
not: both lanes of a split kernel ran it on a value they both hold whole, and the peer (or the accumulation)
receives it twice, even where the cells end the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.ir import Operation

Clock = dict[Any, int]
Box = tuple[tuple[int, int], ...]


def join(a: Clock, b: Clock) -> None:
    for k, v in b.items():
        if a.get(k, 0) < v:
            a[k] = v


@dataclass
class Access:
    thread: Any
    label: str
    epoch: int
    box: Box
    write: bool
    atomic: bool
    op: Operation
    values: Any = None  # the values a store wrote (an array of the box's shape), to tell duplicated stores apart
    once: str | None = None  # the op's effect that must happen once per kernel (`once_per_kernel`), if any


@dataclass
class Race:
    buffer: str
    first: Access
    second: Access
    region: Box


def overlap(a: Box, b: Box) -> Box | None:
    out = []
    for (lo1, hi1), (lo2, hi2) in zip(a, b):
        lo, hi = max(lo1, lo2), min(hi1, hi2)
        if lo >= hi:
            return None
        out.append((lo, hi))
    return tuple(out)


def same_values(a: Access, b: Access, region: Box) -> bool:
    if a.values is None or b.values is None:
        return False
    pa = a.values[tuple(slice(lo - o, hi - o) for (lo, hi), (o, _) in zip(region, a.box))]
    pb = b.values[tuple(slice(lo - o, hi - o) for (lo, hi), (o, _) in zip(region, b.box))]
    return pa.shape == pb.shape and bool(np.array_equal(pa, pb, equal_nan=pa.dtype.kind == "f"))


def fmt_box(box: Box) -> str:
    return "[" + ", ".join(f"{lo}:{hi}" for lo, hi in box) + "]"


@dataclass
class RaceDetector:
    clocks: dict[Any, Clock] = field(default_factory=dict)
    accesses: dict[int, list[Access]] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    races: list[Race] = field(default_factory=list)
    duplicates: list[Race] = field(default_factory=list)
    _seen: set = field(default_factory=set)

    def clock(self, thread: Any) -> Clock:
        c = self.clocks.get(thread)
        if c is None:
            c = self.clocks[thread] = {thread: 1}
        return c

    def release(self, thread: Any) -> Clock:
        """A snapshot of the thread's clock for a later acquire; the thread then moves to its next epoch."""
        c = self.clock(thread)
        snap = dict(c)
        c[thread] += 1
        return snap

    def acquire(self, thread: Any, snap: Clock | None) -> None:
        if snap:
            join(self.clock(thread), snap)

    def access(
        self,
        thread: Any,
        label: str,
        buf: Any,
        name: str,
        box: Box,
        write: bool,
        atomic: bool,
        op: Operation,
        values: Any = None,
        once: str | None = None,
    ) -> None:
        if any(lo >= hi for lo, hi in box):
            return  # an empty window touches nothing
        c = self.clock(thread)
        key = id(buf)
        self.names[key] = name
        log = self.accesses.setdefault(key, [])
        cur = Access(thread, label, c[thread], box, write, atomic, op, values, once)
        if once is not None:
            self._check_duplicate(log, cur, name)
        for prev in log:
            if prev.thread == thread or not (prev.write or write) or (prev.atomic and atomic):
                continue
            if prev.epoch <= c.get(prev.thread, 0):
                continue  # prev happens before cur
            region = overlap(prev.box, box)
            if region is None:
                continue
            if prev.write and write and not (prev.atomic or atomic) and same_values(prev, cur, region):
                continue  # two plain stores of the same values: the cells end the same whichever lands last
            pair = (prev.op, op, prev.thread, thread)
            if pair in self._seen:
                continue
            self._seen.add(pair)
            self.races.append(Race(name, prev, cur, region))
        # Keep the log short: an earlier access of this thread to the same box with the same kind is subsumed.
        log[:] = [a for a in log if not (a.thread == thread and a.box == box and a.write == write and a.op is op)]
        log.append(cur)

    def _check_duplicate(self, log: list[Access], cur: Access, name: str) -> None:
        """`cur` (a once-per-kernel write) repeats the same op's write of another thread on overlapping cells."""
        for prev in log:
            if prev.op is not cur.op or prev.thread == cur.thread or prev.once is None:
                continue
            region = overlap(prev.box, cur.box)
            if region is None:
                continue
            pair = ("dup", prev.op, prev.thread, cur.thread)
            if pair not in self._seen:
                self._seen.add(pair)
                self.duplicates.append(Race(name, prev, cur, region))
            return
