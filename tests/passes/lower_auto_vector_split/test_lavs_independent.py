"""The kernels of issue 27 (`kernelgen.independent`): every one is a legal kernel that parses and verifies, the
strategy draws every construct, and under the default policy (fallback=unsplit) each compiles and keeps its
results by execution; under fallback=error a kernel is split and checked, or refused with a located error of
LowerAutoVectorSplit (never a crash, never a wrong result).  The campaign figures come from
`benchmarks/lavs_campaign.py --suite independent` (docs/lower-auto-vector-split.md, "Independent suite")."""

from __future__ import annotations

import re

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, seed, settings

from kernelgen.independent import FEATURES, kernels
from kernelgen.strategies import features_of
from pypto_mlir.diagnostics import capture_remarks
from pypto_mlir.check_pipeline import check_pipeline_text
from pypto_mlir.ir import parse_module
from pypto_mlir.verify import verify_module


def _draw(n: int, at: int) -> list[str]:
    out: list[str] = []

    @seed(at)
    @settings(max_examples=n, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(kernels())
    def run(text: str) -> None:
        out.append(text)

    run()
    return out


KERNELS = _draw(24, 27)


def test_every_construct_is_drawn_and_every_kernel_verifies():
    seen: Counter[str] = Counter()
    for text in _draw(120, 5):
        verify_module(parse_module(text, "gen.mlir"))
        seen.update(features_of(text))
    assert [f for f in FEATURES if not seen[f]] == []
    assert set(seen) <= set(FEATURES), set(seen) - set(FEATURES)


@pytest.mark.parametrize("i", range(len(KERNELS)))
def test_default_policy_compiles_and_keeps_the_results(i):
    with capture_remarks():
        res = check_pipeline_text(KERNELS[i], ["lower-auto-vector-split", "expand-mixed-kernel"], "gen.mlir")
    assert res.ok, f"{res.report}\n{KERNELS[i]}"


@pytest.mark.parametrize("i", range(len(KERNELS)))
def test_error_policy_splits_or_refuses_located(i):
    res = check_pipeline_text(KERNELS[i], ["lower-auto-vector-split{fallback=error}", "expand-mixed-kernel"], "gen.mlir")
    if not res.ok:
        assert res.stage == "pass" and "internal compiler error" not in res.report, res.report
        # LowerAutoVectorSplit refuses the split (a transpose that swaps the split axis is lowered, and
        # ExpandMixedKernel no longer refuses it): a located error of that pass.
        assert "gen.mlir:" in res.report and re.search(r"error: LowerAutoVectorSplit: ", res.report), res.report
