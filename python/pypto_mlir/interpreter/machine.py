"""The execution model: functions, calls, Groups of concurrent cores, lanes, and the scheduler between them.

Every core (the AIC, each AIV lane) runs its kernel as a Python generator.  Every op a core runs goes through one
hook, `Machine.exec_op`: it evaluates the operands, dispatches to the op's implementation (`registry.py`), and, for
an op that must wait on another core, yields a structured `Wait` (`state.py`: its `WaitKind` and the ring it waits
on) each time it cannot proceed; the op is retried when the scheduler resumes the core.  The scheduler steps the
cores round-robin, in a fixed order, so every run is deterministic.  If a whole round passes with every live core
waiting and no pipe changed, the program is deadlocked and the report names the op each core waits at.

This module holds the cores and the scheduling (functions, calls, Groups, lanes, control flow, the exit and race
checks); the effects of the ops live beside it: GM in `gm.py`, pipes and their handshakes in `pipes.py` (what a
`tpop` receives in `transfer.py`), lanes and the boundary ops in `lanes.py`, communication in `comm.py`.  They
import `state.py`, not this module.  See `docs/interpreter.md` for the model in prose.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import IsTerminator

from pypto_mlir.diagnostics import SourceLoc, location_of
from pypto_mlir.dialects import pto_ops as P
from pypto_mlir.dialects.pto_abi import task_id_of
from pypto_mlir.dialects.pto_traits import CoreSide, SlotView
from pypto_mlir.dialects.pto_types import (
    FuncFlag,
    FunctionKind,
    has_flag,
    kind_of,
    target_of,
)

from pypto_mlir.dialects.pto_view_ops import TensorCastOp
from pypto_mlir.passes.analysis.lineage import output_binding

from pypto_mlir.timing.timeline import Timeline

from . import gm as _gm, lanes as _lanes, pipes as _pipes  # noqa: F401  (register the effect ops)
from .gm import undefined_read_message
from . import recorder as _recorder
from .pipes import check_leases, reads_tiles
from .races import fmt_box
from .registry import EFFECT, PLAIN, REGISTRY, impl_sync
from .state import Ctx, Gen, GroupRun, RunError, Wait, WaitKind, loc_str
from .values import InterpError, Tile

__all__ = ["Ctx", "Gen", "GroupRun", "Machine", "RunError", "Wait", "WaitKind", "kind_of", "loc_str"]


class Machine:
    """Interprets the functions of one module."""

    def __init__(self, module: ModuleOp, order: str = "forward", detect_races: bool = True, timing: bool = False):
        """`order`: in which order the scheduler resumes the cores of a Group each round: "forward" (AIC, AIV
        lane 0, lane 1) or "reverse" (lane 1, lane 0, AIC).  Running both exposes more unordered races.
        `detect_races`: report GM accesses of different cores that no handshake orders (`races.py`).
        `timing`: record every Group run for the timing model into `self.timelines` (`recorder.py`)."""
        self.detect_races = detect_races
        self.timelines: list[Timeline] | None = [] if timing else None
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

    def new_handle(self) -> int:
        """A fresh buffer handle (reserve_buffer / import_peer_buffer; `state.MachineView`)."""
        h = self._next_handle
        self._next_handle += 1
        return h

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
        grp = GroupRun(lanes, aivs[0][0].sym_name.data if aivs else None, aics[0][0].sym_name.data if aics else None, dual)
        cores: list[tuple[Ctx, Gen, int]] = []
        timeline = Timeline(label, self.target) if self.timelines is not None else None
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
        if timeline is not None:
            for ctx, _, _ in cores:
                _recorder.add_track(timeline, ctx)
        results = self.schedule(cores, grp, label)
        self.check_exit(grp, cores, label, at)
        self.check_races(grp, label)
        if timeline is not None and self.timelines is not None:
            _recorder.finish_timeline(timeline, grp)
            self.timelines.append(timeline)
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
                "the handshakes only), so lane 1 would repeat lane 0's transfers and stores; mark the kernel "
                "pto.dual_aiv_dispatch if lane 1 should only replay the handshakes, or split its vector work "
                "between the lanes (pto.split_aiv, what --lower-auto-vector-split makes of a pto.split request)",
                op=at if at is not None else g,
            )
        return ([0, 1] if split_aiv or dual else [0]), dual

    def check_races(self, grp: GroupRun, label: str) -> None:
        """Report every pair of GM accesses of different cores/lanes that overlap, include a write, and that no
        pipe handshake or lane barrier orders (see `races.py`); then a read of lane workspace cells no lane had
        written (a race is its likelier cause, so it is reported first)."""
        if self.detect_races:
            self.check_duplicates(grp, label)
            self.report_races(grp, label)
        if grp.undefined_reads:
            r = grp.undefined_reads[0]
            raise RunError(f"{undefined_read_message(r)} ({len(grp.undefined_reads)} such read(s) in {label})", op=r.op)

    def report_races(self, grp: GroupRun, label: str) -> None:
        races = grp.races.races
        if not races:
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
            f"and no pipe handshake or lane barrier orders them ({len(races)} racing pair(s))",
            op=r.second.op,
            notes=notes,
        )

    def check_duplicates(self, grp: GroupRun, label: str) -> None:
        """Report a GM effect that must happen once per kernel (`OncePerKernel`) performed by two lanes."""
        dups = grp.races.duplicates
        if not dups:
            return
        d = dups[0]
        notes = [(location_of(x.second.op), f"also performed on {x.first.label} and {x.second.label}") for x in dups[1:]]
        raise RunError(
            f"duplicated GM effect on %{d.buffer}{fmt_box(d.region)} in {label}: this {d.second.op.name} "
            f"{d.second.once} and runs on {d.first.label} and on {d.second.label} on the same cells, so its effect "
            f"happens twice; it must happen once per kernel (one lane performs it, or each lane its own part) "
            f"({len(dups)} duplicated op(s))",
            op=d.second.op,
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
        """Resume the cores round-robin in `self.order`, each until it yields a `Wait` or ends; a round in which
        no core ends and no handshake moves `grp.progress` is a deadlock.  Returns each member's results by index
        (the cores with index -1, lane 1 of a two-lane kernel, return nothing)."""
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
        """Run one op on the core `ctx`; returns None, or the terminator's values when `op` ends its block.

        The one hook through which every op of every core runs (block bodies, Group bodies, loop bodies alike):
        operands from `env`, the slot-lease check, the op's implementation from the registry (plain, effect or
        sync), results into `env`.  While a sync op cannot proceed it yields a `Wait` (`state.py`: the
        `WaitKind`, the ring, the count or signal), which the scheduler keeps in `ctx.waiting_at` until it resumes
        the core.  An op with regions (`scf.for/if/while/execute_region`, `func.call`, `split_aiv_scope`) runs its
        body's ops through this hook again, nested inside its own call."""
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
        if ctx.track is not None and not op.regions and not isinstance(op, func.CallOp):
            _recorder.record(self.target, op, args, ctx)
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

    @impl_sync(scf.ExecuteRegionOp)
    def run_execute_region(self, op: scf.ExecuteRegionOp, args, env, ctx) -> Gen:
        """Its one block, once (the verifier refuses a second block); the results are what its `scf.yield`
        gives.  The block's own values stay inside it, as in an `scf.if` branch."""
        return (yield from self.exec_block(op.region.block, dict(env), ctx))

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


def _who(c) -> str:
    return "the AIC" if c == CoreSide.AIC else f"AIV lane {c}"


class _Pending:
    def __repr__(self) -> str:
        return "<pending>"


_PENDING = _Pending()


def _task_id(call: Operation | None) -> str:
    """`, task N` for a member call with `pto.task_id = N` (the runtime task it is submitted as), for labels."""
    task = task_id_of(call) if call is not None else None
    return f", task {task}" if task is not None else ""


def _is_pending(v: Any) -> bool:
    return v is _PENDING


def _has_regions(f: func.FuncOp) -> bool:
    """Whether `f` still holds `split_aiv_scope` regions (then only the regions run per lane)."""
    return any(isinstance(o, P.SplitAivScopeOp) for o in f.walk())

