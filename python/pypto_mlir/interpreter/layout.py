"""Physical tile layouts (ND, NZ, ZN fractals), for the transfers that copy a tile's bytes as they are.

A 2-D tile's view (`blayout`, `slayout`, `fractal`) fixes the order its cells have in memory:

* `slayout = none_box`: no fractal boxes; `blayout = row_major` is row-major (ND), `col_major` column-major.
* otherwise the tile is cut into fractal boxes of `fractal` bytes, 16 rows of `fractal / 16 / element bytes`
  cells for `slayout = row_major` (the transpose for `col_major`); the boxes are laid out in the order of
  `blayout` and the cells of a box in the order of `slayout`.  NZ = (col_major, row_major), ZN = (row_major,
  col_major).  A tile whose extents are not multiples of the box is padded up to them.

`reinterpret(values, written, read)` is what a consumer sees when bytes written in one view are read in another:
the same values where the views agree, scrambled where they do not.  With `shape`, the reader sees the bytes as
a tile of another shape: a zero-copy transposed view (`pto.transpose_view` of a col/col tile is the row/row tile
of the transposed shape, cell for cell the same bytes), as the MX scale carriers use it.
"""

from __future__ import annotations

import numpy as np

from pypto_mlir.dialects.pto_types import TileType

View = tuple[str, str, int]

NZ = ("col_major", "row_major")


def view_of(t: TileType) -> View:
    return (t.blayout.data, t.slayout.data, t.fractal.data)


def _boxes(view: View, itemsize: int) -> tuple[int, int] | None:
    blayout, slayout, fractal = view
    if slayout == "none_box":
        return None
    inner = max(1, fractal // 16 // itemsize)
    return (16, inner) if slayout == "row_major" else (inner, 16)


def _plan(shape: tuple[int, int], view: View, itemsize: int):
    """(padded shape, blocked shape, axis order) of the view's physical order."""
    h, w = shape
    box = _boxes(view, itemsize)
    if box is None:
        return (h, w), (h, w), ((0, 1) if view[0] != "col_major" else (1, 0))
    r, c = box
    hp, wp = -(-h // r) * r, -(-w // c) * c
    outer = (0, 2) if view[0] != "col_major" else (2, 0)
    inner = (1, 3) if view[1] == "row_major" else (3, 1)
    return (hp, wp), (hp // r, r, wp // c, c), outer + inner


def to_physical(values: np.ndarray, view: View) -> np.ndarray:
    """The cells of a 2-D array in the memory order of `view` (1-D; padded cells are 0)."""
    (hp, wp), blocked, order = _plan(values.shape, view, values.dtype.itemsize)
    padded = np.zeros((hp, wp), dtype=values.dtype)
    padded[: values.shape[0], : values.shape[1]] = values
    return padded.reshape(blocked).transpose(order).ravel()


def from_physical(flat: np.ndarray, shape: tuple[int, int], view: View) -> np.ndarray:
    """The 2-D array of `shape` whose cells, in the memory order of `view`, are `flat` (cut or zero-extended)."""
    (hp, wp), blocked, order = _plan(shape, view, flat.dtype.itemsize)
    n = hp * wp
    buf = np.zeros(n, dtype=flat.dtype)
    buf[: min(n, flat.size)] = flat[:n]
    permuted = tuple(blocked[a] for a in order)
    arr = buf.reshape(permuted).transpose(np.argsort(order)).reshape(hp, wp)
    return arr[: shape[0], : shape[1]]


def reinterpret(values: np.ndarray, written: View, read: View, shape: tuple[int, ...] | None = None) -> np.ndarray:
    """What a reader with view `read` (of a tile of `shape`, default: the written one) sees of `values` written
    with view `written` (identity when the views and shapes agree)."""
    shape = tuple(values.shape) if shape is None else tuple(shape)
    if values.ndim != 2 or (shape == tuple(values.shape) and _same(written, read)):
        return values
    return from_physical(to_physical(values, written), shape, read)


def _same(a: View, b: View) -> bool:
    if a[1] == "none_box" or b[1] == "none_box":
        return a[:2] == b[:2]
    return a == b
