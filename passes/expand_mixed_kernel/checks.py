"""The input checks of ExpandMixedKernel: what a module must satisfy before its kernels are fenced and split.

`insert-gm-fences`, the first phase, runs them; `split-mixed-kernel` runs them too when it is run alone (in the
pipeline the fence phase has).  Module-wide (`check_expansion_input`, which first inlines the `scf.execute_region`s
of every incore function): a target, no `pto.split_aiv_scope` region left, the deferred-waiter audit.  Per mixed kernel (`check_mixed_kernel`): the per-lane form of a data-parallel
split, no transpose of the split axis, free names for the halves.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import SplitAivScopeOp
from pypto_mlir.dialects.pto_traits import CoreSide
from pypto_mlir.dialects.pto_types import AUTO_SPLIT, FuncFlag, has_flag

from pypto_mlir.dialects.pto_lanes import DATA_PARALLEL_MODES
from ..analysis.transpose_hazard import check_kernel_transpose_hazard
from ..common import FunctionKind, inline_execute_regions, kind_of, split_mode
from .deferred_waiters import audit_deferred_waiters
from .phase import PASS_NAME, ExpansionState, functions, half_name


def check_expansion_input(module: ModuleOp, state: ExpansionState) -> None:
    """The module-wide checks, in the order the pass has always made them.  Before its checks every incore
    function has its `scf.execute_region`s inlined (`common.inline_execute_regions`, the rule LowerAutoVectorSplit
    applies too), so the split, the repair, the fences and the tfree placement never meet one."""
    for f in functions(module):
        if kind_of(f) == FunctionKind.INCORE:
            inline_execute_regions(f)  # the rule of both passes (common.py): the split sees one body
            reject_unlowered_regions(f)
    audit_deferred_waiters(module, state.affinity.placement)


def check_mixed_kernel(f: func.FuncOp, symbols: set[str]) -> None:
    """The checks of one mixed kernel `f`; `symbols` are the module's function names."""
    check_transpose_hazard(f)
    reject_unlowered_split(f)
    reject_name_clash(f, symbols)


def reject_unlowered_regions(f: func.FuncOp) -> None:
    for op in f.walk():
        if isinstance(op, SplitAivScopeOp):
            raise PtoError(
                f"{PASS_NAME}: a pto.split_aiv_scope region reached the pass in '@{f.sym_name.data}'; regions are "
                f"lowered by LowerAutoVectorSplit, so run --lower-auto-vector-split before --expand-mixed-kernel",
                op=op,
            )


def reject_unlowered_split(f: func.FuncOp) -> None:
    """A mixed kernel with a data-parallel split mode must have been lowered by LowerAutoVectorSplit first.

    The pass requires the per-lane form (seed: `AivSplitLoweredValid`, checked here as a whole-function
    precondition because `pypto-opt --expand-mixed-kernel` can run the pass alone): `pto.split = up_down|
    left_right` is only a request, and the body of a kernel that still carries it without `pto.split_aiv` is
    full-width code (or hand-written transfers that the AUTO lowering has not placed). Split as it is, its AIV
    half would be neither split (`pto.split_aiv`: two real lanes, each on its part) nor a dual dispatch (lane 1
    replays the handshakes only; the reference stamps that only without a split mode): on a2a3 the hardware
    runs it on both lanes and lane 1 repeats lane 0's transfers and stores, on a5 the split request would be
    dropped silently. The failure is a skipped pass, not something the author can read off the kernel, so the
    message names the step to run."""
    mode = split_mode(f)
    if mode not in (*DATA_PARALLEL_MODES, AUTO_SPLIT) or has_flag(f, FuncFlag.SPLIT_AIV):
        return
    raise PtoError(
        f"{PASS_NAME}: kernel '@{f.sym_name.data}' requests pto.split<{mode}> but has not been lowered to the "
        f"per-lane form (it has no pto.split_aiv): LowerAutoVectorSplit must run first, so run "
        f"--lower-auto-vector-split before --expand-mixed-kernel",
        op=f,
    )


def reject_name_clash(f: func.FuncOp, symbols: set[str]) -> None:
    name = f.sym_name.data
    aic_name, aiv_name = half_name(name, CoreSide.AIC), half_name(name, CoreSide.AIV)
    for taken in (aic_name, aiv_name):
        if taken in symbols:
            raise PtoError(
                f"{PASS_NAME}: cannot split the mixed kernel '@{name}': its halves are named '@{aic_name}' and "
                f"'@{aiv_name}', but '@{taken}' already exists in the module; rename that function",
                op=f,
            )


def check_transpose_hazard(f: func.FuncOp) -> None:
    """§7.2: a split kernel that skipped LowerAutoVectorSplit must not transpose its split axis away (the rule and
    its message have one home, `analysis.transpose_hazard.check_kernel_transpose_hazard`)."""
    check_kernel_transpose_hazard(f, PASS_NAME)
