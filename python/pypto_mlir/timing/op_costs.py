"""Which op is charged what: the timing model's cost rules, registered like the interpreter's semantics.

A rule is registered for op classes (`@cost_rule(Op, ...)`, looked up along the op class's MRO, so a family base
registers its members) or for an op trait (`@cost_rule_for_trait(Trait)`, for every op carrying it).  A class
rule wins over a trait rule; trait rules are tried in registration order.  There is no default: an op with no
rule is an error (`cost_of` raises), and tests/timing/test_op_costs.py checks that every op of the dialect and
every op the interpreter runs has both semantics and a cost rule.

An op's cost depends only on the op, its operand/result types (static shapes; a dynamic extent counts as 1) and
the target, never on the data, so one program always has one timing.  The constants are `costs.py`'s.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import arith, func, scf
from xdsl.ir import Operation

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects import pto_ops as P
from pypto_mlir.dialects.pto_comm_ops import DeferWaitOp, NotifyOp, WaitOp
from pypto_mlir.dialects.pto_lane_ops import LaneBarrierOp, LaneWorkspaceOp
from pypto_mlir.dialects.pto_traits import (
    BoundaryAffinity,
    CostFree,
    CubeCompute,
    GmAccess,
    PipeFree,
    PipePop,
    PipePush,
    PipeSetup,
    SlotView,
    TensorView,
    Transcendental,
    VectorAffinity,
)
from pypto_mlir.dialects.pto_types import DYNAMIC, TensorType, TileType, element_bits
from pypto_mlir.dialects.pto_view_ops import ExtractOp

from .costs import TargetCosts, costs_for
from .flow import releases_at_pop


@dataclass(frozen=True)
class Cost:
    """The modelled cycles of one op and the unit that spends them: `cube`, `vector`, `mte` (a data move: GM or
    on chip), `pipe` (a cross-core handshake and its copy), `scalar`, `view` (names memory, 0 cycles) or
    `control` (an op with regions or a call: its body's ops are charged, it is not)."""

    cycles: int
    unit: str


Rule = Callable[[Operation, TargetCosts, str | None], Cost]

_BY_CLASS: dict[type[Operation], Rule] = {}
_BY_TRAIT: list[tuple[type, Rule]] = []


def cost_rule(*op_types: type[Operation]) -> Callable[[Rule], Rule]:
    def deco(fn: Rule) -> Rule:
        for t in op_types:
            if t in _BY_CLASS:
                raise ValueError(f"{t.__name__} has two cost rules")
            _BY_CLASS[t] = fn
        return fn

    return deco


def cost_rule_for_trait(trait: type) -> Callable[[Rule], Rule]:
    def deco(fn: Rule) -> Rule:
        _BY_TRAIT.append((trait, fn))
        return fn

    return deco


def rule_for(op_type: type[Operation]) -> Rule | None:
    """The cost rule of an op class, or None when it has none."""
    for t in op_type.__mro__:
        if t in _BY_CLASS:
            return _BY_CLASS[t]
    has_trait = getattr(op_type, "has_trait", None)
    for trait, fn in _BY_TRAIT:
        if has_trait is not None and has_trait(trait):
            return fn
    return None


def cost_of(op: Operation, target: str | None) -> Cost:
    """The modelled cost of `op` (no regions: a loop's cost is its body's) on `target` (None: a2a3's table)."""
    rule = rule_for(type(op))
    if rule is None:
        raise PtoError(f"the timing model has no cost rule for '{op.name}' (timing/op_costs.py)", op=op)
    return rule(op, costs_for(target), target)


# ---------------------------------------------------------------------------------------------------------------
# Sizes
# ---------------------------------------------------------------------------------------------------------------


def _extent(d: int) -> int:
    return 1 if d == DYNAMIC else max(d, 1)


def value_bytes(t) -> int:
    """Bytes of a tile or tensor type at its static bound (a dynamic extent counts as 1); 0 for anything else."""
    if not isinstance(t, (TileType, TensorType)):
        return 0
    return (math.prod(_extent(d) for d in t.get_shape()) * element_bits(t.element_type) + 7) // 8


def _tiles(op: Operation) -> list[TileType]:
    return [v.type for v in (*op.operands, *op.results) if isinstance(v.type, TileType)]


def _tile_bytes(op: Operation) -> int:
    return max((value_bytes(t) for t in _tiles(op)), default=0)


# ---------------------------------------------------------------------------------------------------------------
# Data paths by memory space (pto-isa's PipeKeys)
# ---------------------------------------------------------------------------------------------------------------

_LOAD_PATH = {"vec": "gm_to_ub"}
"""GM -> a tile's space: UB for `vec`, L1 for every cube-side space (a load into L0 goes through L1)."""
_STORE_PATH = {"vec": "ub_to_gm", "acc": "l0c_to_gm", "mat": "l1_to_gm"}
_MOVE_PATH = {
    ("mat", "left"): "l1_to_l0a", ("mat", "right"): "l1_to_l0b", ("acc", "mat"): "l0c_to_l1",
    ("vec", "vec"): "ub_to_ub", ("mat", "bias"): "l1_to_bt", ("mat", "left_scale"): "l1_to_fb",
    ("mat", "right_scale"): "l1_to_fb", ("acc", "vec"): "l0c_to_ub", ("vec", "mat"): "ub_to_l1",
    ("vec", "left"): "ub_to_l1", ("vec", "right"): "ub_to_l1",
}
"""(source space, destination space) -> path.  A pair not listed (an L1 -> L1 copy, say) is charged on the
L1 -> L0B path: *assumption*, stated in docs/timing-model.md."""
OTHER_MOVE_PATH = "l1_to_l0b"


def load_path(space: str) -> str:
    return _LOAD_PATH.get(space, "gm_to_l1")


def store_path(space: str) -> str:
    return _STORE_PATH.get(space, "l1_to_gm")


def move_path(src: str, dst: str) -> str:
    return _MOVE_PATH.get((src, dst), OTHER_MOVE_PATH)


# ---------------------------------------------------------------------------------------------------------------
# Rules by class
# ---------------------------------------------------------------------------------------------------------------

@cost_rule(scf.ForOp, scf.IfOp, scf.WhileOp, scf.ExecuteRegionOp, func.CallOp, P.SplitAivScopeOp, scf.YieldOp,
           scf.ConditionOp, func.ReturnOp, P.YieldOp)
def _control(op: Operation, c: TargetCosts, target: str | None) -> Cost:
    return Cost(0, "control")


@cost_rule(P.CreateTensorOp, LaneWorkspaceOp)
def _allocate_gm(op: Operation, c: TargetCosts, target: str | None) -> Cost:
    """Allocates a GM buffer in orchestration code, or a lane workspace the runtime allocates before the kernel
    starts (as a `reserve_buffer` with `base = -1`): no unit of a core spends cycles on it.  The workspace's round
    trip is charged to its `store` and `load` (`GmAccess`: `gm_latency` + the bytes over UB -> GM / GM -> UB)."""
    return Cost(0, "view")


@cost_rule(LaneBarrierOp)
def _lane_barrier(op: Operation, c: TargetCosts, target: str | None) -> Cost:
    """Two cross-core flag operations: set this lane's flag, wait for the other lane's (`cross_core_sync` each,
    pto-isa's cost of a flag op).  That a sub-vector barrier is one set and one wait is an *assumption*; the time
    a lane waits for the other to arrive is the schedule's (`timeline.replay`), not the op's."""
    return Cost(2 * c.cross_core_sync, "pipe")


@cost_rule(*arith.Arith.operations, NotifyOp, WaitOp, DeferWaitOp)
def _scalar(op: Operation, c: TargetCosts, target: str | None) -> Cost:
    return Cost(c.scalar_op, "scalar")


@cost_rule(P.MoveOp, P.TransposeOp, ExtractOp)
def _move(op: Operation, c: TargetCosts, target: str | None) -> Cost:
    """A copy between memories (or within UB): the bytes over the (source, destination) path."""
    src = op.operands[0].type
    dst = op.results[0].type
    assert isinstance(src, TileType) and isinstance(dst, TileType)
    if src.space == "vec" and dst.space == "vec" and not isinstance(op, P.MoveOp):
        return _vector(op, c, target)  # a transpose or an extract on the vector unit
    return Cost(c.transfer_cycles(_tile_bytes(op), move_path(src.space, dst.space)), "mte")


# ---------------------------------------------------------------------------------------------------------------
# Rules by trait (in this order)
# ---------------------------------------------------------------------------------------------------------------


@cost_rule_for_trait(SlotView)
def _view(op: Operation, c: TargetCosts, target: str | None) -> Cost:
    """A view of memory (`SlotView`, `TensorView`), an op that only names memory or reads a register
    (`CostFree`), a lane boundary of an unexpanded kernel (`BoundaryAffinity`: gone after ExpandMixedKernel)."""
    return Cost(0, "view")


for _free_trait in (TensorView, CostFree, BoundaryAffinity):
    cost_rule_for_trait(_free_trait)(_view)


@cost_rule_for_trait(Transcendental)
def _transcendental(op: Operation, c: TargetCosts, target: str | None) -> Cost:
    """Charged `vector_transcendental` repeats per 256 bytes (before `VectorAffinity`'s rule, which it scales)."""
    return _vector(op, c, target, c.vector_transcendental)


@cost_rule_for_trait(PipePush)
def _push(op: Operation, c: TargetCosts, target: str | None) -> Cost:
    """Copy the tile into the slot, then signal ready.  a2a3: a GM store (L0C -> GM from the cube, UB -> GM from
    a lane); a5: into the consumer's memory (L0C -> UB, UB -> L1)."""
    t = op.operands[0].type
    assert isinstance(t, TileType)
    nbytes = value_bytes(t)
    if releases_at_pop(target):
        copy = c.gm_latency + c.transfer_cycles(nbytes, store_path(t.space))
    else:
        copy = c.transfer_cycles(nbytes, "l0c_to_ub" if t.space == "acc" else "ub_to_l1")
    return Cost(copy + c.cross_core_sync, "pipe")


@cost_rule_for_trait(PipePop)
def _pop(op: Operation, c: TargetCosts, target: str | None) -> Cost:
    """Wait for ready (the wait itself is the schedule's), then: a2a3 copy the tile out of the GM slot (GM -> UB
    or GM -> L1) and signal free; a5 nothing more (the result names the slot)."""
    t = op.results[0].type
    assert isinstance(t, TileType)
    if releases_at_pop(target):
        copy = c.gm_latency + c.transfer_cycles(value_bytes(t), load_path(t.space))
        return Cost(c.cross_core_sync + copy + c.cross_core_sync, "pipe")
    return Cost(c.cross_core_sync, "pipe")


@cost_rule_for_trait(PipeFree)
def _free(op: Operation, c: TargetCosts, target: str | None) -> Cost:
    """a2a3: returns at once (the pop freed the slot); a5: the free signal."""
    return Cost(0 if releases_at_pop(target) else c.cross_core_sync, "pipe")


@cost_rule_for_trait(PipeSetup)
def _setup(op: Operation, c: TargetCosts, target: str | None) -> Cost:
    return Cost(c.scalar_op, "scalar")


@cost_rule_for_trait(GmAccess)
def _gm(op: Operation, c: TargetCosts, target: str | None) -> Cost:
    """`gm_latency` + the bytes over the path between GM and the tile's space; a tensor-to-tensor copy (no tile)
    goes GM -> UB -> GM."""
    gm = op.get_trait(GmAccess)
    assert gm is not None
    tile = gm.tile_value(op)
    if tile is None:
        nbytes = max((value_bytes(v.type) for v in gm.read_tensors(op)), default=0)
        return Cost(c.gm_latency + c.transfer_cycles(nbytes, "gm_to_ub") + c.transfer_cycles(nbytes, "ub_to_gm"), "mte")
    t = tile.type
    assert isinstance(t, TileType)
    path = load_path(t.space) if tile in op.results else store_path(t.space)
    return Cost(c.gm_latency + c.transfer_cycles(value_bytes(t), path), "mte")


@cost_rule_for_trait(CubeCompute)
def _cube(op: Operation, c: TargetCosts, target: str | None) -> Cost:
    return Cost(cube_cycles(op, c), "cube")


@cost_rule_for_trait(VectorAffinity)
def _vector(op: Operation, c: TargetCosts, target: str | None, scale: int = 1) -> Cost:
    """`vector_issue` + ceil(largest tile bytes / 256) repeats (x `scale`); a vector-unit op on cube-side tiles
    (a fill of an accumulator) is an on-chip write: the bytes over the L0C -> L1 path."""
    tiles = _tiles(op)
    if not tiles:
        return Cost(c.scalar_op, "scalar")
    if {t.space for t in tiles} != {"vec"}:
        return Cost(c.transfer_cycles(_tile_bytes(op), "l0c_to_l1"), "mte")
    repeats = math.ceil(_tile_bytes(op) / c.vector_bytes_per_cycle) * scale
    return Cost(c.vector_issue + repeats, "vector")


def cube_cycles(op: Operation, c: TargetCosts) -> int:
    """ceil(M/m) x ceil(K/k') x ceil(N/n) fractal blocks for the result `... x M x N` and the left operand's K
    (a batch dimension multiplies the count); k' is k scaled by the left operand's element width."""
    left, res = op.lhs.type, op.results[0].type  # type: ignore[attr-defined]
    if not isinstance(left, TileType) or not isinstance(res, TileType):
        return 1
    m, k, n = c.cube_fractal
    k_eff = max(1, int(k * c.k_scale(element_bits(left.element_type))))
    rs, ls = [_extent(d) for d in res.get_shape()], [_extent(d) for d in left.get_shape()]
    batch = math.prod(rs[:-2]) if len(rs) > 2 else 1
    big_m = rs[-2] if len(rs) >= 2 else 1
    return batch * math.ceil(big_m / m) * math.ceil(ls[-1] / k_eff) * math.ceil(rs[-1] / n)
