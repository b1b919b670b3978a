"""MX scale V->C carriers on a5 (passes/expand_mixed_kernel/mx_scale.py), checked by execution.

The interpreter models the a5 V->C slot as bytes (interpreter/layout.py): the pass's carriers must give the
kernel's outputs, and each way of getting a carrier wrong must be seen (wrong data or an interpreter error)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pypto_mlir import parse_module, print_module
from pypto_mlir.interpreter import check_modules
from pypto_mlir.check_pipeline import apply_pipeline

LIT = Path(__file__).resolve().parents[3] / "lit_tests" / "expand_mixed_kernel"
PIPE = "lower-auto-vector-split,expand-mixed-kernel"


def _kernel(name: str) -> str:
    return (LIT / name).read_text()


def _expanded(text: str) -> str:
    m = parse_module(text, "<mx>")
    apply_pipeline(m, PIPE)
    return print_module(m)


def _check(before: str, after: str):
    return check_modules(parse_module(before, "<before>"), parse_module(after, "<after>"), detect_races=False)


@pytest.mark.parametrize("name", ["mx_scale_none.mlir", "mx_scale_up_down.mlir", "mx_scale_left_right.mlir"])
@pytest.mark.parametrize("seed", [0, 1])
def test_carriers_compute_the_kernel(name, seed):
    text = _kernel(name)
    after = _expanded(text)
    res = check_modules(parse_module(text, "<b>"), parse_module(after, "<a>"), seed=seed)
    assert res.ok, res.report


def test_col_scale_pushed_without_transpose_view_is_refused():
    text = _kernel("mx_scale_none.mlir")
    after = _expanded(text)
    assert "%w8_rr = pto.transpose_view" in after
    bad = re.sub(r"\n\s*%w8_rr = pto.transpose_view[^\n]*", "", after)
    bad = bad.replace(
        "pto.tpush_to_aic %w8_rr {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>",
        "pto.tpush_to_aic %w8_mx {split = 0 : i64} : !pto.tile<4x32xf8E8M0FNU, vec, blayout = col_major, slayout = col_major, fractal = 32>",
    )
    res = _check(text, bad)
    assert not res.ok and "takes only a row/row fractal-32 carrier" in res.report


def test_nz_scale_carrier_gives_wrong_data():
    """The old NZ path (what AdaptManualVtoCPush would do to a scale push) is seen as wrong data."""
    text = _kernel("mx_scale_none.mlir")
    after = _expanded(text)
    nz = "!pto.tile<32x4xf8E8M0FNU, vec, blayout = col_major, slayout = row_major, fractal = 32>"
    bad = after.replace(
        "pto.tpush_to_aic %s8_mx {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>",
        f"%s8_nz = pto.move %s8_mx : !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32> -> {nz}\n"
        f"    pto.tpush_to_aic %s8_nz {{split = 0 : i64}} : {nz}",
    )
    assert bad != after
    res = _check(text, bad)
    assert not res.ok, res.report


def test_partially_valid_carrier_needs_the_full_box():
    text = _kernel("mx_scale_carriers.mlir").split("// -----")[0]
    after = _expanded(text)
    assert "%s8_box = pto.set_validshape" in after
    assert _check(text, after).ok
    bad = re.sub(r"\n\s*%s8_box = pto.set_validshape[^\n]*", "", after)
    bad = bad.replace(
        "pto.tpush_to_aic %s8_box {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>",
        "pto.tpush_to_aic %s8_mx {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32, valid = [30, 4]>",
    )
    res = _check(text, bad)
    assert not res.ok and "only the full physical box" in res.report


ND_SCALE = "!pto.tile<4x32xf8E8M0FNU, vec>"
COLCOL_SCALE = "!pto.tile<4x32xf8E8M0FNU, vec, blayout = col_major, slayout = col_major, fractal = 32>"
RR_CARRIER = "!pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>"


def _view_of_plain_scale(after: str) -> str:
    """The broken twin: the col/col carrier made by a transpose_view of the plain ND scale (no `_mx` move)."""
    good = f"%w8_rr = pto.transpose_view %w8_mx : {COLCOL_SCALE} -> {RR_CARRIER}"
    assert good in after
    bad = re.sub(r"\n\s*%w8_mx = pto.move[^\n]*", "", after)
    return bad.replace(good, f"%w8_rr = pto.transpose_view %w8 : {ND_SCALE} -> {RR_CARRIER}")


def test_transpose_view_of_a_plain_scale_is_a_located_verifier_error():
    """transpose_view is zero-copy: its result must be the source's view transposed, so the twin that skips the
    Vec->Vec move to the consumer layout does not verify (the correct program does)."""
    from pypto_mlir.diagnostics import PtoError
    from pypto_mlir.verify import verify_module

    text = _kernel("mx_scale_none.mlir")
    after = _expanded(text)
    verify_module(parse_module(after, "<good>"))
    bad = _view_of_plain_scale(after)
    with pytest.raises(PtoError) as info:
        verify_module(parse_module(bad, "<bad>"))
    assert "is a zero-copy view" in info.value.message
    line = next(i + 1 for i, ln in enumerate(bad.splitlines()) if "%w8_rr = pto.transpose_view" in ln)
    assert info.value.loc.line == line


def test_transpose_view_of_a_plain_scale_gives_wrong_data():
    """The oracle reads transpose_view as the same bytes in the result's shape and view: run unverified, the
    broken twin delivers scrambled scales (the plain 4x32 row-major bytes are not the row/row 32x4 carrier's)."""
    text = _kernel("mx_scale_none.mlir")
    after = _expanded(text)
    assert _check(text, after).ok
    res = _check(text, _view_of_plain_scale(after))
    assert not res.ok and res.stage == "compare", res.report


def test_manual_scale_pushes_compute_the_kernel():
    """The hand-written kernel (mx_manual_push.mlir, a5) computes the mixed kernel of mx_scale_none.mlir once
    AdaptManualVtoCPush has planned its scale pushes; as written (plain ND scales pushed), the oracle refuses it."""
    mixed = _kernel("mx_scale_none.mlir")
    manual = _kernel("mx_manual_push.mlir").replace("a2a3", "a5")
    m = parse_module(manual, "<manual>")
    apply_pipeline(m, "expand-mixed-kernel")
    after = print_module(m)
    assert "%w8_rr = pto.transpose_view" in after and "%s8_mx = pto.move" in after
    res = _check(mixed, after)
    assert res.ok, res.report
    raw = _check(mixed, manual)
    assert not raw.ok and "takes only a row/row fractal-32 carrier" in raw.report
