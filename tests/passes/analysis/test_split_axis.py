"""Unit tests of passes/analysis/split_axis.py: reshape axis migration, halved types and the emitted lane
arithmetic (the lane formulas themselves: tests/passes/analysis/test_lanes.py)."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IndexType, f32
from xdsl.ir import Block, Region

from pypto_mlir.dialects.pto_ops import GetSubblockIdxOp
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType
from pypto_mlir.passes.analysis import split_axis as sa


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
        ((15, 32), 0, (15, 2, 16), 0),  # odd, the split dim is kept: any extent, the dims after it regroup
        ((8, 16), 1, (8, 2, 8), 1),  # LEFT_RIGHT: the rows keep their product, a lane's half is one group of dim 1
        ((8, 16), 1, (8, 16, 1), 1),
        ((2, 8, 4), 1, (2, 4, 8), 1),  # non-unit prefix kept: the halves regroup inside it
        ((2, 3, 4), 1, (2, 3, 2, 2), 1),  # odd, kept behind the same prefix
        ((DYNAMIC, 4), 0, (1, DYNAMIC), 0),  # dynamic with a unit prefix: same axis (the lowering checks the dim)
    ],
)
def test_reshape_split_target(in_shape, in_dim, out_shape, target):
    assert sa.reshape_split_target(in_shape, in_dim, out_shape) == target


@pytest.mark.parametrize(
    "in_shape,in_dim,out_shape,kind",
    [
        ((15, 2), 0, (1, 30), "odd"),
        ((16, 6), 0, (3, 32), "track"),
        ((12, 2), 0, (3, 8), "track"),
        # a row-major reshape that merges the dims before the split axis into it scatters each lane's half
        # (lavs-reshape-left-right: [8, 16] -> [1, 128] under LEFT_RIGHT gave lane 0 rows 0-3, not columns 0-7)
        ((8, 16), 1, (1, 128), "track"),
        ((8, 16), 1, (16, 8), "track"),
        ((4, 16), 1, (64,), "track"),
        ((2, 3, 4), 1, (4, 3, 2), "odd"),  # the same element count per lane, but other cells
        ((4, DYNAMIC), 1, (1, DYNAMIC), "track"),  # dynamic with a non-unit prefix: not followed
    ],
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
