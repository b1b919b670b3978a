"""One side (AIC or AIV) of a mixed kernel under construction (reference §2 "Body construction").

The side starts as a full clone of the mixed function.  Boundary ops become tpush/tpop (`boundaries.py`); ops
of the *other* side are pruned; MIXED `scf.for/if/while` keep their skeleton and are pruned inside.

A pruned op whose results are still referenced leaves an *undefined value* behind: a result-only
`builtin.unrealized_conversion_cast` standing exactly where the op was (so dominance is kept), recorded in
`SideBody.undefined`.  The loop-state repair (`repair.py`) resolves these: identity yields, pulled-back init
values (the original op is re-materialised in place), stripped carries and `scf.if` results, and GM tensors
remapped to their parameter; DCE erases the unused ones.  None may survive the pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.dialects.builtin import UnrealizedConversionCastOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from pypto_mlir.dialects.pto_traits import CoreSide

from ..analysis.affinity import Affinity, AffinityAnalysis
from ..common import with_loc


@dataclass
class SideBody:
    """The clone of a mixed function being turned into its `side` half, with its maps to the original."""

    side: CoreSide
    target: str
    original: func.FuncOp
    affinity: AffinityAnalysis
    func: func.FuncOp
    value_map: dict[SSAValue, SSAValue]
    orig_of: dict[Operation, Operation]
    undefined: dict[SSAValue, SSAValue | None] = field(default_factory=dict)
    """undefined side value -> the original value it stands for (None: cannot be re-materialised)."""
    placeholders: set[Operation] = field(default_factory=set)
    """every placeholder op made for undefined values (erased by the end of the repair)."""
    by_side: dict[SSAValue, list[SSAValue]] | None = field(default=None, repr=False)
    """side value -> originals `value_map` maps to it (may list stale ones); built by the first `remap` so that
    a remap does not scan the whole map (quadratic in the kernel size); kept in step by `remap`/`materialize`."""

    # -- construction ----------------------------------------------------------------------------------------
    @staticmethod
    def clone_of(original: func.FuncOp, side: CoreSide, target: str, affinity: AffinityAnalysis) -> SideBody:
        value_map: dict[SSAValue, SSAValue] = {}
        clone = original.clone(value_mapper=value_map, block_mapper={})
        orig_of = {new: old for old, new in zip(original.walk(), clone.walk())}
        return SideBody(side, target, original, affinity, clone, value_map, orig_of)

    @property
    def own(self) -> Affinity:
        return self.side.affinity

    @property
    def other(self) -> Affinity:
        return self.side.other.affinity

    def orig_affinity(self, op: Operation) -> Affinity | None:
        orig = self.orig_of.get(op)
        return None if orig is None else self.affinity.get(orig)

    def op_map(self) -> dict[Operation, Operation]:
        """original op -> its clone in this side's body (ops the side dropped are absent)."""
        out: dict[Operation, Operation] = {}
        for op in self.func.walk():
            orig = self.orig_of.get(op)
            if orig is not None and op is not self.func:
                out[orig] = op
        return out

    # -- values ----------------------------------------------------------------------------------------------
    def orig_value(self, side_value: SSAValue) -> SSAValue | None:
        if side_value in self.undefined:
            return self.undefined[side_value]
        for o, s in self.value_map.items():
            if s is side_value:
                return o
        return None

    def replace_value(self, old: SSAValue, new: SSAValue) -> None:
        """Replace every use of `old` by `new` and keep the original->side map pointing at the live value."""
        old.replace_all_uses_with(new)
        self.remap(old, new)

    def remap(self, old: SSAValue, new: SSAValue) -> None:
        """Point the original->side map at `new` wherever it pointed at `old` (uses already replaced)."""
        if self.by_side is None:
            self.by_side = {}
            for o, s in self.value_map.items():
                self.by_side.setdefault(s, []).append(o)
        for o in self.by_side.pop(old, ()):
            if self.value_map.get(o) is old:
                self.value_map[o] = new
                self.by_side.setdefault(new, []).append(o)
        if old in self.undefined:
            self.undefined.pop(old)

    def is_undefined(self, value: SSAValue) -> bool:
        return value in self.undefined

    def make_undefined(self, like: Operation, originals: list[SSAValue | None]) -> Operation:
        """A placeholder op with `like`'s result types and names, standing for `originals` (not inserted)."""
        # `create` skips IRDL's argument checking: a result-only cast cannot be malformed (and this runs for
        # every dropped op)
        ph = UnrealizedConversionCastOp.create(result_types=[r.type for r in like.results])
        with_loc(ph, like)
        self.placeholders.add(ph)
        for r, old, orig in zip(ph.results, like.results, originals):
            r.name_hint = old.name_hint
            self.undefined[r] = orig
        return ph

    def drop(self, op: Operation) -> None:
        """Remove a side op; its still-referenced results become undefined values."""
        orig = self.orig_of.get(op)
        if op.results:
            originals: list[SSAValue | None] = (
                list(orig.results) if orig is not None else [self.orig_value(r) for r in op.results]
            )
            ph = self.make_undefined(op, originals)
            block = op.parent_block()
            assert block is not None
            block.insert_op_before(ph, op)
            for old, new in zip(op.results, ph.results):
                self.replace_value(old, new)
        erase_op(op)

    def can_materialize(self, value: SSAValue) -> bool:
        orig = self.undefined.get(value)
        if not isinstance(orig, OpResult):
            return False
        return self.affinity.get(orig.op) != Affinity.MIXED

    def materialize(self, value: SSAValue, _depth: int = 0) -> SSAValue:
        """Re-create the original op behind an undefined value in place (pulling back its own undefined inputs)."""
        orig = self.undefined.get(value)
        assert isinstance(orig, OpResult)
        orig_op = orig.op
        ph = value.owner
        assert isinstance(ph, Operation)
        mapper: dict[SSAValue, SSAValue] = {}
        for inner in orig_op.walk():
            for v in inner.operands:
                if _defined_inside(v, orig_op) or v in mapper:
                    continue
                sv = self.value_map.get(v)
                if sv is None:
                    raise KeyError(v)
                if self.is_undefined(sv):
                    if not self.can_materialize(sv) or _depth > 1000:
                        return value
                    sv = self.materialize(sv, _depth + 1)
                mapper[v] = sv
        clone = orig_op.clone(value_mapper=mapper, block_mapper={})
        block = ph.parent_block()
        assert block is not None
        block.insert_op_before(clone, ph)
        self.orig_of[clone] = orig_op
        for o, phr, cr in zip(orig_op.results, ph.results, clone.results):
            self.replace_value(phr, cr)
            self.value_map[o] = cr
            if self.by_side is not None:
                self.by_side.setdefault(cr, []).append(o)
        erase_op(ph)
        return clone.results[orig.index]

    # -- pruning ---------------------------------------------------------------------------------------------
    def prune_other_side(self) -> None:
        """Drop every op of the other side; recurse into MIXED compound ops (their headers are kept as-is)."""
        self._prune_block(self.func.body.block)

    def _prune_block(self, block: Block) -> None:
        for op in list(block.ops):
            a = self.orig_affinity(op)
            if a is None:
                continue
            if a == self.other:
                self.drop(op)
            elif a == Affinity.MIXED:
                for region in op.regions:
                    for b in region.blocks:
                        self._prune_block(b)


def _defined_inside(value: SSAValue, op: Operation) -> bool:
    owner = value.owner
    if isinstance(value, BlockArgument):
        parent = value.block.parent_op()
        return parent is not None and (parent is op or op.is_ancestor(parent))
    assert isinstance(owner, Operation)
    return owner is op or op.is_ancestor(owner)


def dominates(a: Operation, b: Operation) -> bool:
    """`a` is before `b` (or an ancestor of `b` is after `a`) in `a`'s block."""
    block = a.parent_block()
    node: Operation | None = b
    while node is not None and node.parent_block() is not block:
        node = node.parent_op()
    if node is None or node is a:
        return False
    return a.is_before_in_block(node)


def erase_op(op: Operation) -> None:
    """Detach (if attached) and erase an op whose results are no longer used."""
    block = op.parent_block()
    if block is not None:
        block.erase_op(op)
    else:
        op.erase()
