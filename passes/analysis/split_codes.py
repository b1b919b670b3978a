"""pto-isa split codes of the tpush/tpop pairs that carry an `aiv_shard` / `aic_gather` across the cores.

`aiv_shard` / `aic_gather` carry the author's split *mode* (0 none, 1 up_down, 2 left_right).  The transfer
pair carries a pto-isa TileSplitAxis *code* (0..4), which also tells the consumer where lane 1's data starts in a
FIFO slot (seed "split code", reference §3 "Op-driven boundaries"):

| code  | pto-isa                                 | lane 1 starts at | requires        |
|-------|-----------------------------------------|------------------|-----------------|
| 1 / 2 | TILE_UP_DOWN / TILE_LEFT_RIGHT          | e1 * pitch       | e0 == e1        |
| 3 / 4 | TILE_UP_DOWN_ODD / TILE_LEFT_RIGHT_ODD  | (e1 + 1) * pitch | e0 == e1 + 1    |

The lane extents are read off the *full-width* tile (the shard's operand, the gather's result):
`eL = clamp(V - L*S, 0, S)` with V the valid extent of the split axis and S the partition stride: the
physical half of the box, or the op's `lane_stride` when LowerAutoVectorSplit balanced a ragged boundary
(the formulas and the code numbers live in `lanes.py`).
An empty lane 1 keeps the even code.  A gather has no odd form (the vector producer offsets by lane 1's own
extent), so it only accepts equal lanes or an empty lane 1.  Anything else cannot be placed by pto-isa and is
rejected with the valid extents that would work.

A valid extent known only at run time (`?`) gets the even code only when that code places *every* extent the
box allows (a box of at most 2 cells): the code is fixed when the kernel is compiled, and, e.g., 13 valid rows
of 16 at run time leave the lanes 8 and 5, which no code places (the reference gives the even code and computes
a wrong result).  Otherwise the boundary is rejected, saying which run-time extents the even code would place.
(LowerAutoVectorSplit calls these checks on the transfers it creates, and then adds its `fallback=unsplit`
hint, or falls back.)
"""

from __future__ import annotations

from xdsl.ir import Operation

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType

from pypto_mlir.dialects.pto_lanes import (
    SPLIT_CODE_NAMES,
    SPLIT_NONE,
    code_for_lane_extents,
    lane_extents,
    lane_step,
    split_dim_of_code,
)


def _ranges(values: list[int]) -> str:
    """`[0, 1, 2, 3, 7, 8]` -> `0..3, 7 or 8`."""
    parts: list[str] = []
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        if j > i + 1:
            parts.append(f"{values[i]}..{values[j]}")
        else:
            parts.extend(str(v) for v in values[i : j + 1])
        i = j + 1
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def feasible_valid_extents(box: int, stride: int, allow_odd: bool) -> list[int]:
    """Every valid extent V in [0, box] whose lanes pto-isa can place with this stride."""
    return [v for v in range(box + 1) if code_for_lane_extents(0, *lane_extents(v, stride), allow_odd) is not None]


def _lanes(
    tile: TileType, split: int, lane_stride: int | None, boundary: str, op: Operation | None
) -> tuple[int, int, int, int, int, int] | None:
    """(dim, box, valid, stride, e0, e1) of the split axis of a full-width `tile`; None when there is nothing to
    place (split none, or a run-time extent the even code places whatever its value).  A run-time extent the
    even code cannot always place is rejected here (module docstring)."""
    if split == SPLIT_NONE:
        return None
    dim = split_dim_of_code(split)
    box, valid = tile.get_shape()[dim], tile.get_valid()[dim]
    if box != DYNAMIC and valid != DYNAMIC:
        stride = lane_step(box, lane_stride)
        return (dim, box, valid, stride, *lane_extents(valid, stride))
    if box != DYNAMIC:
        stride = lane_step(box, lane_stride)
        placed = feasible_valid_extents(box, stride, allow_odd=False)
        if len(placed) == box + 1:
            return None  # every run-time extent is placed by the even code
        what = f"{box}-wide dim {dim}, partitioned by " + (f"lane_stride {stride}" if lane_stride else f"the box half {stride}")
        bad = next(v for v in range(box + 1) if v not in placed)
        e0, e1 = lane_extents(bad, stride)
        only = f"only a run-time extent of {_ranges(placed)}"
        example = f" ({bad} valid of {box} leave {e0} and {e1})"
    else:
        what, only, example = f"dim {dim}, whose box is dynamic too", "no extent provably", ""
    raise PtoError(
        f"ExpandMixedKernel: the {boundary} boundary tile's valid split-axis extent is only known at run time "
        f"({what}), but the pto-isa split code of its transfer is fixed when the kernel is compiled: the even "
        f"code places {only}, and any other extent leaves the two AIV lanes cells no code can place{example}, "
        f"a wrong result. Give the tile a static valid extent on dim {dim}, or do not "
        f"split this kernel (pto.split = #pto.split<none>)",
        op=op,
    )


def shard_split_code(tile: TileType, split: int, lane_stride: int | None = None, op: Operation | None = None) -> int:
    """ShardSplitCode: the code of the C->V pair of an `aiv_shard` whose full-width operand has type `tile`."""
    lanes = _lanes(tile, split, lane_stride, "Cube -> Vector", op)
    if lanes is None:
        return split
    dim, box, valid, stride, e0, e1 = lanes
    code = code_for_lane_extents(dim, e0, e1, allow_odd=True)
    if code is not None:
        return code
    feasible = _ranges(feasible_valid_extents(box, stride, allow_odd=True))
    how = f"lane_stride {stride}" if lane_stride else f"the box half {stride}"
    raise PtoError(
        f"ExpandMixedKernel: the Cube -> Vector boundary tile's valid split-axis extent ({valid} of a {box}-wide "
        f"dim {dim}) leaves the two AIV lanes {e0} and {e1} cells (partitioned by {how}); pto-isa can place lane 1 "
        f"only when it holds as many cells as lane 0, one fewer, or none. Make the valid extent one of {feasible}, "
        f"or let LowerAutoVectorSplit balance the lanes with a lane_stride (keep this {SPLIT_CODE_NAMES[split]} boundary "
        f"the only producer of the split axis)",
        op=op,
    )


def widened_shard_extent(tile: TileType, split: int, lane_stride: int | None = None) -> int | None:
    """For the full-width operand `tile` of a C->V shard whose lanes no split code can place (a static valid
    extent V of the split axis): the smallest extent W, V < W <= box, whose lanes pto-isa can place with the same
    stride.  Carrying the tile with its valid region widened to W delivers each lane a superset of its cells at
    the same offset (lane L's window starts at L*S either way), which the lane narrows back to
    `clamp(V - L*S, 0, S)`.  None when V is placeable already, is known only at run time, or no W exists."""
    if split == SPLIT_NONE:
        return None
    dim = split_dim_of_code(split)
    box, valid = tile.get_shape()[dim], tile.get_valid()[dim]
    if DYNAMIC in (box, valid):
        return None
    stride = lane_step(box, lane_stride)
    placeable = set(feasible_valid_extents(box, stride, allow_odd=True))
    if valid in placeable:
        return None
    return next((w for w in range(valid + 1, box + 1) if w in placeable), None)


def gather_split_code(tile: TileType, split: int, op: Operation | None = None) -> int:
    """GatherSplitCode: the code of the V->C pair of an `aic_gather` whose full-width result has type `tile`."""
    lanes = _lanes(tile, split, None, "Vector -> Cube", op)
    if lanes is None:
        return split
    dim, box, valid, stride, e0, e1 = lanes
    if code_for_lane_extents(dim, e0, e1, allow_odd=False) is not None:
        return split
    feasible = _ranges(feasible_valid_extents(box, stride, allow_odd=False))
    raise PtoError(
        f"ExpandMixedKernel: the Vector -> Cube boundary tile's split axis (dim {dim}, {valid} valid of {box}) "
        f"leaves the two AIV lanes {e0} and {e1} cells, and the gather has no odd form (the vector producer "
        f"offsets by lane 1's own extent), so pto-isa cannot place lane 1. Make the valid extent one of "
        f"{feasible}, or gather an evenly split tile",
        op=op,
    )


__all__ = [
    "feasible_valid_extents",
    "gather_split_code",
    "shard_split_code",
    "widened_shard_extent",
]
