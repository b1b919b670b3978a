"""Full-width V->C chains: which vector values of an AUTO kernel stay full width so that a V->C boundary no
split code can place crosses with split code 0 instead of a gather.

A V->C `pto.aic_gather` re-joins the two lanes' halves, and pto-isa can only place lane 1 when both lanes hold
the same number of cells or lane 1 none (`gather_split_code`); its boxes must also double to the cube tile's box
(an odd box cannot).  When a V->C boundary fails either rule, no per-lane schedule can send a *halved* operand.
But a full-width operand can cross with split code 0 — the cube takes lane 0's whole tile, as in a
`pto.dual_aiv_dispatch` kernel — provided both lanes compute the whole tile.  So the vector ops feeding such a
boundary are kept at full width (both lanes run them), while the rest of the kernel is still halved.

`full_width_chains(f, dim)` returns the values to keep at full width: the backward slice of the operand of every
such V->C move, through vector ops, and through C->V moves (which are then kept as plain moves: code 0, the whole
tile to each lane).  A chain is only taken when it is *exclusive*: every value of it is used only inside the chain
or by the V->C move (a value also read by halved code would need a lane slice); it may not cross control flow
(block arguments, ops with regions) nor a reshape / transpose (the split axis of the operand is then not
necessarily the function's).  A singleton split axis counts as odd: such a tile is never halved, so it crosses
whole too (the reference rejects it, E-FULLWIDTH).  Otherwise the boundary is left to the ordinary gather (and its error).

The same chains serve a vec `pto.reshape` whose halved input has no per-lane form (`reshape_unsplittable`: a
row-major reshape that scatters each lane's half over the result, such as `[8, 16] -> [1, 128]` under LEFT_RIGHT,
or an odd split axis moved onto another dim): its input chain is kept full width, the reshape runs at full width
on both lanes and its result is lane-sliced (`ReshapeHalving`, as for any full-width reshape input).  A chain
that is not exclusive leaves the reshape to its E-RESHAPE-ODD / E-RESHAPE-TRACK rejection.

And the table of a `pto.gather_row` under UP_DOWN (its source, whose rows the indices address; reference PR
#2585: a gather's table stays whole): its chain is kept full width, so each lane gathers its half of the indices
from the whole table (`GatherRowHalving`).  Under LEFT_RIGHT the same when a reshape or transpose will move the
table's split axis onto its rows (`predicted_split_axis`; the chain then goes through those views).

And the source of a `pto.reinterpret_view` with no exact per-lane form (`reinterpret_unsplittable`: the element
width changes along an odd split axis, or a lane's part is no whole number of the wider elements) that was not
folded into other views (`view_folds.py`): it is viewed whole, and its users take its lane part.
"""

from __future__ import annotations

import math

from xdsl.dialects import scf
from xdsl.dialects.func import FuncOp
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import LoadOp, ReshapeOp, SliceOp, TransposeOp, TransposeViewOp
from pypto_mlir.dialects.pto_view_ops import ExtractOp
from pypto_mlir.dialects.pto_traits import HalvingRule, PipeDirection, halving_rule_of
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType
from pypto_mlir.dialects.pto_view_ops import GatherRowOp, ReinterpretViewOp, reinterpret_inferred_shape
from pypto_mlir.passes.analysis.affinity import Affinity, intrinsic_affinity, is_boundary_move, move_direction
from pypto_mlir.passes.analysis.split_axis import (
    ReshapeSplitError,
    halved_tile_type,
    reinterpret_halves,
    reshape_split_target,
)
from pypto_mlir.passes.analysis.split_codes import gather_split_code


AXIS_MOVERS = (ReshapeOp, TransposeOp, TransposeViewOp)


def gather_unplaceable(move: Operation, dim: int) -> bool:
    """Whether the V->C `move` of a tile halved on `dim` has no gather pto-isa can place (odd box, or lanes of
    different extents)."""
    src, dst = move.operands[0].type, move.results[0].type
    if not isinstance(src, TileType) or not isinstance(dst, TileType) or src.rank != 2:
        return False
    box = src.get_shape()[dim]
    if box == DYNAMIC:
        return False
    if box % 2 == 1:
        return True  # an odd box cannot double to itself; a singleton is not halved at all
    try:
        gather_split_code(dst, dim + 1)
    except PtoError:
        return True
    return False


def reshape_unsplittable(op: Operation, dim: int) -> bool:
    """Whether the vec `pto.reshape` `op`, given an input halved on `dim`, has no per-lane form: the lanes' halves
    are not the halves of one result dim (`reshape_split_target`, e.g. `[8, 16] -> [1, 128]` under LEFT_RIGHT)."""
    if not isinstance(op, ReshapeOp):
        return False
    src, out = op.src.type, op.result.type
    if not isinstance(src, TileType) or not isinstance(out, TileType) or src.space != "vec":
        return False
    if src.rank <= dim or src.get_shape()[dim] in (1, DYNAMIC):
        return False  # never halved (a singleton: `singleton_reshape`; a dynamic box is rejected by the lowering)
    try:
        reshape_split_target(src.get_shape(), dim, out.get_shape())
    except ReshapeSplitError:
        return True
    return False


def singleton_reshape(op: Operation, dim: int) -> bool:
    """Whether the vec `pto.reshape` `op` reshapes a tile whose split axis `dim` is a singleton (`[1, N]` under
    UP_DOWN).  When that tile is a singleton shard (its chain reaches a `[1, N]` C->V boundary: lane 0 holds the
    row, lane 1 an empty copy with a run-time valid extent), no per-lane reshape exists — a reshape has no valid
    operand (`reshape_valid_problem`) and a moved singleton is no lane window of the result — so the chain runs
    whole instead.  Only a chain with no reshape on the way is taken: past one, the split axis may
    have moved (`[8, 16] -> [1, 128]` under UP_DOWN is split on dim 1, and stays per lane); transposes and reshapes
    that keep the singleton a singleton are followed (`_keeps_singleton`)."""
    if not isinstance(op, ReshapeOp):
        return False
    src = op.src.type
    return isinstance(src, TileType) and src.space == "vec" and src.rank > dim and src.get_shape()[dim] == 1


def reinterpret_unsplittable(op: Operation, dim: int) -> bool:
    """Whether the vec `pto.reinterpret_view` `op` (of the inferred shape), given a source halved on the axis the
    lowering will split it on (`predicted_split_axis`), has no exact per-lane view (`reinterpret_halves`): an odd
    source extent on the innermost dim changes width (`[16, 31] x f32 -> [16, 62] x i16` under LEFT_RIGHT), or a
    lane's part is not a whole number of the wider elements.  Its source chain is then computed whole."""
    if not isinstance(op, ReinterpretViewOp):
        return False
    src, out = op.src.type, op.result.type
    if not isinstance(src, TileType) or not isinstance(out, TileType) or src.space != "vec":
        return False
    a = predicted_split_axis(op.src, dim)
    if a is None or src.rank <= a or src.get_shape()[a] in (1, DYNAMIC) or DYNAMIC in out.get_shape():
        return False  # never halved (or a dynamic box, rejected by the lowering)
    if reinterpret_inferred_shape(src, out.element_type) != list(out.get_shape()):
        return False  # an explicit shape: E-REINTERP
    return not reinterpret_halves(halved_tile_type(src, a), out, a)


def slice_needs_whole_source(op: Operation, dim: int) -> bool:
    """Whether the vec `pto.slice` `op` takes a window of the split axis `dim` (not its whole extent) of a source
    that would be halved, and the window cannot be loaded directly instead (the source is not a `pto.load` whose
    cells hold the window: `load_fold_problem`).  Each lane would hold only its half of the source, so the
    source is computed whole on both lanes and the slice is taken as written, then lane-split."""
    from ..patterns.views import load_fold_problem

    if not isinstance(op, (SliceOp, ExtractOp)) or not _splits_window(op, dim):
        return False  # the whole split extent is sliced per lane; a unit or dynamic split axis is never halved
    src, out = op.src.type, op.result.type
    assert isinstance(src, TileType) and isinstance(out, TileType)
    if src.space != "vec" or src.rank < 2:
        return False
    if isinstance(op, ExtractOp):
        return out.space == "vec"  # a vec -> vec extract is a slice window copied out (issue 43, part 5)
    offsets = op.get_mixed_offsets()
    loaded = _loaded_type(op.src, dim)
    if loaded is not None and load_fold_problem(out, offsets, loaded) is None:
        return False  # loaded directly (SliceHalving folds the window into the load)
    return True


def _loaded_type(v: SSAValue, dim: int) -> TileType | None:
    """The type of the vec `pto.load` that `v` is once `SliceHalving` folded the windows into loads: `v`'s own
    when it is a load, or a split-axis window of one that folds; None for any other value."""
    from ..patterns.views import load_fold_problem

    t = v.type
    if not isinstance(t, TileType) or t.space != "vec" or not isinstance(v, OpResult):
        return None
    if isinstance(v.op, LoadOp):
        return t
    if isinstance(v.op, SliceOp) and _splits_window(v.op, dim):
        src = _loaded_type(v.op.src, dim)
        if src is not None and load_fold_problem(t, v.op.get_mixed_offsets(), src) is None:
            return t
    return None


def _splits_window(op: SliceOp | ExtractOp, dim: int) -> bool:
    """Whether the slice (or extract) `op` takes a window of the (non-singleton, static) split axis `dim` of its source, not
    its whole extent."""
    src, out = op.src.type, op.result.type
    if not isinstance(src, TileType) or not isinstance(out, TileType) or src.rank <= dim:
        return False
    if src.get_shape()[dim] in (1, DYNAMIC):
        return False
    return op.get_mixed_offsets()[dim] != 0 or out.get_shape()[dim] != src.get_shape()[dim]


def _runs_whole(chain: set[SSAValue]) -> bool:
    """A chain kept whole for a slice may not contain a value an explicit boundary or a pipe op produced (those
    are per lane by construction, or carry split codes)."""
    return not any(
        isinstance(v, OpResult) and halving_rule_of(v.op) in (HalvingRule.BOUNDARY, HalvingRule.TRANSFER) for v in chain
    )


def whole_chain(root: SSAValue) -> set[SSAValue] | None:
    """The producer chain of `root` that runs whole on both lanes when `root` is kept whole (back to loads, C->V
    boundaries and generators, through scf.for / scf.if, reshapes and transposes); None when one producer cannot
    run whole (a vec parameter, an scf.while, a region op, a hand-written transfer).  A root of
    `auto/whole_retry.py`."""
    chain = _backward_chain(root, None, through_axis_movers=True)
    return chain if chain is not None and _runs_whole(chain) else None


def full_width_chains(f: FuncOp, dim: int, roots: tuple[SSAValue, ...] = ()) -> set[SSAValue]:
    """The vector values (and C->V move results) of `f` to keep at full width; see the module docstring.  `roots`:
    values kept whole besides (`whole_chain` of each; `auto/whole_retry.py`)."""
    keep: set[SSAValue] = set()
    for root in roots:
        keep |= whole_chain(root) or set()
    for op in f.body.walk():
        if is_boundary_move(op) and move_direction(op) is PipeDirection.V2C and gather_unplaceable(op, dim):
            chain = _backward_chain(op.operands[0], op, through_axis_movers=False)
        elif reshape_unsplittable(op, dim):
            chain = _backward_chain(op.operands[0], op, through_axis_movers=True)
        elif singleton_reshape(op, dim):
            chain = _backward_chain(op.operands[0], op, through_axis_movers=False, singleton_dim=dim)
        elif isinstance(op, GatherRowOp) and (dim == 0 or predicted_split_axis(op.src, dim) == 0):
            chain = _backward_chain(op.src, op, through_axis_movers=dim != 0)  # the rows its indices address
        elif reinterpret_unsplittable(op, dim):
            chain = _backward_chain(op.src, op, through_axis_movers=True)  # viewed whole, then lane-sliced
            if chain is not None and not _runs_whole(chain):
                chain = None
        elif slice_needs_whole_source(op, dim):
            chain = _backward_chain(op.operands[0], op, through_axis_movers=True)
            if chain is not None and not _runs_whole(chain):
                chain = None
        else:
            continue
        if chain is not None:
            keep |= chain
    return keep


def predicted_split_axis(v: SSAValue, dim: int, depth: int = 0) -> int | None:
    """The axis the lowering will split the vec tile `v` on when nothing is kept whole, as far as the ops that move
    it tell: a transpose permutes it, a reshape moves it where `reshape_split_target` puts it (a reshape it cannot
    follow is computed whole and lane-sliced on `dim`); any other value keeps the axis of its first tile operand
    that has one, and a boundary, a block argument or a loop / branch result has `dim`.  None for a value that is
    not a vec tile.  Used to keep a `pto.gather_row` table whole when a reshape round trip under LEFT_RIGHT
    regroups the split axis onto its rows (`[8, 16] -> [1, 128] -> [8, 16]`)."""
    if not _is_vec_tile(v) or depth > 64:
        return None
    if not isinstance(v, OpResult) or v.op.regions or move_direction(v.op) is PipeDirection.C2V:
        return dim
    op = v.op
    if isinstance(op, (TransposeOp, TransposeViewOp)):
        a = predicted_split_axis(op.src, dim, depth + 1)
        return None if a is None else list(op.get_axes()).index(a)
    if isinstance(op, ReshapeOp):
        a = predicted_split_axis(op.src, dim, depth + 1)
        src, out = op.src.type, op.result.type
        if a is None or not isinstance(src, TileType) or not isinstance(out, TileType) or src.rank <= a:
            return a
        try:
            return reshape_split_target(src.get_shape(), a, out.get_shape())
        except ReshapeSplitError:
            return dim  # computed whole and lane-sliced on the function's axis (`ReshapeHalving._slice_full_width`)
    for x in op.operands:
        a = predicted_split_axis(x, dim, depth + 1)
        if a is not None:
            return a
    return dim


def _backward_chain(
    root: SSAValue, sink: Operation | None, through_axis_movers: bool, singleton_dim: int | None = None
) -> set[SSAValue] | None:
    """The backward slice of `root` to keep whole, or None when it meets what cannot be kept whole.  Axis movers
    (reshape, transpose) stop it unless `through_axis_movers`; with `singleton_dim` (the chain of a singleton
    reshape) it follows those that keep a singleton split axis a singleton (`_keeps_singleton`)."""
    chain: set[SSAValue] = set()
    work = [root]
    while work:
        v = work.pop()
        if v in chain:
            continue
        if not _is_vec_tile(v):
            continue  # cube values and scalars are full width on every lane already
        if isinstance(v, BlockArgument):
            loop = v.block.parent_op()
            if not isinstance(loop, scf.ForOp) or v.index == 0:
                return None  # a vec parameter, a while carry: not followed
            _carry(chain, work, loop, v.index - 1)
            continue
        assert isinstance(v, OpResult)
        op = v.op
        if isinstance(op, scf.ForOp):
            _carry(chain, work, op, v.index)
            continue
        if isinstance(op, scf.IfOp):
            chain.add(v)  # whole when the value each branch yields is
            work.extend(r.block.last_op.operands[v.index] for r in op.regions if r.blocks)  # type: ignore[union-attr]
            continue
        if op.regions or (
            isinstance(op, AXIS_MOVERS)
            and not through_axis_movers
            and not (singleton_dim is not None and _keeps_singleton(op, singleton_dim))
        ):
            return None  # control flow; or the V->C operand's split axis may not be the function's (the gather decides)
        if move_direction(op) is PipeDirection.C2V:
            chain.update(op.results)
            continue  # the cube source stays full width anyway
        if intrinsic_affinity(op) == Affinity.CUBE or not any(isinstance(r.type, TileType) for r in op.results):
            continue  # cube values and scalars are full width on every lane already
        chain.update(op.results)
        work.extend(x for x in op.operands if isinstance(x.type, TileType))
    return chain


def _keeps_singleton(op: Operation, dim: int) -> bool:
    """Whether the axis mover `op` keeps a singleton split axis a singleton: a transpose carries it along (a round
    trip brings it back), and a reshape that keeps `dim` a singleton with the same dims before it
    (`[1, 32] -> [1, 32]` under UP_DOWN) leaves it where it was."""
    if isinstance(op, (TransposeOp, TransposeViewOp)):
        return True
    src, out = op.operands[0].type, op.results[0].type
    if not isinstance(src, TileType) or not isinstance(out, TileType) or min(src.rank, out.rank) <= dim:
        return False
    s, o = src.get_shape(), out.get_shape()
    return s[dim] == 1 and o[dim] == 1 and DYNAMIC not in (*s[:dim], *o[:dim]) and math.prod(s[:dim]) == math.prod(o[:dim])


def _is_vec_tile(v: SSAValue) -> bool:
    return isinstance(v.type, TileType) and v.type.space == "vec"


def _carry(chain: set[SSAValue], work: list[SSAValue], loop: scf.ForOp, i: int) -> None:
    """A tile carried by `loop` as #i is whole when its initial and its yielded values are: the block argument
    and the result join the chain, both sources are followed."""
    chain.add(loop.body.block.args[i + 1])
    chain.add(loop.results[i])
    work.append(loop.iter_args[i])
    work.append(loop.body.block.last_op.operands[i])  # type: ignore[union-attr]


__all__ = [
    "full_width_chains", "gather_unplaceable", "predicted_split_axis", "reinterpret_unsplittable",
    "reshape_unsplittable", "slice_needs_whole_source", "whole_chain",
]
