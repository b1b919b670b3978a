"""The halving machinery of LowerAutoVectorSplit: rewrite a block of full-width mixed code into per-lane code.

`SplitLowering` is reusable: the AUTO path runs it over a whole function body, the explicit
`pto.split_aiv_scope` path (regions.py) runs one instance per region with region-local tracking::

    idx = inject_subblock_idx(block)                      # %subblock_idx = pto.get_subblock_idx
    lw = SplitLowering("up_down", idx.result, anchor=idx, lane_stride=None, where="'f'")
    lw.lower_block(block)                                  # boundaries, halving, scf.for/if/while
    lw.check_no_cube_tile_halved(block)                    # internal check
    lw.is_halved(value) / lw.tracked[value]                # TileInfo of every per-lane tile

What `lower_block` does, op by op in program order (reference `lower-auto-vector-split.reference.md` §2-§3):

* **Boundaries** (`C2VBoundary`, `V2CBoundary`): a cube->vec `pto.move` becomes `pto.aiv_shard {split}` (the
  per-lane half, Vec); a vec->cube `pto.move` of a per-lane tile gets a `pto.aic_gather` (`%<dest>_mat`, Mat,
  full) in front of it and keeps the placement move.
* **Affinity gate**: only ops whose intrinsic affinity is VECTOR (plus `pto.create` in `vec`) go through the
  halving patterns; cube ops, scalars and shared ops pass through at full width.
* **Halving patterns**, one per op family: `LoadHalving`, `StoreOffsets`, `SliceHalving`, `ReshapeHalving`,
  `TransposeHalving`, `SetValidShapeHalving`, `GeneratorHalving`, and `ElementwiseHalving` for every other
  vector op (elementwise, casts, reductions off the split axis, broadcasts, same-side moves).
* **Control flow**: `scf.for`/`scf.while` carried tiles seeded by a per-lane value are retyped (block
  arguments, results) and the yields checked; `scf.if` results are retyped from their yields.

* **Transfers** (`TransferRestamp`): hand-written tpush/tpop get their split codes re-stamped.

The patterns are `RewritePattern`s applied through a `PatternRewriter`, but driven by `lower_block` rather than
`PatternRewriteWalker`: halving needs a single forward pass in program order (an op's operands are lowered
before it), ops created by a rewrite must not be revisited, and scf ops need a step before their body (retype
carried block arguments) and one after (check the yields, retype scf.if results).

Tiles are tracked in `tracked: dict[SSAValue, TileInfo]`; an op whose tile operands are all untracked stays at
full width (both lanes compute the same value), except the generators and the reshape/slice/load rules that
lane-localize a full-width source.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import func, scf
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import VerifyException

from pypto_mlir.diagnostics import PtoError, location_of
from pypto_mlir.dialects.pto_ops import (
    reshape_valid_problem,
    GENERATOR_OPS,
    AicGatherOp,
    AivShardOp,
    CreateOp,
    GetSubblockIdxOp,
    LoadOp,
    MoveOp,
    ReshapeOp,
    SetValidShapeOp,
    SliceOp,
    StoreOp,
    TPopFromAicOp,
    TPopFromAivOp,
    TPushToAicOp,
    TPushToAivOp,
    TransposeOp,
    TransposeViewOp,
    i64_attr,
)
from pypto_mlir.dialects.pto_traits import GmAccess, PipeDirection, ReductionAxis, TileGenerator
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType, format_dim, format_shape
from pypto_mlir.passes.analysis.affinity import Affinity, intrinsic_affinity, is_boundary_move, move_direction
from pypto_mlir.passes.analysis.mx_scale import SCALE_SPACES, scale_kind, scale_mat_type
from pypto_mlir.passes.analysis.split_codes import gather_split_code, shard_split_code, widened_shard_extent
from pypto_mlir.passes.analysis.lanes import (
    ceil_half,
    lane_extents,
    lane_step,
    localized_valid,
    needs_valid_clamp,
    split_code_of_dim,
    split_dim_of,
    split_dim_of_code,
)
from pypto_mlir.passes.analysis.split_axis import (
    LaneArith,
    ReshapeSplitError,
    TileInfo,
    halved_tile_type,
    reshape_split_target,
)

PASS = "LowerAutoVectorSplit"


def _name(v: SSAValue) -> str:
    return v.name_hint or "<unnamed>"


def inject_subblock_idx(block: Block, loc_op: Operation | None = None) -> GetSubblockIdxOp:
    """Prepend `%subblock_idx = pto.get_subblock_idx : index` to `block` (located at `loc_op`)."""
    idx = GetSubblockIdxOp()
    idx.result.name_hint = "subblock_idx"
    if loc_op is not None:
        idx.location = loc_op.location
    Rewriter.insert_op(idx, InsertPoint.at_start(block))
    return idx


class SplitLowering:
    """Per-function (or per-region) split lowering state; see the module docstring for the API."""

    def __init__(
        self,
        mode: str,
        sub: SSAValue,
        anchor: Operation,
        lane_stride: int | None = None,
        where: str = "",
        on_region_op: Callable[[Operation], None] | None = None,
        full_width: set[SSAValue] | None = None,
    ):
        self.mode = mode
        self.full_width = full_width or set()
        self.dim = split_dim_of(mode)
        self.lane_stride = lane_stride
        self.where = where
        self.arith = LaneArith(sub, anchor)
        self.tracked: dict[SSAValue, TileInfo] = {}
        self.own_shards: set[SSAValue] = set()
        """results of the `aiv_shard`s this lowering created (from boundary moves of the input)."""
        self.whole: set[SSAValue] = set()
        """values computed from full-width-chain values at full width on both lanes (besides `full_width`): a
        reshape result with no lane window, and the vector ops on such values (`lane_part` slices them later)."""
        self._lane_parts: dict[tuple[SSAValue, int, int], SSAValue | None] = {}
        self._store_dims: dict[SSAValue, tuple[int, Operation]] = {}
        """tensor root -> the tensor dim its first per-lane store is split on, and that store."""
        self.load_windows: dict[SSAValue, LoadWindow] = {}
        """halved load result -> the full-width `pto.load` it replaced (`SliceHalving` folds a window into it)."""
        self.on_region_op = on_region_op
        from .new_ops import new_op_patterns as _new_op_patterns  # ops beyond the contract (imports this module)

        self.boundary_patterns: list[_SplitPattern] = [C2VBoundary(self), V2CBoundary(self)]
        self.transfer_pattern = TransferRestamp(self)
        self.halving_patterns: list[_SplitPattern] = [
            LoadHalving(self),
            StoreOffsets(self),
            SliceHalving(self),
            ReshapeHalving(self),
            TransposeHalving(self),
            SetValidShapeHalving(self),
            GeneratorHalving(self),
            *_new_op_patterns(self),
            ElementwiseHalving(self),
        ]

    # -- tracking --------------------------------------------------------------------------------------------
    def is_halved(self, v: SSAValue) -> bool:
        return v in self.tracked

    def info(self, v: SSAValue) -> TileInfo | None:
        return self.tracked.get(v)

    def make_info(self, full_type: TileType, dim: int) -> TileInfo:
        box = full_type.get_shape()[dim]
        half = ceil_half(box)
        return TileInfo(dim, half, box, full_type.get_valid()[dim], lane_step(box, self.lane_stride), full_type)

    def track(self, v: SSAValue, info: TileInfo) -> None:
        self.tracked[v] = info

    def retype_lane_part(self, rewriter: PatternRewriter, v: SSAValue, dim: int) -> SSAValue:
        """Give the full-width tile value `v` its lane part's type in place (halved on `dim`: `halved_tile_type`)
        and track the new value with `v`'s full type; returns the new value."""
        full = v.type
        assert isinstance(full, TileType)
        new = rewriter.replace_value_with_new_type(v, halved_tile_type(full, dim, self.lane_stride))
        self.track(new, self.make_info(full, dim))
        return new

    def step_for(self, box: int) -> int:
        return lane_step(box, self.lane_stride)

    # -- whole values and their lane parts -------------------------------------------------------------------
    def is_whole(self, v: SSAValue) -> bool:
        """Whether `v` is computed whole (full width, the unsplit program's value) on both lanes by this pass's
        choice: a full-width chain value (`full_width.py`) or a value derived from one at full width."""
        return v in self.full_width or v in self.whole

    def lane_part(self, v: SSAValue, dim: int, step: int) -> SSAValue | None:
        """The lane's part of the whole value `v` on `dim` with lane step `step`: `v` itself when the dim is a
        singleton (never halved), else a `pto.slice %v[sub*step ..] [ceil(box/2) ..] valid [clamp(V - sub*step,
        0, step) ..]` right after `v`'s definition (tracked; cached) — the cells a halved producer would hold
        (`shard_by_full_transfer`'s rule).  None when no slice can hold it (`lane_part_problem`)."""
        t = v.type
        assert isinstance(t, TileType)
        if t.rank <= dim or t.get_shape()[dim] == 1:
            return v
        return self._slice_lane_part(v, dim, step)

    def _slice_lane_part(self, v: SSAValue, dim: int, step: int) -> SSAValue | None:
        """`lane_part`'s slice, also for a singleton split axis (lane 0 holds the row, lane 1 an empty copy: the
        part a singleton shard delivers)."""
        t = v.type
        assert isinstance(t, TileType)
        key = (v, dim, step)
        if key in self._lane_parts:
            return self._lane_parts[key]
        part: SSAValue | None = None
        if lane_part_problem(t, dim, step) is None:
            window = _window_step(t, dim, step)
            assert window is not None
            where = InsertPoint.after(v.op) if isinstance(v, OpResult) else InsertPoint.at_start(v.block)  # type: ignore[attr-defined]
            at = v.op.next_op if isinstance(v, OpResult) else v.block.first_op  # type: ignore[attr-defined]
            assert at is not None
            offsets: list[int | SSAValue] = [0] * t.rank
            offsets[dim] = 0 if window == 0 else self.arith.offset(0, window, at)
            lane_valid = self.arith.lane_valid(t.get_valid()[dim], step, at)
            lane_type = halved_tile_type(t, dim, self.lane_stride, valid=lane_valid if isinstance(lane_valid, int) else DYNAMIC)
            valid: list[int | SSAValue] | None = None
            if not isinstance(lane_valid, int):
                valid = list(t.get_valid())
                valid[dim] = lane_valid
            sl = SliceOp(v, offsets, lane_type, valid=valid)
            sl.location = at.location
            Rewriter.insert_op(sl, where)
            sl.result.name_hint = v.name_hint
            self.track(sl.result, TileInfo(dim, ceil_half(t.get_shape()[dim]), t.get_shape()[dim], t.get_valid()[dim], step, t))
            part = sl.result
        self._lane_parts[key] = part
        return part

    def _take_lane_parts(self, op: Operation) -> None:
        """Give `op` (an elementwise-family vector op, a store or an `scf.yield` of an `scf.if`) the lane part of
        each whole tile operand: on the split dim and step of a per-lane operand it meets, else on the function's
        split dim.  A whole operand with no lane part is left whole: the op then stays full width when all its
        operands are whole, and is reported (`whole_operand_error`) when it meets a per-lane one."""
        tiles = [v for v in op.operands if isinstance(v.type, TileType)]
        partner = next((self.tracked[v] for v in tiles if v in self.tracked), None)
        for i, v in enumerate(list(op.operands)):
            if not isinstance(v.type, TileType) or not self.is_whole(v) or v in self.tracked:
                continue
            if partner is not None:
                if v.type.rank <= partner.dim or v.type.get_shape()[partner.dim] != partner.full:
                    continue  # a broadcast operand (or a shape verify reports)
                part = self.lane_part(v, partner.dim, partner.step)
                if part is None:
                    raise whole_operand_error(op, v, partner.dim, partner.step)
            else:
                d = self.dim
                if v.type.rank <= d or v.type.get_shape()[d] in (1, DYNAMIC):
                    continue
                part = self.lane_part(v, d, self.step_for(v.type.get_shape()[d]))
                if part is None:
                    if isinstance(op, StoreOp):
                        check_whole_store(op, v, d, self.step_for(v.type.get_shape()[d]))
                    continue
            op.operands[i] = part

    def _store_whole_once(self, op: StoreOp) -> None:
        """A store of a tile that is full width on both lanes (never halved: a singleton split axis, a rank-1
        tile; or whole with no lane part) writes the same cells from both lanes.  Alone that is harmless (the same
        values), but when the tensor is written by another store too, or by this store again in a loop, the two
        lanes' stores have no defined order (lane 1's first store may land after lane 0's second).  Then each lane
        stores its lane part: for a singleton split axis lane 0 the row and lane 1 an empty copy (the part a
        singleton shard holds), so the cells are written by one lane, in program order.  A full-width tile with no
        lane part is rejected (`check_whole_store`)."""
        v = op.tile
        t = v.type
        if not isinstance(t, TileType) or t.space != "vec" or v in self.tracked or shared_store(op) is None:
            return
        d = self.dim
        if t.rank > d and t.get_shape()[d] == 1:
            part = self._slice_lane_part(v, d, self.step_for(1))
            if part is not None:
                op.operands[0] = part
                return
        check_whole_store(op, v, d, self.step_for(t.get_shape()[d]) if t.rank > d and t.get_shape()[d] != DYNAMIC else 1)

    def _check_store_partition(self, op: StoreOp) -> None:
        """Per-lane stores of one tensor must cut it on the same tensor dim: lane l writes the cells of its part on
        that dim, so two stores split on different dims (a reshape round trip that regroups the split axis, e.g.
        LEFT_RIGHT `[8,16] -> [1,128] -> [8,16]`) make lane 1's cells of one store overlap lane 0's of the other,
        and the lanes' stores have no order.  Rejected at the second store."""
        from pypto_mlir.passes.analysis.hazards import tensor_roots

        info = self.tracked.get(op.tile)
        t = op.tile.type
        if info is None or not isinstance(t, TileType):
            return
        td = op.dest.type.rank - t.rank + info.dim  # type: ignore[union-attr]
        for root in tensor_roots(op.dest):
            first = self._store_dims.setdefault(root, (td, op))
            if first[0] != td:
                raise PtoError(
                    f"{PASS}: this pto.store writes '{_name(op.tile)}', split over the lanes on dim {td} of the tensor, "
                    f"but an earlier store of the same tensor (at {location_of(first[1])}) is split on dim {first[0]} "
                    "(a reshape regrouped the split axis); each lane's cells of one store overlap the other lane's "
                    "cells of the other, and the two lanes' stores have no defined order. Store the two values to "
                    "different tensors, or keep the reshape from moving the split axis",
                    op=op,
                )

    # -- driver ----------------------------------------------------------------------------------------------
    def lower_block(self, block: Block) -> None:
        """Lower every op of `block` (and of nested scf regions) in program order."""
        for op in list(block.ops):
            if op.parent is not block:
                continue  # replaced by an earlier rewrite
            self.lower_op(op)

    def lower_op(self, op: Operation) -> None:
        if isinstance(op, scf.ForOp):
            self._lower_for(op)
            return
        if isinstance(op, scf.IfOp):
            self._lower_if(op)
            return
        if isinstance(op, scf.WhileOp):
            self._lower_while(op)
            return
        if op.regions:
            if self.on_region_op is not None:
                self.on_region_op(op)
                return
            raise PtoError(
                f"{PASS}: '{op.name}' holds a region this pass cannot lower; the split lowering only descends "
                "into scf.for, scf.if and scf.while",
                op=op,
            )
        if isinstance(op, func.ReturnOp):
            for v in op.operands:
                if v in self.tracked:
                    raise PtoError(
                        f"{PASS}: this function returns the per-lane tile '{_name(v)}' ({v.type}), but its result "
                        "type is the full-width tile; return tensors (store the per-lane tile into an output "
                        "tensor at its lane offset) instead of tiles from a split function",
                        op=op,
                    )
            return
        if self.full_width and any(r in self.full_width for r in op.results):
            return  # part of a full-width V->C chain (full_width.py): both lanes compute the whole tile
        if (self.full_width or self.whole) and self._is_vector(op) and self._takes_lane_parts(op):
            self._take_lane_parts(op)
        if isinstance(op, StoreOp):
            self._store_whole_once(op)
            self._check_store_partition(op)
        rewriter = PatternRewriter(op)
        if self.transfer_pattern.applies(op):
            self.transfer_pattern.match_and_rewrite(op, rewriter)
            return
        if self.is_input_boundary(op):
            for p in self.boundary_patterns:
                if p.applies(op):
                    p.match_and_rewrite(op, rewriter)
                    return
            return
        if not self._is_vector(op):
            return
        for p in self.halving_patterns:
            if p.applies(op):
                p.match_and_rewrite(op, rewriter)
                break
        if (self.full_width or self.whole) and op.parent is not None:
            self._mark_whole(op)

    def _takes_lane_parts(self, op: Operation) -> bool:
        """Ops whose whole operands are replaced by their lane parts: those of `ElementwiseHalving` and stores.
        Window and view ops (slice, extract, reshape, reinterpret_view, gather_row, tile ops) keep their own
        full-width-source rule."""
        if isinstance(op, StoreOp):
            return True
        return next((p for p in self.halving_patterns if p.applies(op)), None).__class__ is ElementwiseHalving

    def _mark_whole(self, op: Operation) -> None:
        """A vector op left at full width whose tile operands are all whole computes a whole value too."""
        tiles = [v for v in op.operands if isinstance(v.type, TileType)]
        if not tiles or not all(self.is_whole(v) for v in tiles) or isinstance(op, StoreOp):
            return
        for r in op.results:
            if isinstance(r.type, TileType) and r not in self.tracked:
                self.whole.add(r)

    def is_input_boundary(self, op: Operation) -> bool:
        """A cube<->vector move that was a boundary in the input. `is_boundary_move` skips a move whose operand
        comes from a shard (a same-side placement after a transfer); a shard this lowering just made from a
        boundary move does not count: `vec -> mat` straight after a C->V boundary is a V->C boundary of its own
        (it becomes an `aic_gather` plus the placement move, as in the reference)."""
        if is_boundary_move(op):
            return True
        return move_direction(op) is PipeDirection.V2C and op.operands[0] in self.own_shards

    @staticmethod
    def _is_vector(op: Operation) -> bool:
        if isinstance(op, CreateOp):
            return op.result.type.space == "vec"  # type: ignore[union-attr]
        return intrinsic_affinity(op) == Affinity.VECTOR

    # -- control flow ----------------------------------------------------------------------------------------
    def _carry(self, inits: list[SSAValue], args: list[SSAValue], results: list[SSAValue]) -> None:
        """Retype carried block arguments and results whose initial value is a per-lane tile."""
        for i, init in enumerate(inits):
            info = self.tracked.get(init)
            if info is None or args[i].type == init.type:
                continue
            self.track(Rewriter.replace_value_with_new_type(args[i], init.type), info)
            if i < len(results):
                self.track(Rewriter.replace_value_with_new_type(results[i], init.type), info)

    def _check_carried(self, what: str, yielded: list[SSAValue], expected: list[SSAValue], at: Operation) -> None:
        for i, (y, e) in enumerate(zip(yielded, expected)):
            if y.type == e.type or not isinstance(e.type, TileType):
                continue
            entry = "a per-lane half" if e in self.tracked else "full width"
            body = "a per-lane half" if y in self.tracked else "full width"
            raise PtoError(
                f"{PASS}: the tile carried as #{i} of this {what} enters the loop at {entry} ({e.type}) but the "
                f"body yields it at {body} ({y.type}); a loop-carried tile must be halved on entry and on every "
                "iteration, or on neither — derive the initial and the yielded value from the same per-lane "
                "(or the same full-width) data",
                op=at,
            )

    def _lower_for(self, op: scf.ForOp) -> None:
        block = op.body.block
        self._carry(list(op.iter_args), list(block.args[1:]), list(op.results))
        self.lower_block(block)
        term = block.last_op
        assert term is not None
        self._check_carried("scf.for", list(term.operands), list(block.args[1:]), term)

    def _lower_while(self, op: scf.WhileOp) -> None:
        before, after = op.before_region.block, op.after_region.block
        self._carry(list(op.arguments), list(before.args), [])
        # results of a while are the condition's forwarded values; retyped below
        self.lower_block(before)
        cond = before.last_op
        assert isinstance(cond, scf.ConditionOp)
        for i, v in enumerate(cond.args):
            info = self.tracked.get(v)
            if info is not None and after.args[i].type != v.type:
                self.track(Rewriter.replace_value_with_new_type(after.args[i], v.type), info)
                self.track(Rewriter.replace_value_with_new_type(op.results[i], v.type), info)
        self.lower_block(after)
        term = after.last_op
        assert term is not None
        self._check_carried("scf.while", list(term.operands), list(before.args), term)
        for i, v in enumerate(op.arguments):
            if v.type != before.args[i].type:
                self._check_carried("scf.while", [v], [before.args[i]], op)

    def _lower_if(self, op: scf.IfOp) -> None:
        blocks = [r.block for r in op.regions if r.blocks]
        for b in blocks:
            self.lower_block(b)
        for i, res in enumerate(list(op.results)):
            vals = [b.last_op.operands[i] for b in blocks]  # type: ignore[union-attr]
            partner = next((self.tracked[v] for v in vals if v in self.tracked), None)
            if partner is not None and len(blocks) == 2:
                for b, v in zip(blocks, vals):
                    if self.is_whole(v) and isinstance(v.type, TileType) and v.type == partner.orig_type:
                        part = self.lane_part(v, partner.dim, partner.step)
                        if part is None:
                            raise whole_operand_error(b.last_op, v, partner.dim, partner.step)  # type: ignore[arg-type]
                        b.last_op.operands[i] = part  # type: ignore[union-attr]
                vals = [b.last_op.operands[i] for b in blocks]  # type: ignore[union-attr]
            types = {v.type for v in vals}
            if types == {res.type}:
                if vals and all(self.is_whole(v) for v in vals):
                    self.whole.add(res)
                continue
            infos = [self.tracked.get(v) for v in vals]
            if len(types) != 1 or any(x is None for x in infos):
                desc = " and ".join(f"{v.type} ({'per-lane half' if v in self.tracked else 'full width'})" for v in vals)
                raise PtoError(
                    f"{PASS}: the branches of this scf.if yield result #{i} as {desc}; both branches must yield "
                    "the same width — derive both values from per-lane data or both from full-width data",
                    op=op,
                )
            self.track(Rewriter.replace_value_with_new_type(res, vals[0].type), infos[0])  # type: ignore[arg-type]

    # -- checks ----------------------------------------------------------------------------------------------
    def check_no_cube_tile_halved(self, root: Operation | Block) -> None:
        """Internal check: no CUBE-affinity op consumes or produces a per-lane (halved) tile."""
        ops = root.walk()
        for op in ops:
            if intrinsic_affinity(op) != Affinity.CUBE:
                continue
            for v in (*op.operands, *op.results):
                if v in self.tracked:
                    raise PtoError(
                        f"Internal error: {PASS} halved a CUBE-affinity op in {self.where or 'this function'}: "
                        f"'{op.name}' uses the per-lane tile '{_name(v)}' ({v.type}); the affinity gate must keep "
                        "cube operands full width (please report this)",
                        op=op,
                    )

    def verify_rewritten(self, op: Operation, what: str = "") -> None:
        """After retyping `op`, make sure it still verifies; explain width mismatches as a user error."""
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as e:
            halves = [f"'{_name(v)}'" for v in op.operands if v in self.tracked]
            fulls = [f"'{_name(v)}'" for v in op.operands if isinstance(v.type, TileType) and v not in self.tracked]
            if halves and fulls:
                detail = (
                    f"its operand(s) {', '.join(halves)} are per-lane halves but {', '.join(fulls)} stay full width"
                )
            else:
                lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
                detail = " ".join(lines)[:300] if lines else type(e).__name__
            raise PtoError(
                f"{PASS}: '{op.name}' cannot be halved along the split axis{what}: {detail}. Make every tile "
                "operand of a vector op derive from the split data (a load, slice or C->V boundary inside the "
                "split function), or keep the op off the split data",
                op=op,
            ) from None


# ---------------------------------------------------------------------------------------------------------------
# Patterns
# ---------------------------------------------------------------------------------------------------------------


class _SplitPattern(RewritePattern):
    OPS: tuple[type[Operation], ...] = ()

    def __init__(self, lw: SplitLowering):
        self.lw = lw

    def applies(self, op: Operation) -> bool:
        return isinstance(op, self.OPS)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:  # pragma: no cover
        raise NotImplementedError


class _PerLanePattern(_SplitPattern):
    """A pattern that rewrites its op only when the operand named `OPERAND` is a per-lane tile (a full-width
    operand leaves the op as it is); `rewrite_per_lane` gets that operand's `TileInfo`."""

    OPERAND = "src"

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, self.OPS)
        info = self.lw.info(getattr(op, self.OPERAND))
        if info is not None:
            self.rewrite_per_lane(op, info, rewriter)

    def rewrite_per_lane(self, op: Operation, info: TileInfo, rewriter: PatternRewriter) -> None:  # pragma: no cover
        raise NotImplementedError


def lane_shifted_offsets(lw: SplitLowering, op: Operation, tile: TileType, dest_rank: int, info: TileInfo):
    """The offsets of a store-like `op` (`pto.store`, `pto.tile_put`) of the per-lane `tile` into a rank
    `dest_rank` destination: the entry of the tile's split dim moves by `subblock_idx * step`."""
    td = dest_rank - tile.rank + info.dim
    offsets: list[int | SSAValue] = op.get_mixed_offsets()  # type: ignore[attr-defined]
    offsets[td] = lw.arith.offset(offsets[td], info.step, op)
    return offsets


def window_split_dim(
    lw: SplitLowering, op: Operation, what: str, src: SSAValue, t: TileType, offsets: list, hint: str, lane_window: bool
) -> tuple[int, int]:
    """The split dim of a window op (`pto.slice`, `pto.extract`) with result type `t` over `src`, and its lane
    step.  A per-lane source must be read across its whole split
    extent with the offset kept (else a located error naming `what`, `hint` says how to fix it); a full-width
    source gets `offsets[d]` shifted by `subblock_idx * step` (with `lane_window`, lane 1's window is checked to
    fit the source first).  Returns (-1, 0) for a window that stays full width (no or a unit split dim)."""
    info = lw.info(src)
    if info is not None:
        d = info.dim
        if offsets[d] != 0 or t.get_shape()[d] != info.full:
            raise PtoError(
                f"{PASS}: this {what} takes a window of the split axis (dim {d}) of the per-lane tile "
                f"'{_name(src)}'; each lane only holds its half, so the window would select {hint}",
                op=op,
            )
        return d, info.step
    d = lw.dim
    if t.rank <= d or t.get_shape()[d] == 1:
        return -1, 0
    if t.get_shape()[d] == DYNAMIC:
        raise _dynamic_box_error(op, d)
    step = lw.step_for(t.get_shape()[d])
    if lane_window:
        src_type = src.type
        assert isinstance(src_type, TileType)
        check_lane_window(op, f"this {what}", src_type.get_shape()[d], offsets[d], ceil_half(t.get_shape()[d]), step, d)
    offsets[d] = lw.arith.offset(offsets[d], step, op)
    return d, step


def _dynamic_box_error(op: Operation, dim: int) -> PtoError:
    return PtoError(
        f"{PASS}: the split axis (dim {dim}) of '{op.name}' has a dynamic box ('?'); the pto dialect carries no SSA "
        "extent for a tile dimension, so the per-lane half and offsets cannot be computed. Give the tile a static "
        "box and express the runtime extent as a valid extent (e.g. pto.load ... valid [%v, N])",
        op=op,
    )


def check_shard_valid(op: Operation, src: TileType, dim: int, lane_stride: int | None) -> None:
    """The valid-extent rules of a C->V shard (reference `CheckSplitBoundaryCarriesValid`)."""
    shape, valid = src.get_shape(), src.get_valid()
    if valid[1] == shape[1]:
        return
    if dim == 1:
        raise PtoError(
            f"{PASS}: LEFT_RIGHT splits the column axis, but this tile's valid column extent ({format_dim(valid[1])}) "
            f"does not cover the full box ({format_dim(shape[1])}); the lanes' column windows cannot be localized. "
            "Make the columns fully valid before the boundary, or use an UP_DOWN split",
            op=op,
        )
    if valid[1] == DYNAMIC:
        raise PtoError(
            f"{PASS}: the C->V boundary tile's valid column extent is a runtime value narrower than the physical "
            f"box ({format_dim(shape[1])}); an UP_DOWN shard can only carry a narrowed column extent that is static. "
            "Make the column extent static (or full) before the boundary",
            op=op,
        )
    if needs_valid_clamp(shape[0], valid[0], lane_stride):
        raise PtoError(
            f"{PASS}: UP_DOWN split with BOTH a per-lane row extent (valid {format_dim(valid[0])} of {format_dim(shape[0])} rows) "
            f"and a narrowed column extent (valid {format_dim(valid[1])} of {format_dim(shape[1])}) cannot be carried by one "
            "shard. Make the rows fully valid and even, or the columns fully valid, before the boundary",
            op=op,
        )


def _shard_problem(src: TileType, d: int, lane_stride: int | None, op: Operation) -> tuple[PtoError | None, bool]:
    """Why pto-isa cannot carry this C->V boundary as a split transfer (the shard's valid-extent rules, or a split
    code that cannot place the lanes), or None when it can; and whether the valid-extent rules hold (so that only
    the split code, if anything, is amiss)."""
    try:
        check_shard_valid(op, src, d, lane_stride)
    except PtoError as e:
        return e, False
    try:
        shard_split_code(src, split_code_of_dim(d), lane_stride, op)
    except PtoError as e:
        return e, True
    return None, True


def _ours(message: str) -> str:
    prefix = "ExpandMixedKernel: "
    if message.startswith(prefix):
        return f"{PASS}: " + message[len(prefix) :]
    return message


def _window_step(src: TileType, d: int, step: int) -> int | None:
    """Where lane 1's slice window starts in a whole-carried boundary tile: at `step`, when the window
    `[step, step + ceil(box/2))` lies inside the box; when it would not (an odd box) but lane 1 holds nothing
    (valid <= step), at `box - ceil(box/2)` (any in-box window does: it is read as empty); else None."""
    box, valid = src.get_shape()[d], src.get_valid()[d]
    if box == DYNAMIC:
        return None
    if step + ceil_half(box) <= box:
        return step
    if valid != DYNAMIC and valid <= step:
        return box - ceil_half(box)
    return None


def lane_part_problem(t: TileType, d: int, step: int) -> str | None:
    """Why the lane parts of a whole tile `t` (box B, valid V on `d`, lane step S) cannot be `pto.slice`d out of
    it, or None.  Lane l's part is the box `[l*S, l*S + ceil(B/2))` with valid `clamp(V - l*S, 0, S)`: it needs
    lane 1's window inside the box or lane 1 empty (`_window_step`), both lanes together holding every valid cell
    (`V <= 2S`: true without a stride), and static extents for the slice's valid operand."""
    box, valid = t.get_shape()[d], t.get_valid()[d]
    if box == DYNAMIC or valid == DYNAMIC:
        return f"its split extent on dim {d} is a runtime value (box {format_dim(box)}, valid {format_dim(valid)})"
    if valid > 2 * step:
        return f"the lane windows of {step} hold {2 * step} of its {valid} valid cells on dim {d}"
    if _window_step(t, d, step) is None:
        half = ceil_half(box)
        return (
            f"its split extent on dim {d} is odd ({box}, {valid} valid): lane 1's window [{step}, {step + half}) "
            f"passes the {box}-wide box and lane 1 is not empty"
        )
    lanes = set(lane_extents(valid, step))
    if len(lanes) > 1 and any(v == DYNAMIC for i, v in enumerate(t.get_valid()) if i != d):
        return "the lanes' valid extents differ and another dim has a runtime valid extent"
    return None


def whole_operand_error(op: Operation, v: SSAValue, d: int, step: int) -> PtoError:
    """`op` meets per-lane halves and the whole value `v`, whose lane part cannot be sliced."""
    t = v.type
    assert isinstance(t, TileType)
    why = lane_part_problem(t, d, step)
    return PtoError(
        f"{PASS}: '{op.name}' reads '{_name(v)}' ({t}), which this pass computes whole on both lanes (its producers "
        "feed a reshape or a V->C boundary that has no per-lane form), together with per-lane halves; its lane part "
        f"cannot be sliced out: {why}. Make the split extent even (pad the tile), or keep this value off the "
        "per-lane data",
        op=op,
    )


def shared_store(op: StoreOp) -> Operation | None:
    """Why a store of the same cells from both lanes would race: another op of the function that may write the
    same tensor (a `pto.store`, or a put/get as its `GmAccess` trait states; tensors matched by `tensor_roots`), or the enclosing loop when `op` runs more than once; None when neither."""
    from pypto_mlir.passes.analysis.hazards import tensor_roots

    func_op = op.parent_op()
    while func_op is not None and not isinstance(func_op, func.FuncOp):
        if isinstance(func_op, (scf.ForOp, scf.WhileOp)):
            return func_op
        func_op = func_op.parent_op()
    if func_op is None:
        return None
    memo: dict = {}
    roots = tensor_roots(op.dest, memo)
    for other in func_op.walk():
        if other is op or (trait := other.get_trait(GmAccess)) is None:
            continue
        if any(roots & tensor_roots(t, memo) for t in trait.written_tensors(other)):
            return other
    return None


def check_whole_store(op: StoreOp, v: SSAValue, d: int, step: int) -> None:
    """A tile full width on both lanes with no lane part is stored by both lanes (the same cells, the same values).
    That is only safe when no other store writes the same tensor and the store runs once (`shared_store`): the two
    lanes' stores have no defined order."""
    other = shared_store(op)
    if other is None:
        return
    t = v.type
    assert isinstance(t, TileType)
    if t.rank >= 2 and t.rank > d and t.get_shape()[d] not in (1, DYNAMIC):
        why = f"which this pass computes whole on both lanes and cannot slice into lane parts ({lane_part_problem(t, d, step)})"
    else:
        why = f"which is never halved (a rank-{t.rank} tile: both lanes hold it whole) and has no lane part on dim {d}"
    again = (
        f"this store runs again in the enclosing '{other.name}'"
        if isinstance(other, (scf.ForOp, scf.WhileOp))
        else "another store writes the same tensor"
        if isinstance(other, StoreOp)
        else f"a '{other.name}' writes the same tensor too"
    )
    raise PtoError(
        f"{PASS}: this pto.store writes '{_name(v)}' ({t}), {why}, so both lanes would store the whole tile; "
        f"{again}, and the two lanes' stores have no defined order. Make the split extent even (pad the tile), or "
        "store this value to a tensor of its own, written once",
        op=op,
    )


def full_transfer_fits(src: TileType, d: int, step: int) -> bool:
    """Whether a boundary tile can be carried whole and lane-sliced (`_window_step`)."""
    return _window_step(src, d, step) is not None


def shard_by_full_transfer(
    src: SSAValue, vec_type: TileType, lane_type: TileType, d: int, step: int, arith: LaneArith, at: Operation
) -> tuple[MoveOp, SliceOp]:
    """A C->V boundary whose lanes no split code can place, carried whole: a plain `pto.move` of the full tile
    (ExpandMixedKernel gives it split code 0, so each lane receives the whole tile), then a lane-local
    `pto.slice` of the lane's part — box rows `[l*step, l*step + ceil(box/2))`, valid `clamp(V - l*step, 0,
    step)`: exactly the part `aiv_shard` would have delivered (`lane_type`).  Inserted before `at`."""
    move = MoveOp(src, vec_type)
    move.location = at.location
    Rewriter.insert_op(move, InsertPoint.before(at))
    window = _window_step(vec_type, d, step)
    assert window is not None
    offsets: list[int | SSAValue] = [0] * vec_type.rank
    offsets[d] = 0 if window == 0 else arith.offset(0, window, at)
    valid: list[int | SSAValue] | None = None
    if lane_type.get_valid()[d] == DYNAMIC:
        valid = list(vec_type.get_valid())
        valid[d] = arith.lane_valid(vec_type.get_valid()[d], step, at)
    sl = SliceOp(move.result, offsets, lane_type, valid=valid)
    sl.location = at.location
    Rewriter.insert_op(sl, InsertPoint.before(at))
    return move, sl


def widening_of(src: TileType, split: int, lane_type: TileType, lane_stride: int | None) -> int | None:
    """The valid split-axis extent `shard_widened` carries this shard with (`widened_shard_extent`), or None when
    no widening places the lanes or a valid extent off the split axis is a run-time value (the narrowing would
    need it as an SSA value)."""
    d = split_dim_of_code(split)
    if any(v == DYNAMIC for t in (src, lane_type) for i, v in enumerate(t.get_valid()) if i != d):
        return None
    return widened_shard_extent(src, split, lane_stride)


def shard_widened(
    src: SSAValue, split: int, wide: int, lane_type: TileType, lane_stride: int | None, arith: LaneArith, at: Operation
) -> SetValidShapeOp:
    """A C->V boundary whose lanes no split code can place, and that cannot be carried whole either (lane 1's
    window would pass an odd box), carried with its valid split-axis extent widened (`widened_shard_extent`): a
    `pto.set_validshape` on the cube side widens V to the smallest placeable W, `pto.aiv_shard` carries the lanes'
    parts with the code W places (odd or even), and a `pto.set_validshape` on each lane narrows its part back to
    `clamp(V - l*step, 0, step)`.  Each lane's window starts where it did (at `l*step`), so the narrowed part holds
    exactly the cells `aiv_shard` would have delivered; the extra cells carried are the source's cells outside its
    valid region, which nothing reads.  `wide` is `widening_of`'s extent.  Inserted before `at`; returns the
    narrowing op (of type `lane_type`)."""
    src_type = src.type
    assert isinstance(src_type, TileType)
    d = split_dim_of_code(split)
    valid = list(src_type.get_valid())
    valid[d] = wide
    widen = SetValidShapeOp(src, valid, src_type.with_(valid=valid))
    shard = AivShardOp(widen.result, split, lane_type, lane_stride=lane_stride)
    for new in (widen, shard):
        new.location = at.location
        Rewriter.insert_op(new, InsertPoint.before(at))
    step = lane_step(src_type.get_shape()[d], lane_stride)
    lane_valid: list[int | SSAValue] = list(lane_type.get_valid())
    lane_valid[d] = arith.lane_valid(src_type.get_valid()[d], step, at)
    narrow = SetValidShapeOp(shard.result, lane_valid, lane_type)
    narrow.location = at.location
    Rewriter.insert_op(narrow, InsertPoint.before(at))
    if src.name_hint:
        widen.result.name_hint = f"{src.name_hint}_wide"
    return narrow


def carry_unplaceable_shards_whole(root: Operation) -> None:
    """Every `pto.aiv_shard` under `root` (an explicit-boundary region's, after splicing) whose split code pto-isa
    cannot place is carried whole instead (`shard_by_full_transfer`, with a `pto.get_subblock_idx` of its own),
    when lane 1's window fits the box, and else with its valid extent widened to one a code places
    (`shard_widened`); the lane type, and so every user, is unchanged."""
    for op in list(root.walk()):
        if not isinstance(op, AivShardOp) or op.split.value.data == 0:
            continue
        src, res = op.src.type, op.result.type
        assert isinstance(src, TileType) and isinstance(res, TileType)
        d = op.split.value.data - 1
        stride = op.lane_stride.value.data if op.lane_stride is not None else None
        if src.rank != 2 or DYNAMIC in (src.get_shape()[d], src.get_valid()[d]):
            continue  # a run-time extent cannot be lane-sliced here: left to ExpandMixedKernel's split-code error
        try:
            shard_split_code(src, op.split.value.data, stride, op)
            continue
        except PtoError:
            pass
        step = lane_step(src.get_shape()[d], stride)
        fits = full_transfer_fits(src, d, step)
        wide = None if fits else widening_of(src, op.split.value.data, res, stride)
        if not fits and wide is None:
            continue  # left to ExpandMixedKernel's split-code error
        idx = GetSubblockIdxOp()
        idx.location = op.location
        idx.result.name_hint = "lane"
        Rewriter.insert_op(idx, InsertPoint.before(op))
        name = op.result.name_hint
        if fits:
            vec = TileType.get(list(src.get_shape()), src.element_type, "vec", valid=list(src.get_valid()))
            move, last = shard_by_full_transfer(op.src, vec, res, d, step, LaneArith(idx.result, idx), op)
            if name:
                move.result.name_hint = f"{name}_whole"
        else:
            assert wide is not None
            narrow = shard_widened(op.src, op.split.value.data, wide, res, stride, LaneArith(idx.result, idx), op)
            last = narrow
            if name:
                narrow.src.name_hint = f"{name}_wide"
        op.result.replace_all_uses_with(last.result)
        op.detach()
        op.erase()
        if name:
            last.result.name_hint = name


class C2VBoundary(_SplitPattern):
    """`%v = pto.move %cube : <cube> -> vec` => `%v = pto.aiv_shard %cube {split[, lane_stride]}` (per-lane half)."""

    OPS = (MoveOp,)

    def applies(self, op: Operation) -> bool:
        return isinstance(op, MoveOp) and move_direction(op) is PipeDirection.C2V

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, MoveOp)
        lw = self.lw
        src, res = op.src.type, op.result.type
        assert isinstance(src, TileType) and isinstance(res, TileType)
        d = lw.dim
        if src.rank != 2:
            raise PtoError(
                f"{PASS}: the C->V boundary becomes pto.aiv_shard, which requires a 2D tile, but got rank "
                f"{src.rank}; reshape the cube tile to 2D before moving it to the vector side",
                op=op,
            )
        if src.get_shape()[d] == DYNAMIC:
            raise _dynamic_box_error(op, d)
        new_type = halved_tile_type(res, d, lw.lane_stride)
        problem, only_code = _shard_problem(src, d, lw.lane_stride, op)
        if problem is not None:
            step = lw.step_for(src.get_shape()[d])
            runtime_other = any(v == DYNAMIC for i, v in enumerate(res.get_valid()) if i != d)
            # A run-time valid extent on the split axis cannot be lane-sliced here (the slice would need the
            # extent as a value): reported, with the fallback hint (a split code cannot place it either).
            runtime_split = src.get_valid()[d] == DYNAMIC
            name = op.result.name_hint
            fits = full_transfer_fits(src, d, step)
            # Lane 1's window passes an odd box, but only the split code is amiss: carry a widened extent.
            wide = widening_of(src, split_code_of_dim(d), new_type, lw.lane_stride) if not fits and only_code else None
            if wide is not None:  # (a run-time split extent has none)
                narrow = shard_widened(op.src, split_code_of_dim(d), wide, new_type, lw.lane_stride, lw.arith, op)
                rewriter.replace(op, [], [narrow.result])  # the widening, the shard and the narrowing are in place
                if name:
                    narrow.src.name_hint = f"{name}_wide"
                    narrow.result.name_hint = name
                lw.track(narrow.result, lw.make_info(res, d))
                lw.own_shards.add(narrow.result)
                return
            if not fits or runtime_split or (new_type.get_valid()[d] == DYNAMIC and runtime_other):
                raise PtoError(_ours(problem.message), op=op) from None
            move, sl = shard_by_full_transfer(op.src, res, new_type, d, step, lw.arith, op)
            rewriter.replace(op, [], [sl.result])  # the move and the slice are already in place
            if name:
                move.result.name_hint = f"{name}_whole"
                sl.result.name_hint = name
            lw.track(sl.result, lw.make_info(res, d))
            return
        shard = AivShardOp(op.src, split_code_of_dim(d), new_type, lane_stride=lw.lane_stride)
        shard.location = op.location
        rewriter.replace(op, shard)
        shard.result.name_hint = op.result.name_hint
        lw.track(shard.result, lw.make_info(res, d))
        lw.own_shards.add(shard.result)


class V2CBoundary(_SplitPattern):
    """`%c = pto.move %v : vec -> <cube>` => `%c_mat = pto.aic_gather %v {split}` + `%c = pto.move %c_mat`."""

    def applies(self, op: Operation) -> bool:
        return isinstance(op, MoveOp) and move_direction(op) is PipeDirection.V2C

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, MoveOp)
        lw = self.lw
        v = op.src
        info = lw.info(v)
        if info is None and lw.is_whole(v):
            return  # a full-width chain crosses whole (split code 0: the cube takes lane 0's tile)
        if info is None:
            raise PtoError(
                f"{PASS}: the V->C boundary pto.move here carries a full-width vector operand '{_name(v)}'. "
                "pto.aic_gather reassembles the two AIV lanes' per-lane halves into the full tile the cube expects, "
                "so its operand must be a value the split halving produced (a pto.load / pto.slice / elementwise "
                "result inside the vector sub-region). An un-halved value has no half to gather — either derive the "
                "per-lane half first (load or slice the value inside the split function) and move that to the cube "
                "side, or, if the split axis is a singleton that cannot be halved, keep the value on the vector side",
                op=op,
            )
        vt, res = v.type, op.result.type
        assert isinstance(vt, TileType) and isinstance(res, TileType)
        if info.dim not in (0, 1) or vt.rank != 2:
            raise PtoError(
                f"{PASS}: the V->C boundary operand '{_name(v)}' carries its split on dim {info.dim} of a rank-"
                f"{vt.rank} tile, but pto.aic_gather reassembles a 2D tile along dim 0 or dim 1 only; reshape the "
                "value back to a 2D tile whose split axis is dim 0 or 1 before moving it to the cube",
                op=op,
            )
        gshape = list(vt.get_shape())
        gshape[info.dim] = 2 * gshape[info.dim]
        if tuple(gshape) != res.get_shape():
            raise PtoError(
                f"{PASS}: the V->C boundary operand '{_name(v)}' has an odd split extent ({info.full} on dim "
                f"{info.dim}): the two lanes' boxes of {info.half} gather to {gshape[info.dim]}, which does not fit "
                f"the {res.get_shape()[info.dim]}-wide cube tile. Make the split extent even (pad the tile) before "
                "the V->C boundary",
                op=op,
            )
        gtype = TileType.get(list(res.get_shape()), res.element_type, "mat", valid=list(res.get_valid()))
        if res.space in SCALE_SPACES and scale_kind(res) is not None:
            gtype = scale_mat_type(res)  # an MX scale keeps its row/row or col/col layout (analysis/mx_scale.py)
        gather = AicGatherOp(v, split_code_of_dim(info.dim), gtype)
        gather.location = op.location
        if op.result.name_hint:
            gather.result.name_hint = f"{op.result.name_hint}_mat"
        move = MoveOp(gather.result, res, attributes=dict(op.attributes))
        move.location = op.location
        rewriter.replace(op, [gather, move])
        move.result.name_hint = op.result.name_hint


class TransferRestamp(_SplitPattern):
    """Hand-written transfers in an AUTO body (reference §2.3, first rows): the pair's split code is re-stamped
    from the full-width tile (`ShardSplitCode` for C->V, `GatherSplitCode` for V->C); a `tpop_from_aic` result
    becomes the per-lane half and is tracked; a `tpop_from_aiv` keeps its full type."""

    OPS = (TPushToAivOp, TPopFromAicOp, TPushToAicOp, TPopFromAivOp)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        lw = self.lw
        mode = split_code_of_dim(lw.dim)
        if isinstance(op, (TPushToAivOp, TPopFromAicOp)):
            full = op.operands[0].type if isinstance(op, TPushToAivOp) else op.results[0].type
            assert isinstance(full, TileType)
            if full.rank != 2:
                raise PtoError(
                    f"{PASS}: '{op.name}' carries a rank-{full.rank} tile across a split boundary; the split "
                    "transfer needs a 2D tile. Reshape the tile to 2D before the transfer",
                    op=op,
                )
            if full.get_shape()[lw.dim] == DYNAMIC:
                raise _dynamic_box_error(op, lw.dim)
            op.attributes["split"] = i64_attr(shard_split_code(full, mode, lw.lane_stride, op))
            if lw.lane_stride is not None:
                op.attributes["lane_stride"] = i64_attr(lw.lane_stride)
            if isinstance(op, TPopFromAicOp):
                lw.retype_lane_part(rewriter, op.results[0], lw.dim)
            return
        if isinstance(op, TPushToAicOp):
            info = lw.info(op.operands[0])
            if info is None:
                raise PtoError(
                    f"{PASS}: this pto.tpush_to_aic sends a full-width vector operand '{_name(op.operands[0])}' "
                    "across the V->C boundary of a split kernel; the cube re-joins the two lanes' halves, so send "
                    "a value the split halving produced (or keep the value on the vector side)",
                    op=op,
                )
            if info.dim not in (0, 1):
                raise PtoError(
                    f"{PASS}: the V->C boundary operand '{_name(op.operands[0])}' carries its split on dim "
                    f"{info.dim}, but a split transfer re-joins a 2D tile along dim 0 or dim 1 only",
                    op=op,
                )
            op.attributes["split"] = i64_attr(gather_split_code(info.orig_type, split_code_of_dim(info.dim), op))
            return
        full = op.results[0].type
        assert isinstance(full, TileType)
        if full.rank == 2 and full.get_shape()[lw.dim] != DYNAMIC:
            op.attributes["split"] = i64_attr(gather_split_code(full, mode, op))


def _localize_valid_list(
    lw: SplitLowering, op: Operation, t: TileType, dim: int, mixed: list[int | SSAValue] | None, step: int
) -> tuple[list[int | SSAValue] | None, int]:
    """The valid operand list and the valid type entry of a halved load/slice result."""
    box, tvalid = t.get_shape()[dim], t.get_valid()[dim]
    entries = list(mixed) if mixed is not None else list(t.get_valid())
    if not needs_valid_clamp(box, tvalid, lw.lane_stride):
        entries[dim] = ceil_half(box)
        return (entries if mixed is not None else None), ceil_half(box)
    lane = lw.arith.lane_valid(entries[dim], step, op)
    entries[dim] = lane
    if isinstance(lane, int):
        # a lane extent narrower than the lane box is stated on the op too, so the op reads only that window
        return (entries if mixed is not None or lane != ceil_half(box) else None), lane
    return entries, DYNAMIC


@dataclass(frozen=True)
class LoadWindow:
    """A vec `pto.load` as written (before halving): its source, offsets, full-width type and attributes."""

    source: SSAValue
    offsets: list[int | SSAValue]
    full_type: TileType
    attributes: dict


class LoadHalving(_SplitPattern):
    """A vec `pto.load`: halve the window on the split dim, offset it by `subblock_idx * step`, clamp the valid."""

    OPS = (LoadOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, LoadOp)
        lw = self.lw
        t = op.result.type
        assert isinstance(t, TileType)
        window = lane_window_offsets(lw, op, t, op.source.type.rank)  # type: ignore[union-attr]
        if window is None:
            return  # rank-1 loads and singleton split dims stay full width (untracked)
        d, step, offsets = window
        written = LoadWindow(op.source, op.get_mixed_offsets(), t, dict(op.attributes))
        valid, vt = _localize_valid_list(lw, op, t, d, op.get_mixed_valid(), step)
        new_type = halved_tile_type(t, d, lw.lane_stride, valid=vt)
        new = LoadOp(op.source, offsets, new_type, valid=valid)
        replace_rebuilt(rewriter, op, new, ("static_offsets", "static_valid", "operandSegmentSizes"))
        lw.track(new.result, lw.make_info(t, d))
        lw.load_windows[new.result] = written


def lane_window_offsets(lw: SplitLowering, op: Operation, t: TileType, src_rank: int):
    """The lane window of a load-like `op` (`pto.load`, `pto.tile_get`) with result type `t` from a rank
    `src_rank` source: `(d, step, offsets)` with the offset on the source dim of the split dim `d` moved by
    `subblock_idx * step`, or None when the tile stays full width (rank 1, or a unit split dim)."""
    d = lw.dim
    if t.rank < 2 or t.rank <= d or t.get_shape()[d] == 1:
        return None
    box = t.get_shape()[d]
    if box == DYNAMIC:
        raise _dynamic_box_error(op, d)
    step = lw.step_for(box)
    td = src_rank - t.rank + d
    offsets = op.get_mixed_offsets()  # type: ignore[attr-defined]
    offsets[td] = lw.arith.offset(offsets[td], step, op)
    return d, step, offsets


def check_lane_window(op: Operation, what: str, src_extent: int, offset: int | SSAValue, half: int, step: int, dim: int) -> None:
    """Both lanes' slice windows `[offset + sub*step, + half)` must lie inside the source (the dialect's slice
    rule). On an odd extent the ceil-half box of the last lane overhangs the source by one: a per-lane box cannot
    be narrower on one lane only, so this is rejected rather than emitted out of bounds."""
    if not isinstance(offset, int) or src_extent == DYNAMIC:
        return  # a runtime offset: not decidable here
    last = offset + step
    if last + half <= src_extent:
        return
    raise PtoError(
        f"{PASS}: {what} is split into per-lane windows of {half} on dim {dim}, but lane 1's window "
        f"[{last}, {last + half}) lies outside the {src_extent}-wide source (an odd extent cannot be halved into two "
        f"equal boxes by a slice). Give the split dim an even extent (e.g. carry a padded tile with a smaller valid "
        "extent), or compute this value outside the split kernel",
        op=op,
    )


def replace_rebuilt(rewriter: PatternRewriter, op: Operation, new: Operation, reserved: tuple[str, ...]) -> None:
    """Replace `op` by `new`, a rebuilt copy with other offsets or types: `op`'s other attributes (all but the
    `reserved` ones `new` sets itself) and its location carry over."""
    for k, v in op.attributes.items():
        if k not in reserved:
            new.attributes[k] = v
    new.location = op.location
    rewriter.replace(op, new)


class StoreOffsets(_PerLanePattern):
    """`pto.store` of a per-lane tile: the window on the tile's split dim moves by `subblock_idx * step` (a
    full-width tile keeps its offsets)."""

    OPS = (StoreOp,)
    OPERAND = "tile"

    def rewrite_per_lane(self, op: Operation, info: TileInfo, rewriter: PatternRewriter) -> None:
        assert isinstance(op, StoreOp) and isinstance(op.tile.type, TileType)
        offsets = lane_shifted_offsets(self.lw, op, op.tile.type, op.dest.type.rank, info)  # type: ignore[union-attr]
        new = StoreOp(op.tile, op.dest, offsets)
        replace_rebuilt(rewriter, op, new, ("static_offsets", "operandSegmentSizes"))


class SliceHalving(_SplitPattern):
    """`pto.slice`: of a full-width tile, the window is halved and lane-offset; of a per-lane tile, the slice must
    keep the whole split extent (it is then halved with its offsets kept)."""

    OPS = (SliceOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, SliceOp)
        lw = self.lw
        t = op.result.type
        assert isinstance(t, TileType)
        offsets = op.get_mixed_offsets()
        hint = (
            "different rows on the two lanes. Slice the full-width value before it is split (e.g. load the window "
            "directly), or slice along the other axis"
        )
        info = lw.info(op.src)
        if info is not None and (offsets[info.dim] != 0 or t.get_shape()[info.dim] != info.full):
            loaded = lw.load_windows.get(op.src)
            if loaded is not None:
                self._fold_into_load(op, loaded, info, hint)
                return
        d, step = window_split_dim(lw, op, "pto.slice", op.src, t, offsets, hint, lane_window=True)
        if d < 0:
            return
        valid, vt = _localize_valid_list(lw, op, t, d, op.get_mixed_valid(), step)
        new_type = halved_tile_type(t, d, lw.lane_stride, valid=vt)
        new = SliceOp(op.src, offsets, new_type, valid=valid)
        replace_rebuilt(rewriter, op, new, ("static_offsets", "static_valid", "operandSegmentSizes"))
        lw.track(new.result, lw.make_info(t, d))
        lw.verify_rewritten(new)


    def _fold_into_load(self, op: SliceOp, loaded: LoadWindow, info: TileInfo, hint: str) -> None:
        """`slice(load(T, off), soff, box)` along the split axis: each lane holds only its half of the load, but
        the window's cells are the tensor's cells at `off + soff`, so each lane loads its half of the window
        directly (offsets composed, then halved by `LoadHalving`).  Sound when the window's valid cells are valid
        cells of the load (`soff + Vs <= Vl` on every dim: the slice then reads exactly what the load read), which
        needs static slice offsets and valid extents; with a lane stride the stride's windows must cover the new
        load (`lane_stride._covered`).  The original load is erased when the slice was its only user."""
        from .lane_stride import _covered

        lw = self.lw
        t, full = op.result.type, loaded.full_type
        assert isinstance(t, TileType)
        soffs = op.get_mixed_offsets()
        why = None
        if any(not isinstance(o, int) for o in soffs) or DYNAMIC in t.get_valid() or DYNAMIC in full.get_valid():
            why = "the window's offsets or valid extents are runtime values"
        elif any(o + v > lv for o, v, lv in zip(soffs, t.get_valid(), full.get_valid())):
            why = (
                f"the window's valid cells (offsets {list(soffs)}, valid {list(t.get_valid())}) pass the loaded "
                f"tile's valid extent {list(full.get_valid())}"
            )
        elif lw.lane_stride is not None and not _covered(t, info.dim, lw.lane_stride):
            why = f"the balanced lane windows (lane_stride = {lw.lane_stride}) do not cover the window"
        if why is not None:
            raise PtoError(
                f"{PASS}: this pto.slice takes a window of the split axis (dim {info.dim}) of the per-lane tile "
                f"'{_name(op.src)}'; each lane only holds its half, so the window would select {hint}. The window "
                f"of a loaded tile is loaded directly instead only when its valid cells are cells the load read; "
                f"here {why}",
                op=op,
            )
        src_rank = loaded.source.type.rank  # type: ignore[union-attr]
        lead = src_rank - t.rank
        halved_load = op.src.owner
        assert isinstance(halved_load, LoadOp)
        offsets = list(loaded.offsets)
        for i, so in enumerate(soffs):
            if so:
                offsets[lead + i] = lw.arith.add_static(offsets[lead + i], so, halved_load)
        new = LoadOp(loaded.source, offsets, t, valid=None if t.get_valid() == t.get_shape() else list(t.get_valid()))
        for k, v in loaded.attributes.items():
            if k not in ("static_offsets", "static_valid", "operandSegmentSizes"):
                new.attributes[k] = v
        new.location = op.location
        Rewriter.insert_op(new, InsertPoint.after(halved_load))
        new.result.name_hint = op.result.name_hint
        op.result.replace_all_uses_with(new.result)
        op.detach()
        op.erase()
        if not halved_load.result.uses:
            lw.tracked.pop(halved_load.result, None)
            lw.load_windows.pop(halved_load.result, None)
            halved_load.detach()
            halved_load.erase()
        lw.lower_op(new)


class ReshapeHalving(_SplitPattern):
    """`pto.reshape`: a per-lane input halves the result on the dim the split axis lands on (it may migrate,
    `[N,1] <-> [1,N]`); a full-width input is reshaped at full width and then lane-sliced."""

    OPS = (ReshapeOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, ReshapeOp)
        lw = self.lw
        out = op.result.type
        assert isinstance(out, TileType)
        info = lw.info(op.src)
        if info is None:
            self._slice_full_width(op, out)
            return
        in_full = info.orig_type.get_shape()
        try:
            d = reshape_split_target(in_full, info.dim, out.get_shape())
        except ReshapeSplitError as e:
            if e.kind == "odd":
                raise PtoError(
                    f"{PASS}: pto.reshape moves an ODD split axis (dim {info.dim}, extent {info.full}) onto a result "
                    f"whose dim {info.dim} cannot carry it ({format_shape(out.get_shape())}); the lanes' halves are not "
                    "contiguous blocks of the result. The reshape runs at full width on both lanes when its input can be "
                    "computed whole (back to the C->V boundaries and loads, through scf.for and scf.if); here it "
                    "cannot (an scf.while, a function parameter or another region op on the way). Make the split extent even, or keep the split extent on the same dim of the reshape "
                    "result",
                    op=op,
                ) from None
            raise PtoError(
                f"{PASS}: pto.reshape moves the split axis (dim {info.dim}) across a layout this pass cannot track "
                f"under split ({format_shape(in_full)} -> {format_shape(out.get_shape())}); each lane's half must be one contiguous "
                "block of a single result dim, and the dims before the split axis must keep their product (e.g. "
                "[N, 1] <-> [1, N] or [M, N] -> [M, 2, N/2]; a row-major reshape that merges them into the split "
                "axis scatters each lane's half over the result). The reshape runs at full width on both lanes when its "
                "input can be computed whole (back to the C->V boundaries and loads, through scf.for and scf.if); "
                "here it cannot (an scf.while, a function parameter or another region op on the way). Reshape before the split data is produced, or choose a result shape that "
                "keeps the split axis outermost",
                op=op,
            ) from None
        if lw.lane_stride is not None and (d != info.dim or out.get_shape()[d] != info.full):
            raise PtoError(
                f"{PASS}: pto.reshape moves the split axis from dim {info.dim} to dim {d}"
                + ("" if out.get_shape()[d] == info.full else f" (extent {format_dim(info.full)} -> {format_dim(out.get_shape()[d])})")
                + " inside a split region "
                f"whose ragged boundary was balanced with lane_stride = {lw.lane_stride}; the balanced lane windows "
                "do not map onto the moved axis. Make the boundary's valid extent full (or its ceil half equal to "
                "the box half) so no lane_stride is needed, or avoid the axis-moving reshape",
                op=op,
            )
        if d >= out.rank or out.get_shape()[d] == 1:
            raise PtoError(
                f"{PASS}: pto.reshape moves the split axis (dim {info.dim}) across a layout this pass cannot track "
                f"under split ({format_shape(in_full)} -> {format_shape(out.get_shape())}); the result has no dim to carry it",
                op=op,
            )
        new_type = halved_tile_type(out, d, lw.lane_stride)
        src_type = op.src.type
        assert isinstance(src_type, TileType)
        if reshape_valid_problem(src_type, new_type) is not None:
            self._reshape_box(op, out, d, new_type)
            return
        lw.retype_lane_part(rewriter, op.result, d)  # to new_type
        lw.verify_rewritten(op)

    def _reshape_box(self, op: ReshapeOp, out: TileType, d: int, lane_type: TileType) -> None:
        """The lanes' valid extents differ (a ragged or odd split axis: `valid = [?, ..]`), which a reshape's result
        type cannot state (it has no valid operand; `reshape_valid_problem`).  Each lane reshapes its whole box
        instead — `pto.set_validshape` to the box, the reshape of the fully valid box, and `pto.set_validshape` to
        the lane's part of the result's valid region (`clamp(V - sub*step, 0, step)` on `d`, the other extents the
        result's) — the same cells as the reshape with that valid region."""
        lw = self.lw
        src = op.src
        src_type = src.type
        assert isinstance(src_type, TileType)
        box_src = src_type.with_(valid=src_type.get_shape())
        widen = SetValidShapeOp(src, list(src_type.get_shape()), box_src)
        widen.location = op.location
        widen.result.name_hint = f"{_name(src)}_box"
        Rewriter.insert_op(widen, InsertPoint.before(op))
        box_out = lane_type.with_(valid=lane_type.get_shape())
        reshape = ReshapeOp(widen.result, box_out)
        reshape.location = op.location
        Rewriter.insert_op(reshape, InsertPoint.before(op))
        reshape.result.name_hint = f"{op.result.name_hint or 'reshaped'}_box"
        valid: list[int | SSAValue] = list(out.get_valid())
        valid[d] = lw.arith.lane_valid(out.get_valid()[d], lw.step_for(out.get_shape()[d]), op)
        narrow = SetValidShapeOp(reshape.result, valid, lane_type)
        narrow.location = op.location
        Rewriter.insert_op(narrow, InsertPoint.before(op))
        hint = op.result.name_hint
        op.result.replace_all_uses_with(narrow.result)
        Rewriter.erase_op(op)
        narrow.result.name_hint = hint
        lw.track(narrow.result, lw.make_info(out, d))
        lw.verify_rewritten(narrow)

    def _slice_full_width(self, op: ReshapeOp, out: TileType) -> None:
        """A reshape of a full-width input runs at full width; each lane then takes its part of the result
        (`lane_part`).  With no lane part (an odd result extent whose lane 1 is not empty) a result computed from
        whole values stays whole (its users take lane parts later, or stay full width); any other is rejected."""
        lw = self.lw
        d = lw.dim
        shape = out.get_shape()
        if out.rank <= d or shape[d] == 1 or DYNAMIC in shape:
            return  # stays full width (untracked)
        step = lw.step_for(shape[d])
        part = lw.lane_part(op.result, d, step)
        if part is None:
            if lw.is_whole(op.src):
                return  # whole on both lanes (`_mark_whole`)
            check_lane_window(op, "the result of this pto.reshape", shape[d], 0, ceil_half(shape[d]), step, d)
            raise PtoError(
                f"{PASS}: the result of this {op.name} cannot be split into lane parts: "
                f"{lane_part_problem(out, d, step)}",
                op=op,
            )
        op.result.replace_uses_with_if(part, lambda use: use.operation is not part.owner)


class TransposeHalving(_PerLanePattern):
    """`pto.transpose` / `pto.transpose_view` of a per-lane tile: the split axis follows the permutation."""

    OPS = (TransposeOp, TransposeViewOp)

    def rewrite_per_lane(self, op: Operation, info: TileInfo, rewriter: PatternRewriter) -> None:
        assert isinstance(op, (TransposeOp, TransposeViewOp))
        lw = self.lw
        out = op.result.type
        assert isinstance(out, TileType)
        d = list(op.get_axes()).index(info.dim)
        lw.retype_lane_part(rewriter, op.result, d)
        lw.verify_rewritten(op)


class SetValidShapeHalving(_PerLanePattern):
    """`pto.set_validshape` of a per-lane tile: the valid size on the split dim is clamped to the lane."""

    OPS = (SetValidShapeOp,)

    def rewrite_per_lane(self, op: Operation, info: TileInfo, rewriter: PatternRewriter) -> None:
        assert isinstance(op, SetValidShapeOp)
        lw = self.lw
        out = op.result.type
        assert isinstance(out, TileType)
        d = info.dim
        entries = op.get_mixed_valid()
        full = entries[d]
        box = out.get_shape()[d]
        if isinstance(full, int) and not needs_valid_clamp(box, full, lw.lane_stride):
            lane: int | SSAValue = ceil_half(box)
        else:
            lane = lw.arith.lane_valid(full, info.step, op)
        entries[d] = lane
        new_type = halved_tile_type(out, d, lw.lane_stride, valid=lane if isinstance(lane, int) else DYNAMIC)
        new = SetValidShapeOp(op.src, entries, new_type)
        replace_rebuilt(rewriter, op, new, ("static_valid",))
        lw.track(new.result, lw.make_info(out, d))
        lw.verify_rewritten(new)


class GeneratorHalving(_SplitPattern):
    """`pto.full` / `pto.create` (vec): the result shape is halved.  `pto.ci` / `pto.random` are rejected on a
    non-singleton split dim (their values depend on the position)."""

    OPS = GENERATOR_OPS

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        lw = self.lw
        t = op.results[0].type
        assert isinstance(t, TileType)
        d = lw.dim
        if t.rank <= d or t.get_shape()[d] == 1:
            return
        trait = op.get_trait(TileGenerator)
        if trait is not None and trait.position_dependent:
            raise PtoError(
                f"{PASS}: automatic split-axis halving of '{op.name}' is not supported because its generated values "
                "depend on position; changing the result type alone would give both lanes the first half's values. "
                "Move the generator out of the split function, or generate a tile whose split dim is 1",
                op=op,
            )
        if t.get_shape()[d] == DYNAMIC:
            raise _dynamic_box_error(op, d)
        lw.retype_lane_part(rewriter, op.results[0], d)


class ElementwiseHalving(_SplitPattern):
    """Every other vector op (elementwise, cast, reductions off the split axis, broadcasts, same-side moves):
    when a tile operand is per-lane, the tile results are halved on that operand's split dim."""

    def applies(self, op: Operation) -> bool:
        return any(isinstance(r.type, TileType) for r in op.results)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        lw = self.lw
        src = next((v for v in op.operands if v in lw.tracked), None)
        if src is None:
            return  # all tile operands full width: the op stays full width
        info = lw.tracked[src]
        d = info.dim
        reduction = op.get_trait(ReductionAxis)
        if reduction is not None and reduction.axis == d:
            raise PtoError(
                f"{PASS}: reduce op '{op.name}' reduces on the split axis (dim {d}); partial reduction in a split "
                "kernel is not supported. Reduce along the other axis, split the function the other way "
                f"(pto.split = #pto.split<{'left_right' if d == 0 else 'up_down'}>), or reduce outside the split "
                "function",
                op=op,
            )
        for r in list(op.results):
            old = r.type
            if not isinstance(old, TileType) or old.rank <= d:
                continue
            if old.get_shape()[d] == 1 and info.full != 1:
                continue  # a singleton result of a wider operand (not a reduction over the split axis)
            if old.get_shape()[d] == DYNAMIC:
                raise _dynamic_box_error(op, d)
            if old == info.orig_type:
                new_type = src.type
            else:
                new_type = halved_tile_type(old, d, lw.lane_stride)
            new_res = rewriter.replace_value_with_new_type(r, new_type)
            lw.track(new_res, lw.make_info(old, d))
        lw.verify_rewritten(op)


__all__ = [
    "C2VBoundary",
    "ElementwiseHalving",
    "GeneratorHalving",
    "LoadHalving",
    "ReshapeHalving",
    "SetValidShapeHalving",
    "SliceHalving",
    "SplitLowering",
    "StoreOffsets",
    "TransposeHalving",
    "V2CBoundary",
    "check_shard_valid",
    "inject_subblock_idx",
    "localized_valid",
]
