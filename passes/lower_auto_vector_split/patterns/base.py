"""The shared base of the LowerAutoVectorSplit halving patterns: the pattern base classes (`_SplitPattern`, driven
by `SplitLowering.lower_op`, and `_PerLanePattern` for ops whose operand is already per lane) and the window,
offset and lane-part helpers more than one family uses. It imports no pattern family and not the driver."""

from __future__ import annotations


from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_traits import TileGenerator
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType, format_dim
from pypto_mlir.dialects.pto_lanes import (
    ceil_half,
    lane_extents,
    needs_valid_clamp,
)
from pypto_mlir.passes.analysis.split_axis import (
    TileInfo,
    halved_tile_type,
)
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..lowering import SplitLowering


PASS = "LowerAutoVectorSplit"


def _name(v: SSAValue) -> str:
    return v.name_hint or "<unnamed>"


class LaneMismatch(PtoError):
    """A refusal where per-lane values meet values split on another axis, or values of another width (issue 43
    classes 1, 2, 4, 13): `wholes` are per-lane values of the partly lowered kernel, each with the axis it is split
    on (None: not per lane), whose producer chains, computed whole on both lanes instead, could remove the
    mismatch.  The AUTO path may lower the kernel again with one of them whole (`auto/whole_retry.py`); otherwise
    this is an ordinary located error."""

    def __init__(self, message: str, op: Operation | None, wholes: list[tuple[SSAValue, int | None]]):
        super().__init__(message, op=op)
        self.wholes = tuple(wholes)

    @classmethod
    def of(cls, e: PtoError, wholes: list[tuple[SSAValue, int | None]]) -> LaneMismatch:
        """`e` (same message and op) with the remedies `wholes`."""
        return cls(e.message, e.op, wholes)


def axes_meet_error(op: Operation, what: str, split: list[tuple[SSAValue, TileInfo]]) -> LaneMismatch:
    """The refusal where values split over the lanes on different axes meet in `op` (`what`: how `op` combines
    them): a transpose moved the split axis of one of them, so each lane holds a row band of one and a column
    band of the other, and no lane holds the matching cells of both."""
    parts = ", ".join(f"'{_name(v)}' on dim {info.dim}" for v, info in split)
    return LaneMismatch(
        f"{PASS}: {what} values split over the AIV lanes on different axes ({parts}): a pto.transpose moved the "
        "split axis of one of them, so each lane holds a different band of each and no lane holds the cells the "
        "other one needs (combining them needs a cross-lane exchange this pass does not build). Transpose the "
        "other value too so both are split on the same axis, move the transpose after the point where they meet, "
        "or split the kernel the other way",
        op,
        [(v, info.dim) for v, info in split],
    )


def check_same_axis(op: Operation, what: str, vals: list[SSAValue], tracked: dict[SSAValue, TileInfo]) -> None:
    """Refuse `op` when its per-lane values among `vals` are split on different axes (`axes_meet_error`)."""
    split = [(v, tracked[v]) for v in vals if v in tracked]
    if len({info.dim for _, info in split}) > 1:
        raise axes_meet_error(op, what, split)


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


def window_stays_whole(lw: SplitLowering, src: SSAValue, t: TileType, offsets: list, lane_window: bool) -> bool:
    """Whether a window op (`pto.slice`, `pto.extract`) with result type `t` over `src` keeps its result whole on
    both lanes: its source is whole (`lw.is_whole`: a full-width chain value, computed unsplit on both lanes) and
    the window has no per-lane form on the split axis — lane 1's slice window `[offset + step, + ceil(box/2))`
    passes the source's box (an odd window that ends at the source's end: `pto` has no padded slice), or, for an
    extract (`lane_window` false: it copies whole windows), the window's split extent does not halve evenly.  Both
    lanes then take the window as written (the unsplit program's cells); its users take its lane part where one
    exists, else run whole or are refused where it meets per-lane data (`SplitLowering._take_lane_parts`)."""
    if lw.info(src) is not None or not lw.is_whole(src):
        return False
    d = lw.dim
    src_type = src.type
    if t.rank <= d or t.get_shape()[d] in (1, DYNAMIC) or not isinstance(src_type, TileType):
        return False
    box = t.get_shape()[d]
    if not lane_window:
        halved = halved_tile_type(t, d, lw.lane_stride)
        return halved.get_valid() != halved.get_shape()
    off, extent = offsets[d], src_type.get_shape()[d]
    return isinstance(off, int) and extent != DYNAMIC and off + lw.step_for(box) + ceil_half(box) > extent


def _dynamic_box_error(op: Operation, dim: int) -> PtoError:
    return PtoError(
        f"{PASS}: the split axis (dim {dim}) of '{op.name}' has a dynamic box ('?'); the pto dialect carries no SSA "
        "extent for a tile dimension, so the per-lane half and offsets cannot be computed. Give the tile a static "
        "box and express the runtime extent as a valid extent (e.g. pto.load ... valid [%v, N])",
        op=op,
    )


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
    gen = v.op.get_trait(TileGenerator) if isinstance(v, OpResult) else None
    if gen is not None and gen.linear and d > 0 and any(x != 1 for x in t.get_shape()[:d]):
        whole = f"'{v.op.name}' under a split of its columns: a lane's columns of several rows are not one run of its values"
    else:
        whole = "it or its producers feed a reshape, a window or a V->C boundary that has no per-lane form"
    return PtoError(
        f"{PASS}: '{op.name}' reads '{_name(v)}' ({t}), which this pass computes whole on both lanes ({whole}), "
        "together with per-lane halves; its lane part "
        f"cannot be sliced out: {why}. Make the split extent even (pad the tile), or keep this value off the "
        "per-lane data",
        op=op,
    )


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
