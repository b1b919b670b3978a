"""The deferred-waiter audit of ExpandMixedKernel (reference `expand-mixed-kernel.reference.md` §7.2).

A `pto.defer_wait` is a wait the runtime resolves *before* it dispatches the task, so the task itself never
blocks.  That is only sound for a task shaped the way the runtime expects: a single-block pure-vector task
launched directly by orchestration code.  Each rule is a located error at the `pto.defer_wait`:

- the function is an outlined kernel: `incore` (before the split) or its pure-AIV expanded form `aiv`;
- it carries no `pto.core_num` and no `pto.sync_start` (a single-block task);
- it has at least one call site, and every call site is a top-level `func.call` in an `orchestration`
  function (not in a Group, another kernel, or inside control flow);
- it lowers to a pure AIV kernel: its body (with the placement of ExpandMixedKernel) has no cube work, so it is
  neither split into AIC + AIV nor converted to an AIC kernel.

The reference's call-site options `allow_early_resolve` and dispatch predicates have no `pto` counterpart, so
their rules have nothing to check.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_comm_ops import DeferWaitOp
from pypto_mlir.dialects.pto_types import FuncFlag, FuncInt

from ..analysis.affinity import Affinity, AffinityAnalysis
from ..common import FunctionKind, kind_of

PASS_NAME = "ExpandMixedKernel"


def _error(f: func.FuncOp, op: DeferWaitOp, reason: str) -> PtoError:
    return PtoError(
        f"{PASS_NAME}: pto.defer_wait in function '{f.sym_name.data}' bypasses the deferred-waiter task contract: "
        f"{reason}",
        op=op,
    )


def audit_deferred_waiters(module: ModuleOp, placement: Callable[[func.FuncOp], AffinityAnalysis]) -> None:
    """Check every `pto.defer_wait` of the module; `placement` gives a kernel's placement affinity (the pass's
    cached `KernelAffinity.placement`, so the split reuses the analysis the audit made)."""
    funcs = [f for f in module.body.block.ops if isinstance(f, func.FuncOp)]
    waiters: list[tuple[func.FuncOp, DeferWaitOp]] = []
    for f in funcs:
        first = next((o for o in f.walk() if isinstance(o, DeferWaitOp)), None)
        if first is not None:
            waiters.append((f, first))
    if not waiters:
        return
    call_sites: dict[str, list[tuple[func.FuncOp, func.CallOp]]] = {}
    for g in funcs:
        for op in g.walk():
            if isinstance(op, func.CallOp):
                call_sites.setdefault(op.callee.root_reference.data, []).append((g, op))
    for f, wait in waiters:
        name = f.sym_name.data
        kind = kind_of(f)
        if kind not in (FunctionKind.INCORE, FunctionKind.AIV):
            raise _error(
                f, wait, f"it must be an outlined incore function or its pure-AIV expanded form, but '@{name}' is "
                f"#pto.kind<{kind}>; move the wait into the kernel the orchestration code launches",
            )
        for attr in (FuncInt.CORE_NUM, FuncFlag.SYNC_START):
            if attr.value in f.attributes:
                raise _error(
                    f, wait, f"it must be a single-block task and cannot carry core_num or sync_start ('@{name}' has "
                    f"{attr}); drop the attribute, or use pto.wait inside the kernel instead",
                )
        sites = call_sites.get(name, [])
        if not sites:
            raise _error(
                f, wait, f"'@{name}' has no task-level Orchestration call site; the runtime resolves the wait when it "
                "dispatches the task, so the kernel must be launched by an orchestration function",
            )
        for caller, call in sites:
            if kind_of(caller) != FunctionKind.ORCHESTRATION or call.parent_block() is not caller.body.block:
                where = (
                    f"inside control flow of '@{caller.sym_name.data}'"
                    if kind_of(caller) == FunctionKind.ORCHESTRATION
                    else f"from '@{caller.sym_name.data}' (#pto.kind<{kind_of(caller)}>)"
                )
                raise _error(
                    f, wait, f"'@{name}' must be dispatched directly from an Orchestration function, but it is called "
                    f"{where}; call it at the top level of the orchestration code",
                )
        if kind == FunctionKind.INCORE and f.body.blocks:
            roll = placement(f).of_block(f.body.block)
            if roll in (Affinity.CUBE, Affinity.MIXED):
                shape = "a mixed AIC/AIV kernel" if roll == Affinity.MIXED else "an AIC kernel"
                raise _error(
                    f, wait, f"'@{name}' must lower to a pure AIV kernel, but it has cube work and would become "
                    f"{shape}; AIC and mixed AIC/AIV waiters are not supported. Wait with pto.wait, or move the "
                    "cube work into another kernel",
                )


__all__ = ["audit_deferred_waiters"]
