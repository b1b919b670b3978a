"""The execution model: functions, calls, Groups of concurrent cores, lanes, pipes, and protocol checking.

Every core (the AIC, each AIV lane) runs its kernel as a Python generator.  An op that must wait on a pipe
(`tpush` on a full ring, `tpop` on an empty one, a lane waiting for its peer lane at an `aic_gather`) yields a
`Wait` and is retried when the scheduler resumes the core.  The scheduler steps the cores round-robin, in a fixed
order, so every run is deterministic.  If a whole round passes with every live core waiting and no pipe changed,
the program is deadlocked and the report names the op each core waits at.

See `docs/interpreter.md` for the model in prose.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import IsTerminator

from pypto_mlir.diagnostics import PtoError, SourceLoc, location_of
from pypto_mlir.dialects import pto_ops as P
from pypto_mlir.dialects.pto_traits import BoundaryAffinity, CoreSide, PipeDirection, PipeFree, PipePop, PipePush, SlotView
from pypto_mlir.dialects.pto_traits import PipeInit as PipeInitTrait
from pypto_mlir.dialects.pto_types import (
    FuncFlag,
    FunctionKind,
    TileType,
    has_flag,
    kind_of,
    target_of,
    tile_bytes,
)

from pypto_mlir.dialects.pto_view_ops import TensorCastOp
from pypto_mlir.passes.analysis.lineage import output_binding
from pypto_mlir.passes.analysis.lanes import code_for_lane_extents, lane_step, split_dim_of_code
from pypto_mlir.passes.analysis.mx_scale import is_scale_carrier, scale_kind

from .layout import NZ as NZ_LAYOUT
from .layout import reinterpret, view_of
from .races import RaceDetector, fmt_box
from .registry import EFFECT, PLAIN, REGISTRY, impl_effect, impl_sync
from .semantics import mixed_values
from .values import (
    SPLIT_NAMES,
    Buffer,
    InterpError,
    SlotLease,
    Tile,
    gather_parts,
    lane_extents,
    make_tile,
    repad,
    shard_part,
    static_shape,
)

Gen = Generator["Wait", None, Any]


class RunError(PtoError):
    """A failure of the interpreted program, located at the op (and core) where it happened."""


@dataclass
class Wait:
    op: Operation
    reason: str


def loc_str(op: Operation | None) -> str:
    loc = location_of(op)
    return str(loc) if loc is not None else "<unknown>"


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
    waiting_at: Wait | None = None


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


class GroupRun:
    """The shared state of one Group execution: rings, lane rendezvous, progress counter."""

    def __init__(self, lanes: list[int], aiv_name: str | None, aic_name: str | None):
        self.lanes = lanes
        self.aiv_name = aiv_name
        self.aic_name = aic_name
        self.rings: dict[tuple[int, str], Ring] = {}
        self.inits: dict[tuple[int, CoreSide], PipeInit] = {}  # (pipe id, side) -> init
        self.gathers: dict[int, dict[int, Tile]] = {}
        self.gather_clocks: dict[int, dict[int, dict]] = {}
        self.progress = 0
        self.races = RaceDetector()


class Machine:
    """Interprets the functions of one module."""

    def __init__(self, module: ModuleOp, order: str = "forward", detect_races: bool = True):
        """`order`: in which order the scheduler resumes the cores of a Group each round: "forward" (AIC, AIV
        lane 0, lane 1) or "reverse" (lane 1, lane 0, AIC).  Running both exposes more unordered races.
        `detect_races`: report GM accesses of different cores that no handshake orders (`races.py`)."""
        self.detect_races = detect_races
        if order not in ("forward", "reverse"):
            raise ValueError(f"unknown schedule order {order!r}")
        self.order = order
        self.module = module
        self.target: str | None = target_of(module)
        self.funcs: dict[str, func.FuncOp] = {}
        for op in module.body.block.ops:
            if isinstance(op, func.FuncOp):
                self.funcs[op.sym_name.data] = op
        self._next_handle = 1

    # -- entry --------------------------------------------------------------------------------------------------
    def run(self, entry: str, args: list[Any]) -> list[Any]:
        f = self.lookup(entry, None)
        ctx = Ctx(label=f"@{entry}", side=None, func_name=entry)
        return self.drive(self.call_function(f, args, ctx, None), ctx)

    def drive(self, gen: Gen, ctx: Ctx) -> Any:
        """Run a generator that must not block (code outside any Group)."""
        try:
            w = next(gen)
        except StopIteration as e:
            return e.value
        raise RunError(f"'{w.op.name}' blocks outside a Group: {w.reason}", op=w.op)

    def lookup(self, name: str, at: Operation | None) -> func.FuncOp:
        f = self.funcs.get(name)
        if f is None:
            raise RunError(f"call of unknown function @{name}", op=at)
        if f.body.blocks.first is None:
            raise RunError(f"@{name} is only declared; it has no body to run", op=at)
        return f

    def fail(self, ctx: Ctx, op: Operation, message: str, notes=None) -> RunError:
        return RunError(f"{message} (on {ctx.label})", op=op, notes=notes)

    # -- functions and calls --------------------------------------------------------------------------------------
    def call_function(self, f: func.FuncOp, args: list[Any], ctx: Ctx, at: Operation | None) -> Gen:
        """Run `f` in the right way for its kind: a Group, a lone AIC/AIV kernel, a split incore, or inline."""
        kind = kind_of(f)
        name = f.sym_name.data
        if kind == FunctionKind.GROUP:
            return (yield from self.run_group(f, args, ctx))
        if CoreSide.of_kind(kind) is not None and ctx.group is None:
            # A kernel launched by itself: a Group of one member.
            return self.run_members([(f, args, at)], f"@{name}", at, in_group=False)[0]
        if kind == FunctionKind.INCORE and has_flag(f, FuncFlag.SPLIT_AIV) and ctx.lane is None and not _has_regions(f):
            return self.run_split_incore(f, args, at)
        return (yield from self.exec_func(f, args, ctx))

    def exec_func(self, f: func.FuncOp, args: list[Any], ctx: Ctx) -> Gen:
        block = f.body.blocks.first
        assert block is not None
        if len(block.args) != len(args):
            raise RunError(f"@{f.sym_name.data} takes {len(block.args)} arguments but got {len(args)}", op=f)
        env: dict[SSAValue, Any] = dict(zip(block.args, args))
        out = yield from self.exec_block(block, env, ctx)
        return out

    def run_group(self, f: func.FuncOp, args: list[Any], ctx: Ctx) -> Gen:
        """A Group body: its calls of AIC/AIV kernels start cores that run concurrently; they join at the first
        use of a member's result (other than as a member argument bound by its output binding, directly or through
        a pto.tensor_cast) or at the Group's return."""
        block = f.body.blocks.first
        env: dict[SSAValue, Any] = dict(zip(block.args, args))
        pending: list[tuple[func.FuncOp, list[Any], func.CallOp]] = []
        label = f"Group @{f.sym_name.data}"
        # A pending member's result that writes back one of its parameters is bound to the buffer its call passes
        # there (its output binding, docs/dialect.md "Group members"): another member may take it as an argument
        # without waiting, as both start together on the hardware.
        bound: dict[SSAValue, Any] = {}

        def join():
            if not pending:
                return
            results = self.run_members([(g, a, c) for g, a, c in pending], label, f)
            for (_, _, call), res in zip(pending, results):
                for r, v in zip(call.res, res):
                    env[r] = v
            for v, buf in bound.items():  # casts of a member's result: the buffer it was bound to
                if _is_pending(env.get(v)):
                    env[v] = buf
            pending.clear()

        def arg(o: SSAValue, at: Operation) -> Any:
            if o in env and _is_pending(env[o]) and o in bound:
                return bound[o]
            return self.get(env, o, at)

        for op in block.ops:
            if isinstance(op, func.CallOp):
                callee = self.lookup(op.callee.root_reference.data, op)
                if CoreSide.of_kind(kind_of(callee)) is not None:
                    if any(o in env and _is_pending(env[o]) and o not in bound for o in op.operands):
                        join()
                    args = [arg(o, op) for o in op.operands]
                    pending.append((callee, args, op))
                    for r in op.res:
                        env[r] = _PENDING
                        j = output_binding(callee, r.index)
                        if j is not None:
                            bound[r] = args[j]
                    continue
            if isinstance(op, TensorCastOp) and op.src in bound and _is_pending(env.get(op.src)):
                bound[op.result] = bound[op.src]  # the same buffer under another type: still bound, no wait
                env[op.result] = _PENDING
                continue
            if op.regions or any(_is_pending(env.get(o)) for o in op.operands):
                join()  # an op with regions may use a member's result inside them
            if isinstance(op, func.ReturnOp):
                join()
                return [self.get(env, o, op) for o in op.operands]
            res = yield from self.exec_op(op, env, ctx)
            if res is not None:
                join()
                return res
        join()
        return []

    def run_members(
        self, members: list[tuple[func.FuncOp, list[Any], Operation | None]], label: str, at, in_group: bool = True
    ) -> list:
        """Run AIC/AIV kernels concurrently; returns each member's results (lane 0's for a two-lane AIV)."""
        aivs = [m for m in members if kind_of(m[0]) == FunctionKind.AIV]
        aics = [m for m in members if kind_of(m[0]) == FunctionKind.AIC]
        if len(aivs) > 1 or len(aics) > 1:
            raise RunError(
                f"{label} starts {len(aics)} AIC and {len(aivs)} AIV kernels; the interpreter runs at most one of each",
                op=at,
            )
        lanes, dual = self.aiv_lanes(aivs[0][0], aivs[0][2], in_group) if aivs else ([0], False)
        grp = GroupRun(lanes, aivs[0][0].sym_name.data if aivs else None, aics[0][0].sym_name.data if aics else None)
        cores: list[tuple[Ctx, Gen, int]] = []
        for i, (g, args, call) in enumerate(members):
            name = g.sym_name.data
            task = _task_id(call)
            if kind_of(g) == FunctionKind.AIC:
                ctx = Ctx(label=f"@{name} (AIC{task})", side=CoreSide.AIC, group=grp, func_name=name)
                cores.append((ctx, self.exec_func(g, args, ctx), i))
            else:
                for lane in lanes:
                    tag = f" lane {lane}" if len(lanes) > 1 else ""
                    ctx = Ctx(
                        label=f"@{name}{tag} (AIV{task})",
                        side=CoreSide.AIV,
                        lane=lane,
                        replay=dual and lane == 1,
                        group=grp,
                        func_name=name,
                    )
                    cores.append((ctx, self.exec_func(g, args, ctx), i if lane == 0 else -1))
        results = self.schedule(cores, grp, label)
        self.check_exit(grp, cores, label, at)
        self.check_races(grp, label)
        return [results[i] for i in range(len(members))]

    def aiv_lanes(self, g: func.FuncOp, at: Operation | None, in_group: bool) -> tuple[list[int], bool]:
        """Which lanes run an AIV kernel, as the hardware launches it, and whether lane 1 is a replay.

        a2a3 launches every AIV kernel of a Group on both AIV lanes of the core (reference:
        `RequiresNoSplitDualAivDispatch`): with `pto.split_aiv` both lanes are real; with `pto.dual_aiv_dispatch`
        (and no split) lane 1 replays the handshakes only; a kernel with neither would have lane 1 repeat lane 0's
        work unannounced, which is reported.  a5 launches one lane unless the kernel is split (`pto.split_aiv`) or
        asks for a dual dispatch.  A kernel called outside a Group, or a module without a target, follows the
        attributes alone."""
        split_aiv = has_flag(g, FuncFlag.SPLIT_AIV)
        dual = has_flag(g, FuncFlag.DUAL_AIV_DISPATCH) and not split_aiv
        if self.target == "a2a3" and in_group and not (split_aiv or dual):
            raise RunError(
                f"on a2a3 the hardware runs an AIV kernel of a Group on both AIV lanes, but @{g.sym_name.data} has "
                "neither pto.split_aiv (two real lanes, each on its part) nor pto.dual_aiv_dispatch (lane 1 replays "
                "the handshakes only), so lane 1 would repeat lane 0's transfers and stores; mark the kernel",
                op=at if at is not None else g,
            )
        return ([0, 1] if split_aiv or dual else [0]), dual

    def check_races(self, grp: GroupRun, label: str) -> None:
        """Report every pair of GM accesses of different cores/lanes that overlap, include a write, and that no
        pipe handshake orders (see `races.py`)."""
        races = grp.races.races
        if not races or not self.detect_races:
            return
        notes = []
        for i, r in enumerate(races):
            what = lambda a: ("an atomic store" if a.atomic else "a store") if a.write else "a load"  # noqa: E731
            notes.append((location_of(r.first.op), f"{what(r.first)} of %{r.buffer}{fmt_box(r.region)} on {r.first.label}"))
            if i:
                notes.append((location_of(r.second.op), f"races with {what(r.second)} on {r.second.label}"))
        r = races[0]
        first_kind = "store" if r.first.write else "load"
        second_kind = "store" if r.second.write else "load"
        raise RunError(
            f"data race on GM tensor %{r.buffer}{fmt_box(r.region)} in {label}: a {second_kind} on "
            f"{r.second.label} and a {first_kind} on {r.first.label} at {loc_str(r.first.op)} touch the same cells "
            f"and no pipe handshake orders them ({len(races)} racing pair(s))",
            op=r.second.op,
            notes=notes,
        )

    def run_split_incore(self, f: func.FuncOp, args: list[Any], at: Operation | None) -> list:
        """An incore kernel already split for two AIV lanes (`pto.split_aiv`) but not yet expanded: both lanes run
        the whole body (cube ops are duplicated, which is harmless: they are pure and their stores idempotent)."""
        name = f.sym_name.data
        grp = GroupRun([0, 1], name, None)
        cores = []
        for lane in (0, 1):
            ctx = Ctx(label=f"@{name} lane {lane}", side=None, lane=lane, group=grp, func_name=name)
            cores.append((ctx, self.exec_func(f, args, ctx), 0 if lane == 0 else -1))
        results = self.schedule(cores, grp, f"@{name}")
        self.check_races(grp, f"@{name}")
        return results[0]

    def run_lanes_region(self, op: P.SplitAivScopeOp, env, ctx: Ctx) -> list:
        """A `split_aiv_scope` whose body is per-lane code (task-parallel `none`, or explicit aiv_shard/aic_gather):
        run it on two lanes; the region's results are lane 0's."""
        grp = GroupRun([0, 1], ctx.func_name, None)
        cores = []
        for lane in (0, 1):
            lctx = Ctx(label=f"{ctx.label} region lane {lane}", side=None, lane=lane, group=grp, func_name=ctx.func_name)
            lenv = dict(env)
            lenv[op.aiv_id] = lane
            cores.append((lctx, self.exec_block(op.body.block, lenv, lctx), 0 if lane == 0 else -1))
        label = f"split_aiv_scope at {loc_str(op)}"
        results = self.schedule(cores, grp, label)
        self.check_races(grp, label)
        return results[0]

    def schedule(self, cores: list[tuple[Ctx, Gen, int]], grp: GroupRun, label: str) -> dict[int, Any]:
        results: dict[int, Any] = {}
        live = list(cores) if self.order == "forward" else list(reversed(cores))
        while live:
            before = grp.progress
            finished = False
            for core in list(live):
                ctx, gen, idx = core
                try:
                    ctx.waiting_at = next(gen)
                except StopIteration as e:
                    ctx.waiting_at = None
                    live.remove(core)
                    finished = True
                    if idx >= 0:
                        results[idx] = e.value
            if live and not finished and grp.progress == before:
                self.report_deadlock(live, grp, label)
        return results

    def report_deadlock(self, live, grp: GroupRun, label: str) -> None:
        first = live[0][0].waiting_at
        notes = []
        for ctx, _, _ in live:
            w = ctx.waiting_at
            notes.append((location_of(w.op), f"{ctx.label} waits in '{w.op.name}': {w.reason}"))
        raise RunError(
            f"deadlock in {label}: every running core is blocked on a pipe and none can make progress",
            op=first.op,
            notes=notes,
        )

    def check_exit(self, grp: GroupRun, cores, label: str, at) -> None:
        """At kernel exit every ring must be empty and every popped slot freed."""
        problems: list[tuple[SourceLoc | None, str]] = []
        for ring in grp.rings.values():
            for e in ring.entries:
                waiting = [c for c in ring.consumers if c not in e.popped]
                if waiting:
                    op = next(iter(e.push_ops.values()))
                    who = ", ".join(_who(c) for c in waiting)
                    problems.append(
                        (location_of(op), f"a tile pushed here is still in the {ring.name()} at kernel exit (never popped by {who})")
                    )
                for c, pop in e.popped.items():
                    if c not in e.freed:
                        problems.append(
                            (location_of(pop), f"the slot popped here by {_who(c)} is never freed (missing tfree) before kernel exit")
                        )
        if problems:
            loc0, msg0 = problems[0]
            raise RunError(
                f"{label}: {len(problems)} item(s) left in a ring at kernel exit; first: {msg0}",
                loc=loc0,
                notes=problems[1:],
            )

    # -- blocks and ops --------------------------------------------------------------------------------------------
    def get(self, env: dict, v: SSAValue, op: Operation) -> Any:
        try:
            return env[v]
        except KeyError:
            raise RunError(f"'{op.name}' uses a value that has not been computed", op=op) from None

    def exec_block(self, block: Block, env: dict, ctx: Ctx) -> Gen:
        """Run a block; returns the operands of its terminator (func.return / scf.yield / pto.yield / condition)."""
        for op in block.ops:
            res = yield from self.exec_op(op, env, ctx)
            if res is not None:
                return res
        return []

    def exec_op(self, op: Operation, env: dict, ctx: Ctx) -> Gen:
        """Run one op; returns None, or the terminator's values when `op` ends its block."""
        if op.has_trait(IsTerminator):  # func.return, scf.yield, scf.condition, pto.yield
            return [self.get(env, o, op) for o in op.operands]
        args = [self.get(env, o, op) for o in op.operands]
        if reads_tiles(op):
            check_leases(op, args, ctx)
        found = REGISTRY.lookup(type(op))
        try:
            if found is None:
                raise InterpError(f"the interpreter has no semantics for '{op.name}'")
            if found.kind == PLAIN:
                results = found.fn(op, args)
            elif found.kind == EFFECT:
                results = found.fn(self, op, args, env, ctx)
            else:
                results = yield from found.fn(self, op, args, env, ctx)
        except InterpError as e:
            raise self.fail(ctx, op, str(e)) from None
        if op.has_trait(SlotView) and isinstance(args[0], Tile) and args[0].lease is not None:
            for v in results:
                if isinstance(v, Tile):
                    v.lease = args[0].lease  # a view of a popped tile is a view of the same slot
        for r, v in zip(op.results, results or []):
            env[r] = v
        return None

    # -- control flow -----------------------------------------------------------------------------------------------
    @impl_sync(scf.ForOp)
    def run_for(self, op: scf.ForOp, args, env, ctx) -> Gen:
        lb, ub, step = (int(a) for a in args[:3])
        if step <= 0:
            raise InterpError(f"scf.for step must be positive, got {step}")
        carried = list(args[3:])
        block = op.body.block
        i = lb
        while i < ub:
            lenv = dict(env)
            lenv[block.args[0]] = i
            for a, v in zip(block.args[1:], carried):
                lenv[a] = v
            carried = yield from self.exec_block(block, lenv, ctx)
            i += step
        return carried

    @impl_sync(scf.IfOp)
    def run_if(self, op: scf.IfOp, args, env, ctx) -> Gen:
        region = op.true_region if int(args[0]) else op.false_region
        if not region.blocks:
            return []
        return (yield from self.exec_block(region.block, dict(env), ctx))

    @impl_sync(scf.WhileOp)
    def run_while(self, op: scf.WhileOp, args, env, ctx) -> Gen:
        vals = list(args)
        while True:
            benv = dict(env)
            before = op.before_region.block
            for a, v in zip(before.args, vals):
                benv[a] = v
            cond = yield from self.exec_block(before, benv, ctx)
            if not int(cond[0]):
                return cond[1:]
            aenv = dict(env)
            after = op.after_region.block
            for a, v in zip(after.args, cond[1:]):
                aenv[a] = v
            vals = yield from self.exec_block(after, aenv, ctx)

    @impl_sync(func.CallOp)
    def run_call(self, op: func.CallOp, args, env, ctx) -> Gen:
        f = self.lookup(op.callee.root_reference.data, op)
        res = yield from self.call_function(f, args, ctx, op)
        return res

    # -- GM ---------------------------------------------------------------------------------------------------------
    @impl_effect(P.CreateTensorOp)
    def run_create_tensor(self, op: P.CreateTensorOp, args, env, ctx) -> list:
        t = op.result.type
        shape = static_shape(t, "tensor")
        from .values import np_dtype

        return [Buffer(np.zeros(shape, dtype=np_dtype(t.element_type)), name=op.result.name_hint or "create_tensor")]

    def _record(
        self, ctx: Ctx, op, buf: Buffer, idx: tuple, t: TileType, write: bool, atomic: bool = False, values=None
    ) -> None:
        """Record a GM access of a core or lane for the race detector.

        Only accesses inside a run of several cores or lanes are recorded; a replay lane makes none (its tiles have
        no valid cells, its stores are suppressed).  In a split incore kernel or a per-lane region (before
        ExpandMixedKernel) both lanes run the cube ops too, which models one AIC; only vector-tile accesses are
        per-lane there."""
        grp = ctx.group
        if grp is None or ctx.replay:
            return
        if ctx.side is None and t.memory_space.data != "vec":
            return
        box = tuple((i, i + 1) if isinstance(i, int) else (i.start, i.stop) for i in idx)
        if values is not None:
            values = np.array(values, copy=True).reshape(tuple(hi - lo for lo, hi in box))
        grp.races.access(self._producer_key(ctx), ctx.label, buf, buf.name or "tensor", box, write, atomic, op, values)

    def _window(self, buf: Buffer, offs: list[int], box: tuple[int, ...], what: str) -> tuple:
        data = buf.data
        rank = data.ndim
        lead = rank - len(box)
        idx: list[Any] = []
        for d in range(rank):
            o = offs[d]
            ext = 1 if d < lead else box[d - lead]
            if o < 0 or o + ext > data.shape[d]:
                raise InterpError(
                    f"{what} window [{o}, {o + ext}) on dim {d} lies outside the tensor's extent {data.shape[d]}"
                )
            idx.append(o if d < lead else slice(o, o + ext))
        return tuple(idx)

    @impl_effect(P.LoadOp)
    def run_load(self, op: P.LoadOp, args, env, ctx) -> list:
        buf = args[0]
        n_off = len(op.offsets)
        offs = mixed_values(op.get_static_offsets(), args[1 : 1 + n_off])
        t = op.result.type
        box = static_shape(t)
        valid = list(box)
        if op.static_valid is not None:
            valid = mixed_values(op.static_valid.get_values(), args[1 + n_off :])
        # The window is clipped to the valid region: cells outside it are never read (they hold the pad value).
        vbox = tuple(max(0, min(v, b)) for v, b in zip(valid, box))
        idx = self._window(buf, offs, vbox, "load")
        self._record(ctx, op, buf, idx, t, write=False)
        return [repad(make_tile(np.array(buf.data[idx]), t, vbox))]

    @impl_effect(P.StoreOp)
    def run_store(self, op: P.StoreOp, args, env, ctx) -> list:
        tile, buf = args[0], args[1]
        offs = mixed_values(op.get_static_offsets(), args[2:])
        if ctx.replay:
            return [buf]  # lane 1 of a dual dispatch replays the handshakes only
        idx = self._window(buf, offs, tile.valid, "store")
        region = tile.valid_view()
        atomic = P.get_int_attr(op, "atomic") or 0
        self._record(ctx, op, buf, idx, tile.type, write=True, atomic=bool(atomic), values=region)
        if atomic:
            # Atomic store: accumulate into GM (the sum is rounded to the tensor's element type).
            cur = buf.data[idx].astype(np.float64 if region.dtype.kind not in "iu" else np.int64)
            from .values import to_storage

            buf.data[idx] = to_storage(cur + region.astype(cur.dtype), buf.data.dtype)
        else:
            buf.data[idx] = region
        return [buf]

    # -- lanes ------------------------------------------------------------------------------------------------------
    @impl_effect(P.GetSubblockIdxOp)
    def run_get_subblock_idx(self, op, args, env, ctx) -> list:
        return [ctx.lane or 0]

    @staticmethod
    def _unsplit_boundary(op: P.AivShardOp | P.AicGatherOp, src) -> tuple[int, list | None]:
        """The split code of an aiv_shard / aic_gather, and its result when the code is 0 (no split: the whole tile,
        retyped to the other side's memory), else None."""
        split = P.get_int_attr(op, "split") or 0
        return split, [repad(make_tile(src.data, op.result.type, src.valid))] if split == 0 else None

    @impl_effect(P.AivShardOp)
    def run_aiv_shard(self, op: P.AivShardOp, args, env, ctx) -> list:
        (src,) = args
        split, whole = self._unsplit_boundary(op, src)
        if whole is not None:
            return whole
        t = op.result.type
        if ctx.lane is None:
            raise InterpError(
                f"aiv_shard with split = {split} runs outside a two-lane context (the kernel has no pto.split_aiv and "
                "this is not inside a per-lane split_aiv_scope), so there is no lane to give a part to"
            )
        axis = split_dim_of_code(split)
        box = static_shape(t)[axis]
        stride = lane_step(src.data.shape[axis], P.get_int_attr(op, "lane_stride"))
        part = shard_part(src, axis, ctx.lane, box, stride, t)
        check_static_valid(t, part, ctx.lane, src.valid[axis], stride, axis)
        return [part]

    @impl_sync(P.AicGatherOp)
    def run_aic_gather(self, op: P.AicGatherOp, args, env, ctx) -> Gen:
        (src,) = args
        split, whole = self._unsplit_boundary(op, src)
        if whole is not None:
            return whole
        t = op.result.type
        if ctx.lane is None or ctx.group is None:
            raise InterpError(f"aic_gather with split = {split} runs outside a two-lane context")
        grp = ctx.group
        k = ctx.gather_count
        ctx.gather_count += 1
        slot = grp.gathers.setdefault(k, {})
        slot[ctx.lane] = src
        clocks = grp.gather_clocks.setdefault(k, {})
        clocks[ctx.lane] = grp.races.release(ctx.lane)
        grp.progress += 1
        while len(slot) < 2:
            yield Wait(op, f"waits for the other lane to reach its aic_gather #{k + 1}")
        grp.races.acquire(ctx.lane, clocks[1 - ctx.lane])  # the gather is a rendezvous of the two lanes
        return [gather_parts([slot[0], slot[1]], split_dim_of_code(split), t)]

    @impl_sync(P.SplitAivScopeOp)
    def run_split_aiv_scope(self, op: P.SplitAivScopeOp, args, env, ctx) -> Gen:
        mode = op.mode.data
        per_lane = mode == "none" or any(o.has_trait(BoundaryAffinity) for o in op.body.walk())
        if ctx.lane is not None:
            lenv = dict(env)
            lenv[op.aiv_id] = ctx.lane
            return (yield from self.exec_block(op.body.block, lenv, ctx))
        if per_lane:
            return self.run_lanes_region(op, env, ctx)
        # A data-parallel region with a full-width body means the full-width computation: run it once.
        lenv = dict(env)
        lenv[op.aiv_id] = 0
        return (yield from self.exec_block(op.body.block, lenv, ctx))

    # -- pipe setup ---------------------------------------------------------------------------------------------------
    def _handle(self) -> int:
        h = self._next_handle
        self._next_handle += 1
        return h

    @impl_effect(P.ReserveBufferOp)
    def run_reserve_buffer(self, op: P.ReserveBufferOp, args, env, ctx) -> list:
        h = self._handle()
        ctx.buffers[h] = ("reserve", op.buffer_name.data, P.get_int_attr(op, "size") or 0, op)
        return [h]

    @impl_effect(P.ImportPeerBufferOp)
    def run_import_peer_buffer(self, op: P.ImportPeerBufferOp, args, env, ctx) -> list:
        h = self._handle()
        peer = op.peer_func.root_reference.data
        grp = ctx.group
        if grp is not None and peer not in (grp.aic_name, grp.aiv_name):
            raise InterpError(f"import_peer_buffer names @{peer}, which is not a member of the running Group")
        ctx.buffers[h] = ("import", op.buffer_name.data, 0, op)
        return [h]

    def _init_pipe(self, op, args, ctx: Ctx, side: CoreSide) -> list:
        if ctx.group is None or ctx.side != side:
            raise InterpError(f"'{op.name}' runs outside an {side.tag} kernel of a Group")
        grp = ctx.group
        pid = P.get_int_attr(op, "id") or 0
        dir_mask = P.get_int_attr(op, "dir_mask") or 0
        slot_size = P.get_int_attr(op, "slot_size") or 0
        slot_num = P.get_int_attr(op, "slot_num") or (4 if dir_mask == 3 else 8)
        local = P.get_int_attr(op, "local_slot_num") or slot_num
        if pid in ctx.pipes:
            raise InterpError(f"pipe {pid} is initialized twice on this core (first at {loc_str(ctx.pipes[pid].op)})")
        for dname, arg in ((PipeDirection.C2V, args[0]), (PipeDirection.V2C, args[1])):
            active = bool(dir_mask & dname.bit)
            h = int(arg)
            if active and h == 0:
                raise InterpError(f"direction {dname} is active (dir_mask = {dir_mask}) but its buffer operand is the 0 placeholder")
            if active:
                buf = ctx.buffers.get(h)
                if buf is None:
                    raise InterpError(f"the {dname} buffer operand is not a reserve_buffer/import_peer_buffer handle")
                consumer = dname.consumer is side
                want = "reserve" if consumer else "import"
                if buf[0] != want:
                    raise InterpError(
                        f"the {dname} buffer of the {side.tag} side must come from {want}_"
                        f"{'buffer' if want == 'reserve' else 'peer_buffer'} (this core consumes "
                        f"{'it' if consumer else 'nothing of it'}), but it comes from a {buf[0]} at {loc_str(buf[3])}"
                    )
                if want == "reserve" and buf[2] < slot_size * local:
                    raise InterpError(
                        f"the {dname} slot buffer reserves {buf[2]} bytes, less than slot_size x slot_num = "
                        f"{slot_size} x {local} = {slot_size * local}"
                    )
        init = PipeInit(dir_mask, slot_size, slot_num, op)
        ctx.pipes[pid] = init
        other = grp.inits.get((pid, side.other))
        if other is not None:
            for what in ("dir_mask", "slot_size", "slot_num"):
                if getattr(other, what) != getattr(init, what):
                    raise InterpError(
                        f"pipe {pid}: this side initializes {what} = {getattr(init, what)} but the peer initialized "
                        f"{what} = {getattr(other, what)} at {loc_str(other.op)}"
                    )
        if (pid, side) not in grp.inits or ctx.lane == 0 or ctx.lane is None:
            grp.inits[(pid, side)] = init
        for dname in PipeDirection:
            if dir_mask & dname.bit and (pid, dname) not in grp.rings:
                grp.rings[(pid, dname)] = Ring(pid, dname, slot_num, slot_size, grp.lanes)
        return []

    @impl_effect(*P.INIT_OPS)
    def run_initialize_pipe(self, op, args, env, ctx) -> list:
        """aic_/aiv_initialize_pipe: the side is the op's `PipeInit` trait."""
        init = op.get_trait(PipeInitTrait)
        assert init is not None
        return self._init_pipe(op, args, ctx, init.side)

    # -- transfer -----------------------------------------------------------------------------------------------------
    def _ring(self, op, ctx: Ctx, direction: PipeDirection, side: CoreSide) -> Ring:
        if ctx.group is None or ctx.side != side:
            raise InterpError(f"'{op.name}' is a cross-core op and must run in an {side.tag} kernel of a Group")
        pid = P.get_int_attr(op, "id") or 0
        init = ctx.pipes.get(pid)
        bit = direction.bit
        if init is None:
            raise InterpError(
                f"pipe {pid} was not initialized on this core: no pto.{side}_initialize_pipe ran before this op"
            )
        if not init.dir_mask & bit:
            raise InterpError(
                f"pipe {pid} was initialized at {loc_str(init.op)} with dir_mask = {init.dir_mask}, which does not "
                f"enable the {direction} direction"
            )
        return ctx.group.rings[(pid, direction)]

    def _check_slot(self, op, ring: Ring, t: TileType, what: str) -> None:
        b = tile_bytes(t)
        if b is None:
            raise InterpError(f"the {what} tile has a dynamic shape; a slot needs a static size")
        if b > ring.slot_size:
            raise InterpError(
                f"the {what} tile {t} takes {b} bytes, more than the slot_size of {ring.slot_size} bytes of the "
                f"{ring.name()}"
            )

    def _producer_key(self, ctx: Ctx) -> Any:
        return CoreSide.AIC if ctx.side is CoreSide.AIC else ctx.lane or 0

    @impl_sync(*P.TPUSH_OPS)
    def run_tpush(self, op, args, env, ctx) -> Gen:
        """tpush_to_aiv / tpush_to_aic: direction and side from the op's `PipePush` trait."""
        push = op.get_trait(PipePush)
        assert push is not None
        return (yield from self._push(op, args[0], ctx, push.direction, push.side))

    def _push(self, op, tile: Tile, ctx: Ctx, direction: PipeDirection, side: CoreSide) -> Gen:
        ring = self._ring(op, ctx, direction, side)
        self._check_slot(op, ring, tile.type, "pushed")
        if direction is PipeDirection.V2C and self.target == "a5" and is_scale_carrier(tile.type) and tuple(tile.valid) != tuple(tile.data.shape):
            raise InterpError(
                f"an MX scale carrier with valid region {list(tile.valid)} of its {list(tile.data.shape)} box cannot "
                "be pushed: the a5 V->C transfer inserts whole 32-byte fractal rows, so only the full physical box "
                "is contiguous; widen a private carrier's valid region to the box first (pto.set_validshape)"
            )
        code = P.get_int_attr(op, "split") or 0
        if code and len(ring.lanes) < 2:
            raise InterpError(
                f"split = {code} ({SPLIT_NAMES[code]}) exchanges halves with two AIV lanes, but @{ctx.group.aiv_name} "
                "runs on one lane (it has neither pto.split_aiv nor pto.dual_aiv_dispatch)"
            )
        me = self._producer_key(ctx)
        n = ring.pushed.get(me, 0)
        while n - ring.released() >= ring.slot_num:
            yield Wait(
                op,
                f"the {ring.name()} is full ({ring.slot_num} of {ring.slot_num} slots hold tiles not yet freed by "
                f"the consumer)",
            )
        if n == len(ring.entries):
            ring.entries.append(Entry(seq=n))
        e = ring.entries[n]
        races = ctx.group.races
        if n >= ring.slot_num:  # this push reuses the physical slot of entry n - slot_num: ordered after its frees
            for clock in ring.entries[n - ring.slot_num].free_clocks.values():
                races.acquire(me, clock)
        e.push_clocks[me] = races.release(me)
        e.push_ops[me] = op
        e.parts[me] = Tile(tile.data.copy(), tile.valid, tile.type)
        e.codes[me] = code
        e.strides[me] = P.get_int_attr(op, "lane_stride")
        ring.pushed[me] = n + 1
        ctx.group.progress += 1
        return []

    @impl_sync(*P.TPOP_OPS)
    def run_tpop(self, op, args, env, ctx) -> Gen:
        """tpop_from_aic / tpop_from_aiv: direction and side from the op's `PipePop` trait."""
        pop = op.get_trait(PipePop)
        assert pop is not None
        return (yield from self._pop(op, ctx, pop.direction, pop.side))

    def _pop(self, op, ctx: Ctx, direction: PipeDirection, side: CoreSide) -> Gen:
        ring = self._ring(op, ctx, direction, side)
        t: TileType = op.result.type
        self._check_slot(op, ring, t, "popped")
        me = self._producer_key(ctx)
        n = ring.popped.get(me, 0)
        while not (n < len(ring.entries) and set(ring.producers) <= set(ring.entries[n].parts)):
            yield Wait(op, f"the {ring.name()} is empty (this core has popped all {n} tiles pushed so far)")
        e = ring.entries[n]
        code = P.get_int_attr(op, "split") or 0
        for prod, pcode in e.codes.items():
            if pcode != code:
                raise InterpError(
                    f"split code mismatch: this tpop has split = {code} ({SPLIT_NAMES[code]}) but the matching tpush "
                    f"at {loc_str(e.push_ops[prod])} has split = {pcode} ({SPLIT_NAMES[pcode]})"
                )
        tile = self._deliver(op, e, ring, code, t, ctx)
        for clock in e.push_clocks.values():
            ctx.group.races.acquire(me, clock)
        tile.lease = SlotLease(ring, e, me, op)
        e.popped[me] = op
        ring.popped[me] = n + 1
        ctx.group.progress += 1
        return [tile]

    def _deliver(self, op, e: Entry, ring: Ring, code: int, t: TileType, ctx: Ctx) -> Tile:
        shape = static_shape(t)
        if ring.direction is PipeDirection.C2V:
            full = e.parts[CoreSide.AIC]
            if full.data.dtype != np.dtype(_np(t)):
                raise InterpError(f"this tpop expects {t.element_type} but the tile pushed at {loc_str(e.push_ops[CoreSide.AIC])} holds {full.type.element_type}")
            if code == 0:
                self._same_box(full, shape, e.push_ops[CoreSide.AIC])
                return repad(make_tile(full.data, t, full.valid))
            axis = split_dim_of_code(code)
            box = shape[axis]
            stride = self._stride(op, e, CoreSide.AIC, box)
            self._check_code(code, axis, full.valid[axis], stride, e.push_ops[CoreSide.AIC])
            part = shard_part(full, axis, ctx.lane or 0, box, stride, t)
            check_static_valid(t, part, ctx.lane or 0, full.valid[axis], stride, axis)
            return part
        # v2c: the cube receives lane 0's tile (code 0) or the two halves joined (split codes).
        p0 = e.parts[0]
        if p0.data.dtype != np.dtype(_np(t)):
            raise InterpError(f"this tpop expects {t.element_type} but the tile pushed at {loc_str(e.push_ops[0])} holds {p0.type.element_type}")
        if self.target == "a5" and t.space == "mat" and scale_kind(t) is not None:
            for prod, part in e.parts.items():
                if not is_scale_carrier(part.type):
                    raise InterpError(
                        f"this tpop receives an MX scale ({t}), but the tile pushed at {loc_str(e.push_ops[prod])} is "
                        f"{part.type}: the a5 V->C insert of a scale takes only a row/row fractal-32 carrier (a "
                        "col/col scale goes through pto.transpose_view)"
                    )
        carrier = tuple(reversed(shape))
        if code == 0:
            if self._transposed(p0, shape):  # a transposed view's bytes, read in the popped shape
                return repad(make_tile(self._arrived(p0, t, shape), t, tuple(reversed(p0.valid))))
            self._same_box(p0, shape, e.push_ops[0])
            return repad(make_tile(self._arrived(p0, t), t, p0.valid))
        axis = split_dim_of_code(code)
        if code in (3, 4):
            raise InterpError(f"split = {code} ({SPLIT_NAMES[code]}) has no vector->cube form; a gather is always even")
        if self.target == "a5" and carrier != tuple(shape) and all(
            tuple(e.parts[lane].data.shape) == carrier[:axis] + (carrier[axis] // 2,) + carrier[axis + 1 :]
            for lane in (0, 1)
        ):
            # Transposed carriers: the two parts join on `axis` in the pushed (carrier) shape, and the cube reads
            # the joined bytes in its own shape and view.
            joined = gather_parts([e.parts[0], e.parts[1]], axis, p0.type.with_(shape=carrier))
            data = reinterpret(joined.data, view_of(p0.type), view_of(t), shape)
            return repad(make_tile(data, t, tuple(reversed(joined.valid))))
        for lane in (0, 1):
            if e.parts[lane].data.shape[axis] * 2 != shape[axis]:
                raise InterpError(
                    f"lane {lane} pushed a {list(e.parts[lane].data.shape)} part at {loc_str(e.push_ops[lane])}, "
                    f"which is not half of this tpop's {list(shape)} on dim {axis}"
                )
        parts = [Tile(self._arrived(e.parts[lane], t), e.parts[lane].valid, e.parts[lane].type) for lane in (0, 1)]
        return gather_parts(parts, axis, t)

    def _transposed(self, part: Tile, shape) -> bool:
        """On a5 the slot holds bytes: a tile pushed in the transposed shape (a `transpose_view` carrier) is read
        in the popped shape.  a2a3 re-lays the tile out on the way, so it has no such reading."""
        pushed = tuple(part.data.shape)
        return self.target == "a5" and len(pushed) == 2 and pushed != tuple(shape) and pushed == tuple(reversed(shape))

    def _arrived(self, part: Tile, t: TileType, shape=None) -> np.ndarray:
        """A V->C tile as the cube reads it: the bytes in the slot, read with the popped type's view.

        On a5 the transfer copies the vector tile's bytes as they are (reference `RequiresVtoCFractalAdapt`): the
        slot holds the pushed tile in its own view, hence the `_nz` adapter.  On a2a3 the transfer lays the tile
        out in NZ on the way ("Mat only supports NZ").  A popped view that differs from the slot's gives scrambled
        cells (see `layout.py`); C->V transfers convert to the popped view on both targets."""
        if self.target == "a5":
            written = view_of(part.type)
        elif self.target == "a2a3":
            written = NZ_LAYOUT + (t.fractal.data,)
        else:
            return part.data
        return reinterpret(part.data, written, view_of(t), shape)

    def _same_box(self, pushed: Tile, shape, push_op) -> None:
        if tuple(pushed.data.shape) != tuple(shape):
            raise InterpError(
                f"this tpop expects a {list(shape)} tile but the tpush at {loc_str(push_op)} sent "
                f"{list(pushed.data.shape)}"
            )

    def _stride(self, op, e: Entry, prod, box: int) -> int:
        s_pop = P.get_int_attr(op, "lane_stride")
        s_push = e.strides.get(prod)
        if s_pop is not None and s_push is not None and s_pop != s_push:
            raise InterpError(
                f"lane_stride mismatch: this tpop has {s_pop} but the tpush at {loc_str(e.push_ops[prod])} has {s_push}"
            )
        return s_pop or s_push or box

    def _check_code(self, code: int, axis: int, full_valid: int, stride: int, push_op) -> None:
        e0, e1 = lane_extents(full_valid, stride)
        expected = code_for_lane_extents(axis, e0, e1)
        if expected != code:
            fix = "no split code can place them" if expected is None else f"expected split = {expected}"
            raise InterpError(
                f"split = {code} ({SPLIT_NAMES[code]}) does not fit the lanes' extents: the tile pushed at "
                f"{loc_str(push_op)} has {full_valid} valid cells on dim {axis}, so with a lane stride of {stride} "
                f"lane 0 holds {e0} and lane 1 holds {e1}; {fix}"
            )

    @impl_effect(*P.TFREE_OPS)
    def run_tfree(self, op, args, env, ctx) -> list:
        """tfree_to_aic / tfree_to_aiv: direction and side from the op's `PipeFree` trait."""
        free = op.get_trait(PipeFree)
        assert free is not None
        return self._free(op, args[0], ctx, free.direction, free.side)

    def _free(self, op, tile: Tile, ctx: Ctx, direction: PipeDirection, side: CoreSide) -> list:
        ring = self._ring(op, ctx, direction, side)
        me = self._producer_key(ctx)
        lease = tile.lease
        if lease is None or lease.ring is not ring:
            raise InterpError(
                f"tfree without a tpop: this tile was not popped from the {ring.name()}, so there is no slot to free"
            )
        e = lease.entry
        if lease.consumer != me:
            raise InterpError("tfree of a slot popped by another core")
        if me in e.freed:
            raise InterpError(f"the slot popped at {loc_str(e.popped[me])} is freed twice")
        e.freed.add(me)
        e.free_clocks[me] = ctx.group.races.release(me)
        lease.free_op = op
        ctx.group.progress += 1
        return []


# Ops that pass tiles on without reading their data (the reads happen where the values are used).  The tfrees
# (`PipeFree`) report a second free of a slot themselves.  A `SlotView` op's result is a view of its first
# operand's buffer (slice, reshape, transpose_view, set_validshape): a view of a popped tile aliases its slot.
_PASS_THROUGH = (func.CallOp, scf.ForOp, scf.IfOp, scf.WhileOp, P.SplitAivScopeOp)


def reads_tiles(op: Operation) -> bool:
    return not isinstance(op, _PASS_THROUGH) and not op.has_trait(PipeFree)


def check_leases(op: Operation, args: list[Any], ctx: Ctx) -> None:
    """A read of a tile whose ring slot was already freed is an error (the producer may have refilled the slot)."""
    for a in args:
        if isinstance(a, Tile) and a.lease is not None and a.lease.freed:
            lease = a.lease
            raise RunError(
                f"use of a tile after its slot was freed: the tile was popped from the {lease.ring.name()} at "
                f"{loc_str(lease.pop_op)} and its slot freed at {loc_str(lease.free_op)}, so the producer may already "
                f"have refilled the slot (on {ctx.label})",
                op=op,
                notes=[
                    (location_of(lease.pop_op), "the tile was popped here"),
                    (location_of(lease.free_op), "its slot was freed here"),
                ],
            )


def check_static_valid(t: TileType, part: Tile, lane: int, full_valid: int, stride: int, axis: int) -> None:
    """A lane part's static valid extents (in its type) must be what the lane really receives."""
    e = lane_extents(full_valid, stride)[lane]
    declared = t.get_valid()[axis]
    from pypto_mlir.dialects.pto_types import DYNAMIC

    if declared != DYNAMIC and declared != min(e, t.get_shape()[axis]):
        raise InterpError(
            f"the type {t} declares {declared} valid cells on dim {axis}, but lane {lane} receives {e} of the "
            f"full tile's {full_valid} (lane stride {stride})"
        )


def _np(t: TileType):
    from .values import np_dtype

    return np_dtype(t.element_type)


def _who(c) -> str:
    return "the AIC" if c == CoreSide.AIC else f"AIV lane {c}"


class _Pending:
    def __repr__(self) -> str:
        return "<pending>"


_PENDING = _Pending()


def _task_id(call: Operation | None) -> str:
    """`, task N` for a member call with `pto.task_id = N` (the runtime task it is submitted as), for labels."""
    attr = call.attributes.get("pto.task_id") if call is not None else None
    return f", task {attr.value.data}" if attr is not None and hasattr(attr, "value") else ""


def _is_pending(v: Any) -> bool:
    return v is _PENDING


def _has_regions(f: func.FuncOp) -> bool:
    """Whether `f` still holds `split_aiv_scope` regions (then only the regions run per lane)."""
    return any(isinstance(o, P.SplitAivScopeOp) for o in f.walk())

