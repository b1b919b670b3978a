"""Unit tests of the split-axis arithmetic (passes/analysis/split_axis.py): ceil half, lane clamps, lane stride,
reshape axis migration, halved types and the emitted lane arithmetic."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IndexType, f32
from xdsl.ir import Block, Region

from pypto_mlir.dialects.pto_ops import GetSubblockIdxOp
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType
from pypto_mlir.passes.analysis import split_axis as sa


def test_split_dim_and_codes():
    assert sa.split_dim_of("up_down") == 0
    assert sa.split_dim_of("left_right") == 1
    with pytest.raises(ValueError):
        sa.split_dim_of("none")
    assert sa.split_code_of_dim(0) == 1
    assert sa.split_code_of_dim(1) == 2
    with pytest.raises(ValueError):
        sa.split_code_of_dim(2)
    assert sa.mode_of_dim(1) == "left_right"


@pytest.mark.parametrize("n,half", [(128, 64), (15, 8), (1, 1), (0, 0), (2, 1), (13, 7)])
def test_ceil_half(n, half):
    assert sa.ceil_half(n) == half


def test_ceil_half_dynamic_and_negative():
    assert sa.ceil_half(DYNAMIC) == DYNAMIC
    assert sa.double(DYNAMIC) == DYNAMIC
    assert sa.double(64) == 128
    with pytest.raises(ValueError):
        sa.ceil_half(-2)


def test_lane_step():
    assert sa.lane_step(None, 64) == 64
    assert sa.lane_step(7, 8) == 7


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
def test_lane_valid_clamp(valid, step, lanes):
    assert sa.lane_valids(valid, step) == lanes
    assert sa.lane_valid(valid, step, 0) == lanes[0]
    assert sa.lane_valid(DYNAMIC, step, 1) == DYNAMIC


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
    assert sa.localized_valid(box, valid, stride) == expect


def test_needs_valid_clamp():
    assert not sa.needs_valid_clamp(128, 128, None)
    assert sa.needs_valid_clamp(15, 15, None)
    assert sa.needs_valid_clamp(16, 13, None)
    assert sa.needs_valid_clamp(16, 16, 8)
    assert sa.needs_valid_clamp(DYNAMIC, 5, None)
    assert not sa.needs_valid_clamp(DYNAMIC, DYNAMIC, None)


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
    assert sa.resolve_lane_stride(box, valid) == stride


@given(st.integers(min_value=1, max_value=4096), st.data())
def test_lanes_cover_the_valid_region(box, data):
    """With either partition the two lanes together hold exactly V valid rows, each within its half box."""
    valid = data.draw(st.integers(min_value=0, max_value=box))
    stride = sa.resolve_lane_stride(box, valid)
    step = sa.lane_step(stride, sa.ceil_half(box))
    a, b = sa.lane_valids(valid, step)
    assert a + b == valid
    assert 0 <= a <= sa.ceil_half(box) and 0 <= b <= sa.ceil_half(box)
    if stride is not None:
        assert abs(a - b) <= 1  # balanced


@pytest.mark.parametrize(
    "in_shape,in_dim,out_shape,target",
    [
        ((16, 1), 0, (1, 16), 1),  # [N,1] -> [1,N] migrates
        ((1, 16), 1, (16, 1), 0),
        ((16, 16), 0, (256, 1), 0),  # same axis
        ((16, 4), 0, (1, 1, 64), 2),
        ((16, 4), 0, (4, 16), 0),
        ((16, 1), 0, (2, 2, 4), 0),  # lane halves are whole dim-0 blocks
        ((15, 32), 0, (15, 32), 0),  # odd, same dim keeps it
        ((4, 16), 1, (64,), 1),  # non-unit prefix: generic same-axis
        ((DYNAMIC, 4), 0, (1, DYNAMIC), 0),  # dynamic: generic
    ],
)
def test_reshape_split_target(in_shape, in_dim, out_shape, target):
    assert sa.reshape_split_target(in_shape, in_dim, out_shape) == target


@pytest.mark.parametrize(
    "in_shape,in_dim,out_shape,kind",
    [((15, 2), 0, (1, 30), "odd"), ((16, 6), 0, (3, 32), "track"), ((12, 2), 0, (3, 8), "track")],
)
def test_reshape_split_target_rejects(in_shape, in_dim, out_shape, kind):
    with pytest.raises(sa.ReshapeSplitError) as e:
        sa.reshape_split_target(in_shape, in_dim, out_shape)
    assert e.value.kind == kind


def test_halved_tile_type_views():
    t = TileType.get([128, 128], f32, "vec")
    assert sa.halved_tile_type(t, 0) == TileType.get([64, 128], f32, "vec")
    # a column keeps its implicit col_major layout; one that collapses to [1, 1] gets the row_major default
    col = TileType.get([16, 1], f32, "vec")
    assert sa.halved_tile_type(col, 0).blayout.data == "col_major"
    assert sa.halved_tile_type(TileType.get([2, 1], f32, "vec"), 0).blayout.data == "row_major"
    # an explicit view is carried
    padded = TileType.get([16, 16], f32, "vec", pad="zero", blayout="col_major")
    h = sa.halved_tile_type(padded, 1)
    assert h.get_shape() == (16, 8) and h.pad.data == "zero" and h.blayout.data == "col_major"
    # odd box: ceil half with a runtime valid entry; a ragged extent with a stride too
    assert sa.halved_tile_type(TileType.get([15, 32], f32, "vec"), 0).get_valid() == (DYNAMIC, 32)
    assert sa.halved_tile_type(TileType.get([16, 128], f32, "acc", valid=[13, 128]), 0, 7).get_valid() == (
        DYNAMIC,
        128,
    )
    assert sa.halved_tile_type(t, 0, valid=5).get_valid() == (5, 128)


def _lane_block():
    block = Block(arg_types=[IndexType()])
    idx = GetSubblockIdxOp()
    block.add_op(idx)
    ret = func.ReturnOp()
    block.add_op(ret)
    f = func.FuncOp("f", ((IndexType(),), ()), Region(block))
    return f, block, idx, ret


def test_lane_arith_offsets_fold_and_share():
    _, block, idx, ret = _lane_block()
    la = sa.LaneArith(idx.result, idx)
    a = la.offset(0, 64, ret)  # 0 + sub*64 folds to sub*64
    b = la.offset(0, 64, ret)
    assert a is b
    assert isinstance(a.owner, arith.MuliOp) and a.owner.lhs is idx.result
    c = la.offset(16, 64, ret)  # additive
    assert isinstance(c.owner, arith.AddiOp)
    d = la.offset(block.args[0], 64, ret)  # runtime offset: emitted before the use
    assert isinstance(d.owner, arith.AddiOp) and d.owner.next_op is ret
    names = [op.name for op in block.ops]
    # hoisted values follow the lane index, in creation order
    assert names[:5] == ["pto.get_subblock_idx", "arith.constant", "arith.muli", "arith.constant", "arith.addi"]


def test_lane_arith_valid_clamp():
    _, block, idx, ret = _lane_block()
    la = sa.LaneArith(idx.result, idx)
    assert la.lane_valid(16, 8, ret) == 8  # both lanes agree: static
    assert la.lane_valid(0, 8, ret) == 0
    v = la.lane_valid(13, 7, ret)
    assert not isinstance(v, int)
    assert isinstance(v.owner, arith.MinSIOp)
    assert la.lane_valid(13, 7, ret) is v  # shared
    sub_op = v.owner.lhs.owner
    assert isinstance(sub_op, arith.SubiOp)
    assert isinstance(sub_op.lhs.owner, arith.MaxSIOp)
    w = la.lane_valid(block.args[0], 8, ret)
    assert w.owner.next_op is ret
