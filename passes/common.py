"""Helpers shared by the passes: locations, names, targets, function attributes.

`kind_of`, `set_kind`, `FunctionKind` and the other function-attribute accessors are defined with `#pto.kind` in `dialects/pto_types.py` and re-exported
here for the passes."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint, Rewriter

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import ReserveBufferOp, pipe_init_of
from pypto_mlir.dialects.pto_types import (  # noqa: F401 (FunctionKind, kind_of, set_kind: re-exports)
    FunctionKind,
    kind_of,
    set_kind,
    split_mode_of,
    target_of,
)


def with_loc(new: Operation, old: Operation) -> Operation:
    """Give `new` the source location of the op it replaces or derives from."""
    new.location = old.location
    return new


def enclosing_loops(op: Operation) -> list[Operation]:
    """The `scf.for` / `scf.while` ops around `op` inside its function, innermost first."""
    out = []
    p = op.parent_op()
    while p is not None and not isinstance(p, func.FuncOp):
        if isinstance(p, (scf.ForOp, scf.WhileOp)):
            out.append(p)
        p = p.parent_op()
    return out


def inline_execute_regions(f: func.FuncOp) -> int:
    """Inline every `scf.execute_region` of `f` in place: its ops move in front of it, its results are replaced
    by the values its `scf.yield` gives, and the wrapper is erased; returns how many were inlined.

    The one rule both passes apply to the functions they rewrite (LowerAutoVectorSplit: region functions and AUTO
    candidates; ExpandMixedKernel: every incore function), before anything else. An `scf.execute_region` runs
    its one block once (the verifier refuses a second block: `pto` programs have no branch ops) and scopes
    nothing but the SSA names of that block, so inlining it never changes what the program computes; it is what
    MLIR's canonicalizer does with a single-block `scf.execute_region`, and the counterpart of the reference's
    nested statement sequence (`SeqStmts`), which its passes flatten and descend into, unlike the outlining
    scopes (`ScopeStmt`). Every rule of the passes (halving, carries, the affinity split, the loop-state repair,
    the GM fences, the tfree placement) is then defined on the inlined body, with no case for the wrapper."""
    regions = [op for op in f.walk() if isinstance(op, scf.ExecuteRegionOp)]
    for op in regions:  # outer before inner (pre-order): an inner wrapper moves out with its parent's block
        block = op.region.block
        term = block.last_op
        assert isinstance(term, scf.YieldOp), "verified input: the block ends with scf.yield"
        for res, v in zip(op.results, term.operands, strict=True):
            res.replace_all_uses_with(v)
        Rewriter.erase_op(term)
        Rewriter.inline_block(block, InsertPoint.before(op))
        Rewriter.erase_op(op)
    return len(regions)


def require_target(module: ModuleOp, pass_name: str) -> str:
    """The module's backend (`a2a3` or `a5`); a located error if it has none."""
    target = target_of(module)
    if target is None:
        raise PtoError(
            f"{pass_name} depends on the backend, but the module has no 'pto.target' attribute; "
            "add `attributes {pto.target = #pto.target<a2a3>}` (or <a5>) to the builtin.module",
            op=module,
        )
    return target


split_mode = split_mode_of
"""The function's split mode: `none` when absent (`dialects.pto_types.split_mode_of`)."""


@contextmanager
def old_heap_frozen() -> Iterator[None]:
    """Keep the objects that exist when a pass starts (the input IR, and whatever the caller holds) out of the
    cyclic garbage collector's scans while the pass runs; objects the pass creates are collected as usual.

    A pass allocates many objects, which triggers full collections that walk the whole heap, most of it the
    IR the pass starts from; in the compile-time benchmark that made ExpandMixedKernel 15-25 % slower on
    large modules (docs/performance.md). The heap is unfrozen on exit. Nothing is done when the collector is
    disabled or objects are already frozen (the caller manages the collector then)."""
    if not gc.isenabled() or gc.get_freeze_count() > 0:
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def set_ring_depth(f: func.FuncOp, depth: int) -> None:
    """Give the pipe of `f` `depth` slots: its (first) initializer's `slot_num`, and the size of every
    `reserve_buffer` of `f` (slot_size x depth).  The one rewrite of a ring depth (the ring depth choice of
    ExpandMixedKernel and the skew pass use it)."""
    init = pipe_init_of(f)
    assert init is not None
    init.slot_num = IntegerAttr(depth, i64)
    for op in f.walk():
        if isinstance(op, ReserveBufferOp):
            op.size = IntegerAttr(init.slot_bytes * depth, i64)
