"""LowerAutoVectorSplit by execution: every kernel of the AUTO-path lit tests computes the same outputs before and
after the pass in the reference interpreter (two AIV lanes running the per-lane code)."""

from __future__ import annotations

import glob
import os
from pathlib import Path
import re

import pytest

from pypto_mlir.check_pipeline import check_pipeline_text

ROOT = str(Path(__file__).resolve().parents[3])
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


def _ragged_kernel(mode: str, box: int, valid: int, extra_load: bool) -> str:
    """A shard of a [box, 8] (UP_DOWN) or [8, box] (LEFT_RIGHT) acc tile with `valid` on the split axis, an
    elementwise op and a store; optionally an independent load on the split axis (keeps the box partition)."""
    if mode == "up_down":
        shape, vshape = f"{box}x8", f"[{valid}, 8]"
    else:
        shape, vshape = f"8x{box}", f"[8, {valid}]"
    t_acc = f"!pto.tile<{shape}xf32, acc, valid = {vshape}>"
    t_vec = f"!pto.tile<{shape}xf32, vec, valid = {vshape}>"
    t_full = f"!pto.tile<{shape}xf32, vec>"
    tensor = f"!pto.tensor<{shape}xf32>"
    load = ""
    if extra_load:
        load = (
            f"    %b = pto.load %x[0, 0] : {tensor} -> {t_full}\n"
            f"    %bb = pto.exp %b : {t_full}\n"
            f"    %o2 = pto.store %bb, %out2[0, 0] : {t_full}, {tensor}\n"
        )
    return (
        "builtin.module attributes {pto.target = #pto.target<a2a3>} {\n"
        f"  func.func @k(%qk: {t_acc}, %x: {tensor}, %out: {tensor} {{pto.out}}, %out2: {tensor} {{pto.out}})\n"
        f"      attributes {{pto.kind = #pto.kind<incore>, pto.split = #pto.split<{mode}>}} {{\n"
        f"    %s = pto.move %qk : {t_acc} -> {t_vec}\n"
        f"    %e = pto.abs %s : {t_vec}\n"
        f"    %o = pto.store %e, %out[0, 0] : {t_vec}, {tensor}\n"
        f"{load}"
        "    func.return\n  }\n}\n"
    )


_RAGGED = [
    (mode, box, valid, extra)
    for mode in ("up_down", "left_right")
    for box in (1, 2, 7, 15, 16)
    for valid in sorted({0, 1, box // 2, box - 1, box} & set(range(box + 1)))
    for extra in (False, True)
]

FULL = ["lower-auto-vector-split", "expand-mixed-kernel"]


@pytest.mark.parametrize("mode,box,valid,extra", _RAGGED)
def test_ragged_and_odd_extents_by_execution(mode, box, valid, extra):
    """Every box/valid combination (odd boxes, partial and empty valid extents, with and without a lane stride,
    LEFT_RIGHT with partial columns) stores exactly the rows/columns the full-width kernel stores, after the
    pass and after the whole pipeline on both targets.  The one class still rejected: an odd box whose ragged
    lanes no split code places, when no lane stride can balance them and lane 1's window would pass the box
    (with fallback=error; it must compile with fallback=unsplit, the default)."""
    text = _ragged_kernel(mode, box, valid, extra)
    r = check_pipeline_text(text, ["lower-auto-vector-split{fallback=error}"], f"<{mode}-{box}-{valid}>", entry="k")
    if r.stage == "pass":
        assert box % 2 == 1 and valid > (box + 1) // 2, r.report  # lane 1 holds cells past the box
        assert "fallback=unsplit" in r.report
        for target in ("a2a3", "a5"):
            twin = text.replace("a2a3", target)
            u = check_pipeline_text(twin, ["lower-auto-vector-split{fallback=unsplit}", FULL[1]], "twin", entry="k")
            assert u.ok, u.report
        return
    assert r.ok, r.report
    for target in ("a2a3", "a5"):
        f = check_pipeline_text(text.replace("a2a3", target), FULL, f"<{mode}-{box}-{valid}-{target}>", entry="k")
        assert f.ok, f.report


def _load_kernel(mode: str, box: int, valid: int) -> str:
    if mode == "up_down":
        shape, vshape = f"{box}x8", f"[{valid}, 8]"
    else:
        shape, vshape = f"8x{box}", f"[8, {valid}]"
    t = f"!pto.tile<{shape}xf32, vec, valid = {vshape}>"
    tensor = f"!pto.tensor<{shape}xf32>"
    return (
        "builtin.module attributes {pto.target = #pto.target<a2a3>} {\n"
        f"  func.func @k(%qk: !pto.tile<16x16xf32, acc>, %x: {tensor}, %out: {tensor} {{pto.out}})\n"
        f"      attributes {{pto.kind = #pto.kind<incore>, pto.split = #pto.split<{mode}>}} {{\n"
        "    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>\n"
        f"    %a = pto.load %x[0, 0] : {tensor} -> {t}\n"
        f"    %e = pto.neg %a : {t}\n"
        f"    %o = pto.store %e, %out[0, 0] : {t}, {tensor}\n"
        "    func.return\n  }\n}\n"
    )


@pytest.mark.parametrize(
    "mode,box,valid",
    [
        (mode, box, valid)
        for mode in ("up_down", "left_right")
        for box in (2, 3, 7, 15, 16)
        for valid in sorted({0, 1, box // 2, box - 1, box})
    ],
)
def test_load_extents_by_execution(mode, box, valid):
    """Loads of odd boxes and partial valid extents: each lane loads and stores exactly its clamped share."""
    text = _load_kernel(mode, box, valid)
    r = check_pipeline_text(text, ["lower-auto-vector-split{fallback=error}"], f"<{mode}-{box}-{valid}>", entry="k")
    assert r.ok, r.report
