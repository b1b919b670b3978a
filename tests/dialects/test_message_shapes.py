"""Messages write a dynamic extent as `?`, as the type syntax does, through the one helper in pto_types.py
(`format_dim` / `format_shape`), never the internal sentinel DYNAMIC (-2^63)."""

from __future__ import annotations

import re
from pathlib import Path

from pypto_mlir.dialects.pto_types import DYNAMIC, format_dim, format_shape

ROOT = Path(__file__).resolve().parents[2]
HOME = ROOT / "dialects" / "pto_types.py"
AD_HOC = re.compile(r"""["']\?["']\s+if\s+[\w.\[\]]+\s*==\s*DYNAMIC""")


def test_format_helpers():
    assert format_dim(DYNAMIC) == "?" and format_dim(16) == "16"
    assert format_shape([16, DYNAMIC]) == "[16, ?]"
    assert format_shape((3, 32)) == str([3, 32])  # a static shape reads as a Python list did


def test_no_ad_hoc_dynamic_formatting():
    assert AD_HOC.search(HOME.read_text(encoding="utf-8")), "the helper itself is found by the pattern"
    sources = [*ROOT.glob("dialects/*.py"), *ROOT.glob("passes/**/*.py"), *ROOT.glob("python/pypto_mlir/**/*.py")]
    hits = [
        f"{p.relative_to(ROOT)}:{i}"
        for p in sources
        if p != HOME
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if AD_HOC.search(line)
    ]
    assert not hits, "format a dynamic extent with pto_types.format_dim / format_shape: " + ", ".join(hits)
