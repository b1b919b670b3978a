"""Loop-state repair, DCE and dangling-GM remapping of one split side (reference §6, `FinalizeSplitCoreBody`).

Order, per side:
  0. a loop yield of a pruned store's result yields the store's destination
  1. strip dead iter_args          4. strip dangling scf.if results     7. DCE
  2. pull back missing init values 5. DCE                               8. remap dangling GM tensors to params
  3. identity yields for dangling  6. strip dead iter_args again
Liveness of a carry: read in the body other than by the loop's own yield, its result read after the loop, or
yielded into a live slot (closure over the yield, so multi-stage FIFO rotations survive).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import scf
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.transforms.dead_code_elimination import is_trivially_dead

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_traits import CoreSide, renamed_tensor
from pypto_mlir.dialects.pto_types import TensorType

from ..analysis.hazards import tensor_roots
from ..analysis.lineage import gm_origin, param_direction
from .split import SideBody, _defined_inside, erase_op


def _post_order(block: Block) -> list[Operation]:
    """Every op under `block`, inner ops before the op that holds them: a list taken before the repair step that
    goes through it changes the body (built by one recursion, not by generators re-yielding through each level)."""
    out: list[Operation] = []
    _collect_post_order(block, out)
    return out


def _collect_post_order(block: Block, out: list[Operation]) -> None:
    for op in block.ops:
        for region in op.regions:
            for b in region.blocks:
                _collect_post_order(b, out)
        out.append(op)


def _move_region(src: Region, dst: Region) -> None:
    src.move_blocks(dst)


def _install_narrowed(body: SideBody, old: Operation, new: Operation, keep: list[int]) -> Block:
    """Put `new` (a copy of region op `old` keeping only results `keep`) in `old`'s place: it takes `old`'s
    location, attributes and regions, and the kept results' names and uses. Returns the enclosing block."""
    new.location = old.location
    new.attributes.update(old.attributes)
    for src, dst in zip(old.regions, new.regions):
        _move_region(src, dst)
    parent = old.parent_block()
    assert parent is not None
    parent.insert_op_before(new, old)
    for new_i, old_i in enumerate(keep):
        new.results[new_i].name_hint = old.results[old_i].name_hint
        body.replace_value(old.results[old_i], new.results[new_i])
    return parent


# ---------------------------------------------------------------------------------------------------------------
# 1/6. dead iter_args
# ---------------------------------------------------------------------------------------------------------------


def _forward_live(live: set[int], operands: Sequence[SSAValue], block: Block, into: set[int], first: int = 0) -> bool:
    """A live slot whose operand forwards an argument of `block` (from argument `first` on, as slot `index -
    first`) keeps that slot of `into` alive too; True when it marked a new one."""
    marked = False
    for j in list(live):
        v = operands[j]
        if isinstance(v, BlockArgument) and v.block is block and v.index >= first and v.index - first not in into:
            into.add(v.index - first)
            marked = True
    return marked


def _replace_terminator(old: Operation, new: Operation) -> None:
    """`new` (the narrowed terminator) takes the place and location of `old`."""
    new.location = old.location
    parent = old.parent_block()
    assert parent is not None
    parent.insert_op_before(new, old)
    erase_op(old)


def _erase_dead_args(block: Block, args: Sequence[BlockArgument], live: set[int]) -> None:
    for i in reversed(range(len(args))):
        if i not in live:
            block.erase_arg(args[i])


def strip_dead_iter_args(body: SideBody) -> None:
    for op in _post_order(body.func.body.block):
        if isinstance(op, scf.ForOp) and op.parent is not None:
            _strip_for(body, op)
        elif isinstance(op, scf.WhileOp) and op.parent is not None:
            _strip_while(body, op)


def _strip_while(body: SideBody, loop: scf.WhileOp) -> None:
    """Dead carries of a `scf.while`: before-slots (init, before arg, after-yield operand) and condition slots
    (scf.condition arg, after arg, result).  A before arg read by the condition's predicate or any before-region
    op other than the forwarding `scf.condition` is live; forwarding into a live condition slot (or yielding into a
    live before slot) keeps the source alive, closed over both terminators."""
    before, after = loop.before_region.block, loop.after_region.block
    cond, y = before.last_op, after.last_op
    if not isinstance(cond, scf.ConditionOp) or not isinstance(y, scf.YieldOp):
        return
    n, m = len(before.args), len(after.args)
    live_b: set[int] = set()
    live_c: set[int] = set()
    for i, a in enumerate(before.args):
        if any(u.operation is not cond or u.index == 0 for u in a.uses):
            live_b.add(i)
    for j in range(m):
        if loop.res[j].uses or any(u.operation is not y for u in after.args[j].uses):
            live_c.add(j)
    changed = True
    while changed:
        changed = _forward_live(live_c, cond.args, before, live_b)
        changed = _forward_live(live_b, y.operands, after, live_c) or changed
    if len(live_b) == n and len(live_c) == m:
        return
    kb, kc = sorted(live_b), sorted(live_c)
    _replace_terminator(cond, scf.ConditionOp(cond.condition, *[cond.args[j] for j in kc]))
    _replace_terminator(y, scf.YieldOp(*[y.operands[i] for i in kb]))
    _erase_dead_args(before, list(before.args), live_b)
    _erase_dead_args(after, list(after.args), live_c)
    new_loop = scf.WhileOp([loop.arguments[i] for i in kb], [loop.res[j].type for j in kc], Region(), Region())
    _install_narrowed(body, loop, new_loop, kc)
    _transfer_origin(body, loop, new_loop)
    erase_op(loop)


def _strip_for(body: SideBody, loop: scf.ForOp) -> None:
    block = loop.body.block
    y = block.last_op
    assert isinstance(y, scf.YieldOp)
    carries = list(block.args[1:])
    n = len(carries)
    live: set[int] = set()
    for i in range(n):
        if loop.res[i].uses or any(u.operation is not y for u in carries[i].uses):
            live.add(i)
    while _forward_live(live, y.operands, block, live, first=1):
        pass
    if len(live) == n:
        return
    keep = sorted(live)
    _replace_terminator(y, scf.YieldOp(*[y.operands[i] for i in keep]))
    _erase_dead_args(block, carries, live)
    new_loop = scf.ForOp(loop.lb, loop.ub, loop.step, [loop.iter_args[i] for i in keep], Region())
    _install_narrowed(body, loop, new_loop, keep)
    _transfer_origin(body, loop, new_loop)
    erase_op(loop)


def _transfer_origin(body: SideBody, old: Operation, new: Operation) -> None:
    orig = body.orig_of.pop(old, None)
    if orig is not None:
        body.orig_of[new] = orig


# ---------------------------------------------------------------------------------------------------------------
# 2. missing init values
# ---------------------------------------------------------------------------------------------------------------


def fixup_iter_arg_inits(body: SideBody) -> None:
    """A surviving carry whose init value was pruned gets that value's defining chain back, in place."""
    for op in _post_order(body.func.body.block):
        inits = op.iter_args if isinstance(op, scf.ForOp) else op.arguments if isinstance(op, scf.WhileOp) else ()
        for v in list(inits):
            if isinstance(v.type, TensorType):
                continue  # a GM buffer is remapped to its parameter (step 8), never re-written on this side
            if body.is_undefined(v) and body.can_materialize(v):
                body.materialize(v)


# ---------------------------------------------------------------------------------------------------------------
# 3. dangling yields
# ---------------------------------------------------------------------------------------------------------------


def _pruned_store_dest(body: SideBody, v: SSAValue) -> SSAValue | None:
    """The side value of the GM tensor a pruned GM write (a store, a put, a tensor_get) wrote, for its undefined
    result `v` (such an op returns its destination under a new name), following a chain of pruned writes; None when none is defined here.  The
    destination dominates the store, so it is visible wherever the store's result was."""
    orig = body.undefined.get(v)
    while orig is not None and (dest := renamed_tensor(orig)) is not None:
        mine = body.value_map.get(dest)
        if mine is not None and not body.is_undefined(mine):
            return mine
        orig = dest
    return None


def forward_pruned_store_yields(body: SideBody) -> None:
    """A loop yielding the result of a store pruned from this side yields the store's destination tensor (step 0,
    before any carry is stripped): a carry of GM buffers that rotates them (ping-pong scratch tensors) keeps
    rotating on the side that does not store, instead of the identity yield of step 3 freezing it."""
    for op in _post_order(body.func.body.block):
        if not (isinstance(op, scf.YieldOp) and isinstance(op.parent_op(), (scf.ForOp, scf.WhileOp))):
            continue
        for i, v in enumerate(op.operands):
            if isinstance(v.type, TensorType) and body.is_undefined(v):
                dest = _pruned_store_dest(body, v)
                if dest is not None:
                    op.operands = [dest if k == i else w for k, w in enumerate(op.operands)]


def fixup_dangling_yields(body: SideBody) -> None:
    for op in _post_order(body.func.body.block):
        if isinstance(op, scf.ForOp):
            block = op.body.block
            y = block.last_op
            assert isinstance(y, scf.YieldOp)
            for i, v in enumerate(y.operands):
                if body.is_undefined(v):
                    y.operands = [block.args[i + 1] if k == i else w for k, w in enumerate(y.operands)]
        elif isinstance(op, scf.WhileOp):
            before, after = op.before_region.block, op.after_region.block
            cond, y = before.last_op, after.last_op
            if not isinstance(cond, scf.ConditionOp) or not isinstance(y, scf.YieldOp):
                continue
            for i, v in enumerate(y.operands):
                if not body.is_undefined(v):
                    continue
                k = next((k for k, a in enumerate(cond.args) if a is before.args[i]), None)
                if k is not None:
                    y.operands = [after.args[k] if j == i else w for j, w in enumerate(y.operands)]
        elif isinstance(op, scf.IfOp) and op.output:
            _fix_if_yields(body, op)


def _branch_yields(op: scf.IfOp) -> list[scf.YieldOp]:
    out = []
    for region in (op.true_region, op.false_region):
        if region.blocks and isinstance(region.block.last_op, scf.YieldOp):
            out.append(region.block.last_op)
    return out


def _fix_if_yields(body: SideBody, op: scf.IfOp) -> None:
    """A branch yielding a pruned value takes what the other branch yields, if that is visible outside the if."""
    ys = _branch_yields(op)
    if len(ys) != 2:
        return
    for i in range(len(op.output)):
        a, b = ys[0].operands[i], ys[1].operands[i]
        for mine, theirs, other in ((a, b, ys[0]), (b, a, ys[1])):
            if body.is_undefined(mine) and not body.is_undefined(theirs) and not _defined_inside(theirs, op):
                other.operands = [theirs if k == i else w for k, w in enumerate(other.operands)]


# ---------------------------------------------------------------------------------------------------------------
# 4. dangling if results
# ---------------------------------------------------------------------------------------------------------------


def strip_dangling_if_results(body: SideBody) -> None:
    for op in _post_order(body.func.body.block):
        if isinstance(op, scf.IfOp) and op.output:
            _strip_if(body, op)


def _strip_if(body: SideBody, op: scf.IfOp) -> None:
    ys = _branch_yields(op)
    n = len(op.output)
    dangling = {i for i in range(n) for y in ys if body.is_undefined(y.operands[i])}
    if not dangling:
        return
    keep = [i for i in range(n) if i not in dangling]
    for y in ys:
        _replace_terminator(y, scf.YieldOp(*[y.operands[i] for i in keep]))
    new_if = scf.IfOp(op.cond, [op.output[i].type for i in keep], Region(), Region())
    parent = _install_narrowed(body, op, new_if, keep)
    dropped = [i for i in range(n) if i in dangling and op.output[i].uses]
    if dropped:
        orig_if = body.orig_of.get(op)
        ph = body.make_undefined(op, [orig_if.results[i] if orig_if is not None else None for i in range(n)])
        parent.insert_op_before(ph, op)
        for i in range(n):
            if i in dangling:
                body.replace_value(op.output[i], ph.results[i])
    _transfer_origin(body, op, new_if)
    erase_op(op)


# ---------------------------------------------------------------------------------------------------------------
# 5/7. DCE
# ---------------------------------------------------------------------------------------------------------------

def _removable(op: Operation) -> bool:
    """An unused value-producing op without regions whose declared effects are at most reads (or allocations of
    its own results): the op's effects decide, one rule (xDSL's `is_trivially_dead`). Ops with unknown effects
    (store, tpop, pipe setup, calls, `tile_put` / `tensor_put` / `tensor_get` writing this or a peer device's GM,
    ...; dialects/pto_ops.py says which) are never removed, whether or not their result is read.

    An `scf.if` whose results are all tiles or scalars is removable the same way (its effects are those of its
    branches, xDSL's recursive effects): a selection whose every consumer was pruned from this side (a vec value
    chosen after a loop on the AIC) would otherwise keep reading the loop's vec carry, whose init chain may be
    vector-only (the lane id).  An `scf.if` choosing a GM tensor stays: step 8 may remap a pruned store's result
    to it (`_pruned_store_dest`)."""
    if isinstance(op, scf.IfOp):
        return (
            bool(op.results)
            and not any(isinstance(r.type, TensorType) for r in op.results)
            and is_trivially_dead(op)
        )
    return bool(op.results) and not op.regions and is_trivially_dead(op)


def dce(body: SideBody) -> None:
    """Erase unused value-producing ops whose effects allow it (never stores, pops, setup, calls, communication
    or compound ops).

    One pass in reverse post-order reaches the fixed point: an op is visited after every op that can read it
    (those come later in its block, or nested in a later op), so when it is visited each of its users has
    already been erased if it ever will be; the only region op erased is an `scf.if`, whose branches go with it
    (its nested ops, visited after it, are skipped)."""
    gone: set[Operation] = set()
    for op in reversed(_post_order(body.func.body.block)):
        if op in gone or op.parent is None or not _removable(op):
            continue
        for inner in op.walk():
            gone.add(inner)
            for r in inner.results:
                body.undefined.pop(r, None)
            body.orig_of.pop(inner, None)
        erase_op(op)


# ---------------------------------------------------------------------------------------------------------------
# 8. dangling GM references
# ---------------------------------------------------------------------------------------------------------------


def remap_dangling_gm_refs(body: SideBody) -> None:
    """An undefined GM tensor that is a parameter's buffer (a store into it, a carry of it) becomes that parameter.

    Out/InOut parameters through any lineage; on the AIV also any parameter a pruned store wrote directly."""
    f, orig_f = body.func, body.original
    for v, orig in list(body.undefined.items()):
        if not v.uses or not isinstance(v.type, TensorType) or orig is None:
            continue
        origin = gm_origin(orig, orig_f)
        if origin is None:
            continue
        direct = body.side is CoreSide.AIV and renamed_tensor(orig) is origin
        if param_direction(orig_f, origin.index) == "in" and not direct:
            continue
        body.replace_value(v, f.body.block.args[origin.index])
    # Beyond the reference: the result of a GM write pruned from this side is its destination buffer under a new
    # name, so where no single parameter lineage names it (a destination chosen by an scf.if, or rotated through
    # loop arguments) it becomes this side's value of the destination, when that is defined here and every
    # buffer it can be is an output parameter (an input parameter is not shared, as above).  The order of the
    # other side's write and this side's reads is the GM fences' job (analysis/hazards.py), as for a parameter.
    params = {a: i for i, a in enumerate(orig_f.body.block.args)}
    for v, orig in list(body.undefined.items()):
        if not v.uses or not isinstance(v.type, TensorType) or orig is None:
            continue
        roots = tensor_roots(orig)
        if not roots or any(r not in params or param_direction(orig_f, params[r]) == "in" for r in roots):
            continue
        dest = _pruned_store_dest(body, v)
        if dest is not None:
            body.replace_value(v, dest)


def check_no_undefined(body: SideBody) -> None:
    """Every value the side still reads must be defined on it; otherwise the kernel reads across the cores.

    Placeholders left without uses (their values were remapped or never read) are erased."""
    for op in list(body.func.walk()):
        if op in body.placeholders and op.parent is not None and all(not r.uses for r in op.results):
            for r in op.results:
                body.undefined.pop(r, None)
            erase_op(op)
    for v in list(body.undefined):
        owner = v.owner
        if not v.uses:
            if isinstance(owner, Operation) and owner.parent is not None and all(not r.uses for r in owner.results):
                erase_op(owner)
            body.undefined.pop(v, None)
            continue
        user = next(iter(v.uses)).operation
        name = f"%{v.name_hint}" if v.name_hint else "a value"
        other, here = body.side.other.label, body.side.label
        if isinstance(v.type, TensorType):
            raise PtoError(
                f"ExpandMixedKernel: the GM tensor {name} is written only on the {other} side of kernel "
                f"'@{body.original.sym_name.data}' but read here on the {here} side, and it is not the buffer of "
                f"an output parameter the split kernels could share; write into a parameter marked {{pto.out}} or "
                f"{{pto.inout}} (or pass the tile across the cores with an explicit pto.move)",
                op=user,
            )
        raise PtoError(
            f"ExpandMixedKernel: {name} is computed only on the {other} side of kernel "
            f"'@{body.original.sym_name.data}' but read here on the {here} side; pass it across the cores with "
            f"an explicit pto.move between cube memory and vec, or compute it on this side",
            op=user,
        )


def finalize_split_body(body: SideBody) -> None:
    forward_pruned_store_yields(body)
    strip_dead_iter_args(body)
    fixup_iter_arg_inits(body)
    fixup_dangling_yields(body)
    strip_dangling_if_results(body)
    dce(body)
    strip_dead_iter_args(body)
    dce(body)
    remap_dangling_gm_refs(body)
    check_no_undefined(body)
