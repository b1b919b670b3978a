"""The lane part of a whole tile of an odd box, through a GM workspace (issue 43).

A value both lanes compute whole (`SplitLowering.is_whole`) meets per-lane data through its lane part, normally a
`pto.slice` (`SplitLowering.lane_part`).  On an odd split extent lane 1's slice window `[step, step + ceil(B/2))`
passes the `B`-wide box, and `pto` has no padded slice, so the kernel was refused ("... its lane part cannot be
sliced out ...").  A `pto.load` has what a slice lacks: a box that may reach past the cells it reads, with a
valid operand saying how many it reads.  So each lane writes the whole tile to its own row of a lane workspace
and loads its lane window back, as an odd-extent `pto.load` from the tensor would (box `ceil(B/2)`, valid
`clamp(V - sub*step, 0, step)`)::

    %v_ws = pto.lane_workspace : !pto.tensor<2x16x31xf32>          // at the kernel entry, one per value
    ...
    %v_row = pto.store %v, %v_ws[%subblock_idx, 0, 0]              // the lane's own row: the whole tile
    %v_lane = pto.load %v_row[%subblock_idx, %sub_x8, 0] valid [%lane_rows, 31]
        : !pto.tensor<2x16x31xf32> -> !pto.tile<8x31xf32, vec, valid = [?, 31]>

The workspace's split dim is padded to `step + ceil(B/2)` so lane 1's box lies inside it (its cells past the
stored rows are never read: the valid operand stops at the tile's valid cells).

Soundness: the part holds exactly the cells a halved producer holds (the same window and valid extent as the
slice rule, `shard_by_full_transfer`'s), the unsplit program's values.  Each lane writes and reads only its own
row of the workspace, so the lanes never touch each other's cells (no barrier; `check_cross_lane_gm_races` sees
disjoint rows), and a lane's store and load are in its program order (in a loop too: the next iteration's store
follows this iteration's load on the same lane).  The cost is a store and a load of the tile per lane, so it is
used only where the kernel was refused before (`SplitLowering.lane_part(..., through_gm=True)`): an op meeting
per-lane data and a yield of a per-lane result.  (A whole store into a shared tensor needs no lane part: lane 0
alone stores it between lane barriers, `store_by_lane0_between_barriers`.)
Only the AUTO path builds it (`SplitLowering.cross_lane`: a `split_aiv_scope` region is the author's code).
"""

from __future__ import annotations

from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import VerifyException

from pypto_mlir.dialects.pto_lane_ops import LaneWorkspaceOp
from pypto_mlir.dialects.pto_lanes import ceil_half
from pypto_mlir.dialects.pto_tile_ops import LoadOp, StoreOp
from pypto_mlir.dialects.pto_types import DYNAMIC, TensorType, TileType, format_shape
from pypto_mlir.passes.analysis.split_axis import LaneArith, TileInfo, halved_tile_type

from .cross_lane import in_loop


def gm_lane_part_fits(t: TileType, dim: int, step: int) -> bool:
    """Whether the workspace route can hold the lane parts of the whole tile `t` on `dim` with lane step `step`:
    a `vec` tile of static box and valid extents whose valid cells on `dim` the two lane windows cover
    (`V <= 2*step`), with `step` at most the lane box `ceil(B/2)` (lane 0's window holds its cells)."""
    shape, valid = t.get_shape(), t.get_valid()
    if t.space != "vec" or t.rank <= dim or DYNAMIC in (*shape, *valid):
        return False
    return shape[dim] > 1 and valid[dim] <= 2 * step and step <= ceil_half(shape[dim])


def gm_lane_part(
    arith: LaneArith, lane_stride: int | None, v: SSAValue, dim: int, step: int
) -> tuple[SSAValue, TileInfo, dict] | None:
    """Emit the workspace round trip for the lane part of the whole value `v` right after its definition (lane
    arithmetic from `arith`, the lane box of `halved_tile_type` under `lane_stride`); returns the part, its
    `TileInfo` (a lane part of `v`'s type: the caller tracks it) and the split report's entry, or None when it
    cannot (`gm_lane_part_fits`, or the ops would not verify, e.g. a tile view a load cannot produce)."""
    t = v.type
    assert isinstance(t, TileType)
    if not gm_lane_part_fits(t, dim, step):
        return None
    box, full_valid = t.get_shape()[dim], t.get_valid()[dim]
    half = ceil_half(box)
    ws_shape = [2, *t.get_shape()]
    ws_shape[dim + 1] = max(box, step + half)
    ws_type = TensorType(ws_shape, t.element_type)
    at = v.op.next_op if isinstance(v, OpResult) else v.block.first_op  # type: ignore[attr-defined]
    assert at is not None
    lane_valid = arith.lane_valid(full_valid, step, at)
    lane_type = halved_tile_type(t, dim, lane_stride, valid=lane_valid if isinstance(lane_valid, int) else DYNAMIC)
    valid: list[int | SSAValue] | None = None
    if not lane_type.is_fully_valid():
        valid = list(t.get_valid())
        valid[dim] = lane_valid
    sub = arith.sub
    ws_op = LaneWorkspaceOp(ws_type)
    row: list[int | SSAValue] = [sub, *([0] * t.rank)]
    store = StoreOp(v, ws_op.result, row)
    window: list[int | SSAValue] = [sub, *([0] * t.rank)]
    window[dim + 1] = arith.offset(0, step, at)
    load = LoadOp(store.result, window, lane_type, valid=valid)
    try:
        for o in (ws_op, store, load):
            o.verify(verify_nested_ops=False)
    except VerifyException:
        return None
    ws = arith.hoist(ws_op)
    name = v.name_hint or "whole"
    ws.name_hint = f"{name}_ws"
    store.result.name_hint = f"{name}_row"
    load.result.name_hint = f"{name}_lane"
    new: list[Operation] = [store, load]
    for o in new:
        o.location = at.location
    where = InsertPoint.after(v.op) if isinstance(v, OpResult) else InsertPoint.at_start(v.block)  # type: ignore[attr-defined]
    Rewriter.insert_op(new, where)
    info = TileInfo(dim, half, box, full_valid, step, t)
    return load.result, info, {"value": f"%{name}", "split_dim": dim, "workspace": format_shape(ws_shape), "in_loop": in_loop(at)}
