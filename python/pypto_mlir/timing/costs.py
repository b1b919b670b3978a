"""The cost table of the timing model: how many modelled cycles one op takes on its core, per target.

This is a model, not a cycle-accurate simulator and not a measurement.  It counts what public architecture
descriptions let one count (the cube's fractal rate, the vector unit's repeat width) and fills the rest with
stated assumptions, so that it can rank schedules of one kernel (ring depths, splits) and show where a core waits.
Its unit is the *modelled cycle*; never read it as hardware time.  Every constant is a field of `TargetCosts`
with its source, or marked as an assumption; docs/timing-model.md repeats the table.

An op's cost depends only on the op and its operand/result types (static shapes; a dynamic extent counts as 1),
never on the data, so one program always has one timing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.ir import Operation

from pypto_mlir.dialects.pto_tile_ops import MoveOp
from pypto_mlir.dialects.pto_traits import (
    CostFree,
    CubeCompute,
    GmAccess,
    PipeFree,
    PipePop,
    PipePush,
    PipeSetup,
    SlotView,
    Transcendental,
)
from pypto_mlir.dialects.pto_types import DYNAMIC, TensorType, TileType, element_bits


@dataclass(frozen=True)
class TargetCosts:
    """The constants of one target.  Fields marked *assumption* have no public figure behind them; they are of a
    plausible order and are the same on both targets unless the field says why not."""

    cube_fractal: tuple[int, int, int]
    """(m, k, n) of the block the cube multiplies per cycle for 16-bit inputs: 16 x 16 x 16 = 4096 MACs per cycle.
    Source: Huawei's Da Vinci talk at Hot Chips 31 (2019): "Cube: 4096 FP16 MACs" per core and cycle."""
    cube_k_scale: tuple[tuple[int, float], ...]
    """(input element bits, factor on k per cycle): 8-bit inputs double k (the same talk: 8192 INT8 MACs); 32-bit
    inputs halve it (*assumption*: fp32 cube rates are not in that source)."""
    vector_bytes_per_cycle: int
    """Bytes one vector repeat reads: 8 data blocks of 32 bytes = 256 B (Ascend C documentation, vector
    instructions, common parameters: a repeat reads 8 datablocks of 32 bytes).  *Assumption*: one repeat per
    cycle."""
    vector_issue: int
    """Fixed cycles of one vector instruction (issue, pipeline fill).  *Assumption*."""
    vector_transcendental: int
    """Repeats per 256 B of exp / log / sqrt / rsqrt / recip / div (several passes through the unit).
    *Assumption*."""
    gm_bytes_per_cycle: int
    """Bytes per cycle one core moves between GM and its local memory (MTE2 loads, MTE3 stores).  *Assumption* of
    the order of an HBM share per core: about 1.6 TB/s over 24 AI cores at about 1.8 GHz is about 37 B per cycle
    and core; a core working alone gets more."""
    gm_latency: int
    """Cycles before the first byte of a GM transfer arrives.  *Assumption*."""
    onchip_bytes_per_cycle: int
    """Bytes per cycle of an on-chip move inside one core (L1 -> L0A/L0B, L0C -> L1/UB through the fixpipe,
    UB -> UB).  *Assumption*."""
    pipe_bytes_per_cycle: int
    """Bytes per cycle of a cross-core tile transfer (a tpush).  *Assumption*: on a2a3 the cube and vector cores
    are separate cores and the tile travels through the shared L2 at a GM-like rate; on a5 the cores are joined
    on chip and get the on-chip rate."""
    pipe_latency: int
    """Cycles from the end of a push to the consumer seeing the slot full (the handshake flag).  *Assumption*."""
    free_latency: int
    """Cycles from a tfree to the producer seeing the slot free again (the flag back).  *Assumption*."""
    scalar_op: int
    """Cycles of a scalar op (arith, index math, a comm signal) on the core's scalar unit.  *Assumption*."""

    def k_scale(self, bits: int) -> float:
        return dict(self.cube_k_scale).get(bits, 1.0)


_COMMON = dict(
    cube_fractal=(16, 16, 16),
    cube_k_scale=((8, 2.0), (16, 1.0), (32, 0.5)),
    vector_bytes_per_cycle=256,
    vector_issue=8,
    vector_transcendental=4,
    gm_bytes_per_cycle=64,
    gm_latency=200,
    onchip_bytes_per_cycle=128,
    scalar_op=1,
)

TARGET_COSTS: dict[str, TargetCosts] = {
    "a2a3": TargetCosts(pipe_bytes_per_cycle=64, pipe_latency=100, free_latency=50, **_COMMON),
    "a5": TargetCosts(pipe_bytes_per_cycle=128, pipe_latency=50, free_latency=25, **_COMMON),
}
DEFAULT_TARGET = "a2a3"
"""The table used for a module without `pto.target`."""

@dataclass(frozen=True)
class Cost:
    """The modelled cycles of one op and the unit that spends them: `cube`, `vector`, `mte` (a data move: GM or
    on chip), `pipe` (a cross-core handshake), `scalar`, or `view` (names memory, 0 cycles)."""

    cycles: int
    unit: str


def costs_for(target: str | None) -> TargetCosts:
    return TARGET_COSTS[target if target in TARGET_COSTS else DEFAULT_TARGET]


def _extent(d: int) -> int:
    return 1 if d == DYNAMIC else max(d, 1)


def value_bytes(t) -> int:
    """Bytes of a tile or tensor type at its static bound (a dynamic extent counts as 1); 0 for anything else."""
    if not isinstance(t, (TileType, TensorType)):
        return 0
    return (math.prod(_extent(d) for d in t.get_shape()) * element_bits(t.element_type) + 7) // 8


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


def _tile_bytes(op: Operation) -> int:
    return max((value_bytes(v.type) for v in (*op.operands, *op.results) if isinstance(v.type, TileType)), default=0)


def cost_of(op: Operation, target: str | None) -> Cost:
    """The modelled cost of `op` (no regions: a loop's cost is its body's) on `target` (None: a2a3's table)."""
    c = costs_for(target)
    tile = _tile_bytes(op)
    if op.has_trait(SlotView) or op.has_trait(CostFree):
        return Cost(0, "view")
    if op.has_trait(PipePush):
        return Cost(max(1, math.ceil(tile / c.pipe_bytes_per_cycle)), "pipe")
    if op.has_trait(PipePop) or op.has_trait(PipeFree):
        # The wait for the tile / the slot is the pipe's latency, which the scheduler adds (`timeline.replay`).
        return Cost(1, "pipe")
    if op.has_trait(PipeSetup):
        return Cost(c.scalar_op, "scalar")
    gm = op.get_trait(GmAccess)
    if gm is not None:
        moved = tile or max((value_bytes(v.type) for v in gm.read_tensors(op)), default=0)
        return Cost(c.gm_latency + math.ceil(moved / c.gm_bytes_per_cycle), "mte")
    if op.has_trait(CubeCompute):
        return Cost(cube_cycles(op, c), "cube")
    if not tile:
        return Cost(c.scalar_op, "scalar")
    spaces = {v.type.space for v in (*op.operands, *op.results) if isinstance(v.type, TileType)}
    if isinstance(op, MoveOp) or spaces != {"vec"}:
        # A move between memories, or another cube-side tile op (a fill of an accumulator, a bias move).
        return Cost(max(1, math.ceil(tile / c.onchip_bytes_per_cycle)), "mte")
    repeats = math.ceil(tile / c.vector_bytes_per_cycle)
    if op.has_trait(Transcendental):  # charged `vector_transcendental` repeats per 256 bytes
        repeats *= c.vector_transcendental
    return Cost(c.vector_issue + repeats, "vector")
