"""The default pipeline's skew choice on random round-trip loops, checked by execution: every kernel of
`kernelgen/round_trips.py` (trip counts 0-6 or a runtime one, carries in either part, ifs on either core, an early
load; both splits, both targets) through `lower-auto-vector-split,expand-mixed-kernel` -- which skews the loop by
the distance and depth the model picks, or leaves it -- computes what it computed before (the interpreter's
comparison, race detector and deadlock check).  The skew rewrite's own random tests run it at a drawn distance
(tests/passes/skew_cross_core_pipeline/test_skew_random.py); this one runs what the choice picks."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings

from kernelgen.round_trips import round_trips
from pypto_mlir.check_pipeline import check_pipeline_text
from pypto_mlir.passes.decisions import capture_decisions

N_EXAMPLES = int(os.environ.get("PYPTO_KERNELGEN_EXAMPLES", "25")) // 2
SEEN: dict[str, int] = {}


@settings(max_examples=N_EXAMPLES, deadline=None, database=None,
          derandomize=os.environ.get("PYPTO_KERNELGEN_RANDOM") is None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(round_trips())
def test_the_chosen_skew_keeps_the_results(text):
    with capture_decisions() as log:
        res = check_pipeline_text(text, ["lower-auto-vector-split", "expand-mixed-kernel"], "rt.mlir")
    assert res.ok, f"{res.report}\n--- program ---\n{text}"
    for d in log:
        if d.kind == "skew":
            SEEN[str(d.facts["skewed"])] = SEEN.get(str(d.facts["skewed"]), 0) + 1


def test_the_random_kernels_were_skewed_at_least_once():
    """The property above is not vacuous: some drawn kernels were skewed (run after it, in file order)."""
    if not SEEN:
        test_the_chosen_skew_keeps_the_results()
    assert SEEN.get("True", 0) > 0, SEEN
