"""MX scale V->C transfers on a5 (seed "MX scale 的 V2C 传输"; facts in `analysis/mx_scale.py`).

An `f8E8M0FNU` fractal-32 scale bound for `left_scale` / `right_scale` does not cross in NZ.  The cube pops it in
`mat` with the consumer's logical shape, layout and valid region (then places it with a `mat -> *_scale` move);
the vector side pushes a *row/row carrier*, built by `build_carrier`:

1. a producer whose layout is not the consumer's (a plain `vec` tile) is first moved, Vec->Vec, to the consumer's
   scale layout: `%<src>_mx = pto.move` (row/row/32 for a left scale, col/col/32 for a right scale);
2. a partially valid scale sends the full physical box: a private Vec carrier (that move) whose valid region is
   widened with `%<src>_box = pto.set_validshape`; the logical tile's metadata is untouched and the pop keeps
   the logical valid region;
3. a col/col scale is pushed through the zero-copy `%<src>_rr = pto.transpose_view` (the row/row tile of the
   transposed shape, the same bytes).

Split transfers (`pto.aic_gather`): a left scale joins row bands (`MX_A_ZZ`, split code 1); a right scale joins
column bands (`MX_B_NN`), which the transpose view turns into row bands, so both sides carry code 1 and the
`mat` pop keeps the full col/col shape.  A gather along the scale-group axis, or of a partially valid box, is
rejected.  MX is an a5 (Ascend950) feature: on a2a3 every scale transfer is rejected.

Hand-written pushes (`adapt_manual_mx_pushes`, the MX half of AdaptManualVtoCPush): every `tpush_to_aic` of an
`f8E8M0FNU` tile is paired, by V2C pipe id and order, with the `tpop_from_aiv` of the peer AIC function (found
from the AIV `import_peer_buffer` to the AIC `reserve_buffer`), and its carrier is planned from that pop.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import (
    AicGatherOp,
    AicInitializePipeOp,
    AivInitializePipeOp,
    ImportPeerBufferOp,
    MoveOp,
    ReserveBufferOp,
    SetValidShapeOp,
    TPopFromAivOp,
    TPushToAicOp,
    TransposeViewOp,
    get_int_attr,
)
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType, format_shape, tile_bytes, transpose_view_type

from ..analysis.affinity import is_boundary_move, move_direction
from ..analysis.lanes import SPLIT_CODE_NAMES, SPLIT_NONE, SPLIT_UP_DOWN, split_dim_of_code
from ..analysis.mx_scale import (
    GROUP_AXIS,
    SCALE_FRACTAL,
    SCALE_LAYOUTS,
    SCALE_SPACES,
    is_e8m0,
    is_scale_carrier,
    scale_kind,
    scale_layout_problem,
    scale_mat_type,
)
from ..common import kind_of, with_loc
from .boundaries import _BoundaryPattern, _named
from .split import SideBody

PASS = "ExpandMixedKernel"
BAND = {"row": "MX_A_ZZ row bands (split up_down)", "col": "MX_B_NN column bands (split left_right)"}


def _require_a5(target: str, what: str, op: Operation) -> None:
    if target != "a5":
        raise PtoError(
            f"{PASS}: {what} is an MX scale transfer, which exists only on a5 (Ascend950: MX matmuls and their "
            f"row/row scale carriers); {target} has no MX scale path. Compile this kernel for "
            f"#pto.target<a5>, or keep the scales on the cube side (load them from GM into the scale space)",
            op=op,
        )


def _check_scale_dest(dest: TileType, op: Operation) -> str:
    """The scale kind of a V->C destination, or a located error naming what is wrong with it."""
    if dest.space in SCALE_SPACES:
        problem = scale_layout_problem(dest)
        if problem is not None:
            raise PtoError(f"{PASS}: this vector -> cube move lands in '{dest.space}', but {problem}", op=op)
    kind = scale_kind(dest)
    assert kind is not None
    return kind


def _carrier_code(kind: str, split: int, logical: TileType, src: TileType, op: Operation) -> int:
    """The split code both sides carry for a scale gathered with `split` (0: none); rejects the cuts the
    carrier cannot express."""
    if split == SPLIT_NONE:
        return SPLIT_NONE
    dim = split_dim_of_code(split)
    if dim == GROUP_AXIS[kind]:
        raise PtoError(
            f"{PASS}: this gather splits a {kind}/{kind} MX scale along its scale-group axis (dim {dim}, split "
            f"{SPLIT_CODE_NAMES[split]}); an MX scale is gathered only as {BAND[kind]}, a cut through the groups "
            f"needs a blocked layout transfer that is not implemented. Split the kernel along the other axis, or "
            f"move the whole scale (split none)",
            op=op,
        )
    if not logical.is_fully_valid() or not src.is_fully_valid():
        raise PtoError(
            f"{PASS}: this gather joins partially valid MX scale boxes (lane box {format_shape(src.get_shape())} "
            f"valid {format_shape(src.get_valid())}, gathered valid {format_shape(logical.get_valid())}); the "
            f"full-physical-box carrier covers a split scale only when every box is fully valid. Pad the scale "
            f"to full boxes, or move it unsplit",
            op=op,
        )
    return SPLIT_UP_DOWN  # row bands, or column bands through the transpose view


def build_carrier(src: SSAValue, kind: str, op: Operation) -> tuple[list[Operation], SSAValue]:
    """The ops that turn the `vec` scale `src` into the row/row carrier an a5 push sends (see the module doc)."""
    t = src.type
    assert isinstance(t, TileType)
    base = src.name_hint
    b, s = SCALE_LAYOUTS[kind]
    want = t.with_(blayout=b, slayout=s, fractal=SCALE_FRACTAL)
    partial = not t.is_fully_valid()
    ops: list[Operation] = []
    v = src
    if t != want or partial:
        mv = MoveOp(v, want)
        _named(mv.result, base, "_mx")
        ops.append(mv)
        v = mv.result
    if partial:
        shape = list(want.get_shape())
        if DYNAMIC in shape:
            raise PtoError(f"{PASS}: an MX scale carrier needs a static box, this scale is {want}", op=op)
        sv = SetValidShapeOp(v, shape, want.with_(valid=shape))
        _named(sv.result, base, "_box")
        ops.append(sv)
        v = sv.result
    if kind == "col":
        vt = v.type
        assert isinstance(vt, TileType)
        tv = TransposeViewOp(v, transpose_view_type(vt, (1, 0)))  # col/col [a, b] -> row/row [b, a]
        _named(tv.result, base, "_rr")
        ops.append(tv)
        v = tv.result
    for o in ops:
        with_loc(o, op)
    return ops, v


class LowerVectorToScaleMove(RewritePattern):
    """A vec -> `left_scale`/`right_scale` (or scale-typed `mat`) move: AIC pops the scale in `mat` and places
    it; AIV pushes the row/row carrier (split code 0)."""

    def __init__(self, body: SideBody):
        self.impl = _BoundaryPattern(body)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MoveOp, rewriter: PatternRewriter) -> None:
        b = self.impl
        if op not in b.body.orig_of or not is_boundary_move(op) or move_direction(op) != "v2c":
            return
        dest = op.result.type
        assert isinstance(dest, TileType)
        if scale_kind(dest) is None:
            return
        _require_a5(b.body.target, f"this vector -> cube move into '{dest.space}'", op)
        kind = _check_scale_dest(dest, op)
        if b.side == "aic":
            pop = TPopFromAivOp(scale_mat_type(dest), split=SPLIT_NONE)
            new_ops: list[Operation] = [pop]
            result = pop.result
            if dest.space == "mat":
                _named(pop.result, op.result.name_hint)
            else:
                _named(pop.result, op.result.name_hint, "_mat")
                place = MoveOp(pop.result, dest)
                _named(place.result, op.result.name_hint)
                new_ops.append(place)
                result = place.result
            b._insert(rewriter, op, new_ops)
            src = op.src
            b._replace_result(rewriter, op, result)
            b._remap_source(src, pop)
            return
        ops, carrier = build_carrier(op.src, kind, op)
        b._insert(rewriter, op, ops + [TPushToAicOp(carrier, split=SPLIT_NONE)])
        b._leave_undefined(rewriter, op)


class LowerScaleGather(RewritePattern):
    """`pto.aic_gather` of an MX scale (result in `mat` with a scale layout): AIC pops the gathered logical
    scale; each AIV lane pushes its carrier; both carry the carrier's split code."""

    def __init__(self, body: SideBody):
        self.impl = _BoundaryPattern(body)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AicGatherOp, rewriter: PatternRewriter) -> None:
        b = self.impl
        if op not in b.body.orig_of:
            return
        src_t, res_t = op.src.type, op.result.type
        assert isinstance(src_t, TileType) and isinstance(res_t, TileType)
        kind = scale_kind(res_t)
        if kind is None:
            return
        _require_a5(b.body.target, "this aic_gather of an f8E8M0FNU scale", op)
        code = _carrier_code(kind, op.split.value.data, res_t, src_t, op)
        if b.side == "aic":
            pop = TPopFromAivOp(res_t, split=code)
            _named(pop.result, op.result.name_hint)
            b._insert(rewriter, op, [pop])
            b._replace_result(rewriter, op, pop.result)
            return
        ops, carrier = build_carrier(op.src, kind, op)
        b._insert(rewriter, op, ops + [TPushToAicOp(carrier, split=code)])
        b._leave_undefined(rewriter, op)


def mx_scale_patterns(body: SideBody) -> list[RewritePattern]:
    """Tried before the generic boundary patterns: they claim the scale boundaries first."""
    return [LowerVectorToScaleMove(body), LowerScaleGather(body)]


def mx_ring_hint(f: func.FuncOp) -> str:
    """The slot_num = 4 rule (seed): a kernel that gathers all four MX matmul operands before their use holds four
    slots; the text added to the ring-depth error of such a kernel (empty for other kernels)."""
    from pypto_mlir.dialects.pto_mx_ops import MX_OPS

    if not any(isinstance(op, MX_OPS) for op in f.walk()):
        return ""
    return (
        "; an MX matmul whose four operands (lhs, lhs scale, rhs, rhs scale) all cross before their use holds four "
        "slots, so it needs pto.slot_num = 4 even with the scale carriers right"
    )
