"""The MixedKernelExpanded verifier (reference §7.1, seed "属性验证器").

`verify_mixed_kernel_expanded(module)` checks the contract ExpandMixedKernel promises, and that hand-written
AIC/AIV kernels must keep too; it raises a `PtoError` at the first violation, located at the offending op:

1. no `incore` function contains both cube and vector ops (it should have been expanded);
2. in AIC/AIV functions, cross-core ops (tpush, tpop, initialize_pipe) belong to the function's side, and pops
   land where the side reads them (AIC: `mat`, AIV: `vec`);
3. every initialize_pipe: an `arith.constant 0 : i32` placeholder exactly for each inactive direction, the
   buffer of an active direction made by the right op (AIC: C2V import / V2C reserve; AIV: C2V reserve / V2C
   import), `local_slot_num` at most the effective slot_num and never on a5;
4. the numbers of reserve_buffer / import_peer_buffer ops equal what the initialized directions require;
5. a body with tpush/tpop: static tile sizes; the setup (initialize_pipe, and the reserve/import each used
   direction needs) among the top-level ops before the first one that contains a tpush/tpop; each direction
   used is enabled by the dir_mask; each tile fits the slot_size;
6. per block (nested blocks independently): every tpop has exactly one tfree of the matching kind on its
   result, no tfree frees anything else, nothing reads a value sharing the popped slot (`analysis/slots.py`:
   views, scf.if/for/while results and loop arguments) after its tfree, the terminator passes no such value
   out to a reader, and no more slots of a pipe are held at once than its `local_slot_num`, else its
   slot_num (the ring depth);
7. an import_peer_buffer names an existing peer function of the other side that reserves that buffer, the
   reserve is large enough for `slot_size x depth`, and the two initializers agree;
8. for an AIC/AIV pair linked by an import and taking the same parameters: every cross-core dependence between
   their GM accesses (`analysis/hazards.py: check_split_pair`) is ordered by a transfer, within the iteration
   one way or the other, and across iterations the other way when they share a loop.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import IsTerminator

from pypto_mlir.diagnostics import PtoError, location_of
from pypto_mlir.dialects.pto_ops import (
    INIT_OPS,
    TFREE_FOR_TPOP,
    TRANSFER_OPS,
    ImportPeerBufferOp,
    ReserveBufferOp,
)
from pypto_mlir.dialects.pto_traits import CoreSide, CubeAffinity, PipeDirection, VectorAffinity
from pypto_mlir.dialects.pto_types import target_of

from ..analysis.affinity import Affinity, AffinityAnalysis
from ..common import FunctionKind, kind_of
from .pipe_metadata import (
    Side,
    collect_pipe_metadata,
    direction_of,
    is_zero_i32,
    nested_blocks,
    side_of,
    transfer_bytes,
)
from ..analysis.hazards import check_split_pair, param_aliases
from ..analysis.slots import TFREE_OPS, TPOP_OPS, block_chains, live_escapes
from ..analysis.traits import op_has_trait
from .tfree import check_local_depth


def _fname(f: func.FuncOp) -> str:
    return f.sym_name.data


def _where(op: Operation) -> str:
    loc = location_of(op)
    return f" at {loc.line}:{loc.col}" if loc is not None else ""


def verify_mixed_kernel_expanded(module: ModuleOp) -> None:
    """Raise a located `PtoError` at the first violation of the MixedKernelExpanded contract."""
    target = target_of(module)
    funcs = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    for f in funcs.values():
        if not f.body.blocks:
            continue
        kind = kind_of(f)
        core = CoreSide.of_kind(kind)
        if kind == FunctionKind.INCORE:
            _check_incore_not_mixed(f)
        elif core is not None:
            _check_kernel(f, side_of(core), target, funcs)
    aliases = param_aliases(module)
    for aic, aiv in _pairs(funcs):
        check_split_pair(aic, aiv, aliases)


def _pairs(funcs: dict[str, func.FuncOp]) -> list[tuple[func.FuncOp, func.FuncOp]]:
    """AIC/AIV kernels linked by an import_peer_buffer and taking the same parameters (a split pair)."""
    out: dict[tuple[str, str], tuple[func.FuncOp, func.FuncOp]] = {}
    for f in funcs.values():
        core = CoreSide.of_kind(kind_of(f))
        if core is None or not f.body.blocks:
            continue
        for op in f.walk():
            if not isinstance(op, ImportPeerBufferOp):
                continue
            peer = funcs.get(op.peer_func.root_reference.data)
            if peer is None or not peer.body.blocks or CoreSide.of_kind(kind_of(peer)) is not core.other:
                continue
            aic, aiv = (f, peer) if core is CoreSide.AIC else (peer, f)
            if aic.function_type.inputs != aiv.function_type.inputs:
                continue
            out[(aic.sym_name.data, aiv.sym_name.data)] = (aic, aiv)
    return list(out.values())


# -- 1. no mixed incore ------------------------------------------------------------------------------------------


def _check_incore_not_mixed(f: func.FuncOp) -> None:
    analysis = AffinityAnalysis(f)
    first: dict[Affinity, Operation] = {}
    for op in f.walk():
        if op is f or op.regions:
            continue
        a = analysis.get(op)
        sides = [Affinity.CUBE, Affinity.VECTOR] if a == Affinity.MIXED else [a]
        for s in sides:
            if s in (Affinity.CUBE, Affinity.VECTOR):
                first.setdefault(s, op)
        if Affinity.CUBE in first and Affinity.VECTOR in first:
            other = first[Affinity.CUBE] if first[Affinity.VECTOR] is op else first[Affinity.VECTOR]
            raise PtoError(
                f"InCore function '{_fname(f)}' contains both Cube and Vector tile ops (should have been "
                f"expanded): '{op.name}' here is {a}, '{other.name}'{_where(other)} is "
                f"{'cube' if other is first[Affinity.CUBE] else 'vector'}; run --expand-mixed-kernel first",
                op=op,
            )


# -- 2.-7. AIC / AIV kernels -------------------------------------------------------------------------------------


def _op_side(op: Operation) -> CoreSide | None:
    """The side an op with a fixed core affinity must run on (None for memory-driven and shared ops)."""
    if op_has_trait(op, CubeAffinity):
        return CoreSide.AIC
    if op_has_trait(op, VectorAffinity):
        return CoreSide.AIV
    return None


def _check_kernel(f: func.FuncOp, s: Side, target: str | None, funcs: dict[str, func.FuncOp]) -> None:
    name = _fname(f)
    md = collect_pipe_metadata(f)
    inits = [op for op in md.setup if isinstance(op, INIT_OPS)]

    # 2. side of the protocol ops, memory of the pops
    for op in md.transfers + inits:
        if _op_side(op) is not s.core:
            raise PtoError(
                f"'{op.name}' is an {s.core.other.tag}-side op and cannot appear in {s.upper} function '{name}'", op=op
            )
        if isinstance(op, s.tpop):
            space = op.results[0].type.space  # type: ignore[attr-defined]
            if space != s.pop_space:
                raise PtoError(
                    f"{s.upper} function '{name}' requires {op.name} result in memory space '{s.pop_space}', "
                    f"got '{space}'",
                    op=op,
                )

    # 3. each initializer
    for init in inits:
        _check_init(f, s, init, target)

    # 4. reserve / import counts
    for cls in (ReserveBufferOp, ImportPeerBufferOp):
        have = [op for op in md.setup if isinstance(op, cls)]
        need = 0
        short: Operation | None = None  # the first initializer whose directions the buffers no longer cover
        for init in inits:
            mask = init.directions
            need += sum(1 for d in PipeDirection if s.buffer_op(d) is cls and mask & d.bit)
            if short is None and need > len(have):
                short = init
        if short is not None:
            raise PtoError(
                f"Function '{name}' has fewer '{cls.name}' calls ({len(have)}) than initialized pipe directions "
                f"require ({need})",
                op=short,
            )
        if len(have) > need:
            raise PtoError(
                f"Function '{name}' has more '{cls.name}' calls ({len(have)}) than initialized pipe directions "
                f"require ({need})",
                op=have[need],
            )

    # 5. cross-core tile ops need static sizes and a dominating setup
    if md.transfers:
        _check_transfers(f, s, md.transfers)

    # 6. tpop / tfree pairing, per block
    for block in f.body.blocks:
        _check_block_frees(f, s, block)
    for init in inits:
        lsn = init.local_depth
        if lsn is not None:
            check_local_depth(f, s.core, lsn, f"local_slot_num = {lsn} on its '{init.name}'")
        else:
            eff = init.depth
            check_local_depth(f, s.core, eff, f"slot_num = {eff} on its '{init.name}'", ring=True)

    # 7. peers
    for op in md.setup:
        if isinstance(op, ImportPeerBufferOp):
            _check_import(f, s, op, funcs)
        elif isinstance(op, ReserveBufferOp):
            _check_reserve_size(f, op)


def _check_init(f: func.FuncOp, s: Side, init: Operation, target: str | None) -> None:
    mask = init.directions
    lsn = init.local_depth
    if lsn is not None:
        if target == "a5":
            raise PtoError(
                f"'{init.name}' sets local_slot_num, which a5 does not support (even equal to slot_num); remove it",
                op=init,
            )
        eff = init.depth
        if lsn > eff:
            raise PtoError(
                f"'{init.name}' local_slot_num {lsn} exceeds the effective slot_num {eff}", op=init
            )
    for d, operand in ((PipeDirection.C2V, init.operands[0]), (PipeDirection.V2C, init.operands[1])):
        active = bool(mask & d.bit)
        if not active and not is_zero_i32(operand):
            raise PtoError(
                f"'{init.name}' {d} operand must be the `arith.constant 0 : i32` placeholder: dir_mask {mask} "
                f"leaves {d.tag} inactive",
                op=init,
            )
        if active:
            want = s.buffer_op(d)
            if is_zero_i32(operand) or not isinstance(operand.owner, want):
                raise PtoError(
                    f"'{init.name}' {d} operand must be the result of '{want.name}' (dir_mask {mask} makes "
                    f"{d.tag} active on this {s.upper} side)",
                    op=init,
                )


def _top_level_prefix(f: func.FuncOp) -> tuple[list[Operation], Operation | None]:
    """Top-level ops before the first one that contains a tpush/tpop, and that op."""
    prefix: list[Operation] = []
    for op in f.body.blocks[0].ops:
        if any(isinstance(inner, TRANSFER_OPS) for inner in op.walk()):
            return prefix, op
        prefix.append(op)
    return prefix, None


def _check_transfers(f: func.FuncOp, s: Side, transfers: list[Operation]) -> None:
    name = _fname(f)
    for op in transfers:
        if transfer_bytes(op) is None:
            raise PtoError(
                f"{s.upper} function '{name}' uses cross-core tile ops with non-static tile size; auto pipe setup "
                f"requires statically known tile shapes",
                op=op,
            )
    prefix, _ = _top_level_prefix(f)
    inits = [op for op in prefix if isinstance(op, s.init)]
    first = transfers[0]
    if not inits:
        raise PtoError(
            f"{s.upper} function '{name}' uses cross-core tile ops but has no '{s.init.name}' call before them",
            op=first,
        )
    for op in transfers:
        d = direction_of(op)
        assert d is not None
        pid = op.pipe_id
        init = next((i for i in inits if i.pipe_id == pid), None)
        if init is None:
            raise PtoError(
                f"{s.upper} function '{name}' uses pipe id {pid} but no '{s.init.name}' with id {pid} comes before it",
                op=op,
            )
        if not any(isinstance(p, s.buffer_op(d)) for p in prefix):
            raise PtoError(
                f"{s.upper} function '{name}' uses {d.tag} cross-core ops but has no '{s.buffer_op(d).name}' before them",
                op=op,
            )
        mask = init.directions
        if not mask & d.bit:
            raise PtoError(
                f"{s.upper} function '{name}' uses {d.tag} cross-core ops but its '{init.name}'"
                f"{_where(init)} has dir_mask {mask}, which does not enable {d.tag}",
                op=op,
            )
        size, slot = transfer_bytes(op), init.slot_bytes
        if size is not None and size > slot:
            raise PtoError(
                f"'{op.name}' moves a tile of {size} bytes, which does not fit the pipe's slot_size {slot} "
                f"('{init.name}'{_where(init)})",
                op=op,
            )


def _check_block_frees(f: func.FuncOp, s: Side, block: Block) -> None:
    """Every tpop of the block freed exactly once, by the matching kind, after the last use of every value that
    shares its slot (`analysis.slots`: views, scf.if/for/while results and loop arguments) and never before a
    terminator that passes such a value out live.  Violations are reported in op order (nested blocks first
    when they come earlier)."""
    name = _fname(f)
    ops, index, chains = block_chains(block, TPOP_OPS)
    chain_of = {ch.pop.results[0]: ch for ch in chains}
    errors: list[tuple[int, str, Operation]] = []
    freed: dict[SSAValue, Operation] = {}
    for i, op in enumerate(ops):
        if not isinstance(op, TFREE_OPS):
            continue
        v = op.operands[0]
        ch = chain_of.get(v)
        if ch is None or index[ch.pop] > i or v in freed:
            errors.append((
                i,
                f"'{op.name}' without a matching outstanding tpop on the same tile value in this block"
                + (f" (it was already freed{_where(freed[v])})" if v in freed else "")
                + "; free the result of a tpop of this block exactly once",
                op,
            ))
            continue
        want = TFREE_FOR_TPOP[type(ch.pop)]  # type: ignore[index]
        if not isinstance(op, want):
            errors.append((
                i,
                f"'{ch.pop.name}'{_where(ch.pop)} must be matched with '{want.name}' on the same tile value, "
                f"not '{op.name}'",
                op,
            ))
            continue
        freed[v] = op
    for ch in chains:
        free = freed.get(ch.pop.results[0])
        if free is None:
            want = TFREE_FOR_TPOP[type(ch.pop)]  # type: ignore[index]
            errors.append((
                len(ops),
                f"{s.upper} function '{name}' uses {ch.pop.name} but has no matching '{want.name}' call (in the same "
                f"block, after the last use of the popped tile)",
                ch.pop,
            ))
            continue
        late = [i for i in ch.uses if i > index[free] and not _is_terminator(ops[i])]
        if late:
            use = ops[late[0]]
            errors.append((
                late[0],
                f"'{use.name}' reads a popped tile after its slot was released by '{free.name}'{_where(free)}; "
                f"move the tfree after the last use",
                use,
            ))
        for pos, what in live_escapes(ch, block):
            term = ops[-1]
            errors.append((
                len(ops) - 1,
                f"'{term.name}' passes a popped tile (operand #{pos}) out of its block, where {what} still reads "
                f"it, but its slot is released by '{free.name}'{_where(free)} in this block; pass a copy "
                f"(pto.move) instead, or stop reading the value outside the block",
                term,
            ))
    first = min(errors, key=lambda e: e[0]) if errors else None
    for i, op in enumerate(ops):
        if first is not None and i > first[0]:
            break
        for inner in nested_blocks(op):
            _check_block_frees(f, s, inner)
    if first is not None:
        raise PtoError(first[1], op=first[2])


def _is_terminator(op: Operation) -> bool:
    return op.has_trait(IsTerminator)


def _init_using(buf: SSAValue) -> Operation | None:
    return next((u.operation for u in buf.uses if isinstance(u.operation, INIT_OPS)), None)


_INIT_FIELDS = ("dir_mask", "slot_size", "slot_num", "local_slot_num")
"""The attributes both sides of a pipe must state alike, in the order `_init_facts` reads them."""


def _init_facts(init: Operation) -> tuple[int | None, ...]:
    """The values of `_INIT_FIELDS` on `init` (None for an unset `slot_num` / `local_slot_num`)."""
    return (init.directions, init.slot_bytes, init.explicit_depth, init.local_depth)  # type: ignore[attr-defined]


def _check_import(f: func.FuncOp, s: Side, op: ImportPeerBufferOp, funcs: dict[str, func.FuncOp]) -> None:
    peer_name = op.peer_func.root_reference.data
    buf = op.buffer_name.data
    peer = funcs.get(peer_name)
    other = s.core.other
    if peer is None or kind_of(peer) != other.kind:
        what = "does not exist" if peer is None else f"is not an {other.tag} function"
        raise PtoError(f"'{op.name}' peer_func @{peer_name} {what}; name the {other.tag} kernel that reserves "
                       f"'{buf}'", op=op)
    reserves = [r for r in peer.walk() if isinstance(r, ReserveBufferOp) and r.buffer_name.data == buf]
    if not reserves:
        raise PtoError(f"'{op.name}' imports '{buf}', but @{peer_name} has no 'pto.reserve_buffer' named '{buf}'", op=op)
    mine, theirs = _init_using(op.results[0]), _init_using(reserves[0].results[0])
    if mine is None or theirs is None:
        return
    for key, a, b in zip(_INIT_FIELDS, _init_facts(mine), _init_facts(theirs)):
        if a != b:
            raise PtoError(
                f"'{mine.name}' disagrees with its peer '{theirs.name}' in @{peer_name} on {key} "
                f"({a if a is not None else 'unset'} here, {b if b is not None else 'unset'} there); both sides of "
                f"a pipe must be initialized alike",
                op=mine,
            )


def _check_reserve_size(f: func.FuncOp, op: ReserveBufferOp) -> None:
    init = _init_using(op.results[0])
    if init is None:
        return
    slot = init.slot_bytes
    depth = init.consumer_depth
    size = op.ring_bytes
    if size < slot * depth:
        raise PtoError(
            f"'{op.name}' '{op.buffer_name.data}' holds {size} bytes, but its pipe needs slot_size x depth = "
            f"{slot} x {depth} = {slot * depth} bytes",
            op=op,
        )


class VerifyMixedKernelExpandedPass(ModulePass):
    """`--verify-mixed-kernel-expanded`: run the MixedKernelExpanded checks on a module (changes nothing)."""

    name = "verify-mixed-kernel-expanded"
    changes_ir = False  # a check: the pipeline does not verify the module again after it

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        verify_mixed_kernel_expanded(op)

    def run(self, module: ModuleOp, state: object) -> None:
        """As a phase of `expand-mixed-kernel` (pass_.py): the same check."""
        verify_mixed_kernel_expanded(module)
