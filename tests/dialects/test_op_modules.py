"""The op family modules of `dialects/` (`pto_*_ops.py`, shared pieces in `pto_op_base.py`): none imports the
facade `pto_ops.py`, their imports of each other form no circle, and the facade still offers every op."""

from __future__ import annotations

import ast
from pathlib import Path

from pypto_mlir.dialects import ALL_PTO_OPS, pto_ops

DIALECTS = Path(__file__).resolve().parents[2] / "dialects"
FAMILIES = sorted(p.stem for p in DIALECTS.glob("pto_*_ops.py") if p.stem != "pto_ops")


def local_imports(module: str) -> set[str]:
    """The `dialects/` modules `module` imports (relative imports and `pypto_mlir.dialects.*`)."""
    tree = ast.parse((DIALECTS / f"{module}.py").read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.level == 1:
                out.add(node.module)
            elif node.module.startswith("pypto_mlir.dialects."):
                out.add(node.module.removeprefix("pypto_mlir.dialects."))
    return out


def test_families_are_found():
    assert {"pto_tile_ops", "pto_matmul_ops", "pto_pipe_ops", "pto_view_ops", "pto_mx_ops"} <= set(FAMILIES)


def test_no_family_imports_the_facade():
    offenders = [m for m in [*FAMILIES, "pto_op_base"] if "pto_ops" in local_imports(m)]
    assert not offenders, f"import the shared pieces from pto_op_base, not the facade pto_ops: {offenders}"


def test_family_imports_form_no_circle():
    modules = [*FAMILIES, "pto_op_base"]
    graph = {m: local_imports(m) & set(modules) for m in modules}
    assert not graph["pto_op_base"], graph["pto_op_base"]

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(d == goal or (d not in seen and reaches(d, goal, seen | {d})) for d in graph[start])

    circles = [m for m in graph if reaches(m, m, {m})]
    assert not circles, f"import circle through {circles}"


def test_the_facade_offers_every_contract_op():
    for cls in pto_ops.ALL_OPS:
        assert getattr(pto_ops, cls.__name__) is cls
        assert cls in ALL_PTO_OPS
