"""LowerAutoVectorSplit by execution: every kernel of the AUTO-path lit tests computes the same outputs before and
after the pass in the reference interpreter (two AIV lanes running the per-lane code)."""

from __future__ import annotations

import glob
import os
import re

import pytest

from pypto_mlir.interpreter.runner import check_pipeline_text

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = ["seed_split_auto", "seed_gather", "scope", "load_store", "odd_ragged", "elementwise", "slice_reshape", "control_flow"]


def _cases():
    for name in FILES:
        path = os.path.join(ROOT, "lit_tests", "lower_auto_vector_split", f"{name}.mlir")
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        for fn in re.findall(r"func\.func @(\w+)", text):
            yield pytest.param(path, text, fn, id=f"{name}:{fn}")


@pytest.mark.parametrize("path,text,entry", list(_cases()))
def test_same_outputs_after_lowering(path, text, entry):
    for seed in (0, 1):
        r = check_pipeline_text(text, ["lower-auto-vector-split"], path, entry=entry, seed=seed)
        assert r.ok, r.report


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir"))))
def test_examples_same_outputs(path):
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    r = check_pipeline_text(text, ["lower-auto-vector-split"], path)
    assert r.ok, r.report
