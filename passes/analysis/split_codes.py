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
An empty lane 1 keeps the even code; a dynamic extent is treated as even.  A gather has no odd form (the vector
producer offsets by lane 1's own extent), so it only accepts equal lanes or an empty lane 1.  Anything else
cannot be placed by pto-isa and is rejected with the valid extents that would work.
"""

from __future__ import annotations

from xdsl.ir import Operation

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType

from .lanes import (
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


def _lanes(tile: TileType, split: int, lane_stride: int | None) -> tuple[int, int, int, int, int, int] | None:
    """(dim, box, valid, stride, e0, e1) of the split axis of a full-width `tile`; None when there is nothing to
    place (split none, or a dynamic extent, which is treated as even)."""
    if split == SPLIT_NONE:
        return None
    dim = split_dim_of_code(split)
    box, valid = tile.get_shape()[dim], tile.get_valid()[dim]
    if DYNAMIC in (box, valid):
        return None
    stride = lane_step(box, lane_stride)
    return (dim, box, valid, stride, *lane_extents(valid, stride))


def shard_split_code(tile: TileType, split: int, lane_stride: int | None = None, op: Operation | None = None) -> int:
    """ShardSplitCode: the code of the C->V pair of an `aiv_shard` whose full-width operand has type `tile`."""
    lanes = _lanes(tile, split, lane_stride)
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


def gather_split_code(tile: TileType, split: int, op: Operation | None = None) -> int:
    """GatherSplitCode: the code of the V->C pair of an `aic_gather` whose full-width result has type `tile`."""
    lanes = _lanes(tile, split, None)
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
]
