"""The lane arithmetic (dialects/pto_lanes.py): split axes and codes, half boxes, lane steps and extents, and
a check that each lane formula is written once in the sources (dialect, passes, interpreter)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pypto_mlir.dialects.pto_types import DYNAMIC
from pypto_mlir.dialects import pto_lanes as ln

ROOT = Path(__file__).resolve().parents[3]
LANES = ROOT / "dialects" / "pto_lanes.py"
SOURCES = sorted(
    p
    for p in [*ROOT.glob("dialects/*.py"), *ROOT.glob("passes/**/*.py"), *ROOT.glob("python/pypto_mlir/**/*.py")]
    if p != LANES
)


def test_split_dim_and_codes():
    assert ln.split_dim_of("up_down") == 0
    assert ln.split_dim_of("left_right") == 1
    with pytest.raises(ValueError):
        ln.split_dim_of("none")
    assert ln.split_code_of_dim(0) == 1
    assert ln.split_code_of_dim(1) == 2
    with pytest.raises(ValueError):
        ln.split_code_of_dim(2)
    assert ln.mode_of_dim(1) == "left_right"


@pytest.mark.parametrize("n,half", [(128, 64), (15, 8), (1, 1), (0, 0), (2, 1), (13, 7)])
def test_ceil_half(n, half):
    assert ln.ceil_half(n) == half


def test_ceil_half_dynamic_and_negative():
    assert ln.ceil_half(DYNAMIC) == DYNAMIC
    assert ln.double(DYNAMIC) == DYNAMIC
    assert ln.double(64) == 128
    with pytest.raises(ValueError):
        ln.ceil_half(-2)


def test_lane_step():
    assert ln.lane_step(128, None) == 64
    assert ln.lane_step(16, 7) == 7
    assert ln.lane_step(15, None) == 8


@pytest.mark.parametrize(
    "valid,step,lanes",
    [
        (15, 8, (8, 7)),  # odd box, fully valid
        (13, 7, (7, 6)),  # ragged 13/16 balanced by lane_stride 7
        (13, 8, (8, 5)),  # ragged 13/16, box partition
        (127, 64, (64, 63)),
        (0, 8, (0, 0)),  # empty: both lanes saturate at 0
        (5, 8, (5, 0)),  # lane 1 starts past the valid region
        (16, 8, (8, 8)),
    ],
)
def test_lane_extent_clamp(valid, step, lanes):
    assert ln.lane_extents(valid, step) == lanes
    assert ln.lane_extent(valid, step, 0) == lanes[0]
    assert ln.lane_extent(DYNAMIC, step, 1) == DYNAMIC


@pytest.mark.parametrize(
    "box,valid,stride,expect",
    [
        (128, 128, None, 64),  # even and full: the plain half
        (15, 15, None, DYNAMIC),  # odd: lanes differ (8 / 7)
        (16, 13, 7, DYNAMIC),
        (16, 0, None, 0),  # both lanes 0: static
        (16, 16, 8, 8),  # a stride equal to the half: lanes agree
        (16, DYNAMIC, None, DYNAMIC),
    ],
)
def test_localized_valid(box, valid, stride, expect):
    assert ln.localized_valid(box, valid, stride) == expect


def test_needs_valid_clamp():
    assert not ln.needs_valid_clamp(128, 128, None)
    assert ln.needs_valid_clamp(15, 15, None)
    assert ln.needs_valid_clamp(16, 13, None)
    assert ln.needs_valid_clamp(16, 16, 8)
    assert ln.needs_valid_clamp(DYNAMIC, 5, None)
    assert not ln.needs_valid_clamp(DYNAMIC, DYNAMIC, None)


@pytest.mark.parametrize(
    "box,valid,stride",
    [
        (16, 13, 7),  # balanced: 7 + 6 instead of 8 + 5
        (128, 127, None),  # ceil(127/2) = 64 is the half anyway
        (16, 0, None),  # nothing valid
        (16, 16, None),  # fully valid
        (16, 12, 6),
        (15, 15, None),
        (16, 1, 1),
        (DYNAMIC, 3, None),
        (16, DYNAMIC, None),
    ],
)
def test_resolve_lane_stride(box, valid, stride):
    assert ln.resolve_lane_stride(box, valid) == stride


@given(st.integers(min_value=1, max_value=4096), st.data())
def test_lanes_cover_the_valid_region(box, data):
    """With either partition the two lanes together hold exactly V valid rows, each within its half box."""
    valid = data.draw(st.integers(min_value=0, max_value=box))
    stride = ln.resolve_lane_stride(box, valid)
    step = ln.lane_step(box, stride)
    a, b = ln.lane_extents(valid, step)
    assert a + b == valid
    assert 0 <= a <= ln.ceil_half(box) and 0 <= b <= ln.ceil_half(box)
    if stride is not None:
        assert abs(a - b) <= 1  # balanced


def test_split_code_helpers():
    assert ln.SPLIT_CODE_NAMES[ln.SPLIT_UP_DOWN_ODD] == "up_down_odd"
    assert [ln.split_dim_of_code(c) for c in (1, 2, 3, 4)] == [0, 1, 0, 1]
    with pytest.raises(ValueError):
        ln.split_dim_of_code(0)
    assert ln.code_for_lane_extents(0, 8, 8) == 1 and ln.code_for_lane_extents(1, 5, 0) == 2
    assert ln.code_for_lane_extents(0, 8, 7) == 3 and ln.code_for_lane_extents(1, 8, 7) == 4
    assert ln.code_for_lane_extents(0, 8, 7, allow_odd=False) is None
    assert ln.code_for_lane_extents(0, 8, 5) is None


# Each lane formula, as it would be written out again (any spelling of the same arithmetic on the same names
# is caught by the duplicate finder; these catch the textual re-statements the issue found).
SECOND_COPIES = {
    "lane extent clamp(V - L*S, 0, S)": re.compile(
        r"max\(\s*0\s*,\s*min\(\s*\w+\s*-\s*(\w+\s*\*\s*)?\w+\s*,\s*\w+\s*\)\s*\)"
        r"|min\(\s*max\(\s*\w+\s*(-\s*\w+\s*)?,\s*0\s*\)\s*,\s*\w+\s*\)"
        r"|min\(\s*max\(\s*\w+\s*,\s*\w+\s*\)\s*-\s*\w+\s*,\s*\w+\s*\)"
    ),
    "half the box (n + 1) // 2": re.compile(r"\(\s*[\w\[\]]+\s*\+\s*1\s*\)\s*//\s*2"),
    "split code names": re.compile(r"\"up_down_odd\""),
    "split axis of a mode": re.compile(r"\{\s*\"up_down\"\s*:\s*0|0 if mode == \"up_down\"|\{1: 0, 2: 1"),
    "stride, else half the box": re.compile(
        r"\w*stride\w*\s+if\s+\w*stride\w*\s+is not None\b.*\belse\s+(?!None\b)|\"lane_stride\"\)\s+or\s+\w+"
    ),
}

ONE_HOME = {
    "lane extent clamp(V - L*S, 0, S)": "window_valid",
    "half the box (n + 1) // 2": "ceil_half",
    "split code names": "SPLIT_CODE_NAMES",
    "split axis of a mode": "split_dim_of",
    "stride, else half the box": "lane_step",
}


@pytest.mark.parametrize("rule", sorted(SECOND_COPIES))
def test_each_lane_formula_is_written_once(rule):
    pattern = SECOND_COPIES[rule]
    assert callable(getattr(ln, ONE_HOME[rule])) or ONE_HOME[rule] == "SPLIT_CODE_NAMES", rule
    hits = [
        f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
        for p in SOURCES
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line) and not line.lstrip().startswith("#") and '"""' not in line
    ]
    assert not hits, f"a second copy of the {rule} formula (call dialects/pto_lanes.py):\n" + "\n".join(hits)


def test_second_copy_patterns_can_fail():
    """The patterns above catch the copies that were in the sources before lanes.py."""
    examples = {
        "lane extent clamp(V - L*S, 0, S)": [
            "max(0, min(full_valid - lane * stride, stride))",
            "(min(max(v, 0), step), min(max(v - step, 0), step))",
            "return min(max(valid, start) - start, step)",
        ],
        "half the box (n + 1) // 2": ["h = (box + 1) // 2", "expect[dim] = (expect[dim] + 1) // 2"],
        "split code names": ['SPLIT_NAMES = ("none", "up_down", "left_right", "up_down_odd", "left_right_odd")'],
        "split axis of a mode": ['dim = 0 if mode == "up_down" else 1', 'return {"up_down": 0, "left_right": 1}[mode]',
                                 "SPLIT_AXIS = {1: 0, 2: 1, 3: 0, 4: 1}"],
        "stride, else half the box": [
            "step = stride if stride is not None else h  # where lane 1's cells start",
            "return lane_stride if lane_stride is not None and lane_stride > 0 else (box + 1) // 2",
            'stride = P.get_int_attr(op, "lane_stride") or box',
        ],
    }
    for rule, lines in examples.items():
        for line in lines:
            assert SECOND_COPIES[rule].search(line), (rule, line)
