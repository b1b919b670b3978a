"""Cross-core dependences through GM tensors: which accesses must happen before which, and whether a pipe
transfer already orders them (the one hazard analysis: ExpandMixedKernel places its fences from it, the
MixedKernelExpanded verifier checks the split output with it).

*Accesses.*  An op's GM accesses are what its `GmAccess` trait states (dialects/pto_traits.py): a `pto.load`
or `pto.tile_get` reads its source, a `pto.store` or `pto.tile_put` writes its destination, a `pto.tensor_put`
or `pto.tensor_get` reads its source and writes its destination (one access each).  Each access runs on one
core: the AIC (cube) or the AIV (vector; a vector access runs on every AIV lane).  The tensor it touches is
named by its *roots*: the function arguments (or other tensor-producing values) it can be, following the
result of a writing op (a store, a put, a tensor_get) to its destination and control flow (`scf.if` results, `scf.for`/`scf.while` results and loop arguments)
to every value that can flow in (`analysis.slots.flow_sources`).  Two accesses *conflict* when their roots
meet, they run on different cores, and one of them writes.  Distinct function arguments are taken not to
alias (the host passes distinct buffers) unless a `func.call` of the module binds them to one tensor
(`param_aliases`), and the whole tensor is one location (offsets are not compared).

*Dependences.*  For a conflicting pair, each order `src -> sink` that the sequential (mixed) program has is a
dependence the split program must keep, in the direction src's core -> sink's core (C->V or V->C):

- RAW (src writes, sink reads), WAR (src reads, sink writes), WAW (both write);
- *within an iteration*: in the innermost block holding both (their common block), the op that holds src
  comes before the op that holds sink.  The fence lives in that block: after src's op, before sink's op;
- *loop-carried*: otherwise (sink's op comes first, or both sit in the two branches of one `scf.if`), src in
  iteration k precedes sink in iteration k+1 of the innermost loop around the common block.  The fence lives
  in that loop's body: after src's op, before the end of the iteration.  Outside any loop there is nothing
  to order.  A within-iteration fence also orders every later iteration, so it covers the carried order.
- Accesses in the two regions of one `scf.while` (condition and body) cannot be fenced in one block: that
  is rejected with a located error.

*Ordered already.*  A transfer of the dependence's direction that the producer runs after src and the
consumer runs before sink orders the pair (a pop waits for its push): in the fence block, a boundary (a
crossing `pto.move`, `aiv_shard`, `aic_gather`) or a tpush followed by a tpop, between the two ops — for a
carried dependence, after src's op or before sink's op in the body.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from xdsl.dialects import func, scf
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.traits import Pure

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_traits import (
    BoundaryAffinity,
    CoreSide,
    GmAccess,
    PipeDirection,
    PipePop,
    PipePush,
    PipeTransfer,
    renamed_tensor,
    viewed_tensor,
)

from pypto_mlir.dialects.pto_types import TensorType

from .affinity import is_boundary_move, move_direction
from .slots import flow_sources
from .traits import op_has_trait, op_trait

CORE_NAME = {CoreSide.AIC: "AIC (cube)", CoreSide.AIV: "AIV (vector)"}


@dataclass(frozen=True)
class Access:
    """One GM access of `op` (an op with the `GmAccess` trait) on `core`: it reads or writes
    (`write`) the GM tensor value `tensor`, which can be any of `roots`."""

    op: Operation
    core: CoreSide
    write: bool
    tensor: SSAValue
    roots: frozenset[SSAValue]

    @property
    def tile(self) -> SSAValue | None:
        """The tile the op moves between its core and GM (None: a tensor-to-tensor copy)."""
        trait = op_trait(self.op, GmAccess)
        assert trait is not None
        return trait.tile_value(self.op)


@dataclass
class Dependence:
    """`src` must happen before `sink`; a fence for it lives in `block`: after `after` (the op of `block`
    holding src), before `before` (the op holding sink; None: before the end of the iteration)."""

    kind: str  # RAW | WAR | WAW
    src: Access
    sink: Access
    block: Block
    after: Operation
    before: Operation | None
    carried: bool

    @property
    def direction(self) -> PipeDirection:
        return PipeDirection.from_producer(self.src.core)

    def describe(self) -> str:
        how = "in a later iteration" if self.carried else "later in the same iteration"
        return (
            f"{self.kind}: the {CORE_NAME[self.src.core]} '{self.src.op.name}' must complete before the "
            f"{CORE_NAME[self.sink.core]} '{self.sink.op.name}' {how}"
        )


# -- roots and accesses ---------------------------------------------------------------------------------------------


def tensor_roots(v: SSAValue, memo: dict[SSAValue, frozenset[SSAValue]] | None = None) -> frozenset[SSAValue]:
    """The values a GM tensor value can be: the result of a writing op (`GmAccess.written_by_result`: a store,
    a put, a tensor_get) is its destination, a `TensorView` result (`pto.tensor_cast`) its source, control flow passes values on (every alternative counts: a
    may-alias set); anything else is its own root."""
    memo = {} if memo is None else memo
    if v in memo:
        return memo[v]
    memo[v] = frozenset()  # in progress: a loop cycle adds nothing new
    written = renamed_tensor(v) or viewed_tensor(v)
    if written is not None:
        out = tensor_roots(written, memo)
    else:
        alts = flow_sources(v)
        out = frozenset().union(*(tensor_roots(x, memo) for alt in alts for x in alt)) if alts else frozenset({v})
    memo[v] = out
    return out


Aliases = dict[SSAValue, frozenset[SSAValue]]
"""Parameters a caller binds to one buffer: each such function argument -> the arguments it may be (itself
included).  Arguments absent from the map are distinct buffers."""


def param_aliases(module: Operation) -> Aliases:
    """Which tensor parameters of the module's functions may be one buffer, as the module's own `func.call`s
    bind them: two arguments of a call whose roots meet (the same tensor passed twice, or a tensor and a value
    renaming it) make the callee's two parameters aliases, and a caller's aliases pass on to its callees.  A
    function no call in the module reaches keeps distinct parameters (the launch contract: the host passes
    distinct buffers).  Computed once per module; the analyses take it through `gm_accesses(..., aliases)`."""
    funcs: dict[str, func.FuncOp] = {}
    calls_in: dict[func.FuncOp, list[func.CallOp]] = {}
    """each function -> the calls nested in it, in walk order (one walk of the module, not one per function)."""
    for op in module.walk():
        if isinstance(op, func.FuncOp) and op.body.blocks:
            funcs[op.sym_name.data] = op
        elif isinstance(op, func.CallOp):
            parent = op.parent_op()
            while parent is not None and parent is not module:
                if isinstance(parent, func.FuncOp):
                    calls_in.setdefault(parent, []).append(op)
                parent = parent.parent_op()
    calls = [
        (caller, op, funcs[op.callee.root_reference.data])
        for caller in funcs.values()
        for op in calls_in.get(caller, ())
        if op.callee.root_reference.data in funcs
    ]
    aliases: Aliases = {}
    changed = True
    while changed:  # a caller's aliases can reach its callees' callees: iterate to the fixed point
        changed = False
        for _caller, call, callee in calls:
            memo: dict[SSAValue, frozenset[SSAValue]] = dict(aliases)
            args = list(call.arguments)
            params = list(callee.body.blocks[0].args)
            roots = [tensor_roots(a, memo) if isinstance(a.type, TensorType) else frozenset() for a in args]
            for i in range(min(len(args), len(params))):
                for j in range(i + 1, min(len(args), len(params))):
                    if not roots[i] & roots[j]:
                        continue
                    cls = aliases.get(params[i], frozenset({params[i]})) | aliases.get(params[j], frozenset({params[j]}))
                    for p in cls:
                        if aliases.get(p) != cls:
                            aliases[p] = cls
                            changed = True
    return aliases


def op_accesses(
    op: Operation, core: CoreSide, memo: dict[SSAValue, frozenset[SSAValue]] | None = None
) -> list[Access]:
    """The GM accesses of `op` on `core`, as its `GmAccess` trait states them (none without the trait)."""
    trait = op_trait(op, GmAccess)
    if trait is None:
        return []
    memo = {} if memo is None else memo
    return [
        Access(op, core, write, t, tensor_roots(t, memo))
        for write, tensors in ((False, trait.read_tensors(op)), (True, trait.written_tensors(op)))
        for t in tensors
    ]


def gm_accesses(
    ops: list[Operation], core_of: Callable[[Operation], CoreSide | None], aliases: Aliases | None = None
) -> list[Access]:
    """The GM accesses of `ops` that run on one core (`core_of` gives its `CoreSide`, or None); a parameter in
    `aliases` (`param_aliases`) has the roots of every parameter it may be."""
    memo: dict[SSAValue, frozenset[SSAValue]] = dict(aliases or {})
    out: list[Access] = []
    for op in ops:
        if not op_has_trait(op, GmAccess):
            continue
        core = core_of(op)
        if core is not None:
            out.extend(op_accesses(op, core, memo))
    return out


# -- dependences ----------------------------------------------------------------------------------------------------


def _blocks_up(op: Operation) -> list[Block]:
    """The blocks holding `op`, innermost first."""
    out: list[Block] = []
    b = op.parent_block()
    while b is not None:
        out.append(b)
        parent = b.parent_op()
        b = parent.parent_block() if parent is not None else None
    return out


def _common_block(a: Operation, b: Operation) -> Block | None:
    up_b = set(_blocks_up(b))
    return next((blk for blk in _blocks_up(a) if blk in up_b), None)


def _enclosing_loop_block(block: Block) -> Block | None:
    """The block of the innermost `scf.for`/`scf.while` around (or equal to) `block` that holds `block`."""
    b: Block | None = block
    while b is not None:
        parent = b.parent_op()
        if isinstance(parent, (scf.ForOp, scf.WhileOp)):
            return b
        b = parent.parent_block() if parent is not None else None
    return None


def _kind(src: Access, sink: Access) -> str:
    return "WAW" if src.write and sink.write else ("RAW" if src.write else "WAR")


def dependences(accesses: list[Access]) -> list[Dependence]:
    """Every cross-core dependence among `accesses` (both orders of each conflicting pair that the program has)."""
    out: list[Dependence] = []
    for i, a in enumerate(accesses):
        for b in accesses[i + 1:]:
            if a.core == b.core or not (a.write or b.write) or not (a.roots & b.roots):
                continue
            for src, sink in ((a, b), (b, a)):
                dep = _dependence(src, sink)
                if dep is not None:
                    out.append(dep)
    return out


def _dependence(src: Access, sink: Access) -> Dependence | None:
    block = _common_block(src.op, sink.op)
    if block is None:
        return None
    s_op = block.find_ancestor_op_in_block(src.op)
    k_op = block.find_ancestor_op_in_block(sink.op)
    assert s_op is not None and k_op is not None
    if s_op is not k_op and block.get_operation_index(s_op) < block.get_operation_index(k_op):
        return Dependence(_kind(src, sink), src, sink, block, s_op, k_op, carried=False)
    if s_op is k_op and isinstance(s_op, scf.WhileOp):
        raise PtoError(
            f"ExpandMixedKernel: cannot order a cross-core GM dependence between the two regions of this "
            f"scf.while ({_kind(src, sink)} between the {CORE_NAME[src.core]} '{src.op.name}' and the "
            f"{CORE_NAME[sink.core]} '{sink.op.name}' on one tensor): a fence needs both accesses in one block of "
            f"the loop; move the access out of the condition region into the body (or use another buffer)",
            op=sink.op,
        )
    loop_block = _enclosing_loop_block(block)
    if loop_block is None:
        return None  # sink runs before src and never again
    s_op = loop_block.find_ancestor_op_in_block(src.op)
    k_op = loop_block.find_ancestor_op_in_block(sink.op)
    assert s_op is not None and k_op is not None
    return Dependence(_kind(src, sink), src, sink, loop_block, s_op, k_op, carried=True)


# -- ordered by a transfer ------------------------------------------------------------------------------------------


def transfer_roles(op: Operation) -> list[tuple[PipeDirection, str]]:
    """(direction, role) of a cross-core op written directly: role `push` or `pop` (its `PipePush` / `PipePop`
    trait), or `both` for a boundary (a crossing move, aiv_shard, aic_gather: the split turns it into a push and
    a pop at the same place)."""
    pipe = op_trait(op, PipeTransfer)
    if isinstance(pipe, (PipePush, PipePop)):
        return [(pipe.direction, "push" if isinstance(pipe, PipePush) else "pop")]
    boundary = op_trait(op, BoundaryAffinity)
    if boundary is not None:
        return [(boundary.direction, "both")]
    if is_boundary_move(op):
        d = move_direction(op)
        return [(d, "both")] if d is not None else []
    return []


def has_transfer(op: Operation) -> bool:
    """Whether `op` is or holds a cross-core transfer (either direction): a consumer may wait there."""
    return any(transfer_roles(inner) for inner in op.walk())


def _pair_between(ops: list[Operation], direction: PipeDirection) -> bool:
    pushed = False
    for op in ops:
        for d, role in transfer_roles(op):
            if d != direction:
                continue
            if role == "both" or (role == "pop" and pushed):
                return True
            if role == "push":
                pushed = True
    return False


def is_ordered(dep: Dependence) -> bool:
    """Whether a transfer of the dependence's direction in its block already orders src before sink."""
    ops = list(dep.block.ops)
    i = ops.index(dep.after)
    if not dep.carried:
        assert dep.before is not None
        return _pair_between(ops[i + 1:ops.index(dep.before)], dep.direction)
    j = ops.index(dep.before) if dep.before is not None else len(ops)
    return _pair_between(ops[i + 1:], dep.direction) or _pair_between(ops[:j], dep.direction)


# -- the split pair: is every cross-core dependence ordered? ----------------------------------------------------------
#
# The MixedKernelExpanded verifier sees the AIC and the AIV kernel, not the mixed program, so it does not know
# which order was meant; it checks that *some* order is enforced, the way the fences above enforce it.  The two
# kernels come from one program, and a control-flow op that holds a transfer is kept by both (a transfer is a
# push on one side and a pop on the other, in the same place): the k-th such op of a block on one side is the
# k-th on the other.  A block is named by that path.  An `scf.if` holding no transfer may be kept by one side
# only, so it is named by its condition instead (`_value_sig`: the same pure computation of the same parameters
# and loop indices on both sides), when no other such `scf.if` of its block has that condition: two ifs of one
# iteration with one condition value take the same branch, so accesses in their two different branches never
# run in one iteration, like those of the two branches of one if.  Any other op holding no transfer only
# matches itself (nothing in it can be ordered against the other core).  The names are structural, so they
# hold for printed and parsed kernels alike.  Between the two kernels, the j-th transfer of a direction
# written directly in a block on the producer side pairs with the j-th on the consumer side (the pipe is a FIFO
# and nested blocks push and pop alike).


def _value_sig(v: SSAValue) -> tuple | None:
    """A name of the scalar `v` that the AIC and the AIV kernel share when both compute it alike: a parameter
    by its index, another block argument by its block's key and index, a pure op's result by the op (name,
    properties, attributes), the result index and its operands' names; None when `v` cannot be named so."""
    if isinstance(v, BlockArgument):
        parent = v.block.parent_op()
        if parent is None or isinstance(parent, func.FuncOp):
            return ("arg", v.index)
        return ("block_arg", _block_key(v.block), v.index)
    assert isinstance(v, OpResult)
    op = v.op
    if op.regions or not op_has_trait(op, Pure):
        return None
    operands = tuple(_value_sig(x) for x in op.operands)
    if any(x is None for x in operands):
        return None
    attrs = tuple(sorted((k, str(a)) for k, a in (*op.properties.items(), *op.attributes.items())))
    return (op.name, attrs, v.index, operands)


def _op_ident(op: Operation, outer: Block) -> tuple:
    """How `_block_key` names the region op `op` of the block `outer` (see above)."""
    if has_transfer(op):
        return (op.name, [o for o in outer.ops if o.regions and has_transfer(o)].index(op))
    if isinstance(op, scf.IfOp):
        sig = _value_sig(op.cond)
        if sig is not None:
            twins = [o for o in outer.ops if isinstance(o, scf.IfOp) and not has_transfer(o) and _value_sig(o.cond) == sig]
            if twins == [op]:
                return (op.name, "cond", sig)
    return (op.name, "own", id(op))


def _block_key(block: Block) -> tuple:
    """The path from the function body to `block`: (the name of the op holding it, region index, block index)
    for each op around it, outermost first; an op is named by `_op_ident`."""
    path: list = []
    b: Block | None = block
    while b is not None:
        parent = b.parent_op()
        if parent is None or isinstance(parent, func.FuncOp) or parent.parent_block() is None:
            break
        outer = parent.parent_block()
        assert outer is not None
        region = b.parent
        assert region is not None
        path.append((_op_ident(parent, outer), parent.regions.index(region), region.blocks.index(b)))
        b = outer
    return tuple(reversed(path))


def _directs(block: Block, direction: PipeDirection, role: str) -> list[Operation]:
    return [op for op in block.ops if (direction, role) in transfer_roles(op)]


def _count_before(ops: list[Operation], anchor: Operation) -> int:
    block = anchor.parent_block()
    assert block is not None
    at = block.get_operation_index(anchor)
    return sum(1 for op in ops if block.get_operation_index(op) < at)


def _blocks_by_key(f: Operation) -> dict[tuple, Block]:
    out: dict[tuple, Block] = {}
    for op in f.walk():
        for r in op.regions:
            for b in r.blocks:
                out[_block_key(b)] = b
    return out


@dataclass
class _Side:
    core: CoreSide
    func: Operation

    @cached_property
    def blocks(self) -> dict[tuple, Block]:
        """The blocks of the kernel by `_block_key`, built on first use (only a conflicting access pair needs them)."""
        return _blocks_by_key(self.func)

    def anchor(self, key: tuple, op: Operation) -> Operation:
        found = self.blocks[key].find_ancestor_op_in_block(op)
        assert found is not None
        return found


def _intra(p: _Side, q: _Side, key: tuple, a: Operation, b: Operation) -> bool:
    """Whether a transfer p -> q in the block `key` runs after `a` on p and before `b` on q."""
    d = PipeDirection.from_producer(p.core)
    pushes = _directs(p.blocks[key], d, "push")
    pops = _directs(q.blocks[key], d, "pop")
    # the first push after a is the (pushes before a)-th; its pop must come before b
    return _count_before(pushes, p.anchor(key, a)) < _count_before(pops, q.anchor(key, b))


def _carried(p: _Side, q: _Side, key: tuple, a: Operation, b: Operation) -> bool:
    """Whether a transfer p -> q in the loop body `key` runs after `a` (same iteration) or before `b` (next one)."""
    d = PipeDirection.from_producer(p.core)
    pushes = _directs(p.blocks[key], d, "push")
    pops = _directs(q.blocks[key], d, "pop")
    return _count_before(pushes, p.anchor(key, a)) < len(pushes) or _count_before(pops, q.anchor(key, b)) > 0


def _loop_key(key: tuple) -> tuple | None:
    """The key of the innermost loop body around (or equal to) the block `key`."""
    while key:
        ident, _region, _block = key[-1]
        if ident[0] in (scf.ForOp.name, scf.WhileOp.name):
            return key
        key = key[:-1]
    return None


def check_split_pair(aic: Operation, aiv: Operation, aliases: Aliases | None = None) -> None:
    """Reject (located) a cross-core dependence between the GM accesses of the AIC kernel `aic` and the AIV kernel
    `aiv` (same parameter list) that no transfer orders: within the iteration in one order or the other, and
    across iterations in the other order when they share a loop.  `aliases` (`param_aliases` of the module)
    names the parameters the callers bind to one buffer."""
    funcs = {CoreSide.AIC: aic, CoreSide.AIV: aiv}
    sides = {side: _Side(side, f) for side, f in funcs.items()}
    params = {side: {a: i for i, a in enumerate(f.regions[0].blocks[0].args)} for side, f in funcs.items()}
    accesses = {
        side: [
            (acc, frozenset(params[side][r] for r in acc.roots if r in params[side]))
            for acc in gm_accesses(list(f.walk()), lambda op, s=side: s, aliases)
        ]
        for side, f in funcs.items()
    }
    for a, ra in accesses[CoreSide.AIC]:
        for b, rb in accesses[CoreSide.AIV]:
            if not (a.write or b.write) or not (ra & rb):
                continue
            _check_pair(sides[CoreSide.AIC], sides[CoreSide.AIV], a, b)


def _check_pair(c: _Side, v: _Side, a: Access, b: Access) -> None:
    ka, kb = _block_key(a.op.parent_block()), _block_key(b.op.parent_block())  # type: ignore[arg-type]
    n = 0
    while n < min(len(ka), len(kb)) and ka[n] == kb[n]:
        n += 1
    key = ka[:n]
    same = n < len(ka) and n < len(kb) and ka[n][0] == kb[n][0]  # the two regions of one op (if branches, while)
    c_first = not same and _intra(c, v, key, a.op, b.op)
    v_first = not same and _intra(v, c, key, b.op, a.op)
    loop = _loop_key(key)
    what = f"the AIC '{a.op.name}' and this AIV '{b.op.name}' access one GM tensor"
    if same and ka[n][0][0] == scf.WhileOp.name:
        raise PtoError(
            f"unordered cross-core dependence: {what} (one writes) from the two regions of one scf.while, which no "
            f"fence in one block can order; move the access out of the condition region into the body",
            op=b.op,
        )
    if not same and not c_first and not v_first:
        raise PtoError(
            f"unordered cross-core dependence: {what} (one writes); no tpush/tpop pair runs after one access and "
            f"before the other "
            f"in their common block, so the cores race on the tensor; add a fence (a tpush after the first access, "
            f"the matching tpop before the second) or use separate buffers",
            op=b.op,
        )
    if loop is None:
        return
    if (same or c_first) and not _carried(v, c, loop, b.op, a.op):
        raise PtoError(
            f"unordered cross-core dependence across loop iterations ({_kind(b, a)}, AIV -> AIC): {what}, and the "
            f"AIC's access of the next iteration is not ordered after this one (no AIV -> AIC transfer after it in "
            f"the loop body, or before the AIC access); add a V->C fence after this access, popped by the AIC "
            f"before the end of the iteration",
            op=b.op,
        )
    if (same or v_first) and not _carried(c, v, loop, a.op, b.op):
        raise PtoError(
            f"unordered cross-core dependence across loop iterations ({_kind(a, b)}, AIC -> AIV): {what}, and this "
            f"access of the next iteration is not ordered after the AIC's (no AIC -> AIV transfer after it in the "
            f"loop body, or before this access); add a C->V fence after the AIC access, popped before the end of "
            f"the iteration",
            op=b.op,
        )
