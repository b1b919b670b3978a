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


def _insert_gm_fences() -> type[ModulePass]:
    from .expand_mixed_kernel.insert_gm_fences import InsertGmFencesPass

    return InsertGmFencesPass


def _split_mixed_kernel() -> type[ModulePass]:
    from .expand_mixed_kernel.split_mixed_kernel import SplitMixedKernelPass

    return SplitMixedKernelPass


def _insert_tfree() -> type[ModulePass]:
    from .expand_mixed_kernel.insert_tfree import InsertTfreePass

    return InsertTfreePass


def _setup_pipes() -> type[ModulePass]:
    from .expand_mixed_kernel.setup_pipes import SetupPipesPass

    return SetupPipesPass


def _normalize_group_abi() -> type[ModulePass]:
    from .expand_mixed_kernel.normalize_group_abi import NormalizeGroupAbiPass

    return NormalizeGroupAbiPass


def _adapt_manual_pushes() -> type[ModulePass]:
    from .expand_mixed_kernel.adapt_manual_pushes import AdaptManualPushesPass

    return AdaptManualPushesPass


def _choose_ring_depth() -> type[ModulePass]:
    from .expand_mixed_kernel.choose_ring_depth import ChooseRingDepthPass

    return ChooseRingDepthPass


def _verify_expanded() -> type[ModulePass]:
    from .expand_mixed_kernel.verifier import VerifyMixedKernelExpandedPass

    return VerifyMixedKernelExpandedPass


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
            _insert_gm_fences,
        ),
        PassInfo(
            "split-mixed-kernel",
            "ExpandMixedKernel phase 2: split each mixed kernel into @<f>_aic + @<f>_aiv (+ Group), convert pure ones",
            _split_mixed_kernel,
        ),
        PassInfo(
            "insert-tfree",
            "ExpandMixedKernel phase 3: free every tpop of the split halves once, after the last use of its slot",
            _insert_tfree,
        ),
        PassInfo(
            "setup-pipes",
            "ExpandMixedKernel phase 4: the pipe setup (buffers, initialize_pipe) of each pair of split halves",
            _setup_pipes,
        ),
        PassInfo(
            "normalize-group-abi",
            "ExpandMixedKernel phase 5: both members of every Group take the Group's parameter list",
            _normalize_group_abi,
        ),
        PassInfo(
            "adapt-manual-pushes",
            "ExpandMixedKernel phase 6: on a5, every V->C push sends the NZ / MX-scale layout the cube reads",
            _adapt_manual_pushes,
        ),
        PassInfo(
            "verify-mixed-kernel-expanded",
            "Check the MixedKernelExpanded contract (pipe setup, tpop/tfree pairing, no mixed incore left)",
            _verify_expanded,
        ),
        PassInfo(
            "choose-ring-depth",
            "ExpandMixedKernel phase 8: the ring depth of split kernels that set none, from the timing model",
            _choose_ring_depth,
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
