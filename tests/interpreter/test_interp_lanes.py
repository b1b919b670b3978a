"""How split codes give each lane its part (values.shard_part / gather_parts) against plain numpy slicing."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import Float32Type

from pypto_mlir.dialects.pto_types import DYNAMIC, TileType
from pypto_mlir.interpreter.values import (
    InterpError,
    code_for_extents,
    gather_parts,
    lane_extents,
    make_tile,
    shard_part,
)

F32 = Float32Type()


def _t(shape, space="vec", valid=None):
    return TileType.get(shape, F32, space, valid=valid)


@pytest.mark.parametrize(
    "v,s,expect",
    [(16, 8, (8, 8)), (13, 7, (7, 6)), (13, 8, (8, 5)), (8, 8, (8, 0)), (0, 8, (0, 0)), (15, 8, (8, 7))],
)
def test_lane_extents(v, s, expect):
    assert lane_extents(v, s) == expect


def test_codes_for_extents():
    assert code_for_extents(0, 8, 8) == 1 and code_for_extents(1, 8, 8) == 2
    assert code_for_extents(0, 8, 7) == 3 and code_for_extents(1, 8, 7) == 4
    assert code_for_extents(0, 8, 0) == 1
    assert code_for_extents(0, 8, 5) is None


def test_up_down_shard_with_lane_stride():
    data = np.arange(16 * 4, dtype=np.float32).reshape(16, 4)
    full = make_tile(data, _t([16, 4], "mat", [13, 4]))
    part_t = _t([8, 4], valid=[DYNAMIC, 4])
    p0 = shard_part(full, 0, 0, 8, 7, part_t)
    p1 = shard_part(full, 0, 1, 8, 7, part_t)
    assert p0.valid == (7, 4) and p1.valid == (6, 4)
    np.testing.assert_array_equal(p0.valid_view(), data[0:7])
    np.testing.assert_array_equal(p1.valid_view(), data[7:13])
    assert np.all(p1.data[6:] == 0)  # beyond lane 1's valid rows: pad


def test_left_right_shard_of_an_odd_box_pads_past_the_box():
    data = np.arange(4 * 15, dtype=np.float32).reshape(4, 15)
    full = make_tile(data, _t([4, 15], "acc"))
    part_t = _t([4, 8], valid=[4, DYNAMIC])
    p1 = shard_part(full, 1, 1, 8, 8, part_t)
    assert p1.valid == (4, 7)
    np.testing.assert_array_equal(p1.valid_view(), data[:, 8:15])
    assert np.all(p1.data[:, 7] == 0)


def test_gather_joins_lane_boxes():
    a = make_tile(np.ones((8, 4), np.float32), _t([8, 4]))
    b = make_tile(np.full((8, 4), 2, np.float32), _t([8, 4], valid=[3, 4]), (3, 4))
    g = gather_parts([a, b], 0, _t([16, 4], "mat", valid=[DYNAMIC, 4]))
    assert g.valid == (11, 4)
    np.testing.assert_array_equal(g.data[:8], 1)
    np.testing.assert_array_equal(g.data[8:11], 2)
    np.testing.assert_array_equal(g.data[11:], 0)


def test_gather_of_a_partial_lane_0_with_a_non_empty_lane_1_is_an_error():
    a = make_tile(np.ones((8, 4), np.float32), _t([8, 4], valid=[5, 4]), (5, 4))
    b = make_tile(np.ones((8, 4), np.float32), _t([8, 4], valid=[3, 4]), (3, 4))
    with pytest.raises(InterpError, match="lane 0 holds 5 of its 8 cells and lane 1 holds 3"):
        gather_parts([a, b], 0, _t([16, 4], "mat", valid=[DYNAMIC, 4]))
