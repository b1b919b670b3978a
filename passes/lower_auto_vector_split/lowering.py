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

from xdsl.dialects import func, scf
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import VerifyException

from pypto_mlir.diagnostics import PtoError, location_of
from pypto_mlir.dialects.pto_lane_ops import LaneBarrierOp
from pypto_mlir.dialects.pto_ops import (
    CreateOp,
    GetSubblockIdxOp,
    SliceOp,
    StoreOp,
)
from pypto_mlir.dialects.pto_traits import GmAccess, PipeDirection, halving_rule_of, once_per_kernel
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType
from pypto_mlir.passes.common import enclosing_loops
from pypto_mlir.passes.analysis.affinity import Affinity, intrinsic_affinity, is_boundary_move, move_direction
from pypto_mlir.dialects.pto_lanes import (
    ceil_half,
    lane_step,
    split_dim_of,
)
from pypto_mlir.passes.analysis.split_axis import (
    LaneArith,
    TileInfo,
    halved_tile_type,
)
from .patterns.base import (
    PASS, LaneMismatch, _SplitPattern, _name, _window_step, check_same_axis, lane_part_problem,
    whole_operand_error,
)
from .patterns.beyond_contract import beyond_contract_patterns
from .patterns.boundaries import C2VBoundary, TransferRestamp, V2CBoundary
from .patterns.compute import ElementwiseHalving, GeneratorHalving
from .patterns.gm_lane_part import gm_lane_part
from .patterns.memory import LoadHalving, LoadWindow, StoreOffsets, check_whole_store, shared_store
from .patterns.views import ReshapeHalving, SetValidShapeHalving, SliceHalving, TransposeHalving


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
        keeps_whole: bool = False,
        free_axes: dict[SSAValue, int] | None = None,
        cross_lane: bool = False,
    ):
        self.mode = mode
        self.free_axes = free_axes or {}
        """generator results (and values computed from them only) split on another axis than the function's, the
        axis of the split data they meet (`auto/generator_axes.py`)."""
        self.full_width = full_width or set()
        self.keeps_whole = keeps_whole
        """whether the caller computed the full-width chains (the AUTO path): a value no chain keeps whole could
        not be (messages say so); the region path keeps none."""
        self.dim = split_dim_of(mode)
        self.cross_lane = cross_lane
        """whether a reduction over the split axis is combined across the lanes through a GM workspace
        (`patterns/cross_lane.py`; the AUTO path) or refused (a `split_aiv_scope` region: the author's error)."""
        self.cross_lane_combines: list[dict] = []
        """one entry per reduction combined across the lanes (a workspace round trip each; the split report)."""
        self.gm_lane_parts: list[dict] = []
        """one entry per whole value whose lane part goes through a GM workspace (`patterns/gm_lane_part.py`)."""
        self.one_writer_stores: list[Operation] = []
        """the stores of whole tiles with no lane part made by lane 0 alone between lane barriers (the split cost)."""
        self.lane_stride = lane_stride
        self.where = where
        self.arith = LaneArith(sub, anchor)
        self.tracked: dict[SSAValue, TileInfo] = {}
        self.own_shards: set[SSAValue] = set()
        """results of the `aiv_shard`s this lowering created (from boundary moves of the input)."""
        self.whole: set[SSAValue] = set()
        """values computed from full-width-chain values at full width on both lanes (besides `full_width`): a
        reshape result with no lane window, and the vector ops on such values (`lane_part` slices them later)."""
        self.singleton_whole: set[SSAValue] = set()
        """whole values (a subset of `whole`) derived from a whole singleton split axis that a reshape moved onto
        another dim (`ReshapeHalving._slice_full_width`): they are not cut into lane parts on their own, so that,
        reshaped back, they still meet the singleton shards whole (`_singleton_part`) instead of split on the
        other axis."""
        self._lane_parts: dict[tuple[SSAValue, int, int], SSAValue | None] = {}
        """(whole value, dim, step) -> its lane part as a slice (`_slice_lane_part`), None when none exists."""
        self._gm_parts: dict[tuple[SSAValue, int, int], SSAValue | None] = {}
        """the same key -> its lane part through a GM workspace (`gm_lane_part`), None when none exists."""
        self._store_dims: dict[SSAValue, tuple[int, Operation]] = {}
        """tensor root -> the tensor dim its first per-lane store is split on, and that store."""
        self.load_windows: dict[SSAValue, LoadWindow] = {}
        """halved load result -> the full-width `pto.load` it replaced (`SliceHalving` folds a window into it)."""
        self.on_region_op = on_region_op
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
            *beyond_contract_patterns(self),
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

    def lane_part(self, v: SSAValue, dim: int, step: int, through_gm: bool = False) -> SSAValue | None:
        """The lane's part of the whole value `v` on `dim` with lane step `step`: `v` itself when the dim is a
        singleton (never halved), else a `pto.slice %v[sub*step ..] [ceil(box/2) ..] valid [clamp(V - sub*step,
        0, step) ..]` right after `v`'s definition (tracked; cached) — the cells a halved producer would hold
        (`shard_by_full_transfer`'s rule).  When no slice can hold it (`lane_part_problem`: an odd box), and the
        caller would otherwise refuse the kernel (`through_gm`), the same cells through a GM workspace
        (`patterns/gm_lane_part.py`); else None."""
        t = v.type
        assert isinstance(t, TileType)
        if t.rank <= dim or t.get_shape()[dim] == 1:
            return v
        part = self._slice_lane_part(v, dim, step)
        if part is None and through_gm and self.cross_lane and not _carried_whole(v):
            key = (v, dim, step)
            if key not in self._gm_parts:
                made = gm_lane_part(self.arith, self.lane_stride, v, dim, step)
                if made is not None:
                    self.track(made[0], made[1])
                    self.gm_lane_parts.append(made[2])
                self._gm_parts[key] = made[0] if made is not None else None
            part = self._gm_parts[key]
        return part

    def whole_source_of(self, part: SSAValue) -> SSAValue | None:
        """The whole value whose lane part slice (`lane_part`) `part` is, or None."""
        return next((v for (v, _, _), p in self._lane_parts.items() if p is part), None)

    def drop_lane_part(self, part: SSAValue) -> None:
        """Erase the lane part `part` (a `lane_part` slice nothing reads any more) and forget it."""
        assert isinstance(part, OpResult) and not part.uses
        for key in [k for k, p in self._lane_parts.items() if p is part]:
            del self._lane_parts[key]
        self.tracked.pop(part, None)
        Rewriter.erase_op(part.op)

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
                part = self.lane_part(v, partner.dim, partner.step, through_gm=True)
                if part is None:
                    raise whole_operand_error(op, v, partner.dim, partner.step)
            else:
                if v in self.singleton_whole:
                    continue  # stays whole (see `singleton_whole`)
                d = self.free_axes.get(v, self.dim)
                if v.type.rank <= d or v.type.get_shape()[d] in (1, DYNAMIC):
                    continue
                step = self.step_for(v.type.get_shape()[d])
                part = self.lane_part(v, d, step)  # a store with no lane slice: `_store_whole_once` (one writer)
                if part is None:
                    if isinstance(op, StoreOp) and not self.cross_lane:
                        check_whole_store(op, v, d, step)
                    continue  # on the AUTO path `_store_whole_once` gives the store one writer
            op.operands[i] = part

    def _singleton_part(self, v: SSAValue, info: TileInfo) -> SSAValue | None:
        """The lane part of `v`, a value both lanes hold whole (computed in the kernel, untracked) with a singleton
        split axis, to meet the per-lane singleton `info` (a singleton shard: lane 0 the row, lane 1 an empty copy):
        the same slice (`_slice_lane_part` with step 1); None when `v` does not match it."""
        if info.full != 1 or v in self.tracked or not isinstance(v, OpResult) or v.type != info.orig_type:
            return None
        return self._slice_lane_part(v, info.dim, 1)

    def _take_singleton_parts(self, op: Operation) -> None:
        """A vector op meeting a per-lane singleton (a `[1, N]` shard under UP_DOWN) and a value of the same full
        type both lanes hold whole (a singleton load, `tile_get` or generator: never halved) takes the latter's
        lane part too (issue 43; before, the op did not verify: per-lane and full-width operands)."""
        partner = next((self.tracked[v] for v in op.operands if v in self.tracked and self.tracked[v].full == 1), None)
        if partner is None:
            return
        for i, v in enumerate(list(op.operands)):
            part = self._singleton_part(v, partner)
            if part is not None:
                op.operands[i] = part

    def _store_whole_once(self, op: StoreOp) -> None:
        """A store of a tile that is full width on both lanes (never halved: a singleton split axis, a rank-1
        tile; or whole with no lane part) writes the same cells from both lanes.  Alone that is harmless (the same
        values), but when the tensor is written by another store too, or by this store again in a loop, the two
        lanes' stores have no defined order (lane 1's first store may land after lane 0's second).  Then each lane
        stores its lane part: for a singleton split axis lane 0 the row and lane 1 an empty copy (the part a
        singleton shard holds), so the cells are written by one lane, in program order.  A full-width tile with no
        lane part is stored by lane 0 alone between two lane barriers on the AUTO path (`store_by_lane0_between_barriers`);
        a `split_aiv_scope` region has no lane barriers, so there it is rejected (`check_whole_store`)."""
        v = op.tile
        t = v.type
        if not isinstance(t, TileType) or t.space != "vec" or v in self.tracked or shared_store(op) is None:
            return
        d = self.dim
        if t.rank > d and t.get_shape()[d] == 1:
            part = self._slice_lane_part(v, d, 1)  # a box of 1: lane 1's empty part at row 1, whatever the stride
            if part is not None:
                op.operands[0] = part
                return
        if self.cross_lane:
            store_by_lane0_between_barriers(op, self.arith.is_first_lane())
            self.one_writer_stores.append(op)
            return
        check_whole_store(op, v, d, self.step_for(t.get_shape()[d]) if t.rank > d and t.get_shape()[d] != DYNAMIC else 1)

    def _check_store_partition(self, op: StoreOp) -> None:
        """Per-lane stores of one tensor cut it on the tensor dim of their tile's split axis: lane l writes the
        cells of its part on that dim.  Two stores split on different dims (a reshape round trip that regroups the
        split axis, e.g. LEFT_RIGHT `[8,16] -> [1,128] -> [8,16]`) make lane 1's cells of one store overlap lane
        0's of the other, and the lanes' stores have no order.  On the AUTO path the later store is ordered after
        both lanes' earlier one by a `pto.lane_barrier` right before it (`_order_repartitioned_store`); elsewhere,
        or where a loop repeats either store, it is rejected."""
        from pypto_mlir.passes.analysis.hazards import tensor_roots

        info = self.tracked.get(op.tile)
        t = op.tile.type
        if info is None or not isinstance(t, TileType):
            return
        td = op.dest.type.rank - t.rank + info.dim  # type: ignore[union-attr]
        ordered = False
        for root in tensor_roots(op.dest):
            last = self._store_dims.setdefault(root, (td, op))
            if last[0] != td:
                if not ordered:
                    self._order_repartitioned_store(op, td, last)
                    ordered = True
                self._store_dims[root] = (td, op)

    def _order_repartitioned_store(self, op: StoreOp, td: int, last: tuple[int, Operation]) -> None:
        """The store `op`, split on tensor dim `td`, writes a tensor whose previous per-lane store `last[1]` was
        split on dim `last[0]`.  Each lane's stores are in program order, so the earlier store's cells are all
        written before the later one's once both lanes have passed a `pto.lane_barrier` between them: the cells
        the two stores share end with the later store's values, as in the unsplit kernel, whatever the lanes'
        parts.  Sound only when each store runs once: in a loop the earlier store of the next iteration would
        race with the other lane's later store of this one (write-after-write with no barrier between), so a
        store repeated by an `scf.for` / `scf.while` is rejected; so is the region path (no lane exchange)."""
        if not self.cross_lane or enclosing_loops(op) or enclosing_loops(last[1]):
            raise PtoError(
                f"{PASS}: this pto.store writes '{_name(op.tile)}', split over the lanes on dim {td} of the tensor, "
                f"but an earlier store of the same tensor (at {location_of(last[1])}) is split on dim {last[0]} "
                "(a reshape regrouped the split axis); each lane's cells of one store overlap the other lane's "
                "cells of the other, and the two lanes' stores have no defined order"
                + (" (a lane barrier orders them only where neither store is repeated by a loop)" if self.cross_lane else "")
                + ". Store the two values to different tensors, or keep the reshape from moving the split axis",
                op=op,
            )
        insert_lane_barrier(op, InsertPoint.before(op))

    # -- driver ----------------------------------------------------------------------------------------------
    def lower_block(self, block: Block) -> None:
        """Lower every op of `block` (and of nested scf regions) in program order."""
        for op in list(block.ops):
            if op.parent is not block:
                continue  # replaced by an earlier rewrite
            self.lower_op(op)

    def lower_op(self, op: Operation) -> None:
        once = once_per_kernel(op) is not None
        if once:
            self._partition_once(op)
        self._lower_op(op)
        if once and op.parent is not None:
            self._first_lane_only(op)

    # -- effects that must happen once per kernel ------------------------------------------------------------
    def _whole_tile_of(self, op: Operation) -> tuple[int, SSAValue] | None:
        """The operand index and value of the `vec` tile `op` writes to GM (a store, a put) when both lanes hold
        it whole (untracked); None for a per-lane tile, a cube tile (the one AIC stores it) or no tile."""
        trait = op.get_trait(GmAccess)
        v = trait.tile_value(op) if trait is not None else None
        if v is None or v in self.tracked or not isinstance(v.type, TileType) or v.type.space != "vec":
            return None
        return next(i for i, x in enumerate(op.operands) if x is v), v

    def _partition_once(self, op: Operation) -> None:
        """An op whose GM effect must happen once per kernel (`OncePerKernel`: an atomic store, a put) writing a
        tile both lanes hold whole writes each lane's lane part instead, where one exists (a singleton split
        axis: lane 0 the row, lane 1 an empty copy): both lanes keep working, each cell is written once, and the
        op's own pattern then moves the window to the lane offset.  Without a lane part, `_first_lane_only`."""
        found = self._whole_tile_of(op)
        if found is None:
            return
        i, v = found
        t = v.type
        assert isinstance(t, TileType)
        d = self.dim
        if t.rank <= d or t.get_shape()[d] == DYNAMIC:
            return
        box = t.get_shape()[d]
        part = self._slice_lane_part(v, d, 1) if box == 1 else self.lane_part(v, d, self.step_for(box))
        if part is not None:
            op.operands[i] = part

    def _first_lane_only(self, op: Operation) -> None:
        """An op whose GM effect must happen once per kernel and that both lanes would still perform whole (a
        tile with no lane part, a whole-tensor put, a notify) runs on lane 0 only:
        `%r = scf.if %is_lane0 -> (T) { op; scf.yield } else { scf.yield %dest }` (the else branch yields the
        tensor the op's result renames, unchanged)."""
        if self._whole_tile_of(op) is None and op.get_trait(GmAccess) is not None and op.get_trait(GmAccess).tile:
            return  # its tile is per lane (or a cube tile): each lane writes its own part
        guard = op.parent_op()
        if isinstance(guard, scf.IfOp) and guard.cond is self.arith.is_first_lane():
            return  # lane 0 alone performs it already (`store_by_lane0_between_barriers`)
        first_lane_only(op, self.arith.is_first_lane())

    def _lower_op(self, op: Operation) -> None:
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
        if self.keeps_whole and self._is_vector(op) and not isinstance(op, StoreOp) and self._takes_lane_parts(op):
            self._take_singleton_parts(op)
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
        else:
            reject_undeclared_vector_op(op)
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
        from_singleton = any(v in self.singleton_whole for v in tiles)
        for r in op.results:
            if isinstance(r.type, TileType) and r not in self.tracked:
                self.whole.add(r)
                if from_singleton:
                    self.singleton_whole.add(r)

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
            check_same_axis(at, f"the tile carried as #{i} of this {what} enters the loop and is yielded as", [e, y], self.tracked)
            entry = "a per-lane half" if e in self.tracked else "full width"
            body = "a per-lane half" if y in self.tracked else "full width"
            raise PtoError(
                f"{PASS}: the tile carried as #{i} of this {what} enters the loop at {entry} ({e.type}) but the "
                f"body yields it at {body} ({y.type}); a loop-carried tile must be halved on entry and on every "
                "iteration, or on neither — derive the initial and the yielded value from the same per-lane "
                "(or the same full-width) data",
                op=at,
            )

    def _carry_whole_inits(self, op: scf.ForOp) -> None:
        """A tile carried by `op` whose initial value is whole (`is_whole`: computed unsplit on both lanes, e.g. the
        source of a split-axis window) while no full-width chain keeps the carried value itself whole: the loop
        carries the init's lane part (on the axis `free_axes` gives it, else the function's), so a body that
        combines it with per-lane data meets it at the same width, and the loop's work is split.  An init with no
        lane part (an odd box) is carried whole: the block argument and the result are whole values.  A singleton
        init (a `[1, N]` generator under UP_DOWN, never halved) that the body combines with a per-lane singleton carries the
        part a singleton shard holds (lane 0 the row, lane 1 an empty copy)."""
        block = op.body.block
        for i, init in enumerate(op.iter_args):
            arg, t = block.args[i + 1], init.type
            if init in self.tracked or arg in self.full_width or not isinstance(t, TileType):
                continue
            if not self.is_whole(init):
                if (isinstance(init, OpResult) and t.rank > self.dim and t.get_shape()[self.dim] == 1
                        and self._meets_singleton_lanes(arg)):
                    op.operands[len(op.operands) - len(op.iter_args) + i] = self._slice_lane_part(init, self.dim, 1)  # type: ignore[assignment]
                continue
            d = self.free_axes.get(init, self.dim)
            part = None
            if t.rank > d and t.get_shape()[d] not in (1, DYNAMIC):
                part = self.lane_part(init, d, self.step_for(t.get_shape()[d]))
            if part is None:
                self.whole.update((arg, op.results[i]))
            else:
                op.operands[len(op.operands) - len(op.iter_args) + i] = part

    def _yield_lane_parts(self, term: Operation, args: list[SSAValue]) -> None:
        """A loop body yielding a whole value where the loop carries a per-lane tile yields its lane part."""
        for j, (y, a) in enumerate(zip(list(term.operands), args)):
            info = self.tracked.get(a)
            if info is not None and not self.is_whole(y):
                part = self._singleton_part(y, info)
                if part is not None:
                    term.operands[j] = part
                continue
            if info is None or y in self.tracked or y.type != info.orig_type:
                continue
            part = self.lane_part(y, info.dim, info.step, through_gm=True)
            if part is None:
                raise whole_operand_error(term, y, info.dim, info.step)
            term.operands[j] = part

    def _meets_singleton_lanes(self, arg: SSAValue) -> bool:
        """Whether an op using the carried `arg` directly combines it with a per-lane singleton: a C->V boundary
        (a singleton shard) or a value already split with a singleton extent.  Only then is a singleton init carried
        as a lane part; a carried singleton that meets only whole values stays whole (e.g. a row sum combined
        across the lanes under LEFT_RIGHT, which a `row_expand_*` needs whole on both lanes)."""
        for use in arg.uses:
            for v in use.operation.operands:
                if v is arg:
                    continue
                owner = v.owner if isinstance(v, OpResult) else None
                if owner is not None and is_boundary_move(owner) and move_direction(owner) is PipeDirection.C2V:
                    return True
                info = self.tracked.get(v)
                if info is not None and info.full == 1:
                    return True
        return False

    def _lower_for(self, op: scf.ForOp) -> None:
        block = op.body.block
        if self.keeps_whole:
            self._carry_whole_inits(op)
        self._carry(list(op.iter_args), list(block.args[1:]), list(op.results))
        self.lower_block(block)
        term = block.last_op
        assert term is not None
        self._yield_lane_parts(term, list(block.args[1:]))
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
                    if self.keeps_whole and (part := self._singleton_part(v, partner)) is not None:
                        b.last_op.operands[i] = part  # type: ignore[union-attr]  # a whole singleton meets a singleton shard
                    elif self.is_whole(v) and isinstance(v.type, TileType) and v.type == partner.orig_type:
                        part = self.lane_part(v, partner.dim, partner.step, through_gm=True)
                        if part is None:
                            e = whole_operand_error(b.last_op, v, partner.dim, partner.step)  # type: ignore[arg-type]
                            raise LaneMismatch.of(e, [(w, self.tracked[w].dim) for w in vals if w in self.tracked])
                        b.last_op.operands[i] = part  # type: ignore[union-attr]
                vals = [b.last_op.operands[i] for b in blocks]  # type: ignore[union-attr]
            types = {v.type for v in vals}
            if types == {res.type}:
                if vals and all(self.is_whole(v) for v in vals):
                    self.whole.add(res)
                continue
            infos = [self.tracked.get(v) for v in vals]
            check_same_axis(op, f"the branches of this scf.if yield result #{i} as", vals, self.tracked)
            if len(types) != 1 or any(x is None for x in infos):
                desc = " and ".join(f"{v.type} ({'per-lane half' if v in self.tracked else 'full width'})" for v in vals)
                raise LaneMismatch(
                    f"{PASS}: the branches of this scf.if yield result #{i} as {desc}; both branches must yield "
                    "the same width — derive both values from per-lane data or both from full-width data",
                    op,
                    [(v, info.dim) for v, info in zip(vals, infos) if info is not None],
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
            raise LaneMismatch(
                f"{PASS}: '{op.name}' cannot be halved along the split axis{what}: {detail}. Make every tile "
                "operand of a vector op derive from the split data (a load, slice or C->V boundary inside the "
                "split function), or keep the op off the split data",
                op,
                [(v, self.tracked[v].dim) for v in op.operands if v in self.tracked] if fulls else [],
            ) from None


def _carried_whole(v: SSAValue) -> bool:
    """Whether `v` is the block argument of a loop that carries it whole (`_carry_whole_inits`: an init with no
    slice lane part).  Its lane part is not taken through GM inside the body: the body would then yield a per-lane
    value where the loop carries a whole one (refused as a whole value meeting per-lane data, as before)."""
    return isinstance(v, BlockArgument) and isinstance(v.owner.parent_op(), (scf.ForOp, scf.WhileOp))


def first_lane_only(op: Operation, is_lane0: SSAValue) -> scf.IfOp:
    """Wrap `op` (an op whose GM effect must happen once per kernel) so that lane 0 alone performs it:
    `%r = scf.if %is_lane0 -> (T) { op; scf.yield } else { scf.yield %dest }`, the else branch yielding the
    tensor the op's result renames (`GmAccess.written_by_result`), unchanged."""
    results = list(op.results)
    trait = op.get_trait(GmAccess)
    renamed = trait.written_by_result(op) if trait is not None else None
    if results and renamed is None:
        raise PtoError(f"Internal error: {PASS}: cannot run '{op.name}' on one lane (its result is not the tensor "
                       "it writes; please report this)", op=op)
    then_block, else_block = Block(), Block()
    guard = scf.IfOp(is_lane0, [r.type for r in results], Region(then_block), Region(else_block) if results else None)
    guard.location = op.location
    Rewriter.insert_op(guard, InsertPoint.before(op))
    for r, g in zip(results, guard.results):
        g.name_hint = r.name_hint
        r.replace_all_uses_with(g)
    op.detach()
    then_block.add_op(op)
    for b, yielded in ((then_block, results), (else_block, [renamed])) if results else ((then_block, []),):
        b.add_op(scf.YieldOp(*yielded))
        b.last_op.location = op.location  # type: ignore[union-attr]
    return guard


def store_by_lane0_between_barriers(op: StoreOp, is_lane0: SSAValue) -> None:
    """A tile both lanes hold whole with no lane part (an odd, fully valid box; a rank-1 tile; a dynamic split
    extent) stored to a tensor that another op writes too, or by a store that runs again in a loop: both lanes
    storing it would race (lane 1's store of one value may land after lane 0's store of the next).  Lane 0 alone
    stores it, between two `pto.lane_barrier`s::

        pto.lane_barrier                      // the other lane's earlier accesses of the tensor are done
        %o = scf.if %is_lane0 -> (T) { %s = pto.store ...; scf.yield %s } else { scf.yield %dest }
        pto.lane_barrier                      // either lane's later accesses see the cells lane 0 wrote

    Each lane accesses GM in program order, so with the barriers every access of the tensor by the other lane is
    ordered against the one writer's store: the cells end as the unsplit kernel's.  Both lanes reach both
    barriers (the barriers are outside the lane guard; the split program's control flow is the same on both
    lanes, as for the cross-lane reductions' barriers)."""
    guard = first_lane_only(op, is_lane0)
    insert_lane_barrier(op, InsertPoint.before(guard))
    insert_lane_barrier(op, InsertPoint.after(guard))


def insert_lane_barrier(for_op: Operation, where: InsertPoint) -> None:
    """A `pto.lane_barrier` at `where`, located at `for_op` (the op whose accesses it orders)."""
    barrier = LaneBarrierOp()
    barrier.location = for_op.location
    Rewriter.insert_op(barrier, where)


def reject_undeclared_vector_op(op: Operation) -> None:
    """A vector op on tiles that no pattern took and that declares no split rule (`LaneHalving`) is refused: the
    split is opt-in, so an op whose lane form nobody wrote (a scan, a sort, an op from another dialect given a
    vector affinity) is never halved as if it were elementwise."""
    if halving_rule_of(op) is not None:
        return  # a rule with nothing to rewrite here (a pipe op, a whole-tensor copy, the lane id)
    if not any(isinstance(v.type, TileType) for v in (*op.operands, *op.results)):
        return
    raise PtoError(
        f"{PASS}: '{op.name}' is a vector op on tiles that declares no lane-split rule (no LaneHalving trait), so "
        "this pass does not know how to give each AIV lane its part of it; split the kernel without it, or "
        "declare the op's rule (dialects/pto_traits.py, HalvingRule) and implement it in "
        "passes/lower_auto_vector_split/patterns/",
        op=op,
    )
