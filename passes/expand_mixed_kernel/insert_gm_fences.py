"""`insert-gm-fences`: the first phase of ExpandMixedKernel; checks the input, then fences GM dependences.

Expects: a verified module with a `pto.target`.  Checks (`checks.py`, located errors): no `pto.split_aiv_scope`
region is left, the deferred-waiter contract, and for each mixed incore kernel the per-lane form of a
data-parallel split, no transpose of the split axis, and free names `@<f>_aic` / `@<f>_aiv`.

Guarantees: no incore function holds an `scf.execute_region` (inlined first, as LowerAutoVectorSplit does); every
cross-core GM dependence of every mixed incore kernel (RAW / WAR / WAW, both directions, loop
carried; `analysis/hazards.py`) is ordered by a transfer or by a fence this phase wrote into the mixed body: a
tpush on the producing side right after the first access and its tpop on the consuming side before the second
(`gm_sync.py`; the handshake is on pipe 0, split code 0).  Nothing else changes; kernels stay `incore`, so the
phase is idempotent (a fenced dependence is ordered) and its output is valid IR that `split-mixed-kernel` takes.
Each fence is a "fence" entry of the decision log (`--split-report`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp

from ..analysis.affinity import Affinity
from ..common import FunctionKind, kind_of
from .checks import check_expansion_input, check_mixed_kernel
from .gm_sync import insert_gm_fences
from .phase import ExpansionPhase, ExpansionState, functions


@dataclass(frozen=True)
class InsertGmFencesPass(ExpansionPhase):
    """`--insert-gm-fences` (module doc)."""

    name = "insert-gm-fences"

    def run(self, module: ModuleOp, state: ExpansionState) -> None:
        check_expansion_input(module, state)
        symbols = {f.sym_name.data for f in functions(module)}
        for f in functions(module):
            if kind_of(f) != FunctionKind.INCORE or not f.body.blocks:
                continue
            if state.affinity.roll(f) != Affinity.MIXED:
                continue
            placement = state.affinity.placement(f)
            check_mixed_kernel(f, symbols)
            if insert_gm_fences(f, placement, state.aliases(module)):
                state.affinity.refresh(f)  # the fences are cube and vector ops of the mixed body
