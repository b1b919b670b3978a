"""The default cost model of the ring depth choice (`choose-ring-depth`, `expand-mixed-kernel{ring-depth=auto}`).

The pass asks a `RingCostModel` (passes/expand_mixed_kernel/ring_depth.py) that it is handed; it imports neither
the interpreter nor the timing model.  `ReplayRingCostModel` answers by running the Group once per stated
assignment of its scalar parameters in the interpreter on seeded inputs (`inputs.record_runs`, which records what
each core runs) and replaying the recordings for every depth under pto-isa's flow control
(`timing.depth.depth_makespans`: the makespans summed over the runs; None for a depth the model rejects in some
run, a deadlock or an unguarded slot reuse).  A run that fails (a GM access outside a tensor at the stated
values, ...) leaves the Group untimed, with the values and the failure in the reason.  `pypto_mlir.pipeline`
hands it to the passes that take a model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import ModuleOp

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.timing.depth import depth_makespans

from .inputs import find_entry, param_names, record_runs


class ReplayRingCostModel:
    """A `RingCostModel`: one interpreter run of the Group per scalar assignment, replayed at every depth."""

    def makespans(
        self, module: ModuleOp, group: str, depths: list[int], scalar_values: Sequence[Mapping[int, object]] = ({},)
    ) -> dict[int, int | None] | str:
        try:
            names = param_names(find_entry(module, group))
        except PtoError as e:
            return f"it cannot be run in the interpreter ({e.message})"
        runs = []
        for values in scalar_values:
            given = {names[i]: v for i, v in values.items()}
            at = f" with {', '.join(f'%{n} = {v}' for n, v in given.items())}" if given else ""
            try:
                runs.extend(record_runs(module, group, [given]))
            except PtoError as e:
                return f"its run in the interpreter{at} fails ({e.message})"
            except Exception as e:  # noqa: BLE001 - the choice is advisory: any failure keeps the default
                return f"its run in the interpreter{at} fails ({type(e).__name__})"
        return depth_makespans(runs, depths)
