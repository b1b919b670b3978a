"""Mutation tests of the execution oracle: for each blind spot a correct program and a broken twin; execution must
pass the first and catch the second (issue 16)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.interpreter import check_modules, run_program
from pypto_mlir.ir import parse_module
from pypto_mlir.verify import verify_module

ROOT = Path(__file__).resolve().parent.parent
INPUTS = ROOT / "lit_tests" / "interpreter" / "Inputs"
EXAMPLES = ROOT / "examples"


def _mod(text: str, name: str = "t.mlir"):
    m = parse_module(text, name)
    verify_module(m)
    return m


def _text(name: str) -> str:
    return (INPUTS / name).read_text()


def _line_of(text: str, needle: str) -> int:
    return next(i + 1 for i, line in enumerate(text.splitlines()) if needle in line)


def _error(text: str, entry: str | None = None) -> PtoError:
    with pytest.raises(PtoError) as info:
        run_program(_mod(text), entry)
    return info.value


# -- 1. a tile read after its tfree (popped tiles are views of their ring slot) ------------------------------------

SEED_A5 = "seed_example1.expanded.a5.mlir"
STORE = "    %out_1 = pto.store %z_vec, %out_0[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>\n"
FREE = "    pto.tfree_to_aic %z_vec : !pto.tile<16x128xf32, vec>\n"


def test_read_after_tfree_correct_twin_passes():
    text = _text(SEED_A5)
    assert STORE + FREE in text
    res = check_modules(_mod((EXAMPLES / "seed_example1.a5.mlir").read_text()), _mod(text))
    assert res.ok, res.report


def test_read_after_tfree_is_reported_with_pop_free_and_read():
    text = _text(SEED_A5).replace(STORE + FREE, FREE + STORE)
    err = _error(text)
    assert err.message.startswith("use of a tile after its slot was freed")
    assert err.loc.line == _line_of(text, "%out_1 = pto.store")
    notes = [(n[0].line, n[1]) for n in err.notes]
    assert notes == [
        (_line_of(text, "pto.tpop_from_aic"), "the tile was popped here"),
        (_line_of(text, "pto.tfree_to_aic"), "its slot was freed here"),
    ]


def test_read_of_a_view_after_tfree_is_reported_and_a_computed_copy_is_not():
    # A slice of the popped tile aliases the slot; an elementwise result computed before the free is fresh.
    view = (
        "    %v = pto.slice %z_vec[0, 0] : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xf32, vec>\n"
        + FREE
        + STORE.replace("%z_vec", "%v")
    )
    err = _error(_text(SEED_A5).replace(STORE + FREE, view))
    assert "use of a tile after its slot was freed" in err.message
    fresh = (
        "    %v = pto.muls %z_vec, %one : !pto.tile<16x128xf32, vec>, f32\n" + FREE + STORE.replace("%z_vec", "%v")
    )
    text = _text(SEED_A5).replace(STORE + FREE, "    %one = arith.constant 1.0 : f32\n" + fresh)
    res = check_modules(_mod((EXAMPLES / "seed_example1.a5.mlir").read_text()), _mod(text))
    assert res.ok, res.report


def test_tfree_through_a_view_releases_the_popped_slot():
    text = _text(SEED_A5).replace(
        FREE,
        "    %v = pto.reshape %z_vec : !pto.tile<16x128xf32, vec> -> !pto.tile<128x16xf32, vec>\n"
        "    pto.tfree_to_aic %v : !pto.tile<128x16xf32, vec>\n",
    )
    res = check_modules(_mod((EXAMPLES / "seed_example1.a5.mlir").read_text()), _mod(text))
    assert res.ok, res.report
