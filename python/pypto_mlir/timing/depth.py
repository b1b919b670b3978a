"""What a ring-depth choice asks the timing model (the interface ExpandMixedKernel's choice can call instead of
replaying itself): the modelled makespan of a Group per candidate depth, over one or more runs, and the
shallowest depth the model accepts.  A depth the model does not accept (None) is one at which some run deadlocks
(a free signal that never comes) or a slot reuse is unguarded in pto-isa's flow control (`flow.py`).  Recording
the runs is the interpreter's (`pypto_mlir.interpreter.inputs.record_runs`): the timing model sits below it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .timeline import Timeline, makespan


def depth_makespans(runs: Iterable[list[Timeline]], depths: Iterable[int]) -> dict[int, int | None]:
    """Per depth, the modelled makespan summed over `runs` (each the timelines of one recorded run, every ring of
    it at that depth); None when the model does not accept the depth for some run."""
    runs = list(runs)
    out: dict[int, int | None] = {}
    for d in depths:
        total: int | None = 0
        for timelines in runs:
            m = makespan(timelines, {k: d for tl in timelines for k in tl.rings})
            if m is None:
                total = None
                break
            total += m
        out[d] = total
    return out


def least_depth(makespans: Mapping[int, int | None]) -> int | None:
    """The shallowest depth the model accepts (None: none of them)."""
    ok = [d for d, m in makespans.items() if m is not None]
    return min(ok) if ok else None
