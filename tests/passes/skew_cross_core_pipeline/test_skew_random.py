"""Random kernels through the skew pass, checked by execution (the interpreter's comparison, race detector and
deadlock check): the round-trip loops of `kernelgen/round_trips.py` (every drawn form: trip counts 0-6 or a
runtime one, carries in either part, ifs on either core, a V load before the push of S; both splits, both
targets) at a drawn distance, and the project generator's kernels (`kernelgen/strategies.py`) under
`distance=auto`, whose GM exchanges inside loops are the class the pass once raced on (a fence's pop at the end of
an iteration ordering the next iteration's produce part, which the skew runs first)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from kernelgen.round_trips import round_trips
from kernelgen.strategies import kernels
from pypto_mlir.check_pipeline import check_pipeline_text, is_rejection

N_EXAMPLES = int(os.environ.get("PYPTO_KERNELGEN_EXAMPLES", "25"))
SETTINGS = settings(
    max_examples=N_EXAMPLES,
    deadline=None,
    database=None,
    derandomize=os.environ.get("PYPTO_KERNELGEN_RANDOM") is None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
EXPAND = ["lower-auto-vector-split", "expand-mixed-kernel{skew=off}"]


@SETTINGS
@given(round_trips(), st.sampled_from(["auto", "1", "2", "3"]))
def test_round_trips_keep_their_results_when_skewed(text, distance):
    res = check_pipeline_text(text, [*EXPAND, f"skew-cross-core-pipeline{{distance={distance}}}"], "rt.mlir")
    assert res.ok, f"{res.report}\n--- program ---\n{text}"


@SETTINGS
@given(kernels())
def test_random_kernels_keep_their_results_under_auto_skew(text):
    res = check_pipeline_text(text, [*EXPAND, "skew-cross-core-pipeline"], "gen.mlir")
    if is_rejection(res):
        reject()  # a located rejection of ExpandMixedKernel / LowerAutoVectorSplit: not this pass's
    assert res.ok, f"{res.report}\n--- program ---\n{text}"
