"""LocalizeExplicitBoundaryValid: the valid-extent repair of explicit-boundary regions (reference §5).

An explicit-boundary body is spliced unchanged, but when a `pto.aiv_shard` cuts an axis whose valid extent is
partial (13 of 16 rows) or odd (15 rows), the two lanes do not hold the same number of valid cells: with the
lane step S (the shard's `lane_stride`, else the box half ceil(B/2)), lane L holds `min(max(V, L*S) - L*S, S)`
valid cells (8 and 5 for 13 of 16; 7 and 6 with lane_stride = 7).  The reference repairs without the stride;
using it keeps the types equal to what the stride-aware transport delivers.  This
repair makes the per-lane types say so and keeps an empty lane from writing:

- the shard result's valid extent on the split axis becomes the lane extent (`?` when the lanes differ,
  computed at run time from the lane id with `arith` ops named `%<shard>_lane_valid`);
- a consumer whose result keeps the split axis (same extent and same valid as the tracked input had) is
  retyped the same way and stays tracked; a result that is fully valid drops out; any other result would
  reshape the logical valid region: E-VALID-RESHAPE;
- a binary op whose other operand is an untracked tile of the original type gets that operand restricted to
  the lane extent with `pto.set_validshape` (the types of a binary op must agree);
- `pto.aic_gather` of a tracked value re-joins the lanes: its valid extent becomes V again (a gather of an
  untracked tile whose constant valid extent covers only part of its half is rejected: E-GATHER-PARTIAL);
- a `pto.store` of a tracked value is wrapped in `scf.if (lane extent > 0)` unless both lanes provably hold a
  cell (a store whose result feeds another store cannot be guarded: E-CHAIN-STORE);
- a tracked value carried around a loop is rejected (E-CARRY), and so is one leaving the region through
  `pto.yield` or an `scf.if` result.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import (
    BINARY_OPS,
    MATMUL_OPS,
    AicGatherOp,
    AivShardOp,
    LoadOp,
    MoveOp,
    SetValidShapeOp,
    SliceOp,
    SplitAivScopeOp,
    StoreOp,
    TFREE_OPS,
    TPUSH_OPS,
    YieldOp,
)
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType, format_dim

from pypto_mlir.dialects.pto_lanes import lane_extent_ops, lane_extents, lane_step, split_dim_of_code
from ...common import with_loc
from .rules import body_ops, value_name

PREFIX = "LowerAutoVectorSplit: pto.split_aiv_scope"  # the dialect's name of the region, not the frontend's (pl.split_aiv)


@dataclass
class Track:
    """A per-lane value whose split-axis valid extent was localized."""

    dim: int
    ext: int | SSAValue  # the lane's valid extent (an int when both lanes agree)
    lanes: tuple[int, int] | None  # static extents of lane 0 and lane 1 (None when V is dynamic)
    joined: int  # V, the valid extent of the full tile (DYNAMIC when it is a runtime value)
    before: TileType  # the type the value had before the repair


def _runtime_valid(v: SSAValue, dim: int) -> SSAValue | None:
    """The SSA value giving a tile's dynamic valid extent on `dim`, when it can be traced to its producer."""
    seen = 0
    while seen < 64:
        seen += 1
        owner = v.owner
        if isinstance(owner, (LoadOp, SliceOp)):
            valid = owner.get_mixed_valid()
            if valid is not None and isinstance(valid[dim], SSAValue):
                return valid[dim]
            return None
        if isinstance(owner, SetValidShapeOp):
            entry = owner.get_mixed_valid()[dim]
            return entry if isinstance(entry, SSAValue) else None
        if isinstance(owner, MoveOp):
            v = owner.src
            continue
        if isinstance(owner, MATMUL_OPS):
            # rows come from the lhs, columns from the rhs (batch matmuls keep a leading dim)
            rank = len(owner.results[0].type.get_shape())  # type: ignore[union-attr]
            v = owner.lhs if dim == rank - 2 else owner.rhs  # type: ignore[attr-defined]
            continue
        return None
    return None


class _Localizer:
    def __init__(self, scope: SplitAivScopeOp):
        self.scope = scope
        self.lane = scope.aiv_id
        self.tracked: dict[SSAValue, Track] = {}

    # -- helpers ---------------------------------------------------------------------------------------------
    def _const(self, value: int, before: Operation, anchor: Operation) -> SSAValue:
        c = with_loc(arith.ConstantOp(IntegerAttr(value, IndexType())), anchor)
        Rewriter.insert_op(c, InsertPoint.before(before))
        c.result.name_hint = f"c{value}"
        return c.result

    def _insert(self, op: Operation, before: Operation, anchor: Operation, name: str | None = None) -> SSAValue:
        with_loc(op, anchor)
        Rewriter.insert_op(op, InsertPoint.before(before))
        if name:
            op.results[0].name_hint = name
        return op.results[0]

    def _retype(self, v: SSAValue, t: TileType) -> SSAValue:
        return Rewriter.replace_value_with_new_type(v, t)

    @staticmethod
    def _with_dim_valid(t: TileType, dim: int, extent: int) -> TileType:
        valid = list(t.get_valid())
        valid[dim] = extent
        return t.with_(valid=valid)

    def _valid_list(self, t: TileType, tr: Track) -> list[int | SSAValue]:
        out: list[int | SSAValue] = list(t.get_valid())
        out[tr.dim] = tr.ext
        return out

    # -- the walk --------------------------------------------------------------------------------------------
    def run(self) -> None:
        self._walk(self.scope.body.block)

    def _walk(self, block: Block) -> None:
        for op in list(block.ops):
            if isinstance(op, AivShardOp):
                self._shard(op)
            elif isinstance(op, AicGatherOp):
                self._gather(op)
            elif isinstance(op, StoreOp):
                self._store(op)
            elif isinstance(op, (scf.ForOp, scf.WhileOp)):
                self._loop(op)
            elif isinstance(op, (scf.YieldOp, scf.ConditionOp, YieldOp)):
                self._leaving(op)
            elif op.regions:
                for region in op.regions:
                    for b in region.blocks:
                        self._walk(b)
            elif isinstance(op, (*TPUSH_OPS, *TFREE_OPS)):
                continue  # transfers of a per-lane value are never guarded
            else:
                self._consumer(op)

    def _shard(self, op: AivShardOp) -> None:
        split = op.split_code
        if split == 0:
            return
        dim = split_dim_of_code(split)
        src = op.src.type
        res = op.result.type
        assert isinstance(src, TileType) and isinstance(res, TileType)
        box, v = src.get_shape()[dim], src.get_valid()[dim]
        if box == DYNAMIC:
            return  # parity unknown: treated as even and fully valid (as the reference does)
        if v == box and box % 2 == 0:
            return
        step = lane_step(box, op.stride)  # where lane 1's cells start (as in the transport)
        after = op.next_op
        assert after is not None  # the region ends with pto.yield
        name = f"{op.result.name_hint or 'shard'}_lane_valid"
        lanes: tuple[int, int] | None
        if v != DYNAMIC:
            lanes = lane_extents(v, step)
            if lanes[0] == lanes[1]:
                ext: int | SSAValue = lanes[0]
                self.tracked[self._retype(op.result, self._with_dim_valid(res, dim, lanes[0]))] = Track(
                    dim, ext, lanes, v, res
                )
                return
            v_val = self._const(v, after, op)
        else:
            lanes = None
            traced = _runtime_valid(op.src, dim)
            if traced is None:
                raise PtoError(
                    f"{PREFIX}: the valid extent of {value_name(op.src)} on the split axis (dim {dim}) is a "
                    f"runtime value this pass cannot trace to its producer, so the lanes' extents cannot be "
                    f"repaired; give it with an explicit valid operand (pto.load ... valid [%v, ...] or "
                    f"pto.set_validshape) on the tile you shard",
                    op=op,
                )
            v_val = traced
        # lane extent at run time (lanes.lane_extent_ops), S = lane_stride or the box half
        h_val = self._const(step, after, op)
        base = op.result.name_hint or "shard"
        off = self._insert(arith.MuliOp(self.lane, h_val), after, op, f"{base}_lane_start")
        for ext_op, hint in zip(lane_extent_ops(v_val, off, h_val), (f"{base}_lane_end", f"{base}_lane_rest", name)):
            ext = self._insert(ext_op, after, op, hint)
        new = self._retype(op.result, self._with_dim_valid(res, dim, DYNAMIC))
        self.tracked[new] = Track(dim, ext, lanes, v, res)

    def _tracked_operand(self, op: Operation) -> Track | None:
        for v in op.operands:
            tr = self.tracked.get(v)
            if tr is not None:
                return tr
        return None

    def _consumer(self, op: Operation) -> None:
        tr = self._tracked_operand(op)
        if tr is None:
            return
        if isinstance(op, BINARY_OPS):
            for i, v in enumerate(op.operands):
                if v not in self.tracked and v.type == tr.before:
                    sv = SetValidShapeOp(v, self._valid_list(tr.before, tr), self._localized(tr.before, tr))
                    fixed = self._insert(sv, op, op, f"{v.name_hint}_lane" if v.name_hint else None)
                    op.operands[i] = fixed
        for r in list(op.results):
            t = r.type
            if not isinstance(t, TileType):
                continue
            b = tr.before
            if t.rank == b.rank and t.get_shape()[tr.dim] == b.get_shape()[tr.dim] and (
                t.get_valid()[tr.dim] == b.get_valid()[tr.dim]
            ):
                new = self._retype(r, self._localized(t, tr))
                self.tracked[new] = Track(tr.dim, tr.ext, tr.lanes, tr.joined, t)
            elif t.is_fully_valid():
                continue  # widened: no longer a partial per-lane value
            else:
                raise PtoError(
                    f"{PREFIX}: '{op.name}' reshapes the logical valid region of a per-lane cross-core value "
                    f"(split axis dim {tr.dim}), which is not supported: the lanes hold different valid extents "
                    f"on that axis. Keep the split axis (extent and valid) through the per-lane ops, or give "
                    f"the result a full valid region",
                    op=op,
                )

    def _localized(self, t: TileType, tr: Track) -> TileType:
        extent = tr.ext if isinstance(tr.ext, int) else DYNAMIC
        return self._with_dim_valid(t, tr.dim, extent)

    def _gather(self, op: AicGatherOp) -> None:
        split = op.split_code
        src = op.src.type
        res = op.result.type
        assert isinstance(src, TileType) and isinstance(res, TileType)
        tr = self.tracked.get(op.src)
        if split == 0:
            return
        dim = split_dim_of_code(split)
        if tr is None:
            half, v = src.get_shape()[dim], src.get_valid()[dim]
            if DYNAMIC not in (half, v) and v < half:
                axis = "row" if dim == 0 else "column"
                raise PtoError(
                    f"{PREFIX}: pto.aic_gather re-joins the two lanes positionally, but each lane's valid {axis} "
                    f"extent ({v} of {half}) covers only part of its half, so the joined tile would have a hole "
                    f"between the lanes' cells. Gather full halves (valid {half}) and narrow the valid region "
                    f"after the gather, or shard a tile whose valid extent is partial so the pass repairs it",
                    op=op,
                )
            return
        if res.get_valid()[dim] == tr.joined:
            return
        if any(isinstance(use.operation, YieldOp) for use in op.result.uses):
            raise PtoError(
                f"{PREFIX}: pto.aic_gather joins lanes whose valid extents add up to {format_dim(tr.joined)} on dim {dim}, "
                f"but its result type says {format_dim(res.get_valid()[dim])} and the tile leaves the region; write the joined valid "
                f"extent in the result type (valid = [...] with {format_dim(tr.joined)} on dim {dim})",
                op=op,
            )
        self._retype(op.result, self._with_dim_valid(res, dim, tr.joined))

    def _store(self, op: StoreOp) -> None:
        tr = self.tracked.get(op.tile)
        if tr is None:
            return
        if tr.lanes is not None and min(tr.lanes) > 0:
            return  # both lanes provably hold a cell: the guard would always pass
        for other in body_ops(self.scope.body.block):
            if isinstance(other, StoreOp) and other is not op and other.dest is op.result:
                raise PtoError(
                    f"{PREFIX}: a store whose result feeds another store cannot be guarded against an empty lane: "
                    f"{value_name(op.result)} is the destination of a later pto.store, and the guard around this "
                    f"store (lane extent > 0) would leave that store writing through a value only one lane "
                    f"defines. Store both tiles into the original tensor (not the first store's result)",
                    op=op,
                )
        ext = tr.ext
        if isinstance(ext, int):
            ext = self._const(ext, op, op)
        zero = self._const(0, op, op)
        cond = self._insert(arith.CmpiOp(ext, zero, "sgt"), op, op, "lane_nonempty")
        dest = op.dest
        guard = with_loc(
            scf.IfOp(cond, [op.result.type], Region(Block()), Region(Block())), op
        )
        Rewriter.insert_op(guard, InsertPoint.before(op))
        name = op.result.name_hint
        op.result.replace_all_uses_with(guard.output[0])
        op.detach()
        then_block = guard.true_region.block
        then_block.add_op(op)
        then_block.add_op(with_loc(scf.YieldOp(op.result), op))
        guard.false_region.block.add_op(with_loc(scf.YieldOp(dest), op))
        guard.output[0].name_hint = name

    def _loop(self, op: Operation) -> None:
        inits = op.iter_args if isinstance(op, scf.ForOp) else op.arguments  # type: ignore[attr-defined]
        for v in inits:
            if v in self.tracked:
                self._carry_error(op, v)
        for region in op.regions:
            for b in region.blocks:
                self._walk(b)

    def _carry_error(self, op: Operation, v: SSAValue) -> None:
        kind = "scf.for" if isinstance(op, scf.ForOp) else "scf.while"
        raise PtoError(
            f"{PREFIX}: carrying a per-lane cross-core value across a {kind} boundary is not supported: "
            f"{value_name(v)} holds a lane-dependent valid extent (a ragged split), and the loop would "
            f"carry it with its full type. Shard inside the loop body, or use a tile whose split axis is "
            f"even and fully valid",
            op=op,
        )

    def _leaving(self, op: Operation) -> None:
        parent = op.parent_op()
        for v in op.operands:
            if v in self.tracked and isinstance(parent, (scf.ForOp, scf.WhileOp)):
                self._carry_error(parent, v)
            if v in self.tracked:
                where = "the region (pto.yield)" if isinstance(op, YieldOp) else "an scf.if"
                raise PtoError(
                    f"{PREFIX}: {value_name(v)} holds a lane-dependent valid extent (a ragged split) and cannot "
                    f"leave {where} with its full type; store it, push it or gather it inside the region instead",
                    op=op,
                )


def localize_explicit_boundary_valid(scope: SplitAivScopeOp) -> None:
    """Repair the per-lane valid extents of an explicit-boundary region in place (before it is spliced)."""
    _Localizer(scope).run()
