"""The transpose hazard of a split: a data `pto.transpose` that moves the split axis.

Each AIV lane holds half of the split axis; a transpose that moves that axis to another dim would transpose each
lane's half on its own, so the lanes' data would land in the wrong place.  Both passes reject it with their own
message (ExpandMixedKernel for an AUTO-split kernel, reference expand-mixed-kernel §7.2; LowerAutoVectorSplit
for a data-parallel or explicit-boundary `split_aiv_scope` region, reference lower-auto-vector-split
`FindTransposeSplitHazard`); this module is the one predicate both call.

A transpose is a hazard on split dim `d` when
- its source has a dim `d` (rank > d),
- its permutation moves dim `d` (`axes[d] != d`; without `axes` it reverses the dims), and
- the source extent on `d` is not the constant 1 (a dynamic extent counts as a hazard).

The reference's `tile.transpose` swaps two axes given as arguments and counts "fewer than 3 arguments" or a
non-constant axis as a hazard because it cannot tell which axes move; a `pto.transpose` always states its
permutation, so "moves dim d" is exact here.  `pto.transpose_view` is a view, not a data transpose, and is not
checked (as in the reference).
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.ir import Operation

from pypto_mlir.dialects.pto_ops import TransposeOp
from pypto_mlir.dialects.pto_types import TileType


def moves_split_axis(op: TransposeOp, dim: int) -> bool:
    """Whether the transpose `op` is a hazard for a split of dim `dim` (see the module docstring)."""
    src = op.src.type
    assert isinstance(src, TileType)
    if src.rank <= dim:
        return False
    if op.get_axes()[dim] == dim:
        return False  # the split axis stays in place
    return src.get_shape()[dim] != 1


def find_transpose_hazard(ops: Iterable[Operation], dim: int) -> TransposeOp | None:
    """The first transpose among `ops` that moves split dim `dim`, or None."""
    for op in ops:
        if isinstance(op, TransposeOp) and moves_split_axis(op, dim):
            return op
    return None


__all__ = ["find_transpose_hazard", "moves_split_axis"]
