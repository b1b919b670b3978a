"""The pass registry: every pass `pypto-opt` (and `xdsl-opt`, through the entry point) can run.

Each entry maps a pass name to a loader (imported lazily, so a tool only pays for what it runs) and a
one-line description shown by `pypto-opt --help`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the registry itself imports no pass, nor xDSL's pass machinery
    from xdsl.passes import ModulePass


@dataclass(frozen=True)
class PassInfo:
    name: str
    description: str
    load: Callable[[], type[ModulePass]]


def _lavs() -> type[ModulePass]:
    from .lower_auto_vector_split.pass_ import LowerAutoVectorSplitPass

    return LowerAutoVectorSplitPass


def _emk() -> type[ModulePass]:
    from .expand_mixed_kernel.pass_ import ExpandMixedKernelPass

    return ExpandMixedKernelPass


def _emk_phase(cls_name: str) -> Callable[[], type[ModulePass]]:
    """The loader of a phase pass of ExpandMixedKernel: `expand_mixed_kernel/pass_.py` imports every phase (its
    `PHASES`), so one import loads them all."""

    def load() -> type[ModulePass]:
        from .expand_mixed_kernel import pass_

        return next(cls for cls in pass_.PHASES if cls.__name__ == cls_name)

    return load


def _verify_expanded() -> type[ModulePass]:
    from .expand_mixed_kernel.verifier import VerifyMixedKernelExpandedPass

    return VerifyMixedKernelExpandedPass


def _skew() -> type[ModulePass]:
    from .skew_cross_core_pipeline import SkewCrossCorePipelinePass

    return SkewCrossCorePipelinePass


def _verify_budget() -> type[ModulePass]:
    from .budget.verify_budget import VerifyBudgetPass

    return VerifyBudgetPass


PASSES: dict[str, PassInfo] = {
    p.name: p
    for p in (
        PassInfo(
            "lower-auto-vector-split",
            "Lower AUTO-split mixed kernels and split_aiv_scope regions to per-lane (half-width) vector code",
            _lavs,
        ),
        PassInfo(
            "expand-mixed-kernel",
            "Split mixed incore kernels into AIC + AIV kernels and a Group, joined by tpush/tpop pipes",
            _emk,
        ),
        PassInfo(
            "insert-gm-fences",
            "ExpandMixedKernel phase 1: check the input, fence every cross-core GM dependence of the mixed kernels",
            _emk_phase("InsertGmFencesPass"),
        ),
        PassInfo(
            "split-mixed-kernel",
            "ExpandMixedKernel phase 2: split each mixed kernel into @<f>_aic + @<f>_aiv (+ Group), convert pure ones",
            _emk_phase("SplitMixedKernelPass"),
        ),
        PassInfo(
            "insert-tfree",
            "ExpandMixedKernel phase 3: free every tpop of the split halves once, after the last use of its slot",
            _emk_phase("InsertTfreePass"),
        ),
        PassInfo(
            "setup-pipes",
            "ExpandMixedKernel phase 4: the pipe setup (buffers, initialize_pipe) of each pair of split halves",
            _emk_phase("SetupPipesPass"),
        ),
        PassInfo(
            "normalize-group-abi",
            "ExpandMixedKernel phase 5: both members of every Group take the Group's parameter list",
            _emk_phase("NormalizeGroupAbiPass"),
        ),
        PassInfo(
            "adapt-manual-pushes",
            "ExpandMixedKernel phase 6: on a5, every V->C push sends the NZ / MX-scale layout the cube reads",
            _emk_phase("AdaptManualPushesPass"),
        ),
        PassInfo(
            "verify-mixed-kernel-expanded",
            "Check the MixedKernelExpanded contract (pipe setup, tpop/tfree pairing, no mixed incore left)",
            _verify_expanded,
        ),
        PassInfo(
            "choose-ring-depth",
            "ExpandMixedKernel phase 8: the ring depth of split kernels that set none, then the skew of their round-trip "
            "loops (skew=auto|off), from the timing model",
            _emk_phase("ChooseRingDepthPass"),
        ),
        PassInfo(
            "skew-cross-core-pipeline",
            "Run the side of a round-trip loop that pushes first D iterations ahead (over expanded kernels)",
            _skew,
        ),
        PassInfo(
            "verify-budget",
            "Check that every AIC / AIV function fits its core's memories (live tiles + pipe rings per space)",
            _verify_budget,
        ),
    )
}


def get_pass(name: str) -> type[ModulePass]:
    return PASSES[name].load()
