"""The GM hazard programs of issue 15 (lit_tests/expand_mixed_kernel/gm_hazards.mlir), run by execution: each
kernel, before and after ExpandMixedKernel, on both targets, in both schedule orders (`check_modules`), must give
the same outputs.  Each is a hazard class the reference's fence rules miss (checked against the previous fence
rules: all but the WAW control kernel then differ in most elements); the fences from analysis/hazards.py order
them.  Kept one entry per test so the oracle's race detector can reuse the list."""

from __future__ import annotations

from pathlib import Path

import pytest
from kernelgen.corpus import entries

from pypto_mlir import parse_module
from pypto_mlir.interpreter import apply_pipeline, check_modules

PATH = Path(__file__).resolve().parents[3] / "lit_tests" / "expand_mixed_kernel" / "gm_hazards.mlir"
TEXT = PATH.read_text()
ENTRIES = entries(parse_module(TEXT))


def test_every_hazard_class_has_a_kernel() -> None:
    assert {"war_scratch", "multi_store", "prev_iter", "v2c_gm", "after_loop", "waw_ordered"} <= set(ENTRIES)


@pytest.mark.parametrize("target", ["a2a3", "a5"])
@pytest.mark.parametrize("entry", ENTRIES)
def test_hazard_kernel_keeps_its_results(entry: str, target: str) -> None:
    text = TEXT.replace("#pto.target<a2a3>", f"#pto.target<{target}>")
    before, after = parse_module(text, str(PATH)), parse_module(text, str(PATH))
    apply_pipeline(after, ["expand-mixed-kernel"])
    res = check_modules(before, after, entry, 0, None, str(PATH))
    assert res.ok, res.report
