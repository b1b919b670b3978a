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
            "verify-mixed-kernel-expanded",
            "Check the MixedKernelExpanded contract (pipe setup, tpop/tfree pairing, no mixed incore left)",
            _verify_expanded,
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
