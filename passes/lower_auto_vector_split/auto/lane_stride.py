"""Ragged-boundary balancing (reference §2.4 `ResolveLaneStride`): can the AUTO path give the two lanes a
balanced `lane_stride` instead of the plain box partition?

A C->V boundary `(box, valid V)` with a partial valid extent normally gives lane 0 `min(V, ceil(box/2))` rows
and lane 1 the rest.  When every split-axis tile of the function derives from that one boundary, the lanes can
instead be balanced: lane 1 starts at `S = ceil(V/2)`.  The scan keeps the box partition (returns None) on:

* any V->C boundary (the cube gathers box halves positionally);
* a C->V boundary whose box or valid is not static, or two C->V boundaries with different `(box, valid)`;
* a non-CUBE, split-axis (non-singleton) tile-producing op with a non-singleton tile operand that does not derive
  from a C->V boundary, or with no derived operand at all — except a *root*: a rank >= 2 vec `pto.load`, `pto.full`
  or `pto.create` with no split-axis tile operand.  A root does not block when the balanced lanes' windows cover it
  (its valid extent is static and at most 2S, each lane's part fits its lane box); its result then counts as
  derived (it is partitioned with the same stride, so it may meet the boundary's data).  This goes beyond the
  reference, which blocks on every load and generator.

Scalars, stores and cube ops are ignored.
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue

from pypto_mlir.dialects.pto_ops import (
    AicGatherOp,
    AivShardOp,
    GetSubblockIdxOp,
    LoadOp,
    StoreOp,
    TPopFromAicOp,
    TPopFromAivOp,
    TPushToAicOp,
)
from pypto_mlir.dialects.pto_traits import PipeDirection, TileGenerator
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType
from pypto_mlir.passes.analysis.affinity import Affinity, intrinsic_affinity, move_direction
from pypto_mlir.dialects.pto_lanes import ceil_half, lane_extents, resolve_lane_stride


def _non_singleton(t: object, dim: int) -> bool:
    return isinstance(t, TileType) and t.rank > dim and t.get_shape()[dim] != 1


def scan_lane_stride(f: FuncOp, dim: int, full_width: set[SSAValue] | frozenset[SSAValue] = frozenset()) -> int | None:
    """The balanced lane stride of `f` on split dim `dim`, or None (box partition).  Ops of the full-width V->C
    chains (`full_width.py`: values both lanes compute whole, crossing with split code 0) are not partitioned
    and do not take part."""
    derived: set[SSAValue] = set()
    roots: list[TileType] = []
    boundary: tuple[int, int] | None = None
    for op in f.body.walk():
        if full_width and (
            any(r in full_width for r in op.results) or (move_direction(op) is PipeDirection.V2C and op.operands[0] in full_width)
        ):
            continue
        if isinstance(op, (AicGatherOp, TPushToAicOp, TPopFromAivOp)) or move_direction(op) is PipeDirection.V2C:
            return None
        if move_direction(op) is PipeDirection.C2V or isinstance(op, (AivShardOp, TPopFromAicOp)):
            src = op.operands[0].type if op.operands else op.results[0].type
            assert isinstance(src, TileType)
            if src.rank <= dim:
                return None
            bv = (src.get_shape()[dim], src.get_valid()[dim])
            if DYNAMIC in bv or (boundary is not None and boundary != bv):
                return None
            boundary = bv
            derived.add(op.results[0])
            continue
        if isinstance(op, (scf.ForOp, scf.WhileOp)):
            inits = list(op.iter_args) if isinstance(op, scf.ForOp) else list(op.arguments)
            args = list(op.body.block.args[1:]) if isinstance(op, scf.ForOp) else list(op.before_region.block.args)
            for i, v in enumerate(inits):
                if v in derived:
                    derived.add(args[i])
                    derived.add(op.results[i])
            continue
        if isinstance(op, scf.YieldOp) and isinstance(op.parent_op(), scf.IfOp):
            parent = op.parent_op()
            assert parent is not None
            for i, v in enumerate(op.operands):
                if v in derived:
                    derived.add(parent.results[i])
            continue
        if isinstance(op, scf.ConditionOp):
            parent = op.parent_op()
            assert isinstance(parent, scf.WhileOp)
            for i, v in enumerate(op.args):
                if v in derived:
                    derived.add(parent.after_region.block.args[i])
                    derived.add(parent.results[i])
            continue
        if isinstance(op, scf.IfOp):
            continue
        if isinstance(op, (StoreOp, GetSubblockIdxOp)) or not _produces_split_tile(op, dim):
            continue
        if intrinsic_affinity(op) == Affinity.CUBE:
            continue
        tiles = [v for v in op.operands if _non_singleton(v.type, dim)]
        if not tiles and _is_root(op, dim):
            roots.append(op.results[0].type)  # type: ignore[arg-type]
            derived.update(op.results)
            continue
        if not any(v in derived for v in tiles) or any(v not in derived for v in tiles):
            return None
        derived.update(op.results)
    if boundary is None:
        return None
    stride = resolve_lane_stride(*boundary)
    if stride is not None and not all(_covered(t, dim, stride) for t in roots):
        return None
    return stride


def _is_root(op: Operation, dim: int) -> bool:
    """A vector load or a position-independent generator that starts split-axis data of its own (rank >= 2)."""
    gen = op.get_trait(TileGenerator)
    if not (isinstance(op, LoadOp) or (gen is not None and not gen.position_dependent)) or len(op.results) != 1:
        return False
    t = op.results[0].type
    return isinstance(t, TileType) and t.rank >= 2 and t.space == "vec" and t.get_shape()[dim] != DYNAMIC


def _covered(t: TileType, dim: int, stride: int) -> bool:
    """Whether the two lanes' windows `[0, S)` and `[S, 2S)` (each inside a lane box of ceil(box/2)) hold every
    valid cell of a root tile: its valid extent must be static and at most 2S."""
    box, valid = t.get_shape()[dim], t.get_valid()[dim]
    if valid == DYNAMIC:
        return False
    e0, e1 = lane_extents(valid, stride)
    half = ceil_half(box)
    return e0 + e1 == valid and e0 <= half and e1 <= half


def _produces_split_tile(op: Operation, dim: int) -> bool:
    return any(_non_singleton(r.type, dim) for r in op.results)
