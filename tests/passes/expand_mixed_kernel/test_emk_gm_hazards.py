"""The GM hazard programs of issue 15 (lit_tests/expand_mixed_kernel/gm_hazards.mlir) and those through the
communication ops (gm_hazards_comm.mlir: tile_get, tile_put, tensor_put, tensor_get), run by execution: each
kernel, before and after ExpandMixedKernel, on both targets, in both schedule orders (`check_modules`), must give
the same outputs.  Each is a hazard class the reference's fence rules miss (checked against the previous fence
rules: all but the WAW control kernel then differ in most elements); the fences from analysis/hazards.py order
them.  Kept one entry per test so the oracle's race detector can reuse the list."""

from __future__ import annotations

from pathlib import Path

import pytest
from kernelgen.corpus import entries

from pypto_mlir import parse_module
from pypto_mlir.interpreter import check_modules
from pypto_mlir.check_pipeline import apply_pipeline

LIT = Path(__file__).resolve().parents[3] / "lit_tests" / "expand_mixed_kernel"
PATH = LIT / "gm_hazards.mlir"
TEXT = PATH.read_text()
ENTRIES = entries(parse_module(TEXT))
COMM_PATH = LIT / "gm_hazards_comm.mlir"
COMM_TEXT = COMM_PATH.read_text()
COMM_ENTRIES = entries(parse_module(COMM_TEXT))
CASES = [(PATH, TEXT, e) for e in ENTRIES] + [(COMM_PATH, COMM_TEXT, e) for e in COMM_ENTRIES]


def test_every_hazard_class_has_a_kernel() -> None:
    assert {"war_scratch", "multi_store", "prev_iter", "v2c_gm", "after_loop", "waw_ordered"} <= set(ENTRIES)
    # every communication op that touches GM, in the direction it can take part in
    assert {"c2v_tile_get", "c2v_tensor_put", "c2v_tensor_get", "c2v_tile_put_war", "v2c_tile_put",
            "v2c_tensor_get"} <= set(COMM_ENTRIES)


@pytest.mark.parametrize("target", ["a2a3", "a5"])
@pytest.mark.parametrize("path,text,entry", CASES, ids=[e for _, _, e in CASES])
def test_hazard_kernel_keeps_its_results(path: Path, text: str, entry: str, target: str) -> None:
    text = text.replace("#pto.target<a2a3>", f"#pto.target<{target}>")
    before, after = parse_module(text, str(path)), parse_module(text, str(path))
    apply_pipeline(after, ["expand-mixed-kernel"])
    res = check_modules(before, after, entry, 0, None, str(path))
    assert res.ok, res.report
