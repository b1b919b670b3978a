"""The state the scheduler (`machine.py`) and the effect ops (`gm.py`, `pipes.py`, `transfer.py`, `lanes.py`,
`comm.py`) share: where code runs (`Ctx`, one per core or lane), the rings of a pipe and their entries, a Group
run's shared state (`GroupRun`), and why a core is blocked (`Wait`, `WaitKind`).

The effect modules import this module, never `machine.py`; what they need of the machine itself (the target, a
fresh buffer handle, running a block on a core) is the small `MachineView` protocol, which `Machine` satisfies.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

from xdsl.ir import Block, Operation

from pypto_mlir.diagnostics import PtoError, location_of
from pypto_mlir.dialects.pto_traits import CoreSide, PipeDirection

from .races import RaceDetector
from .values import Buffer, Tile

Gen = Generator["Wait", None, Any]
"""A core's code as the scheduler resumes it: yields a `Wait` each time it blocks, returns the results."""


class RunError(PtoError):
    """A failure of the interpreted program, located at the op (and core) where it happened."""


def loc_str(op: Operation | None) -> str:
    loc = location_of(op)
    return str(loc) if loc is not None else "<unknown>"


# ---------------------------------------------------------------------------------------------------------------
# Why a core waits
# ---------------------------------------------------------------------------------------------------------------


class WaitKind(Enum):
    """What a blocked core waits for.  A GM fence is a `tpush`/`tpop` token pair, so it waits as `PUSH` / `POP`
    on its ring like any transfer."""

    PUSH = "push"  # a tpush waits for a free slot: the ring is full (the consumer's tfree)
    POP = "pop"  # a tpop waits for a push: the ring holds no tile this core has not popped
    GATHER = "gather"  # a lane at an aic_gather waits for the other lane to reach the same gather
    BARRIER = "barrier"  # a lane at a lane_barrier waits for the other lane to reach the same barrier
    SIGNAL = "signal"  # a comm wait / defer_wait waits for a signal element to reach its value (a notify)


@dataclass(frozen=True)
class Signal:
    """The signal a `WaitKind.SIGNAL` waits on: its element, the value wanted, the value it held at the wait."""

    offsets: tuple[int, ...]
    want: int
    have: int
    deferred: bool = False  # a defer_wait (the runtime holds the task back) rather than a wait


@dataclass(frozen=True)
class Wait:
    """Why a core cannot proceed at `op`: yielded by the op's implementation, kept in `Ctx.waiting_at` by the
    scheduler, retried when the core is resumed.  `reason` is the text of the deadlock report."""

    op: Operation
    kind: WaitKind
    ring: Ring | None = None  # PUSH / POP: the ring (its pipe id and direction) waited on
    count: int = 0  # POP: how many tiles this core has popped from the ring; GATHER / BARRIER: which one (0-based)
    signal: Signal | None = None  # SIGNAL

    @property
    def reason(self) -> str:
        if self.kind is WaitKind.PUSH:
            ring = self.ring
            assert ring is not None
            return (
                f"the {ring.name()} is full ({ring.slot_num} of {ring.slot_num} slots hold tiles not yet freed by "
                f"the consumer)"
            )
        if self.kind is WaitKind.POP:
            assert self.ring is not None
            return f"the {self.ring.name()} is empty (this core has popped all {self.count} tiles pushed so far)"
        if self.kind is WaitKind.GATHER:
            return f"waits for the other lane to reach its aic_gather #{self.count + 1}"
        if self.kind is WaitKind.BARRIER:
            return f"waits for the other lane to reach its lane_barrier #{self.count + 1}"
        s = self.signal
        assert s is not None
        what = "is a deferred waiter" if s.deferred else "waits"
        return f"{what} for signal {list(s.offsets)} to reach {s.want} (it is {s.have})"


# ---------------------------------------------------------------------------------------------------------------
# Cores, lanes and pipes
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class Ctx:
    """Where code runs: which core, which lane, whether stores are visible, which Group it belongs to."""

    label: str
    side: CoreSide | None  # None: any core (orchestration, incore, mixed code)
    lane: int | None = None
    replay: bool = False  # lane 1 of a dual dispatch: takes part in the handshakes, does no visible store
    group: GroupRun | None = None
    pipes: dict[int, PipeInit] = field(default_factory=dict)  # this core's initialize_pipe per pipe id
    buffers: dict[int, tuple[str, str, int, Operation]] = field(default_factory=dict)  # handle -> (kind, name, size, op)
    func_name: str = ""
    gather_count: int = 0
    barrier_count: int = 0  # how many lane_barriers this lane has passed (the rendezvous they are matched by)
    waiting_at: Wait | None = None
    track: Any = None  # the timing model's `Track` of this core (`Machine(timing=True)`, `recorder.py`)

    @property
    def thread(self) -> Any:
        """This core's key in a ring (producer or consumer) and in the race detector: `CoreSide.AIC` or the lane."""
        return CoreSide.AIC if self.side is CoreSide.AIC else self.lane or 0


@dataclass
class PipeInit:
    dir_mask: int
    slot_size: int
    slot_num: int
    op: Operation


@dataclass
class Entry:
    seq: int
    push_ops: dict[Any, Operation] = field(default_factory=dict)  # producer (lane or CoreSide.AIC) -> tpush op
    parts: dict[Any, Tile] = field(default_factory=dict)
    codes: dict[Any, int] = field(default_factory=dict)
    strides: dict[Any, int | None] = field(default_factory=dict)
    popped: dict[Any, Operation] = field(default_factory=dict)  # consumer -> tpop op
    freed: set = field(default_factory=set)
    push_clocks: dict[Any, dict] = field(default_factory=dict)  # producer -> its clock at the push (race detector)
    free_clocks: dict[Any, dict] = field(default_factory=dict)  # consumer -> its clock at the tfree


class Ring:
    """One direction of one pipe: `slot_num` slots between the AIC and the AIV lanes."""

    def __init__(self, pipe_id: int, direction: PipeDirection, slot_num: int, slot_size: int, lanes: list[int]):
        self.pipe_id = pipe_id
        self.direction = direction
        self.slot_num = slot_num
        self.slot_size = slot_size
        self.lanes = lanes
        self.entries: list[Entry] = []
        self.pushed: dict[Any, int] = {}
        self.popped: dict[Any, int] = {}

    @property
    def producers(self) -> list[Any]:
        return [CoreSide.AIC] if self.direction is PipeDirection.C2V else list(self.lanes)

    @property
    def consumers(self) -> list[Any]:
        return list(self.lanes) if self.direction is PipeDirection.C2V else [CoreSide.AIC]

    def released(self) -> int:
        return sum(1 for e in self.entries if set(self.consumers) <= e.freed)

    def name(self) -> str:
        return f"{self.direction} ring of pipe {self.pipe_id}"


@dataclass(frozen=True)
class UndefinedRead:
    """A read of workspace cells no core or lane had written (their contents are undefined at kernel entry)."""

    op: Operation
    label: str
    buffer: str
    box: tuple[tuple[int, int], ...]


class GroupRun:
    """The shared state of one Group execution: rings, lane rendezvous, progress counter."""

    @property
    def two_lanes(self) -> bool:
        """Whether two lanes run code (a split kernel or region), so that a lane_barrier is a rendezvous."""
        return len(self.lanes) == 2 and not self.replay_lane

    def __init__(self, lanes: list[int], aiv_name: str | None, aic_name: str | None, replay_lane: bool = False):
        self.lanes = lanes
        self.replay_lane = replay_lane  # lane 1 replays the handshakes only (a dual dispatch)
        self.aiv_name = aiv_name
        self.aic_name = aic_name
        self.rings: dict[tuple[int, str], Ring] = {}
        self.inits: dict[tuple[int, CoreSide], PipeInit] = {}  # (pipe id, side) -> init
        self.gathers: dict[int, dict[int, Tile]] = {}
        self.gather_clocks: dict[int, dict[int, dict]] = {}
        self.barrier_clocks: dict[int, dict[int, dict]] = {}  # barrier k -> lane -> its clock on arrival
        self.workspaces: dict[Operation, Buffer] = {}  # lane_workspace op -> the buffer both lanes share
        self.undefined_reads: list[UndefinedRead] = []
        self.progress = 0
        self.races = RaceDetector()


# ---------------------------------------------------------------------------------------------------------------
# What an effect op may ask of the machine
# ---------------------------------------------------------------------------------------------------------------


class MachineView(Protocol):
    """The part of `Machine` an effect op's implementation sees (its first argument)."""

    target: str | None  # the module's `pto.target` ("a2a3", "a5") or None

    def new_handle(self) -> int:
        """A fresh buffer handle (reserve_buffer / import_peer_buffer)."""
        ...

    def exec_block(self, block: Block, env: dict, ctx: Ctx) -> Gen:
        """Run a block on the core `ctx`; returns the operands of its terminator."""
        ...

    def run_lanes_region(self, op: Operation, env: dict, ctx: Ctx) -> list:
        """Run a per-lane `split_aiv_scope` body on two lanes; returns lane 0's results."""
        ...
