"""The default cost model of the ring depth choice (`choose-ring-depth`, `expand-mixed-kernel{ring-depth=auto}`).

The pass asks a `RingCostModel` (passes/expand_mixed_kernel/ring_depth.py) for the modelled makespan of a Group at
each candidate ring depth; it imports neither the interpreter nor this model.  `ReplayRingCostModel` answers by
running the Group once in the interpreter on seeded inputs (`interpreter.inputs.run_timed`, which records what
each core runs) and replaying the recording for every depth (`timeline.makespan`): which ops run does not depend
on the depth, only when.  `pypto_mlir.pipeline.run_pipeline` hands it to every pass that takes a cost model.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from pypto_mlir.diagnostics import PtoError

from .timeline import makespan


def depth_makespans(timelines: list, depths: list[int]) -> dict[int, int | None]:
    """The modelled makespan of the recorded Group runs with every ring at each depth (None: deadlocks)."""
    return {d: makespan(timelines, {k: d for tl in timelines for k in tl.rings}) for d in depths}


class ReplayRingCostModel:
    """A `RingCostModel`: one interpreter run of the Group, replayed at every depth."""

    def makespans(self, module: ModuleOp, group: str, depths: list[int]) -> dict[int, int | None] | str:
        from pypto_mlir.interpreter.inputs import run_timed  # the interpreter loads NumPy: only when timing

        try:
            timelines = run_timed(module, group)
        except PtoError as e:
            return f"its run in the interpreter fails ({e.message})"
        except Exception as e:  # noqa: BLE001 - the choice is advisory: any failure keeps the default
            return f"its run in the interpreter fails ({type(e).__name__})"
        return depth_makespans(timelines, depths)


def default_ring_cost_model() -> ReplayRingCostModel:
    return ReplayRingCostModel()
