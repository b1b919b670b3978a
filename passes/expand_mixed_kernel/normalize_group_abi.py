"""`normalize-group-abi`: the AIC and the AIV member of every Group take the Group's parameter list (§5 phase 4).

Expects: no incore kernel is left (`split-mixed-kernel` ran; else a located error naming it), so every Group
member is an AIC or AIV function.

Guarantees (`group_abi.py` has the rules): the first AIC call and the first AIV call of each Group pass exactly the
Group's parameters in order; a member whose layout differed is rebuilt onto that list (in place when it has no
other caller, else as `@<g>_aic_adapter` / `@<g>_aiv_adapter`), a buffer the Group allocated for a member is
promoted to a Group parameter, and on a2a3 an AIV member without a split mode whose transfers all use split
code 0 gets `pto.dual_aiv_dispatch`.  A binding the payload has no slot for is a located error.  Groups that
already forward their parameters (every Group `split-mixed-kernel` makes) are left as they are; the phase is
idempotent.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp

from .group_abi import normalize_group_abi
from .phase import ExpansionPhase, ExpansionState, require_split


@dataclass(frozen=True)
class NormalizeGroupAbiPass(ExpansionPhase):
    """`--normalize-group-abi` (module doc)."""

    name = "normalize-group-abi"

    def run(self, module: ModuleOp, state: ExpansionState) -> None:
        require_split(module, self.name)
        normalize_group_abi(module, state.target)
