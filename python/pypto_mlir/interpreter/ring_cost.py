"""The default cost model of the ring depth choice (`choose-ring-depth`, `expand-mixed-kernel{ring-depth=auto}`).

The pass asks a `RingCostModel` (passes/expand_mixed_kernel/ring_depth.py) that it is handed; it imports neither
the interpreter nor the timing model.  `ReplayRingCostModel` answers by running the Group once in the interpreter
on seeded inputs (`inputs.record_runs`, which records what each core runs) and replaying the recording for every
depth under pto-isa's flow control (`timing.depth.depth_makespans`: None for a depth the model rejects, a
deadlock or an unguarded slot reuse).  `pypto_mlir.pipeline` hands it to the passes that take a model.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.timing.depth import depth_makespans

from .inputs import record_runs


class ReplayRingCostModel:
    """A `RingCostModel`: one interpreter run of the Group, replayed at every depth."""

    def makespans(self, module: ModuleOp, group: str, depths: list[int]) -> dict[int, int | None] | str:
        try:
            runs = record_runs(module, group)
        except PtoError as e:
            return f"its run in the interpreter fails ({e.message})"
        except Exception as e:  # noqa: BLE001 - the choice is advisory: any failure keeps the default
            return f"its run in the interpreter fails ({type(e).__name__})"
        return depth_makespans(runs, depths)
