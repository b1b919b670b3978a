"""`insert-tfree`: every tpop of the halves `split-mixed-kernel` made gets exactly one tfree (reference §4.2).

Expects: no incore kernel is left (`split-mixed-kernel` ran; else a located error naming it).

Guarantees, for every AIC / AIV function carrying `pto.protocol_pending` (`tfree.py` has the placement rule):
every tpop of the function's side is freed exactly once, by a tfree of the tpop's result after the last use of
its slot in the tpop's block (a value the block's terminator passes out live is copied first); an existing tfree
of such a slot is reused and moved there.  tpops and all other ops keep their order.  AIC / AIV functions
without the flag (hand-written pipes) are left as they are; the phase is idempotent.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp

from .phase import ExpansionPhase, ExpansionState, pending_functions, require_split
from .tfree import finalize_tfrees


@dataclass(frozen=True)
class InsertTfreePass(ExpansionPhase):
    """`--insert-tfree` (module doc)."""

    name = "insert-tfree"

    def run(self, module: ModuleOp, state: ExpansionState) -> None:
        require_split(module, self.name)
        for f, side in pending_functions(module):
            finalize_tfrees(f, side)
