"""The default cost model of the ring depth choice (`choose-ring-depth`, `expand-mixed-kernel{ring-depth=auto}`).

The pass asks a `RingCostModel` (passes/expand_mixed_kernel/ring_depth.py) that it is handed; it imports neither
the interpreter nor the timing model.  `ReplayRingCostModel` answers by running the Group once in the interpreter
on seeded inputs (`inputs.run_timed`, which records what each core runs) and replaying the recording for every
depth (`timing.ring_model.depth_makespans`).  `pypto_mlir.pipeline` hands it to the passes that take a model.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.timing.ring_model import depth_makespans

from .inputs import run_timed


class ReplayRingCostModel:
    """A `RingCostModel`: one interpreter run of the Group, replayed at every depth."""

    def makespans(self, module: ModuleOp, group: str, depths: list[int]) -> dict[int, int | None] | str:
        try:
            timelines = run_timed(module, group)
        except PtoError as e:
            return f"its run in the interpreter fails ({e.message})"
        except Exception as e:  # noqa: BLE001 - the choice is advisory: any failure keeps the default
            return f"its run in the interpreter fails ({type(e).__name__})"
        return depth_makespans(timelines, depths)
