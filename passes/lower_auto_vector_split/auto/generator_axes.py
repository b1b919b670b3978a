"""The split axis of each tile generator of an AUTO kernel: the axis of the split data it is combined with.

A transpose moves the split axis of a per-lane value (`TransposeHalving`): after `pto.transpose` of a tile split
on dim 0 each lane holds a column band, split on dim 1.  A tile generator (`pto.full`, `pto.create`, `pto.ci`)
has no split data of its own: any partition of it is a lane part.  Halved on the function's axis, a generator
added to a transposed value would meet it split on the other axis, which `SplitLowering` refuses; so a generator
whose values reach such a value is halved on that value's axis instead.

`generator_axes(f, dim)` infers, forward over the body, the split axis each vector tile will have:
- a C->V boundary move and a vec load: the function's axis `dim`;
- a generator: *free* (any axis), and so is every elementwise / broadcast / move result of free values only;
- a transpose: its source's axis moved with the permutation;
- an elementwise / broadcast / reduction / move result: the axis of its first operand that has one;
- `scf.for` / `scf.while` carried values the axis of their initial value, `scf.if` results the axis of a yield;
- anything else (reshape, slice, ...), and a singleton or missing axis: none (no constraint).
Where an op combines a free operand with an operand split on an axis `a`, the free operand and every free value
it is computed from (back to the generators) get `a`.  The first such meeting decides; a generator also combined with a value split on another
axis is then refused where they meet (`SplitLowering.check_same_axis`).  A generator that meets nothing keeps the
function's axis (the result the lowering had before).
"""

from __future__ import annotations

from xdsl.dialects import func, scf
from xdsl.ir import Block, Operation, OpResult, SSAValue

from pypto_mlir.dialects.pto_ops import GENERATOR_OPS, LoadOp, TransposeOp, TransposeViewOp
from pypto_mlir.dialects.pto_traits import HalvingRule, PipeDirection, ReductionAxis, halving_rule_of
from pypto_mlir.dialects.pto_types import TileType
from pypto_mlir.passes.analysis.affinity import move_direction

FREE = -1
"""The axis of a value computed from generators only: it can be split on any axis."""

_FOLLOWS_OPERANDS = frozenset({HalvingRule.ELEMENTWISE, HalvingRule.BROADCAST, HalvingRule.REDUCTION, HalvingRule.MOVE})


class _Axes:
    def __init__(self, dim: int):
        self.dim = dim
        self.axis: dict[SSAValue, int] = {}
        self.wanted: dict[SSAValue, int] = {}

    def of(self, v: SSAValue) -> int | None:
        return self.axis.get(v)

    def set(self, v: SSAValue, a: int | None) -> None:
        t = v.type
        if a is None or not isinstance(t, TileType):
            return
        if a != FREE and (t.rank <= a or t.get_shape()[a] == 1):
            return  # not split on that axis: untracked by the lowering
        self.axis[v] = a

    # -- the walk --------------------------------------------------------------------------------------------
    def block(self, block: Block) -> None:
        for op in block.ops:
            self.op(op)

    def op(self, op: Operation) -> None:
        if isinstance(op, scf.ForOp):
            body = op.body.block
            for init, arg, res in zip(op.iter_args, body.args[1:], op.results):
                self.set(arg, self.of(init))
                self.set(res, self.of(init))
            self.block(body)
            return
        if isinstance(op, scf.WhileOp):
            before, after = op.before_region.block, op.after_region.block
            for init, arg in zip(op.arguments, before.args):
                self.set(arg, self.of(init))
            self.block(before)
            cond = before.last_op
            if isinstance(cond, scf.ConditionOp):
                for v, arg, res in zip(cond.args, after.args, op.results):
                    self.set(arg, self.of(v))
                    self.set(res, self.of(v))
            self.block(after)
            return
        if isinstance(op, scf.IfOp):
            yields = []
            for region in op.regions:
                if region.blocks:
                    self.block(region.block)
                    yields.append(list(region.block.last_op.operands))  # type: ignore[union-attr]
            for i, res in enumerate(op.results):
                vals = [y[i] for y in yields if i < len(y)]
                self.set(res, self.combine(vals))
            return
        if op.regions or isinstance(op, func.ReturnOp):
            return
        self.set_results(op)

    def set_results(self, op: Operation) -> None:
        rule = halving_rule_of(op)
        if isinstance(op, GENERATOR_OPS):
            for r in op.results:
                self.set(r, FREE)
        elif move_direction(op) is PipeDirection.C2V or isinstance(op, LoadOp):
            for r in op.results:
                self.set(r, self.dim)
        elif isinstance(op, (TransposeOp, TransposeViewOp)):
            a = self.of(op.operands[0])
            if a is not None and a != FREE:
                a = list(op.get_axes()).index(a)
            self.set(op.results[0], a)
        elif rule in _FOLLOWS_OPERANDS:
            a = self.combine([v for v in op.operands if isinstance(v.type, TileType)])
            reduction = op.get_trait(ReductionAxis)
            if reduction is not None and reduction.axis == a:
                a = None
            for r in op.results:
                self.set(r, a)

    def combine(self, vals: list[SSAValue]) -> int | None:
        """The axis of a value computed from `vals` cell by cell: the first operand's axis that is not free; free
        when every operand is free.  Free operands meeting an axis ask their generators for it."""
        axes = [self.of(v) for v in vals]
        split = next((a for a in axes if a is not None and a != FREE), None)
        if split is None:
            return FREE if axes and all(a == FREE for a in axes) else None
        for v, a in zip(vals, axes):
            if a == FREE:
                self.want(v, split)
        return split

    def want(self, v: SSAValue, a: int) -> None:
        """Give axis `a` to every generator the free value `v` is computed from (first request wins)."""
        if not isinstance(v, OpResult) or v in self.wanted:
            return
        self.wanted[v] = a
        op = v.op
        if isinstance(op, (TransposeOp, TransposeViewOp)):
            a = list(op.get_axes())[a]  # the source's dim that the transpose moves to `a`
        for w in op.operands:
            if self.of(w) == FREE:
                self.want(w, a)


def generator_axes(f: func.FuncOp, dim: int) -> dict[SSAValue, int]:
    """The free values of `f` (generator results and values computed from them only) to split on an axis other
    than the function's `dim` (see the module docstring): a generator is halved on it, and a whole value (a `ci`
    generated whole) gives its users the lane part on it."""
    axes = _Axes(dim)
    axes.block(f.body.block)
    return {v: a for v, a in axes.wanted.items() if a != dim}


__all__ = ["FREE", "generator_axes"]
