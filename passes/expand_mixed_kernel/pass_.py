"""ExpandMixedKernel: split mixed `incore` kernels into AIC + AIV kernels joined by tpush/tpop, plus a Group.

`expand-mixed-kernel` is a pipeline of phase passes, each a file with one job, registered with its own flag
and runnable alone (docs/expand-mixed-kernel.md *The pipeline of phases*; the base class and the state the phases
share are in `phase.py`):

  1. `insert-gm-fences`      (insert_gm_fences.py)     the input checks; fence every cross-core GM dependence
  2. `split-mixed-kernel`    (split_mixed_kernel.py)   incore kernels -> `@f_aic` + `@f_aiv` (+ Group `@f`),
                                                       pure ones -> aic / aiv; Group callers call both halves
  3. `insert-tfree`          (insert_tfree.py)         every tpop of the halves freed once, after its last use
  4. `setup-pipes`           (setup_pipes.py)          the pipe setup of each pair of halves
  5. `normalize-group-abi`   (normalize_group_abi.py)  both members of a Group take the Group's parameters
  6. `adapt-manual-pushes`   (adapt_manual_pushes.py)  a5: every V->C push sends the layout the cube reads
  7. `verify-mixed-kernel-expanded` (verifier.py)      the MixedKernelExpanded contract
  8. `choose-ring-depth`     (choose_ring_depth.py)    the ring depth of kernels that set none, then the skew of
                                                       their round-trip loops (timing model; skew_choice.py)

This pass runs them in that order on one shared state (`ExpansionState`: the affinity analyses are computed
once, and a phase after the first skips the precondition checks that the phases before it made true), without
verifying between them; run as separate passes (`--insert-gm-fences --split-mixed-kernel ...`), the runner
verifies after each, and the output is the same.  Functions of any other kind (aic, aiv, group, ...) pass
through, so the pass is idempotent on its output.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from pypto_mlir.verify import ensure_verified

from ..common import old_heap_frozen, require_target
from .adapt_manual_pushes import AdaptManualPushesPass
from .choose_ring_depth import ChooseRingDepthPass, CostModelUser, check_ring_depth_option, check_skew_option
from .insert_gm_fences import InsertGmFencesPass
from .insert_tfree import InsertTfreePass
from .normalize_group_abi import NormalizeGroupAbiPass
from .phase import PASS_NAME, ExpansionState
from .setup_pipes import SetupPipesPass
from .split_mixed_kernel import SplitMixedKernelPass
from .verifier import VerifyMixedKernelExpandedPass

PHASES = (
    InsertGmFencesPass,
    SplitMixedKernelPass,
    InsertTfreePass,
    SetupPipesPass,
    NormalizeGroupAbiPass,
    AdaptManualPushesPass,
    VerifyMixedKernelExpandedPass,
    ChooseRingDepthPass,
)
"""The phases, in the order the pipeline runs them."""


@dataclass(frozen=True)
class ExpandMixedKernelPass(CostModelUser, ModulePass):
    """Split every mixed incore kernel into `@<f>_aic` + `@<f>_aiv` (+ the Group `@<f>` its callers need).

    Guarantees on success (checked by `verify_mixed_kernel_expanded` before the ring depth is chosen): no incore
    kernel is left mixed; every cube<->vector boundary is a tpush/tpop pair in the target's layout; every tpop
    is freed exactly once after its last use in its block; each expanded pair has its pipe setup; callers reach
    both halves; the module verifies, and running the pass again changes nothing. On a rejected input a located
    `PtoError` is raised and the module must be discarded."""

    name = "expand-mixed-kernel"

    ring_depth: str = "auto"
    """`auto`: a kernel that sets no `pto.slot_num` gets the ring depth the timing model finds best within the
    memory budget, never below the default 2 (`ring_depth.py`); `fixed`: the default depth 2, as the reference."""

    skew: str = "auto"
    """`auto`: after the ring depth, a loop whose cores exchange tiles both ways in each iteration is skewed
    (`skew-cross-core-pipeline`) by the distance, with the ring depth, that the timing model finds best, where that
    beats the loop unskewed (`skew_choice.py`); `off`: no skew, the output of the reference's pipeline."""

    def __post_init__(self) -> None:
        check_ring_depth_option(self.ring_depth, self.name)
        check_skew_option(self.skew, self.name)

    def phases(self) -> list:
        """The phase passes of this pipeline, with this pass's options (the ring depth, the skew, the cost model
        and the skew rewriter)."""
        out: list = []
        for cls in PHASES:
            if cls is ChooseRingDepthPass:
                phase = ChooseRingDepthPass(ring_depth=self.ring_depth, skew=self.skew)
                out.append(phase.with_cost_model(self.cost_model).with_skew_rewriter(self.skew_rewriter))
            else:
                out.append(cls())
        return out

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ensure_verified(op)  # the input must be valid IR (a no-op when the pipeline runner verified it)
        with old_heap_frozen():
            self._apply(op)

    def _apply(self, op: ModuleOp) -> None:
        state = ExpansionState(require_target(op, PASS_NAME), ring_depth=self.ring_depth)
        for phase in self.phases():
            phase.run(op, state)
            state.trusted = True
