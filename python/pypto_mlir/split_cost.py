"""The default split cost model's work (`pipeline.DefaultSplitCostModel`): the modelled makespan of one mixed kernel
of a module once ExpandMixedKernel has expanded it, for LowerAutoVectorSplit's choices (`#pto.split<auto>`'s axis,
whether a split with extra cross-lane work pays: passes/lower_auto_vector_split/auto/choice.py).

The kernel is timed alone: a copy of the module keeps it and the functions it calls (the other kernels may still
be unlowered, and the callers would run them too), ExpandMixedKernel expands the copy (`expand`, handed by the
pipeline runner, which this driver module does not import: the runner imports it), and the interpreter runs the
kernel's Group once on seeded inputs (`inputs.run_timed`) and the timing model replays the recording at the depth
the expansion chose (`timing.timeline.makespan`).  A kernel with a scalar parameter (whose value sets its
schedule), one the expansion refuses, or one whose run fails or deadlocks is not timed: the answer is the sentence
saying why.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_types import TensorType, TileType
from pypto_mlir.interpreter.inputs import run_timed
from pypto_mlir.timing.timeline import makespan


def kernel_alone(module: ModuleOp, kernel: str) -> ModuleOp:
    """A copy of `module` with only `@kernel` and the functions it refers to (transitively)."""
    copy = module.clone()
    funcs = {f.sym_name.data: f for f in copy.body.block.ops if isinstance(f, func.FuncOp)}
    keep: set[str] = set()
    todo = [kernel]
    while todo:
        name = todo.pop()
        if name in keep or name not in funcs:
            continue
        keep.add(name)
        for op in funcs[name].walk():
            for attr in op.attributes.values():
                if isinstance(attr, SymbolRefAttr):
                    todo.append(attr.root_reference.data)
    for name, f in funcs.items():
        if name not in keep:
            f.detach()
    return copy


def expanded_makespan(module: ModuleOp, kernel: str, expand: Callable[[ModuleOp], None]) -> int | str:
    """The modelled makespan of `@kernel`'s Group after `expand` (ExpandMixedKernel) on a copy of `module` holding
    only it, or why it cannot be timed."""
    alone = kernel_alone(module, kernel)
    f = next(op for op in alone.body.block.ops if isinstance(op, func.FuncOp) and op.sym_name.data == kernel)
    if any(not isinstance(a.type, (TensorType, TileType)) for a in f.body.block.args):
        return "the kernel takes a scalar parameter, whose value sets its schedule"
    try:
        expand(alone)
    except PtoError as e:
        return f"ExpandMixedKernel refuses this form ({e.message})"
    try:
        timelines = run_timed(alone, kernel)
    except PtoError as e:
        return f"its run in the interpreter fails ({e.message})"
    except Exception as e:  # noqa: BLE001 - the choice is advisory: a failing run is not timed
        return f"its run in the interpreter fails ({type(e).__name__})"
    span = makespan(timelines)
    return span if span is not None else "its modelled schedule deadlocks at the depth ExpandMixedKernel chose"
