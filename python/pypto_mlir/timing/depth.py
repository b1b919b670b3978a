"""What a ring-depth choice asks the timing model (the interface ExpandMixedKernel's choice can call instead of
replaying itself): the modelled makespan of a Group per candidate depth, over one or more runs, and the
shallowest depth the model accepts.  A depth the model does not accept (None) is one at which some run deadlocks
(a free signal that never comes) or a slot reuse is unguarded in pto-isa's flow control (`flow.py`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from xdsl.dialects.builtin import ModuleOp

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


def record_runs(module: ModuleOp, group: str, scalar_values: Iterable[Mapping[str, Any]] = ({},)) -> list[list[Timeline]]:
    """Run the Group `group` of `module` once per assignment of its scalar parameters (name -> value; tensors get
    seeded data, `pypto_mlir.interpreter.inputs.make_inputs`) and return each run's timelines.  The rings run at
    the depth the module sets, which must be deep enough for the run (the replay then tries any depth).  A
    kernel whose scalar parameters only bound loops or pick branches is timed by stating the values to time it
    over (e.g. each branch's flag, a typical trip count); errors of a run are the caller's to handle."""
    import numpy as np

    from pypto_mlir.interpreter.inputs import run_timed

    return [run_timed(module, group, given={k: np.asarray(v) for k, v in values.items()}) for values in scalar_values]


def least_depth(makespans: Mapping[int, int | None]) -> int | None:
    """The shallowest depth the model accepts (None: none of them)."""
    ok = [d for d, m in makespans.items() if m is not None]
    return min(ok) if ok else None
