"""MX scale tiles: the one home of what makes a tile an MX scale and how it crosses the cores on a5.

An MX matmul (`pto.matmul_mx*`) reads its scales from `left_scale` (shape `[M, K/32]`, row/row fractal 32) and
`right_scale` (`[K/32, N]`, col/col fractal 32), in `f8E8M0FNU`.  On a5 such a scale does not cross V->C in NZ
(seed, "MX scale 的 V2C 传输"): the cube pops it in `mat` with the consumer's own scale layout, and the vector
side pushes a *row/row carrier* (see `expand_mixed_kernel/mx_scale.py`).

Terms: the *scale kind* is `row` (the left scale's row/row layout) or `col` (the right scale's col/col); the
*group axis* is the dim that counts the groups of 32 along K (dim 1 of a left scale, dim 0 of a right scale);
a split may only cut the other dim (`MX_A_ZZ` row bands for `row`, `MX_B_NN` column bands for `col`).

Users: ExpandMixedKernel (the boundary and manual-push carriers, `carrier_type`), LowerAutoVectorSplit (the type of the
`aic_gather` it creates for a scale), and the interpreter (which refuses a partially valid carrier on a5).
This module depends only on xDSL and `dialects/pto_types.py`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import Float8E8M0FNUType

from pypto_mlir.dialects.pto_types import TileType, implicit_view, transpose_view_type

SCALE_SPACES = ("left_scale", "right_scale")
SCALE_FRACTAL = 32
SCALE_LAYOUTS = {"row": ("row_major", "row_major"), "col": ("col_major", "col_major")}
SPACE_OF_KIND = {"row": "left_scale", "col": "right_scale"}
GROUP_AXIS = {"row": 1, "col": 0}


def is_e8m0(t: TileType) -> bool:
    return isinstance(t.element_type, Float8E8M0FNUType)


def scale_kind(t: TileType) -> str | None:
    """`row` / `col` for an MX scale type: a `left_scale`/`right_scale` tile, or an `f8E8M0FNU` `mat`/`vec` tile
    in row/row or col/col fractal 32; None for anything else."""
    if t.space in SCALE_SPACES:
        return "row" if t.space == "left_scale" else "col"
    if t.space in ("mat", "vec") and is_e8m0(t) and t.fractal.data == SCALE_FRACTAL:
        for kind, lay in SCALE_LAYOUTS.items():
            if t.layouts == lay:
                return kind
    return None


def scale_layout_problem(t: TileType) -> str | None:
    """Why a `left_scale`/`right_scale` destination cannot be an MX scale transfer (None when it can)."""
    if not is_e8m0(t):
        return f"'{t.space}' holds f8E8M0FNU MX scales, but this tile holds {t.element_type}"
    want = implicit_view(t.get_shape(), t.space)
    if (t.blayout.data, t.slayout.data, t.fractal.data) != (want.blayout, want.slayout, want.fractal):
        return (
            f"an MX scale in '{t.space}' has the layout blayout = {want.blayout}, slayout = {want.slayout}, "
            f"fractal = {want.fractal}, but this tile has {t.blayout.data}/{t.slayout.data}/{t.fractal.data}"
        )
    if t.rank != 2:
        return f"an MX scale is a 2-D tile, this one has rank {t.rank}"
    return None


def scale_mat_type(dest: TileType) -> TileType:
    """The `mat` tile an MX scale bound for `dest` lands in: the consumer's shape, valid region and scale layout
    (a `mat` tile of a scale keeps row/row/32 or col/col/32; it is never NZ)."""
    kind = scale_kind(dest)
    assert kind is not None
    b, s = SCALE_LAYOUTS[kind]
    return dest.with_(memory_space="mat", blayout=b, slayout=s, fractal=SCALE_FRACTAL)


def is_scale_carrier(t: TileType) -> bool:
    """A `vec` tile in the row/row fractal-32 scale layout: what an a5 V->C push of an MX scale sends."""
    return t.space == "vec" and scale_kind(t) == "row"


def carrier_type(logical: TileType, kind: str) -> TileType:
    """The type of the row/row carrier an a5 V->C push sends for the scale box `logical` (shape and element type
    of one producer's box): a fully valid `vec` row/row fractal-32 tile, of the box's shape for a `row` scale and
    of the transposed shape (the `transpose_view` of the col/col box) for a `col` scale."""
    b, s = SCALE_LAYOUTS[kind]
    box = logical.with_(memory_space="vec", blayout=b, slayout=s, fractal=SCALE_FRACTAL, valid=logical.get_shape())
    return transpose_view_type(box, (1, 0)) if kind == "col" else box
