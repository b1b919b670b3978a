"""`adapt-manual-pushes`: on a5, every V->C push delivers the layout the cube reads (reference §3 phase 6).

Expects: no incore kernel is left (`split-mixed-kernel` ran; else a located error naming it).

Guarantees (`manual_push.py`, `mx_scale.py`): on a5, every `pto.tpush_to_aic` of every AIV function sends an NZ
tile (a non-NZ `vec` tile goes through an adapter `pto.move` to its NZ view first), and an MX scale push sends
the row/row carrier its consumer's pop expects; the pushes the split made already do, so only hand-written ones
change.  a2a3 needs no adapter: the phase changes nothing there.  Idempotent (an NZ push is left alone).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp

from .manual_push import adapt_manual_v2c_pushes
from .phase import ExpansionPhase, ExpansionState, require_split


@dataclass(frozen=True)
class AdaptManualPushesPass(ExpansionPhase):
    """`--adapt-manual-pushes` (module doc)."""

    name = "adapt-manual-pushes"

    def run(self, module: ModuleOp, state: ExpansionState) -> None:
        require_split(module, self.name)
        adapt_manual_v2c_pushes(module, state.target)
