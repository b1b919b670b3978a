"""Checks of the explicit `pto.split_aiv_scope` region path (LowerAutoVectorSplit, reference §5, §6).

- `verify_aiv_split_valid(f)`: the AivSplitValid rules (a)-(h).  The reference runs them as a required
  property *before* LowerAutoVectorSplit; here the region path calls it first thing, on every incore function
  that holds a region, before anything is rewritten (so a rejected function is reported unchanged).
- `check_mixed_explicit_region(scope)`: ValidateMixedExplicitRegion (E-MIXED) for explicit-boundary bodies.
- `check_transpose_hazard(scope)`: the per-region transpose hazard (E-TRANSPOSE), with the region's own axis.

Terms.  A region is *data-parallel* when its mode is up_down / left_right, *task-parallel* when it is none.
A data-parallel region is *explicit-boundary* when its body (at any depth) holds a `pto.aiv_shard` or
`pto.aic_gather`, and *full-width* otherwise.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects import func, scf
from xdsl.ir import Block, Operation, SSAValue

from pypto_mlir.diagnostics import PtoError, location_of
from pypto_mlir.dialects.pto_ops import (
    GENERATOR_OPS,
    SETUP_OPS,
    TFREE_OPS,
    TPOP_OPS,
    TPUSH_OPS,
    AicGatherOp,
    AivShardOp,
    GetSubblockIdxOp,
    LoadOp,
    SliceOp,
    SplitAivScopeOp,
    StoreOp,
)
from pypto_mlir.dialects.pto_comm_ops import TileGetOp
from pypto_mlir.dialects.pto_view_ops import ExtractOp, GatherRowOp
from pypto_mlir.dialects.pto_traits import CoreSide, GmAccess, PipeDirection, ReductionAxis
from pypto_mlir.dialects.pto_types import FuncFlag, TensorType, TileType, format_dim, has_flag, is_cube_memory
from pypto_mlir.passes.analysis.hazards import op_accesses

from ...analysis.affinity import Affinity, intrinsic_affinity, move_direction
from pypto_mlir.dialects.pto_lanes import SPLIT_CODE_NAMES, mode_of_dim, split_code_of_dim, split_dim_of
from ...analysis.transpose_hazard import find_transpose_hazard
from ...common import enclosing_loops

# Ops whose lane is stated by the op itself (the reference's "stated lane": registry-declared affinity).
STATED_LANE_OPS: tuple[type[Operation], ...] = (GetSubblockIdxOp, *TPUSH_OPS, *TPOP_OPS, *TFREE_OPS, *SETUP_OPS)


def value_name(v: SSAValue) -> str:
    return f"%{v.name_hint}" if v.name_hint else "<unnamed value>"


def body_ops(block: Block) -> Iterator[Operation]:
    """Every op of a block, nested ones included, in program order (pre-order)."""
    for op in block.ops:
        yield op
        for region in op.regions:
            for b in region.blocks:
                yield from body_ops(b)


def has_explicit_boundary(scope: SplitAivScopeOp) -> bool:
    return any(isinstance(op, (AivShardOp, AicGatherOp)) for op in body_ops(scope.body.block))


def region_form(scope: SplitAivScopeOp) -> str:
    """`task` (mode none), `explicit` (boundary ops in the body) or `full` (full-width data-parallel)."""
    if scope.mode.data == "none":
        return "task"
    return "explicit" if has_explicit_boundary(scope) else "full"


def enclosing_scope(op: Operation) -> SplitAivScopeOp | None:
    p = op.parent_op()
    while p is not None and not isinstance(p, func.FuncOp):
        if isinstance(p, SplitAivScopeOp):
            return p
        p = p.parent_op()
    return None


def _reduce_axis(op: Operation) -> int | None:
    trait = op.get_trait(ReductionAxis)
    return None if trait is None else trait.axis


# ---------------------------------------------------------------------------------------------------------------
# AivSplitValid (a)-(h)
# ---------------------------------------------------------------------------------------------------------------

PREFIX = "AivSplitValid"


def verify_aiv_split_valid(f: func.FuncOp) -> None:
    """Reject a region function that breaks one of the AivSplitValid rules (first violation, located)."""
    fname = f.sym_name.data
    scopes = [op for op in f.walk() if isinstance(op, SplitAivScopeOp)]
    if not scopes:
        return
    # (h) a region needs a split_aiv function (OutlineIncoreScopes stamps it).
    if not has_flag(f, FuncFlag.SPLIT_AIV):
        raise PtoError(
            f"{PREFIX}: 'pto.split_aiv_scope' opens a CORE_GROUP-level region (both AIV lanes), so it cannot be "
            f"authored in an incore function that is not marked split_aiv; add the unit attribute `pto.split_aiv` "
            f"to @{fname} (OutlineIncoreScopes stamps it on the functions it outlines around a region)",
            op=scopes[0],
        )
    for op in f.walk():
        if op is f:
            continue
        scope = enclosing_scope(op)
        aff = intrinsic_affinity(op)
        if scope is None:
            _check_outside(op, aff, fname)
        else:
            _check_inside(op, aff, scope)


def _check_outside(op: Operation, aff: Affinity, fname: str) -> None:
    if isinstance(op, SplitAivScopeOp):
        return
    # (c) boundary ops belong to a region.
    if isinstance(op, (AivShardOp, AicGatherOp)):
        what = "hands each AIV lane its part of a cube tile" if isinstance(op, AivShardOp) else (
            "joins the two AIV lanes' parts into one cube tile"
        )
        raise PtoError(
            f"{PREFIX}: '{op.name}' must appear inside a pto.split_aiv_scope region: it {what}, and the lanes "
            f"exist only inside a region; move it into the region that produces or consumes its per-lane value",
            op=op,
        )
    # (f) a per-lane value read on the cube lane outside every region.
    for v in op.operands:
        owner = v.owner
        if (
            isinstance(owner, SplitAivScopeOp)
            and isinstance(v.type, TileType)
            and not is_cube_memory(v.type.space)
            and (aff == Affinity.CUBE or move_direction(op) is PipeDirection.V2C)
        ):
            raise PtoError(
                f"{PREFIX}: {value_name(v)} is defined inside a pto.split_aiv_scope region but '{op.name}' reads it "
                f"on the CUBE lane outside; each AIV lane holds only its own part of it. Send it to the cube with "
                f"pto.aic_gather inside the region and yield the gathered tile instead",
                op=op,
            )
    # (e) vector work outside every region (load, store and stated-lane ops are exempt).
    if aff == Affinity.VECTOR and not isinstance(op, (LoadOp, StoreOp, *STATED_LANE_OPS)):
        raise PtoError(
            f"{PREFIX}: vector op '{op.name}' sits outside every pto.split_aiv_scope region of split_aiv function "
            f"@{fname}; outside a region it would run identically on both AIV lanes. Move it into a region (only "
            f"pto.load, pto.store and lane-stated ops such as pto.get_subblock_idx may stay outside)",
            op=op,
        )


def _check_inside(op: Operation, aff: Affinity, scope: SplitAivScopeOp) -> None:
    mode = scope.mode.data
    # (a) no cube work on the vector lanes.
    if aff == Affinity.CUBE:
        raise PtoError(
            f"{PREFIX}: cube op '{op.name}' inside a pto.split_aiv_scope region; a region runs on the two AIV "
            f"(vector) lanes only. Move the cube op out of the region and hand its result in with pto.aiv_shard",
            op=op,
        )
    # (d) memory contract of the boundary ops (the dialect verifier already pins the result spaces).
    if isinstance(op, AivShardOp):
        src = op.src.type
        assert isinstance(src, TileType)
        if src.space != "acc":
            raise PtoError(
                f"{PREFIX}: 'pto.aiv_shard' operand is in '{src.space}', but it transfers a cube accumulator "
                f"result to the AIV lanes and requires 'acc'; shard the matmul result (or move the tile to 'acc' "
                f"first)",
                op=op,
            )
    # Always-on guard of the task-parallel form: no split axis to cut along.
    if mode == "none" and isinstance(op, (AivShardOp, AicGatherOp)) and op.split_code != 0:
        raise PtoError(
            f"LowerAutoVectorSplit: '{op.name}' with split = {op.split_code} inside a mode none "
            f"(task-parallel) pto.split_aiv_scope region; a task-parallel region has no split axis, so its "
            f"boundary ops keep the full shape: use split = 0 (and address each lane's part with %aiv_id), or give "
            f"the region mode {SPLIT_CODE_NAMES[op.split_code]}",
            op=op,
        )
    # (g) a cube-lane value read inside the region without a boundary op.
    form = region_form(scope)
    for v in op.operands:
        t = v.type
        if not isinstance(t, TileType) or not is_cube_memory(t.space):
            continue
        if _defined_in(v, scope):
            continue
        if isinstance(op, AivShardOp):
            continue
        if form == "full" and move_direction(op) is PipeDirection.C2V:
            continue  # a full-width data-parallel region turns this move into an aiv_shard
        owner = v.owner
        producer = f"'{owner.name}'" if isinstance(owner, Operation) else "a function argument"
        hint = (
            "pto.aiv_shard with split = 0" if mode == "none" else f"pto.aiv_shard with split = {split_code_of_dim(split_dim_of(mode))}"
        )
        raise PtoError(
            f"{PREFIX}: {value_name(v)} is produced on the CUBE lane by {producer} outside every pto.split_aiv_scope "
            f"region, and '{op.name}' reads it inside the region without a boundary op; hand it to the lanes "
            f"with {hint}",
            op=op,
        )
    # (b) no partial reduction over the split axis.
    axis = _reduce_axis(op)
    if mode != "none" and axis is not None and axis == split_dim_of(mode):
        raise PtoError(
            f"{PREFIX}: reduce op '{op.name}' reduces over the split axis (dim {axis}) inside a "
            f"pto.split_aiv_scope {mode} region; each lane holds only half of that axis, so the result would be "
            f"partial. Split the other axis ({mode_of_dim(1 - axis)}), use a mode none "
            f"region, or reduce outside the region",
            op=op,
        )


def _defined_in(v: SSAValue, scope: SplitAivScopeOp) -> bool:
    owner = v.owner
    op = owner if isinstance(owner, Operation) else owner.parent_op()  # block argument: its block's op
    while op is not None:
        if op is scope:
            return True
        op = op.parent_op()
    return False


# ---------------------------------------------------------------------------------------------------------------
# ValidateMixedExplicitRegion (E-MIXED)
# ---------------------------------------------------------------------------------------------------------------


def _address_operands(op: Operation) -> tuple[SSAValue, ...]:
    """The operands that position a lane's window (the reference's `AddressArgs`): the offsets of load, slice,
    extract (row, col) and tile_get, and gather_row's source row offset; a lane id in a shape or valid operand
    does not move the window, so it does not count."""
    if isinstance(op, (LoadOp, SliceOp, ExtractOp, GatherRowOp, TileGetOp)):
        return tuple(op.offsets)
    return ()


def check_mixed_explicit_region(scope: SplitAivScopeOp) -> None:
    """Every vector op of an explicit-boundary body must already be per-lane (E-MIXED).

    Accepted tile producers: results derived (transitively) from a `pto.aiv_shard`; pure generators (full,
    create, ci, random: accepted for themselves only, they do not join the per-lane dataflow); loads and slices
    whose *offsets* use the lane id.  Lane scalars start at the region's `%aiv_id` (and any get_subblock_idx)
    and flow through scalar ops.  Loop-carried tiles and scf results inherit per-lane-ness from their inputs.
    """
    lane: set[SSAValue] = {scope.aiv_id}
    half: set[SSAValue] = set()
    bad: list[Operation] = []

    def walk(block: Block) -> None:
        for op in block.ops:
            if isinstance(op, GetSubblockIdxOp):
                lane.add(op.result)
                continue
            if isinstance(op, AivShardOp):
                half.add(op.result)
                continue
            if isinstance(op, scf.ForOp):
                for init, arg, res in zip(op.iter_args, op.body.block.args[1:], op.results):
                    if init in half:
                        half.update((arg, res))
            if isinstance(op, scf.WhileOp):
                before, after = op.before_region.block, op.after_region.block
                half.update(arg for init, arg in zip(op.arguments, before.args) if init in half)
                walk(before)
                cond = before.last_op
                if isinstance(cond, scf.ConditionOp):
                    for v, arg, res in zip(cond.args, after.args, op.results):
                        if v in half:
                            half.update((arg, res))
                walk(after)
                continue
            if op.regions:
                for region in op.regions:
                    for b in region.blocks:
                        walk(b)
                if isinstance(op, scf.IfOp):
                    for i, res in enumerate(op.results):
                        for region in op.regions:
                            for b in region.blocks:
                                term = b.last_op
                                if term is not None and i < len(term.operands) and term.operands[i] in half:
                                    half.add(res)
                continue
            tiles = [r for r in op.results if isinstance(r.type, TileType)]
            if not tiles:
                if op.results and any(v in lane for v in op.operands):
                    lane.update(r for r in op.results if not isinstance(r.type, (TileType, TensorType)))
                continue
            if isinstance(op, GENERATOR_OPS):
                continue
            if any(v in half for v in op.operands) or any(v in lane for v in _address_operands(op)):
                half.update(tiles)
                continue
            if intrinsic_affinity(op) == Affinity.VECTOR:
                bad.append(op)

    walk(scope.body.block)
    if bad:
        names = ", ".join(sorted({op.name for op in bad}))
        raise PtoError(
            f"LowerAutoVectorSplit: a pto.split_aiv_scope region mixes explicit pto.aiv_shard/pto.aic_gather "
            f"boundary ops with plain full-width vector op(s) [{names}] that operate outside the per-lane "
            f"half-width dataflow; the body is spliced unchanged, so these would compute the same full tile on "
            f"both AIV lanes. Derive their operands from the pto.aiv_shard result, address loads/slices with the "
            f"lane id (e.g. offset %aiv_id * HALF), or drop the explicit boundary ops and let the region be halved",
            op=bad[0],
        )


# ---------------------------------------------------------------------------------------------------------------
# Transpose hazard (E-TRANSPOSE)
# ---------------------------------------------------------------------------------------------------------------


def check_transpose_hazard(scope: SplitAivScopeOp) -> None:
    """A data transpose that moves the region's split axis would exchange data between the lanes."""
    mode = scope.mode.data
    dim = split_dim_of(mode)
    op = find_transpose_hazard(body_ops(scope.body.block), dim)
    if op is None:
        return
    extent = op.src.type.get_shape()[dim]  # type: ignore[attr-defined]
    raise PtoError(
        f"LowerAutoVectorSplit: a pto.split_aiv_scope {mode} region contains a pto.transpose (result "
        f"{value_name(op.result)}) that swaps the split axis (dim {dim}, extent {format_dim(extent)}); each lane would "
        f"transpose only its half, exchanging rows and columns across the lanes. (1) remove the transpose, "
        f"e.g. transpose before the cube or use a column slice, or (2) move the transpose outside the "
        f"pto.split_aiv_scope region",
        op=op,
    )


def check_cross_lane_gm_order(f: func.FuncOp) -> None:
    """Reject a GM access outside every region that follows a region writing into the same tensor.

    Inside a `pto.split_aiv_scope` each AIV lane writes its own part of a tensor; vector code outside the regions
    runs at full width on *both* lanes, and the lanes are not synchronised when a region ends (`pto` has no
    AIV<->AIV barrier: the pipes only order the cube and a vector lane).  So a later full-width read of that
    tensor reads the cells the other lane writes, and a later full-width write overwrites them, with nothing
    ordering the two (a GM data race; the interpreter's race detector reports it).  "Later" is program order, or
    any order when both sit in one loop (the next iteration).  Every GM access counts, as its `GmAccess` trait
    states it (`pto.store`, `pto.load`, and the communication ops' puts and gets alike); a cube access outside
    (a load into `mat`, a store of an `acc` tile) is not on the lanes: ExpandMixedKernel orders it against both
    lanes' writes.  Tensors are matched by their roots (`analysis.hazards`)."""
    memo: dict = {}
    written: list[tuple[SplitAivScopeOp, Operation, SSAValue, frozenset[SSAValue]]] = []
    order: dict[Operation, int] = {}
    for i, op in enumerate(f.walk()):
        order[op] = i
        if enclosing_scope(op) is not None:
            for acc in op_accesses(op, CoreSide.AIV, memo):
                if acc.write:
                    written.append((enclosing_scope(op), op, acc.tensor, acc.roots))
    if not written:
        return
    last_in: dict[SplitAivScopeOp, int] = {}
    for scope, _, _, _ in written:
        last_in[scope] = max(order[o] for o in scope.walk())
    for op in f.walk():
        if not op.has_trait(GmAccess) or enclosing_scope(op) is not None or intrinsic_affinity(op) == Affinity.CUBE:
            continue
        for access in op_accesses(op, CoreSide.AIV, memo):
            _check_lane_order(op, access.write, access.roots, written, order, last_in)


def _check_lane_order(
    op: Operation,
    is_write: bool,
    roots: frozenset[SSAValue],
    written: list[tuple[SplitAivScopeOp, Operation, SSAValue, frozenset[SSAValue]]],
    order: dict[Operation, int],
    last_in: dict[SplitAivScopeOp, int],
) -> None:
    """Reject `op` (a full-width access of `roots`) when it follows a region's per-lane write of them."""
    for scope, store, dest, wroots in written:
        if not roots & wroots:
            continue
        shared_loop = set(enclosing_loops(op)) & set(enclosing_loops(scope))
        if order[op] < last_in[scope] and not shared_loop:
            continue
        common = roots & wroots
        tensor = value_name(dest if dest in common else min(common, key=value_name))
        what = "overwrites the cells the other lane writes" if is_write else "reads the cells the other lane writes"
        raise PtoError(
            f"LowerAutoVectorSplit: this {op.name} runs at full width on both AIV lanes after a pto.split_aiv_scope "
            f"region ({scope.mode.data}) in which each lane writes only its own part of the tensor '{tensor}'; the "
            "lanes are not synchronised when a region ends (pto has no barrier between the two AIV lanes), so each "
            f"lane {what} with nothing ordering them (a data race on GM). Keep the access inside the region on the "
            "lane's own part (at its lane offset), use the region's per-lane tile instead of reloading it from GM, "
            "or move the access to a later kernel (a kernel boundary orders the lanes)",
            op=op,
            notes=[(location_of(store), f"the region's per-lane {store.name} of that tensor")],
        )

