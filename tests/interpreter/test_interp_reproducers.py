"""Saved campaign reproducers (tests/kernelgen/reproducers/): each still fails with its known class (xfail, with
the reason), or passes once its fix has landed (then drop the file's class from kernelgen/known.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelgen.known import KNOWN_CLASSES, known_class
from pypto_mlir.check_pipeline import check_pipeline_text

DIR = Path(__file__).resolve().parents[1] / "kernelgen" / "reproducers"
FILES = sorted(DIR.glob("*.mlir"))
REASONS = {k.name: k.reason for k in KNOWN_CLASSES}


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_reproducer(path):
    text = path.read_text()
    res = check_pipeline_text(text, ["lower-auto-vector-split", "expand-mixed-kernel"], path.name)
    if res.ok:
        return
    name = known_class(res.report, text)
    assert name is not None, f"a reproducer fails outside its known class:\n{res.report}"
    pytest.xfail(f"{REASONS[name]} -- {res.report.splitlines()[-1][:200]}")
