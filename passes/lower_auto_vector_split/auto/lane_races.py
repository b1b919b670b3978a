"""Cross-lane GM races of an AUTO split kernel (checked on the lowered function).

After the AUTO path each AIV lane runs the whole vector program on its own part of the data.  The two lanes
are not synchronised with each other, except by a `pto.lane_barrier` (the cross-lane combine of a reduction over
the split axis, `patterns/cross_lane.py`) or through the cube: a V->C transfer followed by a C->V transfer (the
cube's pop waits for both lanes' pushes, and each lane's later pop waits for the cube's push).  So two vector GM
accesses of one tensor, at least one a write, race when lane 0's cells of one overlap lane 1's cells of the other
and no such round trip lies between them: e.g. a store of a halved tile followed by a load of another window of
the same tensor, whose lane 0 part reads rows lane 1 stored.  (Accesses of the same lane are in program order;
the cube's own accesses are ExpandMixedKernel's GM fences.)

Each access's cells on each lane are computed from the lowered offsets by substituting the lane index for
`pto.get_subblock_idx`: index arithmetic (`arith.constant`, `addi`, `subi`, `muli`, `minsi`/`maxsi`,
`minui`/`maxui`, `select`) is evaluated to a linear form over the values it cannot see (function arguments, loop
indices); two windows are compared when their forms differ by a constant, and taken to overlap otherwise (a
conservative rejection).  A store writes its tile's valid cells, a load reads its box (as the interpreter's race
detector records them); two atomic adds, and two plain stores of one value computed whole on both lanes, do
not race.  A pair in one loop is also compared across consecutive iterations (the later access one step on).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, func, scf
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from pypto_mlir.diagnostics import PtoError, location_of
from pypto_mlir.dialects.pto_lane_ops import LaneBarrierOp
from pypto_mlir.dialects.pto_ops import GetSubblockIdxOp, StoreOp
from pypto_mlir.dialects.pto_traits import CoreSide, GmAccess, PipeDirection
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType

from ...analysis.affinity import Affinity, intrinsic_affinity
from ...analysis.hazards import op_accesses, transfer_roles
from pypto_mlir.dialects.pto_lanes import lane_extent
from ...common import enclosing_loops

PASS = "LowerAutoVectorSplit"


@dataclass(frozen=True)
class Lin:
    """`const + sum(coeff * value)`: an index as a linear form over the values the evaluator cannot see."""

    const: int
    terms: frozenset[tuple[SSAValue, int]] = frozenset()

    def __add__(self, o: Lin) -> Lin:
        acc: dict[SSAValue, int] = dict(self.terms)
        for v, c in o.terms:
            acc[v] = acc.get(v, 0) + c
        return Lin(self.const + o.const, frozenset((v, c) for v, c in acc.items() if c))

    def scale(self, k: int) -> Lin:
        return Lin(self.const * k, frozenset((v, c * k) for v, c in self.terms if c * k))


def _const_of(op: arith.ConstantOp) -> int | None:
    value = getattr(op.value, "value", None)
    data = getattr(value, "data", None)
    return data if isinstance(data, int) else None


def evaluate(v: SSAValue | int, lane: int, shift: dict[SSAValue, int] | None = None, depth: int = 0) -> Lin | None:
    """`v` on `lane` as a linear form (None when it is not linear); `shift` moves loop indices by a step."""
    if isinstance(v, int):
        return Lin(v)
    shift = shift or {}
    if depth > 64:
        return None
    if isinstance(v, BlockArgument):
        return Lin(shift.get(v, 0), frozenset({(v, 1)}))
    assert isinstance(v, OpResult)
    op = v.op
    if isinstance(op, GetSubblockIdxOp):
        return Lin(lane)
    if isinstance(op, arith.ConstantOp):
        c = _const_of(op)
        return Lin(c) if c is not None else None
    args = [evaluate(x, lane, shift, depth + 1) for x in op.operands] if _is_index_arith(op) else [None]
    if any(a is None for a in args):
        # A value the evaluator cannot see: the same on both lanes unless it depends on the lane index.
        return None if _lane_dependent(v) else Lin(0, frozenset({(v, 1)}))
    if isinstance(op, arith.AddiOp):
        return args[0] + args[1]  # type: ignore[operator]
    if isinstance(op, arith.SubiOp):
        return args[0] + args[1].scale(-1)  # type: ignore[union-attr,operator]
    if isinstance(op, arith.MuliOp):
        a, b = args
        if not a.terms:  # type: ignore[union-attr]
            return b.scale(a.const)  # type: ignore[union-attr]
        if not b.terms:  # type: ignore[union-attr]
            return a.scale(b.const)  # type: ignore[union-attr]
        return None
    if isinstance(op, (arith.MinSIOp, arith.MaxSIOp, arith.MinUIOp, arith.MaxUIOp)):
        a, b = args
        if a.terms or b.terms:  # type: ignore[union-attr]
            return None
        pick = min if isinstance(op, (arith.MinSIOp, arith.MinUIOp)) else max
        return Lin(pick(a.const, b.const))  # type: ignore[union-attr]
    if isinstance(op, arith.SelectOp):
        c, a, b = args
        if c.terms:  # type: ignore[union-attr]
            return None
        return a if c.const else b  # type: ignore[union-attr]
    if isinstance(op, arith.CmpiOp):
        a, b = args
        if a.terms or b.terms:  # type: ignore[union-attr]
            return None
        pred = op.predicate.value.data
        x, y = a.const, b.const  # type: ignore[union-attr]
        table = {0: x == y, 1: x != y, 2: x < y, 3: x <= y, 4: x > y, 5: x >= y, 6: x < y, 7: x <= y, 8: x > y, 9: x >= y}
        return Lin(int(table[pred])) if pred in table else None
    if isinstance(op, arith.IndexCastOp):
        return args[0]
    return None


def _lane_dependent(v: SSAValue, depth: int = 0) -> bool:
    if depth > 64:
        return True
    if not isinstance(v, OpResult):
        return False
    if isinstance(v.op, GetSubblockIdxOp):
        return True
    return any(_lane_dependent(x, depth + 1) for x in v.op.operands)


def _is_index_arith(op: Operation) -> bool:
    return isinstance(
        op,
        (arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.MinSIOp, arith.MaxSIOp, arith.MinUIOp, arith.MaxUIOp,
         arith.SelectOp, arith.CmpiOp, arith.IndexCastOp),
    )


@dataclass
class LaneAccess:
    op: Operation
    write: bool
    roots: frozenset[SSAValue]
    atomic: bool
    index: int
    lanes: dict | None = None
    """The lowering's per-lane tiles (`SplitLowering.tracked`: value -> TileInfo)."""


def _window(acc: LaneAccess, lane: int, shift: dict[SSAValue, int]) -> list[tuple[Lin, int]] | None:
    """Per tensor dim `(start, extent)` of the cells `acc` touches on `lane`; None: the whole tensor.  A per-lane
    tile whose valid extent on the split dim is `?` holds its lane's extent of the full tile (`lane_extent`; at
    most the lane step when the full valid extent is not known either)."""
    op = acc.op
    trait = op.get_trait(GmAccess)
    assert trait is not None
    tile = trait.tile_value(op)
    if tile is None or not isinstance(tile.type, TileType) or not hasattr(op, "get_mixed_offsets"):
        return None
    t = tile.type
    offsets = op.get_mixed_offsets()  # type: ignore[attr-defined]
    shape = list(t.get_shape())
    valid = list(t.get_valid())
    info = acc.lanes.get(tile) if acc.lanes is not None else None
    if info is not None and valid[info.dim] == DYNAMIC:
        valid[info.dim] = info.step if info.full_valid == DYNAMIC else lane_extent(info.full_valid, info.step, lane)
    ext = [v if acc.write and v != DYNAMIC else s for s, v in zip(shape, valid)]
    lead = len(offsets) - len(ext)
    out: list[tuple[Lin, int]] = []
    for j, o in enumerate(offsets):
        start = evaluate(o, lane, shift)
        if start is None:
            return None
        e = 1 if j < lead else ext[j - lead]
        if e == DYNAMIC:
            return None
        out.append((start, e))
    return out


def _overlap(a: list[tuple[Lin, int]] | None, b: list[tuple[Lin, int]] | None) -> bool:
    if a is None or b is None:
        return True
    if len(a) != len(b):
        return True
    for (sa, ea), (sb, eb) in zip(a, b):
        if ea <= 0 or eb <= 0:
            return False
        d = sa + sb.scale(-1)
        if d.terms:
            continue  # not comparable on this dim: may overlap
        # a starts d.const after b
        if d.const >= eb or -d.const >= ea:
            return False
    return True


def _round_trip(ops: list[Operation]) -> bool:
    """A `pto.lane_barrier`, or a V->C transfer followed by a C->V transfer, among `ops` (in order): it orders the
    lanes (every access of either lane before it happens before every access of either lane after it)."""
    v2c = False
    for op in ops:
        if isinstance(op, LaneBarrierOp):
            return True
        for d, _role in transfer_roles(op):
            if d == PipeDirection.V2C:
                v2c = True
            elif d == PipeDirection.C2V and v2c:
                return True
    return False


def _step(loop: Operation) -> tuple[BlockArgument, int] | None:
    if isinstance(loop, scf.ForOp):
        s = evaluate(loop.step, 0)
        if s is not None and not s.terms:
            return loop.body.block.args[0], s.const
    return None


def check_cross_lane_gm_races(f: func.FuncOp, lanes: dict | None = None) -> None:
    """Reject (located) a pair of vector GM accesses of one tensor whose lanes' cells cross-overlap, at least one
    a write, with no cube round trip between them (see the module docstring)."""
    ops = list(f.walk())
    memo: dict = {}
    accesses: list[LaneAccess] = []
    for i, op in enumerate(ops):
        if not op.has_trait(GmAccess) or intrinsic_affinity(op) == Affinity.CUBE:
            continue
        atomic = isinstance(op, StoreOp) and op.is_atomic
        for a in op_accesses(op, CoreSide.AIV, memo):
            accesses.append(LaneAccess(op, a.write, a.roots, atomic, i, lanes))
    for x in range(len(accesses)):
        for y in range(x + 1, len(accesses)):
            a, b = accesses[x], accesses[y]
            if a.op is b.op or not (a.write or b.write) or not (a.roots & b.roots) or (a.atomic and b.atomic):
                continue
            _check_pair(ops, a, b)


def _check_pair(ops: list[Operation], a: LaneAccess, b: LaneAccess) -> None:
    """`a` comes before `b` in program order."""
    between = ops[a.index + 1 : b.index]
    if not _race(a, b, {}) or _round_trip(between):
        pass
    else:
        _reject(a, b, "")
    shared = [lp for lp in enclosing_loops(b.op) if lp in enclosing_loops(a.op)]
    if not shared:
        return
    loop = shared[0]
    st = _step(loop)
    if st is None:
        return  # a while loop: its iterations are not compared (documented)
    iv, step = st
    first = ops.index(loop)
    last = first + sum(1 for _ in loop.walk()) - 1
    wrap = ops[b.index + 1 : last + 1] + ops[first + 1 : a.index]
    if _race(b, a, {iv: step}) and not _round_trip(wrap):
        _reject(b, a, " in the next iteration of the enclosing loop")


def _race(a: LaneAccess, b: LaneAccess, shift_b: dict[SSAValue, int]) -> bool:
    """Whether lane 0's cells of one cross-overlap lane 1's cells of the other (`b` shifted by `shift_b`)."""
    for la, lb in ((0, 1), (1, 0)):
        if not (_runs_on(a.op, la) and _runs_on(b.op, lb)):
            continue  # under an `scf.if` on the lane index that this lane skips (e.g. `%is_lane0`)
        if _overlap(_window(a, la, {}), _window(b, lb, shift_b)):
            if a.write and b.write and _same_whole_store(a, b):
                continue
            return True
    return False


def _runs_on(op: Operation, lane: int) -> bool:
    """False when `op` sits in a branch of an `scf.if` whose condition, evaluated on `lane`, skips it."""
    child, parent = op, op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        if isinstance(parent, scf.IfOp):
            c = evaluate(parent.cond, lane)
            if c is not None and not c.terms:
                taken = parent.true_region if c.const else parent.false_region
                if child.parent_region() is not taken:
                    return False
        child, parent = parent, parent.parent_op()
    return True


def _same_whole_store(a: LaneAccess, b: LaneAccess) -> bool:
    """Two stores of one SSA tile computed whole on both lanes write the same values: not a race."""
    return (
        isinstance(a.op, StoreOp)
        and isinstance(b.op, StoreOp)
        and a.op.tile is b.op.tile
        and _window(a, 0, {}) == _window(a, 1, {})
    )


def _reject(a: LaneAccess, b: LaneAccess, when: str) -> None:
    t = getattr(b.op, "dest", None) or getattr(b.op, "source", None)
    name = f"%{t.name_hint}" if t is not None and t.name_hint else "one tensor"
    kinds = {(True, False): "reads cells the other lane writes", (False, True): "writes cells the other lane reads",
             (True, True): "writes cells the other lane writes"}
    what = kinds[(a.write, b.write)] if (a.write, b.write) in kinds else "touches cells the other lane writes"
    raise PtoError(
        f"{PASS}: after the split each AIV lane runs this {b.op.name} on its own part, and its part {what} with "
        f"the {a.op.name} at {location_of(a.op)}{when} (tensor {name}); the two lanes are not synchronised (no "
        "cube round trip lies between the two accesses), so the lanes race on GM. Access the same window of the "
        "tensor in both (each lane then touches only its own part), keep the value in a tile instead of "
        "reloading it from GM, or store it to a tensor of its own",
        op=b.op,
        notes=[(location_of(a.op), f"the other access ({a.op.name})")],
    )


__all__ = ["check_cross_lane_gm_races", "evaluate", "Lin"]
