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

from pypto_mlir.diagnostics import PtoError, location_of
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
)
from pypto_mlir.dialects.pto_traits import CoreSide, PipeDirection
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType, format_shape, tile_bytes, transpose_view_type

from pypto_mlir.dialects.pto_lanes import SPLIT_CODE_NAMES, SPLIT_NONE, SPLIT_UP_DOWN, split_dim_of_code
from ..analysis.mx_scale import (
    GROUP_AXIS,
    carrier_type,
    SCALE_FRACTAL,
    SCALE_LAYOUTS,
    SCALE_SPACES,
    is_e8m0,
    scale_kind,
    scale_layout_problem,
    scale_mat_type,
)
from ..common import FunctionKind, kind_of, with_loc
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
    assert v.type == carrier_type(t, kind), (v.type, carrier_type(t, kind))
    return ops, v


class LowerVectorToScaleMove(_BoundaryPattern):
    """A vec -> `left_scale`/`right_scale` (or scale-typed `mat`) move: AIC pops the scale in `mat` and places
    it; AIV pushes the row/row carrier (split code 0)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MoveOp, rewriter: PatternRewriter) -> None:
        if (dest := self.boundary_move_dest(op, PipeDirection.V2C)) is None or scale_kind(dest) is None:
            return
        _require_a5(self.body.target, f"this vector -> cube move into '{dest.space}'", op)
        kind = _check_scale_dest(dest, op)
        if self.side is CoreSide.AIC:
            self.pop_and_place(rewriter, op, scale_mat_type(dest), split=SPLIT_NONE)
            return
        ops, carrier = build_carrier(op.src, kind, op)
        self.push(rewriter, op, ops + [TPushToAicOp(carrier, split=SPLIT_NONE)])


class LowerScaleGather(_BoundaryPattern):
    """`pto.aic_gather` of an MX scale (result in `mat` with a scale layout): AIC pops the gathered logical
    scale; each AIV lane pushes its carrier; both carry the carrier's split code."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AicGatherOp, rewriter: PatternRewriter) -> None:
        if (tiles := self.boundary_tiles(op)) is None:
            return
        src_t, res_t = tiles
        kind = scale_kind(res_t)
        if kind is None:
            return
        _require_a5(self.body.target, "this aic_gather of an f8E8M0FNU scale", op)
        code = _carrier_code(kind, op.split.value.data, res_t, src_t, op)
        if self.side is CoreSide.AIC:
            self.pop(rewriter, op, TPopFromAivOp(res_t, split=code))
            return
        ops, carrier = build_carrier(op.src, kind, op)
        self.push(rewriter, op, ops + [TPushToAicOp(carrier, split=code)])


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


# -- hand-written pushes (AdaptManualVtoCPush, the MX half) ------------------------------------------------------


def _one(ops: list[Operation], what: str, where: str, fix: str, op: Operation) -> Operation:
    """The single op of `ops`, or a located error saying there is none or more than one."""
    if len(ops) == 1:
        return ops[0]
    if not ops:
        raise PtoError(f"{PASS}: this MX scale push needs a {what}, but {where} has none; {fix}", op=op)
    raise PtoError(
        f"{PASS}: this MX scale push needs exactly one {what}, but {where} has {len(ops)} (at "
        f"{', '.join(_at(o) for o in ops)}); give each pipe its own id",
        op=op,
    )


def _at(op: Operation) -> str:
    loc = location_of(op)
    return f"{loc.line}:{loc.col}" if loc is not None else op.name


class _ManualPipe:
    """One hand-written V2C pipe of an AIV function, resolved to its consumer: the AIV import of the ring leads to
    the AIC `reserve_buffer`, and the pipe's pushes (in the AIV) and pops (in the AIC) pair up in order."""

    def __init__(self, aiv: func.FuncOp, pid: int, funcs: dict[str, func.FuncOp], push: TPushToAicOp):
        fname = f"@{aiv.sym_name.data}"
        fix_init = f"initialize V2C pipe {pid} once with pto.aiv_initialize_pipe {{id = {pid}}}"
        self.init = _one(
            [o for o in aiv.walk() if isinstance(o, AivInitializePipeOp) and o.pipe_id == pid],
            f"pto.aiv_initialize_pipe of V2C pipe {pid}", fname, fix_init, push,
        )
        imp = self.init.operands[1].owner
        if not isinstance(imp, ImportPeerBufferOp):
            raise PtoError(
                f"{PASS}: this MX scale push is planned from its consumer's pop, but the V2C buffer of pipe {pid} "
                f"(operand 2 of the pto.aiv_initialize_pipe at {_at(self.init)}) is not a pto.import_peer_buffer, so "
                f"the AIC function that pops it cannot be found; import the AIC's V2C ring with "
                f"pto.import_peer_buffer {{peer_func = @<aic>}}",
                op=push,
            )
        peer_name = imp.peer_func.root_reference.data
        peer = funcs.get(peer_name)
        if peer is None or kind_of(peer) != FunctionKind.AIC or not peer.body.blocks:
            what = "does not exist" if peer is None else "is not an AIC function with a body"
            raise PtoError(
                f"{PASS}: this MX scale push is planned from its consumer's pop, but the peer of V2C pipe {pid} "
                f"(peer_func @{peer_name} of the pto.import_peer_buffer at {_at(imp)}) {what}; name the AIC kernel "
                f"that reserves '{imp.buffer_name.data}'",
                op=push,
            )
        name = imp.buffer_name.data
        reserve = _one(
            [o for o in peer.walk() if isinstance(o, ReserveBufferOp) and o.buffer_name.data == name],
            f"pto.reserve_buffer named '{name}' in its peer", f"@{peer_name}",
            f"reserve the V2C ring '{name}' in @{peer_name}", push,
        )
        peer_init = _one(
            [o for o in peer.walk() if isinstance(o, AicInitializePipeOp) and o.pipe_id == pid],
            f"pto.aic_initialize_pipe of V2C pipe {pid} in its peer", f"@{peer_name}",
            f"initialize V2C pipe {pid} in @{peer_name} with pto.aic_initialize_pipe {{id = {pid}}}", push,
        )
        if peer_init.operands[1] is not reserve.results[0]:
            raise PtoError(
                f"{PASS}: the pto.aic_initialize_pipe of V2C pipe {pid} in @{peer_name} (at {_at(peer_init)}) does "
                f"not take the ring '{name}' this pipe's import names; pass %{reserve.results[0].name_hint or name} "
                f"as its V2C buffer",
                op=push,
            )
        self.pushes = [o for o in aiv.walk() if isinstance(o, TPushToAicOp) and o.pipe_id == pid]
        self.pops = [o for o in peer.walk() if isinstance(o, TPopFromAivOp) and o.pipe_id == pid]
        if len(self.pushes) != len(self.pops):
            raise PtoError(
                f"{PASS}: V2C pipe {pid} has {len(self.pushes)} pto.tpush_to_aic in {fname} but "
                f"{len(self.pops)} pto.tpop_from_aiv in @{peer_name}; pushes and pops pair up in order, so an MX "
                f"scale push cannot find its consumer. Give every push on the pipe one pop",
                op=push,
            )
        self.peer_name = peer_name
        self.pid = pid
        self.slot_size = self.init.slot_bytes

    def pop_of(self, push: TPushToAicOp) -> TPopFromAivOp:
        return self.pops[self.pushes.index(push)]


def _manual_lane_box(push: TPushToAicOp, pop: TPopFromAivOp, kind: str, pid: int) -> tuple[TileType, int]:
    """One producer's logical box of the scale `pop` receives, and how many producers fill the slot.

    The split code of a hand-written transfer is the code the FIFO carries, as in the pass's own output: the
    carrier's rows for both kinds (a `row` scale's MX_A_ZZ row bands; a `col` scale's MX_B_NN column bands, which
    are the rows of its transposed carrier)."""
    pt = pop.result.type
    assert isinstance(pt, TileType)
    c_push, c_pop = push.split.value.data, pop.split.value.data
    if c_push != c_pop:
        raise PtoError(
            f"{PASS}: this MX scale push carries split = {c_push} ({SPLIT_CODE_NAMES[c_push]}) but its consumer, the "
            f"pto.tpop_from_aiv at {_at(pop)} (V2C pipe {pid}), pops with split = {c_pop} "
            f"({SPLIT_CODE_NAMES[c_pop]}); both ends of a transfer carry the same code",
            op=push,
        )
    if DYNAMIC in pt.get_shape():
        raise PtoError(f"{PASS}: an MX scale carrier needs a static box, the consumer pops {pt}", op=push)
    if c_push == SPLIT_NONE:
        return pt, 1
    if c_push != SPLIT_UP_DOWN:
        cut = GROUP_AXIS[kind]
        raise PtoError(
            f"{PASS}: this MX scale push carries split = {c_push} ({SPLIT_CODE_NAMES[c_push]}); the FIFO holds the "
            f"row/row carrier, and for a {kind}/{kind} scale that split cuts the logical scale along its "
            f"scale-group axis (dim {cut}). An MX scale crosses split only as {BAND[kind]}, which the carrier "
            f"carries as split = 1 on both ends",
            op=push,
        )
    dim = 0 if kind == "row" else 1  # the logical dim the carrier's rows are
    shape = list(pt.get_shape())
    if not pt.is_fully_valid() or shape[dim] % 2:
        raise PtoError(
            f"{PASS}: this split MX scale push needs a fully valid consumer box with an even dim {dim}, but the "
            f"pto.tpop_from_aiv at {_at(pop)} pops {pt}; pad the scale to full even boxes, or push it unsplit",
            op=push,
        )
    shape[dim] //= 2
    return pt.with_(shape=shape), 2


def _adapt_manual_mx_push(push: TPushToAicOp, pipe: _ManualPipe) -> None:
    pop = pipe.pop_of(push)
    pt = pop.result.type
    assert isinstance(pt, TileType)
    kind = scale_kind(pt)
    if pt.space != "mat" or kind is None:
        return  # an f8E8M0FNU tile popped as ordinary data: the NZ adapter's business
    box, lanes = _manual_lane_box(push, pop, kind, pipe.pid)
    want = carrier_type(box, kind)
    need = (tile_bytes(want) or 0) * lanes
    if need > pipe.slot_size:
        raise PtoError(
            f"{PASS}: the MX scale carrier of this push ({want}{', two lanes' if lanes == 2 else ''}) is {need} "
            f"bytes, but V2C pipe {pipe.pid} has slot_size = {pipe.slot_size}; raise the slot_size of both "
            f"initialize_pipe ops (and the ring's size) to at least {need}",
            op=push,
        )
    t = push.tile.type
    assert isinstance(t, TileType)
    if t == want:
        return  # already at the boundary view: the pass's own pushes, and a second run
    logical = box.with_(memory_space="vec", reset_view=True, valid=box.get_valid())
    if not is_e8m0(t) or t.get_shape() != box.get_shape() or t.get_valid() != box.get_valid():
        raise PtoError(
            f"{PASS}: this push sends {t}, but its consumer, the pto.tpop_from_aiv at {_at(pop)} (V2C pipe "
            f"{pipe.pid}) in @{pipe.peer_name}, pops the MX scale {pt}: the push must send "
            f"{'one lane box of ' if lanes == 2 else ''}that scale (a vec tile of shape "
            f"{format_shape(logical.get_shape())}, valid {format_shape(logical.get_valid())}) or its row/row "
            f"carrier {want}",
            op=push,
        )
    ops, carrier = build_carrier(push.tile, kind, push)
    block = push.parent_block()
    assert block is not None
    block.insert_ops_before(ops, push)
    push.operands[0] = carrier


def adapt_manual_mx_pushes(module: ModuleOp) -> None:
    """Plan every `tpush_to_aic` of an `f8E8M0FNU` tile in an AIV function from its consumer's pop (a5; see the
    module doc): the push gets the carrier ops of `build_carrier` and keeps all its attributes."""
    funcs = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    for f in funcs.values():
        if kind_of(f) != FunctionKind.AIV or not f.body.blocks:
            continue
        pipes: dict[int, _ManualPipe] = {}
        for push in [o for o in f.walk() if isinstance(o, TPushToAicOp)]:
            t = push.tile.type
            if not isinstance(t, TileType) or not is_e8m0(t):
                continue
            pid = push.pipe_id
            if pid not in pipes:
                pipes[pid] = _ManualPipe(f, pid, funcs, push)
            _adapt_manual_mx_push(push, pipes[pid])
