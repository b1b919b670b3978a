"""print -> parse -> print is a fixed point, exactly, for every round-trip lit input of lit_tests/dialect, in the
custom and the generic form, and the generic form reads back as the same module.  (In-process, so it does not
depend on lit's temporary files.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from pypto_mlir import parse_module, print_module

DIALECT_TESTS = Path(__file__).resolve().parents[2] / "lit_tests" / "dialect"
INPUTS = sorted(
    [*DIALECT_TESTS.glob("ops_*.mlir"), DIALECT_TESTS / "types_and_attrs.mlir",
     DIALECT_TESTS / "syntax_by_family.mlir", DIALECT_TESTS / "syntax_beyond_contract.mlir",
     DIALECT_TESTS / "contract_example.mlir"]
)


def test_inputs_exist():
    assert len(INPUTS) >= 6 and all(p.exists() for p in INPUTS)


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_custom_form_is_a_fixed_point(path):
    first = print_module(parse_module(path.read_text(), path.name))
    assert print_module(parse_module(first)) == first


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_generic_form_is_a_fixed_point_and_reads_back(path):
    module = parse_module(path.read_text(), path.name)
    custom = print_module(module)
    generic = print_module(module, generic=True)
    assert print_module(parse_module(generic), generic=True) == generic
    assert print_module(parse_module(generic)) == custom
