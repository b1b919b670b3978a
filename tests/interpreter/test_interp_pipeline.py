"""Pass checking by execution: every example, every runnable chunk of the passes' lit tests, and random kernels
give the same outputs before and after the pass pipeline (LowerAutoVectorSplit, ExpandMixedKernel).  A case the
verifier or the pipeline refuses must be an expected refusal, with its error (kernelgen/expected_refusals.txt),
or the test fails."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, event, given, reject, settings

from kernelgen.corpus import (
    ROOT,
    Outcome,
    all_case_keys,
    case_key,
    check_case,
    check_refusal,
    example_cases,
    expected_refusals,
    lit_cases,
)
from kernelgen.known import known_class
from kernelgen.strategies import kernels
from pypto_mlir.check_pipeline import check_pipeline_text, is_rejection

# Findings the interpreter reports on the lit corpus that are not (yet) fixed, with the reason; they are reported
# as xfail (with the reason) instead of failing the suite.  Every other mismatch fails.
KNOWN: dict[str, str] = {}


# The same for the examples, keyed by "<file>[<pipeline>]".
KNOWN_EXAMPLES: dict[str, str] = {}


@pytest.mark.parametrize("path,pipeline", example_cases(), ids=lambda v: v.name if hasattr(v, "name") else ",".join(v))
def test_example_passes_check_pipeline(path, pipeline):
    name = str(path.relative_to(ROOT))
    res = check_pipeline_text(path.read_text(), pipeline, name)
    refused = res.stage == "pass" and "internal compiler error" not in res.report
    # e.g. ExpandMixedKernel alone on a split example: refused, as it must be (the kernel is not per-lane yet)
    out = Outcome("refused", res.report.splitlines()[1]) if refused else Outcome("ran", res.report)
    if check_refusal(case_key(name, pipeline), out, EXPECTED):
        return
    key = f"{path.name}[{','.join(pipeline)}]"
    if not res.ok and key in KNOWN_EXAMPLES:
        pytest.xfail(f"{KNOWN_EXAMPLES[key]} -- {res.report[:300]}")
    assert res.ok, res.report


LIT = lit_cases()
EXPECTED = expected_refusals()


def test_refusal_check_can_fail():
    """An unlisted refusal, a refusal with another error and a listed case that is accepted all fail."""
    listed = {"a.mlir#0[p]": "a.mlir:1:1: error: no"}
    assert check_refusal("a.mlir#0[p]", Outcome("refused", "a.mlir:1:1: error: no"), listed)
    assert not check_refusal("b.mlir#0[p]", Outcome("ok", "1 entry match"), listed)
    for key, out in (
        ("b.mlir#0[p]", Outcome("refused", "b.mlir:1:1: error: no")),
        ("a.mlir#0[p]", Outcome("refused", "a.mlir:2:1: error: no")),
        ("a.mlir#0[p]", Outcome("ok", "1 entry match")),
        ("a.mlir#0[p]", Outcome("skip", "not runnable")),
    ):
        with pytest.raises(AssertionError):
            check_refusal(key, out, listed)


def test_every_expected_refusal_is_a_case():
    """No line of the list outlives its case (a renamed or removed lit file, example or chunk)."""
    stale = sorted(set(EXPECTED) - all_case_keys())
    assert not stale, f"expected refusals of no case, remove them: {stale}"


@pytest.mark.parametrize("case,pipeline", LIT, ids=[f"{c.id}[{','.join(p)}]" for c, p in LIT])
def test_lit_input_passes_check_pipeline(case, pipeline):
    out = check_case(case.text, str(case.path.relative_to(ROOT)), pipeline)
    if check_refusal(case_key(case.id, pipeline), out, EXPECTED):
        return
    if out.status == "skip":
        pytest.skip(out.detail[:300])
    key = case.id.split("@")[0]
    if out.status == "fail" and key in KNOWN:
        pytest.xfail(f"{KNOWN[key]} -- {out.detail[:300]}")
    assert out.status == "ok", out.detail


# Random kernels: the campaign test (test_interp_campaign.py) checks 200 in parallel; this property test keeps a
# smaller hypothesis run for its shrinking of a failure.  Known classes of findings: kernelgen/known.py.
N_EXAMPLES = int(os.environ.get("PYPTO_KERNELGEN_EXAMPLES", "50"))


@settings(
    max_examples=N_EXAMPLES,
    deadline=None,
    database=None,
    derandomize=os.environ.get("PYPTO_KERNELGEN_RANDOM") is None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(kernels())
def test_random_kernels_keep_their_results_through_the_pipeline(text):
    res = check_pipeline_text(text, ["lower-auto-vector-split", "expand-mixed-kernel"], "gen.mlir")
    if is_rejection(res):
        reject()  # a located, documented rejection of the input (e.g. an odd V->C split): not a finding
    if res.stage == "pass" and "is not implemented" in res.report:
        pytest.skip("pass not implemented yet")
    if not res.ok and known_class(res.report, text):
        event(f"known finding: {known_class(res.report, text)}")
        return
    assert res.ok, f"{res.report}\n--- program ---\n{text}"
