"""Reinterpret-view chains of an AUTO kernel folded before the split (issue 43, class 5).

`pto.reinterpret_view` rescales the innermost dim by the ratio of the element widths.  Split on that dim, a lane's
view of its part is its half of the full view only when the lane step, in new elements, is the view's own step
(`reinterpret_halves`): an odd extent is not (`[16, 31] x f32 -> [16, 62] x i16` under LEFT_RIGHT: lane 1's bytes
start at i16 column 32, the view's lane halves at 31), nor a lane's part that is no whole number of the wider
elements (`31 x i16 -> f32`).  Such a view has no per-lane form of the view's type.

But a view whose result is only viewed again needs none: `view(view(%x, T2), T3)` is `view(%x, T3)`, the same
bytes (the inferred shapes compose: `n * a / b * b / c = n * a / c`), and a round trip back to `%x`'s own type is
`%x` itself.  `fold_view_chains(f, dim)` rewrites each such inner view away before the split, so each lane views
(or keeps) its own part of `%x`, exact or not by the usual rule (`ReinterpretViewHalving`); the unsplit meaning is
unchanged.  An inner view with an exact per-lane form, or with any user that is not a view, is left alone (the
latter is then computed whole: `full_width.reinterpret_unsplittable`).
"""

from __future__ import annotations

from xdsl.dialects.func import FuncOp
from xdsl.rewriter import Rewriter

from pypto_mlir.dialects.pto_types import TileType
from pypto_mlir.dialects.pto_view_ops import ReinterpretViewOp, reinterpret_inferred_shape, reinterpret_inferred_valid

from .full_width import reinterpret_unsplittable


def fold_view_chains(f: FuncOp, dim: int) -> int:
    """Fold every reinterpret view of `f` with no exact per-lane form whose users are all reinterpret views into
    them (see the module docstring); returns how many inner views were removed."""
    folded = 0
    for op in list(f.body.walk()):
        if op.parent is None or not isinstance(op, ReinterpretViewOp) or not reinterpret_unsplittable(op, dim):
            continue
        users = [u.operation for u in op.result.uses]
        if not users or not all(isinstance(u, ReinterpretViewOp) and _composes(op, u) for u in users):
            continue
        for u in users:
            assert isinstance(u, ReinterpretViewOp)
            if u.result.type == op.src.type:
                u.result.replace_all_uses_with(op.src)  # a round trip: the source itself
                Rewriter.erase_op(u)
            else:
                u.operands[0] = op.src
        Rewriter.erase_op(op)
        folded += 1
    return folded


def _composes(inner: ReinterpretViewOp, outer: ReinterpretViewOp) -> bool:
    """Whether `outer(inner(%x))` is `%x` viewed as `outer`'s type directly: its inferred shape and valid region."""
    src, out = inner.src.type, outer.result.type
    if not isinstance(src, TileType) or not isinstance(out, TileType):
        return False
    if out == src:
        return True
    return (
        out.space == src.space
        and reinterpret_inferred_shape(src, out.element_type) == list(out.get_shape())
        and reinterpret_inferred_valid(src, out.element_type) == list(out.get_valid())
    )


__all__ = ["fold_view_chains"]
