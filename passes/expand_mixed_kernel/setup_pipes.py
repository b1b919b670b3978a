"""`setup-pipes`: each pair of halves `split-mixed-kernel` made gets the pipe setup of its transfers (§4.1).

Expects: no incore kernel is left, and every tpop of a pending pair is freed (`insert-tfree` ran: the ring-depth
check counts the slots a side holds at once, which needs the tfrees); otherwise a located error names the pass
to run first.

Guarantees, for every pair `@<f>_aic` / `@<f>_aiv` carrying `pto.protocol_pending` (`pipe_setup.py`): a pair
with a cross-core transfer of static size starts with its buffers (`reserve_buffer` on the consumer side,
`import_peer_buffer` on the producer side) and its `*_initialize_pipe` (`dir_mask`, the largest transfer as
`slot_size`, `slot_num` = `pto.slot_num`, else the most popped slots a side holds at once and at least the
default 2 (up to PTOAS's implicit depth; under `expand-mixed-kernel{ring-depth=fixed}` the default 2),
`pto.local_slot_num` when given); `pto.slot_num` and `pto.local_slot_num` are checked against the target and
against the slots each side holds at once (located errors at the pop that goes over; `pipe_setup.ring_slot_num`).  A pair that already has a setup op is left as it is, so the phase is idempotent.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp

from xdsl.dialects import func

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_traits import CoreSide

from .phase import ExpansionPhase, ExpansionState, pending_pairs, require_split
from .pipe_metadata import side_of
from .pipe_setup import build_pipe_setup


@dataclass(frozen=True)
class SetupPipesPass(ExpansionPhase):
    """`--setup-pipes` (module doc)."""

    name = "setup-pipes"

    def run(self, module: ModuleOp, state: ExpansionState) -> None:
        require_split(module, self.name)
        for kernel, aic, aiv in pending_pairs(module):
            if not state.trusted:
                require_freed(aic, CoreSide.AIC, self.name)
                require_freed(aiv, CoreSide.AIV, self.name)
            build_pipe_setup(aic, aiv, kernel, aiv, state.target, state.ring_depth)


def require_freed(f: func.FuncOp, core: CoreSide, phase: str) -> None:
    """Every tpop of the pending `core` half `f` has its tfree (`insert-tfree`'s guarantee)."""
    side = side_of(core)
    for op in f.walk():
        if isinstance(op, side.tpop) and not any(isinstance(u.operation, side.tfree) for u in op.results[0].uses):
            raise PtoError(
                f"{phase}: this tpop of '@{f.sym_name.data}' has no tfree, but this phase expects every tpop of the "
                f"kernels split-mixed-kernel made freed; run --insert-tfree before --{phase}",
                op=op,
            )
