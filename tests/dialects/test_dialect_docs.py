"""The user docs stay in step with the code: docs/dialect.md documents every op, memory space and kind and its
"Syntax by family" lines are all in the round-trip lit test; docs/pypto-opt.md documents every option and pass."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pypto_mlir.dialects import ALL_PTO_OPS as ALL_OPS
from pypto_mlir.dialects.pto_types import KINDS, LAYOUTS, MEMORY_SPACES, PADS, TENSOR_LAYOUTS
from pypto_mlir.passes import PASSES
from pypto_mlir.tools.pypto_opt import build_arg_parser

ROOT = Path(__file__).resolve().parents[2]
DIALECT_DOC = (ROOT / "docs" / "dialect.md").read_text()
OPT_DOC = (ROOT / "docs" / "pypto-opt.md").read_text()
SYNTAX_TEST = ROOT / "lit_tests" / "dialect" / "syntax_by_family.mlir"
BEYOND_TEST = ROOT / "lit_tests" / "dialect" / "syntax_beyond_contract.mlir"
CONTRACT = ROOT.parent / "shared" / "spec" / "dialect.md"


def syntax_block(markdown: str, heading: str = "## Syntax by family") -> list[str]:
    section = markdown.split(heading, 1)[1]
    block = section.split("```mlir", 1)[1].split("```", 1)[0]
    return [line for line in block.strip("\n").splitlines() if line.strip()]


def test_every_syntax_line_is_in_the_round_trip_test_verbatim():
    lines = syntax_block(DIALECT_DOC)
    assert len(lines) >= 30
    test_lines = set(SYNTAX_TEST.read_text().splitlines())
    missing = [line for line in lines if line not in test_lines]
    assert not missing, f"add these lines to {SYNTAX_TEST.name}: {missing}"


def test_every_syntax_line_beyond_the_contract_is_in_its_round_trip_test_verbatim():
    lines = syntax_block(DIALECT_DOC, "## Syntax of the ops beyond the contract")
    assert len(lines) >= 10
    test_lines = set(BEYOND_TEST.read_text().splitlines())
    missing = [line for line in lines if line not in test_lines]
    assert not missing, f"add these lines to {BEYOND_TEST.name}: {missing}"


@pytest.mark.skipif(not CONTRACT.exists(), reason="the dialect contract is not next to the repository")
def test_syntax_block_matches_the_contract():
    assert syntax_block(DIALECT_DOC) == syntax_block(CONTRACT.read_text())


def test_every_op_is_documented():
    ops_section = DIALECT_DOC.split("## Ops", 1)[1].split("## Syntax by family", 1)[0]
    missing = [cls.name for cls in ALL_OPS if not re.search(rf"\b{cls.name.split('.', 1)[1]}\b", ops_section)]
    assert not missing, f"document these ops in docs/dialect.md: {missing}"


def test_every_type_parameter_value_is_documented():
    for word in (*MEMORY_SPACES, *LAYOUTS, *PADS, *TENSOR_LAYOUTS, *KINDS):
        assert f"`{word}`" in DIALECT_DOC, word


def test_every_pypto_opt_option_and_pass_is_documented():
    for action in build_arg_parser()._actions:
        for opt in action.option_strings:
            assert f"`{opt}" in OPT_DOC, f"document {opt} in docs/pypto-opt.md"
    for name in PASSES:
        assert f"`--{name}`" in OPT_DOC
