"""Lane arithmetic: the one home of how a split divides a tile between the two AIV lanes.

Every user calls these functions instead of writing the formulas again: the op verifiers (`aiv_shard`,
`aic_gather` in `dialects/pto_split_ops.py`), LowerAutoVectorSplit (AUTO halving and the region checks),
ExpandMixedKernel (split codes of the transfer pairs) and the interpreter (which lane gets which cells).
`tests/dialects/test_lanes.py` checks that no second copy of these formulas is left in the sources.

Terms: the *box* is the physical extent of the split dim (`shape[dim]`), *valid* (V) its logical extent; the
*half* is the per-lane box `ceil(box / 2)`; the *step* (S) is where lane 1's window starts, the `lane_stride`
when a ragged boundary was balanced, else the half; lane L then holds `clamp(V - L*S, 0, S)` valid cells.
`DYNAMIC` (a runtime extent) propagates.

Split modes and codes: a split *mode* names the axis (`up_down` halves dim 0, `left_right` dim 1; the `split`
attribute of `aiv_shard`/`aic_gather` stores it as 0 none, 1, 2); a pto-isa split *code* on a tpush/tpop pair
adds the odd forms (3 `up_down_odd`, 4 `left_right_odd`: lane 1 starts one row/column later, for lane extents
e0 == e1 + 1).

The lane formulas are facts of the dialect (the `split` and `lane_stride` attributes of the boundary and transfer
ops mean them), so they live in the dialect layer, below the analyses, the passes and the interpreter
(docs/contributing.md *Layers*); this module depends only on xDSL and `pto_types.py`.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.ir import Operation, SSAValue

from .pto_types import DYNAMIC

# ---------------------------------------------------------------------------------------------------------------
# Split modes and codes
# ---------------------------------------------------------------------------------------------------------------

SPLIT_NONE, SPLIT_UP_DOWN, SPLIT_LEFT_RIGHT, SPLIT_UP_DOWN_ODD, SPLIT_LEFT_RIGHT_ODD = range(5)
SPLIT_CODE_NAMES = ("none", "up_down", "left_right", "up_down_odd", "left_right_odd")
"""The name of each split code (index = code); codes 0..2 are also the split modes."""

DATA_PARALLEL_MODES = ("up_down", "left_right")
"""The split modes that divide the data (mode `none` is task-parallel: no split axis)."""


def split_dim_of(mode: str) -> int:
    """The tile dim a split mode halves: up_down -> 0 (rows), left_right -> 1 (columns)."""
    if mode not in DATA_PARALLEL_MODES:
        raise ValueError(f"split mode '{mode}' has no split axis")
    return DATA_PARALLEL_MODES.index(mode)


def mode_of_dim(dim: int) -> str:
    """The split mode that halves `dim` (0 -> up_down, 1 -> left_right)."""
    return DATA_PARALLEL_MODES[dim]


def split_code_of_dim(dim: int) -> int:
    """The (even) split code / `split` attribute that splits `dim`: 0 -> 1 (up_down), 1 -> 2 (left_right)."""
    if dim not in (0, 1):
        raise ValueError(f"only dims 0 and 1 have a split mode, got {dim}")
    return dim + 1


def split_dim_of_code(code: int) -> int:
    """The dim a non-zero split code splits: up_down(_odd) -> 0, left_right(_odd) -> 1."""
    if not 1 <= code <= 4:
        raise ValueError(f"split code {code} has no split axis")
    return (code - 1) % 2


def code_for_lane_extents(dim: int, e0: int, e1: int, allow_odd: bool = True) -> int | None:
    """The split code pto-isa needs to place lanes holding e0 and e1 cells of `dim`: the even code when they
    are equal or lane 1 is empty, the odd code when lane 1 holds one fewer (if `allow_odd`), else None."""
    if e0 == e1 or e1 == 0:
        return split_code_of_dim(dim)
    if allow_odd and e0 == e1 + 1:
        return split_code_of_dim(dim) + 2
    return None


# ---------------------------------------------------------------------------------------------------------------
# Lane boxes and extents
# ---------------------------------------------------------------------------------------------------------------


def ceil_half(n: int) -> int:
    """The per-lane box of an extent: `(n + 1) // 2`; a dynamic extent stays dynamic."""
    if n == DYNAMIC:
        return DYNAMIC
    if n < 0:
        raise ValueError(f"negative extent {n}")
    return (n + 1) // 2


def double(n: int) -> int:
    """The gathered extent of a per-lane extent."""
    return DYNAMIC if n == DYNAMIC else 2 * n


def lane_step(box: int, lane_stride: int | None) -> int:
    """Where lane 1's window starts on the split axis: the lane stride if set, else half the box."""
    return lane_stride if lane_stride is not None else ceil_half(box)


def window_valid(valid: int, start: int, extent: int) -> int:
    """The valid cells of a window `[start, start + extent)` of an axis whose first `valid` cells are valid:
    `clamp(V - start, 0, extent)`."""
    if DYNAMIC in (valid, start, extent):
        return DYNAMIC
    return max(0, min(valid - start, extent))


def lane_extent(valid: int, step: int, lane: int) -> int:
    """The valid cells lane `lane` (0 or 1) holds of a split axis with `valid` valid cells and lane step `step`:
    `clamp(V - L*S, 0, S)`, the valid part of the lane's window `[L*S, L*S + S)`."""
    if step == DYNAMIC:
        return DYNAMIC
    return window_valid(valid, lane * step, step)


def lane_extents(valid: int, step: int) -> tuple[int, int]:
    """(e0, e1): `lane_extent` of both lanes."""
    return lane_extent(valid, step, 0), lane_extent(valid, step, 1)


def lane_extent_ops(valid: SSAValue, lane_start: SSAValue, step: SSAValue) -> list[Operation]:
    """`lane_extent` at run time, as `index` arith ops (not inserted; the last one's result is the extent):
    `min(max(V, L*S) - L*S, S)`, where `lane_start` is `L*S` (the lane id times the step)."""
    hi = arith.MaxSIOp(valid, lane_start)
    rest = arith.SubiOp(hi.result, lane_start)
    return [hi, rest, arith.MinSIOp(rest.result, step)]


def needs_valid_clamp(box: int, valid: int, lane_stride: int | None) -> bool:
    """Whether the lane valid extent differs from the plain half box (partial valid, odd box or a stride)."""
    if lane_stride is not None:
        return True
    if box == DYNAMIC:
        return valid != box
    return valid != box or box % 2 == 1


def localized_valid(box: int, valid: int, lane_stride: int | None) -> int:
    """The per-lane valid extent as a *type* entry: static when both lanes agree, else `DYNAMIC`."""
    half = ceil_half(box)
    if not needs_valid_clamp(box, valid, lane_stride):
        return half
    if valid == DYNAMIC or half == DYNAMIC:
        return DYNAMIC
    a, b = lane_extents(valid, lane_step(box, lane_stride))
    return a if a == b else DYNAMIC


def resolve_lane_stride(box: int, valid: int) -> int | None:
    """The balanced lane stride of a ragged C->V boundary `(box, valid)`, or None for the box partition.

    `S = ceil(V / 2)`; no stride when `S <= 0`, when the boundary is fully valid (`V >= box`), or when `S` equals
    the half box anyway."""
    if box == DYNAMIC or valid == DYNAMIC:
        return None
    s = ceil_half(valid) if valid >= 0 else 0
    if s <= 0 or valid >= box or s == ceil_half(box):
        return None
    return s


__all__ = [
    "DATA_PARALLEL_MODES",
    "SPLIT_CODE_NAMES",
    "SPLIT_LEFT_RIGHT",
    "SPLIT_LEFT_RIGHT_ODD",
    "SPLIT_NONE",
    "SPLIT_UP_DOWN",
    "SPLIT_UP_DOWN_ODD",
    "ceil_half",
    "code_for_lane_extents",
    "double",
    "lane_extent",
    "lane_extent_ops",
    "lane_extents",
    "lane_step",
    "localized_valid",
    "mode_of_dim",
    "needs_valid_clamp",
    "resolve_lane_stride",
    "split_code_of_dim",
    "split_dim_of",
    "split_dim_of_code",
    "window_valid",
]
