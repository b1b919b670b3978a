"""The one transpose-hazard predicate (passes/analysis/transpose_hazard.py) that both passes call."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import DenseArrayBase, f32, i64
from xdsl.ir import Block

from pypto_mlir.dialects.pto_ops import TransposeOp
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType
from pypto_mlir.passes.analysis.transpose_hazard import find_transpose_hazard, moves_split_axis


def transpose(shape, axes=None):
    src = TileType.get(shape, f32, "vec")
    perm = axes if axes is not None else list(reversed(range(len(shape))))
    res = TileType.get([shape[i] for i in perm], f32, "vec")
    attrs = {"axes": DenseArrayBase.from_list(i64, list(axes))} if axes is not None else None
    return TransposeOp(Block(arg_types=[src]).args[0], res, attrs)


@pytest.mark.parametrize(
    "shape, axes, dim, hazard",
    [
        ([16, 8], None, 0, True),  # 2-D default: swaps rows and columns
        ([16, 8], None, 1, True),
        ([1, 8], None, 0, False),  # split extent 1: nothing is halved
        ([DYNAMIC, 8], None, 0, True),  # a dynamic extent counts as a hazard
        ([4, 16, 8], None, 1, False),  # default reverse keeps the middle dim in place
        ([4, 16, 8], [0, 2, 1], 0, False),  # the split dim stays
        ([4, 16, 8], [0, 2, 1], 1, True),
        ([8], None, 1, False),  # no dim 1 at all
    ],
)
def test_moves_split_axis(shape, axes, dim, hazard):
    assert moves_split_axis(transpose(shape, axes), dim) is hazard


def test_find_returns_the_first_hazard():
    safe, bad = transpose([1, 8]), transpose([16, 8])
    assert find_transpose_hazard([safe, bad, transpose([32, 8])], 0) is bad
    assert find_transpose_hazard([safe], 0) is None
