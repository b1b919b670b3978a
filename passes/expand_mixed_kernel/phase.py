"""What the phases of ExpandMixedKernel share: the base class of a phase pass, the state the phases hand on inside
one `expand-mixed-kernel` run, the names of the halves, and the preconditions a phase checks when run alone.

`expand-mixed-kernel` is a pipeline of phase passes (`pass_.py` lists them in order; docs/expand-mixed-kernel.md
*The pipeline of phases*).  Each phase is a `ModulePass` with its own flag, so `pypto-opt --split-mixed-kernel`
runs one alone; the IR between two phases is valid (the pipeline runner verifies it after each pass).  A phase
that finds input it does not expect (a mixed kernel left for a phase that works on the halves, a half whose
tpops are not freed yet, ...) raises a located error that says what it expects and which pass to run first.

Between `split-mixed-kernel` and `choose-ring-depth` the halves the split made carry `pto.protocol_pending`
(`FuncFlag.PROTOCOL_PENDING`): the later phases complete the pipe protocol of those halves only, and leave the
AIC / AIV functions of the input (hand-written pipes) as they are, as the one-pattern pass did.
`choose-ring-depth`, the last phase, removes the flag.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_traits import CoreSide
from pypto_mlir.dialects.pto_types import FuncFlag, has_flag, set_flag
from pypto_mlir.verify import ensure_verified

from ..analysis.affinity import Affinity, AffinityAnalysis
from ..analysis.hazards import Aliases, param_aliases
from ..common import FunctionKind, kind_of, old_heap_frozen, require_target

PASS_NAME = "ExpandMixedKernel"
"""How messages name the pass (the pipeline and every phase of it)."""


# ---------------------------------------------------------------------------------------------------------------
# names
# ---------------------------------------------------------------------------------------------------------------


def half_name(kernel: str, side: CoreSide) -> str:
    """The name of the `side` half of the mixed kernel `@kernel` (the rule's one home: `CoreSide.half_name`)."""
    return side.half_name(kernel)


def kernel_of_half(name: str, side: CoreSide) -> str | None:
    """The mixed kernel whose `side` half is named `name` (None when `name` is not such a name)."""
    found = CoreSide.kernel_of_half(name)
    return found[0] if found is not None and found[1] is side and found[0] else None


def functions(module: ModuleOp) -> list[func.FuncOp]:
    return [f for f in module.body.block.ops if isinstance(f, func.FuncOp)]


# ---------------------------------------------------------------------------------------------------------------
# shared state
# ---------------------------------------------------------------------------------------------------------------


def placement_of(kernel: func.FuncOp) -> AffinityAnalysis:
    """Where the split puts each op of a mixed kernel: by `placed_affinity` (a no-duplicate op such as
    `pto.notify` goes to the AIV only). Every affinity the split and the fence placement read comes from here,
    so a recomputation (after `insert_gm_fences`) cannot fall back to the intrinsic affinity and copy a notify
    to both sides."""
    return AffinityAnalysis(kernel, placement=True)


class KernelAffinity:
    """The two affinity analyses of the pass, computed at most once per incore kernel and shared by the audit,
    the fences and the split (the conventions: an analysis is computed once and passed in, not recomputed per
    pattern).

    - `roll(f)`: the intrinsic affinity of the body, which decides pure (`aic` / `aiv`) against mixed;
    - `placement(f)`: where the split puts each op (`placement_of`); `refresh(f)` recomputes it after
      `insert-gm-fences` added ops to `f`."""

    def __init__(self) -> None:
        self._rolls: dict[func.FuncOp, Affinity] = {}
        self._placements: dict[func.FuncOp, AffinityAnalysis] = {}

    def roll(self, f: func.FuncOp) -> Affinity:
        if f not in self._rolls:
            self._rolls[f] = AffinityAnalysis(f).of_block(f.body.block) if f.body.blocks else Affinity.SHARED
        return self._rolls[f]

    def placement(self, f: func.FuncOp) -> AffinityAnalysis:
        if f not in self._placements:
            self._placements[f] = placement_of(f)
        return self._placements[f]

    def refresh(self, f: func.FuncOp) -> AffinityAnalysis:
        self._placements[f] = placement_of(f)
        return self._placements[f]


@dataclass
class ExpansionState:
    """What one run of the phases shares: the target, the affinity analyses, and whether the phases before the
    current one ran in this run (`trusted`: their guarantees hold, so a phase skips the precondition checks
    that cost an analysis, such as the split's check that every GM dependence is fenced), and the pipeline's
    `ring-depth` option (`setup-pipes` sizes a ring that states no depth by it; a phase run alone: `auto`)."""

    target: str
    ring_depth: str = "auto"
    affinity: KernelAffinity = field(default_factory=KernelAffinity)
    trusted: bool = False
    _aliases: Aliases | None = None

    def aliases(self, module: ModuleOp) -> Aliases:
        """The tensor parameters the module's callers bind to one buffer (`analysis.hazards.param_aliases`)."""
        if self._aliases is None:
            self._aliases = param_aliases(module)
        return self._aliases


@dataclass(frozen=True)
class ExpansionPhase(ModulePass):
    """A phase of `expand-mixed-kernel` as a pass of its own: `apply` checks the input (valid IR, a target) and
    runs `run` with a fresh state; the pipeline (`pass_.py`) calls `run` of each phase with one shared state."""

    name: ClassVar[str]

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ensure_verified(op)  # the input must be valid IR (a no-op when the pipeline runner verified it)
        with old_heap_frozen():
            self.run(op, ExpansionState(require_target(op, PASS_NAME)))

    def run(self, module: ModuleOp, state: ExpansionState) -> None:
        raise NotImplementedError


# ---------------------------------------------------------------------------------------------------------------
# preconditions and the halves in progress
# ---------------------------------------------------------------------------------------------------------------


def require_split(module: ModuleOp, phase: str) -> None:
    """The precondition of every phase after `split-mixed-kernel`: no incore kernel is left."""
    for f in functions(module):
        if kind_of(f) == FunctionKind.INCORE:
            raise PtoError(
                f"{phase}: '@{f.sym_name.data}' is still an incore kernel, but this phase works on the AIC / AIV "
                f"kernels that split-mixed-kernel makes of it; run --split-mixed-kernel (after --insert-gm-fences) "
                f"before --{phase}, or run the whole --expand-mixed-kernel",
                op=f,
            )


def mark_pending(f: func.FuncOp) -> None:
    set_flag(f, FuncFlag.PROTOCOL_PENDING)


def pending_functions(module: ModuleOp) -> Iterator[tuple[func.FuncOp, CoreSide]]:
    """The AIC / AIV functions whose pipe protocol is in progress, with their side, in module order."""
    for f in functions(module):
        side = CoreSide.of_kind(kind_of(f))
        if side is not None and has_flag(f, FuncFlag.PROTOCOL_PENDING):
            yield f, side


def pending_pairs(module: ModuleOp) -> list[tuple[str, func.FuncOp, func.FuncOp]]:
    """(kernel name, `@<kernel>_aic`, `@<kernel>_aiv`) of every pair the split made whose protocol is in
    progress, in the module order of the AIC halves."""
    by_name = {f.sym_name.data: f for f in functions(module)}
    out = []
    for f, side in pending_functions(module):
        kernel = kernel_of_half(f.sym_name.data, side) if side is CoreSide.AIC else None
        aiv = by_name.get(half_name(kernel, CoreSide.AIV)) if kernel is not None else None
        if kernel is not None and aiv is not None and has_flag(aiv, FuncFlag.PROTOCOL_PENDING):
            out.append((kernel, f, aiv))
    return out


def clear_pending(module: ModuleOp) -> None:
    for f, _ in list(pending_functions(module)):
        set_flag(f, FuncFlag.PROTOCOL_PENDING, on=False)
