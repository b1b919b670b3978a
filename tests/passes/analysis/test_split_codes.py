"""The pto-isa split-code table of op-driven boundaries (passes/analysis/split_codes.py)."""

import pytest
from xdsl.dialects.builtin import f32

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType
from pypto_mlir.dialects.pto_lanes import lane_extents
from pypto_mlir.passes.analysis.split_codes import (
    feasible_valid_extents,
    gather_split_code,
    shard_split_code,
    widened_shard_extent,
)


def tile(shape, valid=None, space="mat"):
    return TileType.get(shape, f32, space, valid=valid)


@pytest.mark.parametrize(
    "valid, stride, lanes",
    [(128, 64, (64, 64)), (127, 64, (64, 63)), (13, 7, (7, 6)), (12, 6, (6, 6)), (13, 8, (8, 5)), (0, 8, (0, 0)),
     (5, 8, (5, 0))],
)
def test_lane_extents(valid, stride, lanes):
    assert lane_extents(valid, stride) == lanes


@pytest.mark.parametrize(
    "shape, valid, split, stride, code",
    [
        ([128, 128], None, 1, None, 1),  # 64/64
        ([128, 128], [127, 128], 1, None, 3),  # 64/63 -> up_down_odd
        ([16, 16], [16, 15], 2, None, 4),  # 8/7 columns -> left_right_odd
        ([16, 15], None, 2, None, 4),  # odd box of 15 columns
        ([16, 128], [13, 128], 1, 7, 3),  # lane_stride 7 on 13 of 16 -> 7/6
        ([16, 128], [12, 128], 1, 6, 1),  # lane_stride 6 on 12 of 16 -> 6/6
        ([16, 128], [8, 128], 1, None, 1),  # lane 1 empty -> even
        ([16, 128], [0, 128], 1, None, 1),
        ([2, 128], [DYNAMIC, 128], 1, None, 1),  # run-time extent, but every value of a 2-row box is even
        ([1, 128], [DYNAMIC, 128], 1, None, 1),
        ([16, 128], [13, 128], 0, None, 0),  # no split
    ],
)
def test_shard_split_code(shape, valid, split, stride, code):
    assert shard_split_code(tile(shape, valid), split, stride) == code


def test_shard_unplaceable_lists_feasible_extents():
    with pytest.raises(PtoError) as e:
        shard_split_code(tile([16, 128], [13, 128]), 1)
    msg = e.value.message
    assert "leaves the two AIV lanes 8 and 5 cells" in msg
    assert "one of 0..8, 15 or 16" in msg


@pytest.mark.parametrize("shape", [[16, 128], [DYNAMIC, 128]])
def test_runtime_extent_is_rejected_unless_every_value_is_placed(shape):
    """The split code is fixed at compile time: 13 valid rows of 16 at run time would leave the lanes 8 and 5."""
    with pytest.raises(PtoError, match="only known at run time") as e:
        shard_split_code(tile(shape, [DYNAMIC, 128]), 1)
    if shape[0] == 16:
        assert "the even code places only a run-time extent of 0..8 or 16" in e.value.message
        assert "(9 valid of 16 leave 8 and 1)" in e.value.message
    with pytest.raises(PtoError, match="Vector -> Cube boundary tile's valid split-axis extent is only known"):
        gather_split_code(tile(shape, [DYNAMIC, 128]), 1)


def test_shard_unplaceable_with_stride():
    with pytest.raises(PtoError, match="lanes 7 and 3 cells .partitioned by lane_stride 7"):
        shard_split_code(tile([16, 128], [10, 128]), 1, 7)


@pytest.mark.parametrize(
    "shape, valid, split, code",
    [([128, 128], None, 1, 1), ([16, 32], None, 2, 2), ([32, 16], [16, 16], 1, 1), ([2, 128], [DYNAMIC, 128], 1, 1),
     ([128, 128], [127, 128], 0, 0)],
)
def test_gather_split_code(shape, valid, split, code):
    assert gather_split_code(tile(shape, valid), split) == code


def test_gather_has_no_odd_form():
    with pytest.raises(PtoError, match="the gather has no odd form"):
        gather_split_code(tile([128, 128], [127, 128]), 1)


def test_feasible_extents_follow_the_placement_rule():
    assert feasible_valid_extents(16, 8, allow_odd=True) == [*range(0, 9), 15, 16]
    assert feasible_valid_extents(16, 8, allow_odd=False) == [*range(0, 9), 16]
    # (beyond 2 * stride both lanes are full: the reference treats that as equal lanes too)
    assert feasible_valid_extents(16, 7, allow_odd=True) == [*range(0, 8), 13, 14, 15, 16]


@pytest.mark.parametrize(
    "shape, valid, split, stride, wide",
    [
        ([15, 128], [13, 128], 1, None, 15),  # lanes 8 and 5 -> 8 and 7 (code 3)
        ([15, 128], [12, 128], 1, None, 15),  # lanes 8 and 4
        ([16, 128], [13, 128], 1, None, 15),  # the smallest: 15 (8 and 7), not the box
        ([16, 15], [16, 12], 2, None, 15),  # columns: 8 and 4 -> 8 and 7 (code 4)
        ([16, 128], [10, 128], 1, 6, 11),  # stride 6: lanes 6 and 4 -> 6 and 5
        ([15, 128], [15, 128], 1, None, None),  # placeable already (8 and 7)
        ([15, 128], [5, 128], 1, None, None),  # lane 1 empty
        ([15, 128], [DYNAMIC, 128], 1, None, None),  # run-time extent: the code is fixed at compile time
        ([15, 128], [13, 128], 0, None, None),  # no split
    ],
)
def test_widened_shard_extent(shape, valid, split, stride, wide):
    """The smallest placeable valid extent above an unplaceable one; its lanes start where the original's do."""
    t = tile(shape, valid)
    assert widened_shard_extent(t, split, stride) == wide
    if wide is not None:
        widened = list(valid)
        widened[split - 1] = wide
        shard_split_code(tile(shape, widened), split, stride)  # placeable: no error
