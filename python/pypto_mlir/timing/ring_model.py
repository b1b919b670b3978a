"""The timing side of the ring depth choice (`choose-ring-depth`, `expand-mixed-kernel{ring-depth=auto}`): the
modelled makespan of recorded Group runs at each ring depth.

The pass asks a `RingCostModel` (passes/expand_mixed_kernel/ring_depth.py) and imports no timing model; the default
model (`interpreter/ring_cost.py`) records one run of the Group in the interpreter and replays it here for every
depth: which ops run does not depend on the depth, only when.
"""

from __future__ import annotations

from .timeline import makespan


def depth_makespans(timelines: list, depths: list[int]) -> dict[int, int | None]:
    """The modelled makespan of the recorded Group runs with every ring at each depth (None: deadlocks)."""
    return {d: makespan(timelines, {k: d for tl in timelines for k in tl.rings}) for d in depths}
