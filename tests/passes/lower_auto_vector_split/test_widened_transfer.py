"""Class 1(c) of docs/lower-auto-vector-split.md by execution: an explicit-region `aiv_shard` of an odd box whose
lanes no split code places (and whose lane-1 window passes the box, so it cannot be carried whole) is carried
with its valid extent widened and narrowed back on each lane.  Every (odd box, ragged valid extent) of boxes up
to 15, both modes and both targets, through the whole pipeline: the outputs before and after are the same."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import f32

from pypto_mlir.dialects.pto_types import TileType
from pypto_mlir.check_pipeline import apply_pipeline, check_pipeline_text
from pypto_mlir.ir import parse_module
from pypto_mlir.passes.analysis.split_codes import widened_shard_extent

PIPELINE = ["lower-auto-vector-split", "expand-mixed-kernel"]
N = 16  # the other axis


def region_kernel(mode: str, box: int, valid: int, target: str) -> str:
    """`acc` (box x N for up_down, N x box for left_right) with `valid` valid cells of the split axis, sharded by
    hand, exponentiated, and stored by each lane at aiv_id * ceil(box/2)."""
    half = (box + 1) // 2
    if mode == "up_down":
        m, n, split, va, vb = box, N, 1, f"[{valid}, 16]", "[16, 16]"
        acc_valid, lane, lane_valid, off = f"[{valid}, {N}]", f"{half}x{N}", f"[?, {N}]", "[%at, 0]"
    else:
        m, n, split, va, vb = N, box, 2, "[16, 16]", f"[16, {valid}]"
        acc_valid, lane, lane_valid, off = f"[{N}, {valid}]", f"{N}x{half}", f"[{N}, ?]", "[0, %at]"
    return f"""builtin.module attributes {{pto.target = #pto.target<{target}>}} {{
  func.func @k(%a: !pto.tensor<{m}x16xbf16>, %b: !pto.tensor<16x{n}xbf16>, %o: !pto.tensor<{m}x{n}xf32> {{pto.out}}) -> !pto.tensor<{m}x{n}xf32>
      attributes {{pto.kind = #pto.kind<incore>, pto.split_aiv}} {{
    %am = pto.load %a[0, 0] valid {va} : !pto.tensor<{m}x16xbf16> -> !pto.tile<{m}x16xbf16, mat, valid = {va}>
    %bm = pto.load %b[0, 0] valid {vb} : !pto.tensor<16x{n}xbf16> -> !pto.tile<16x{n}xbf16, mat, valid = {vb}>
    %al = pto.move %am : !pto.tile<{m}x16xbf16, mat, valid = {va}> -> !pto.tile<{m}x16xbf16, left, valid = {va}>
    %br = pto.move %bm : !pto.tile<16x{n}xbf16, mat, valid = {vb}> -> !pto.tile<16x{n}xbf16, right, valid = {vb}>
    %acc = pto.matmul %al, %br : !pto.tile<{m}x16xbf16, left, valid = {va}>, !pto.tile<16x{n}xbf16, right, valid = {vb}> -> !pto.tile<{m}x{n}xf32, acc, valid = {acc_valid}>
    %r = pto.split_aiv_scope {mode} (%aiv_id) -> (!pto.tensor<{m}x{n}xf32>) {{
      %h = pto.aiv_shard %acc {{split = {split} : i64}} : !pto.tile<{m}x{n}xf32, acc, valid = {acc_valid}> -> !pto.tile<{lane}xf32, vec, valid = {lane_valid}>
      %e = pto.exp %h : !pto.tile<{lane}xf32, vec, valid = {lane_valid}>
      %c = arith.constant {half} : index
      %at = arith.muli %aiv_id, %c : index
      %o2 = pto.store %e, %o{off} : !pto.tile<{lane}xf32, vec, valid = {lane_valid}>, !pto.tensor<{m}x{n}xf32>
      pto.yield %o2 : !pto.tensor<{m}x{n}xf32>
    }}
    func.return %r : !pto.tensor<{m}x{n}xf32>
  }}
}}
"""


def _widened_cases() -> list[tuple[int, int]]:
    cases = []
    for box in range(3, 16, 2):
        for valid in range(box + 1):
            t = TileType.get([box, N], f32, "acc", valid=[valid, N])
            if widened_shard_extent(t, 1) is not None:
                cases.append((box, valid))
    return cases


CASES = _widened_cases()


def test_the_sweep_covers_every_odd_box():
    assert {b for b, _ in CASES} == {5, 7, 9, 11, 13, 15}
    assert len(CASES) == 21


@pytest.mark.parametrize("mode", ["up_down", "left_right"])
@pytest.mark.parametrize("box, valid", CASES)
def test_widened_region_shard_by_execution(mode, box, valid):
    target = "a2a3" if (box + valid + (mode == "left_right")) % 2 else "a5"  # both targets, half the runs
    text = region_kernel(mode, box, valid, target)
    module = parse_module(text, "k.mlir")
    apply_pipeline(module, ["lower-auto-vector-split"])
    lowered = str(module)
    wide = f"valid [{box}, {N}]" if mode == "up_down" else f"valid [{N}, {box}]"
    assert f"%acc_wide = pto.set_validshape %acc {wide}" in lowered
    r = check_pipeline_text(text, PIPELINE, f"<{mode}-{box}-{valid}-{target}>", entry="k")
    assert r.ok, r.report
