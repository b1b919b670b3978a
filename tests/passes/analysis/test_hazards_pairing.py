"""How the split-pair check (analysis/hazards.py: check_split_pair) pairs the AIC and the AIV copy of an scf.if
that holds no transfer: by its condition, on printed and parsed kernels alike.  The pass output of
lit_tests/expand_mixed_kernel/gm_if_branches.mlir (a store in the then-branch, a load in the else-branch,
fenced across iterations only) is accepted; the same kernels with the AIV's if on another condition are two
different ifs of one iteration, whose accesses the carried fences do not order, and are rejected."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects import func

from pypto_mlir import parse_module
from pypto_mlir.diagnostics import PtoError
from pypto_mlir.check_pipeline import apply_pipeline
from pypto_mlir.passes.analysis.hazards import check_split_pair

PATH = Path(__file__).resolve().parents[3] / "lit_tests" / "expand_mixed_kernel" / "gm_if_branches.mlir"


def _split_text(target: str) -> str:
    m = parse_module(PATH.read_text().replace("#pto.target<a2a3>", f"#pto.target<{target}>"), str(PATH))
    apply_pipeline(m, ["expand-mixed-kernel"])
    return str(m)


def _pair(text: str) -> tuple[func.FuncOp, func.FuncOp]:
    m = parse_module(text)
    fs = {op.sym_name.data: op for op in m.body.block.ops if isinstance(op, func.FuncOp)}
    return fs["k_aic"], fs["k_aiv"]


@pytest.mark.parametrize("target", ["a2a3", "a5"])
def test_if_copies_pair_by_condition_after_reparse(target: str) -> None:
    check_split_pair(*_pair(_split_text(target)))


@pytest.mark.parametrize("target", ["a2a3", "a5"])
def test_ifs_on_different_conditions_do_not_pair(target: str) -> None:
    text = _split_text(target)
    aiv = text.index("func.func @k_aiv(")
    cond = "%even = arith.cmpi ult, %i, %c2 : index"
    at = text.index(cond, aiv)
    other = text[:at] + "%even = arith.cmpi uge, %i, %c2 : index" + text[at + len(cond):]
    check_split_pair(*_pair(text))  # unchanged: accepted
    with pytest.raises(PtoError, match="unordered cross-core dependence"):
        check_split_pair(*_pair(other))
