"""The constants of the timing model's cost table, per target, each with its source.

This is a model, not a cycle-accurate simulator and not a measurement.  Where the public pto-isa library's own
cost model states a figure (`include/pto/costmodel/arch_config.hpp`: the clock and the peak bandwidth of each
data path on a2a3; `include/pto/costmodel/a2a3/cce_costmodel/`: one cycle for a cross-core flag), the table uses
it and says so; every other constant is marked as an *assumption*.  Its unit is the *modelled cycle*; never read
it as hardware time.  docs/timing-model.md repeats the table; which op is charged what is `op_costs.py`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

ARCH_CONFIG = "pto-isa include/pto/costmodel/arch_config.hpp"
SYNC_COSTMODEL = (
    "pto-isa include/pto/costmodel/a2a3/cce_costmodel/cce_costmodel_sync.hpp (ffts_cross_core_sync and "
    "wait_flag_dev cost EstimateConstCycles(), 1 cycle by default in cce_costmodel_core.hpp)"
)
ASSUMED = "assumption"

PATHS = (
    "gm_to_ub", "gm_to_l1", "ub_to_gm", "l1_to_gm", "l0c_to_gm", "l0c_to_l1", "ub_to_ub", "l1_to_l0a",
    "l1_to_l0b", "l1_to_bt", "l1_to_fb", "l0c_to_ub", "ub_to_l1",
)
"""The data paths of a core, named as pto-isa's `PipeKey`s (GM, UB = `vec`, L1 = `mat`, L0A = `left`, L0B =
`right`, L0C = `acc`, BT = `bias`, FB = the fixpipe buffer), plus the two on-chip paths of a5's rings
(`l0c_to_ub`: a cube -> vector push, `ub_to_l1`: a vector -> cube push), which pto-isa's table does not list."""


@dataclass(frozen=True)
class Bandwidth:
    gib_per_s: float
    source: str


_A2A3_BANDWIDTH = {
    # The peak of each path in kA2A3ArchConfig (GiB/s, as that file's bandwidth model reads them).
    "gm_to_ub": Bandwidth(100.9, ARCH_CONFIG),
    "gm_to_l1": Bandwidth(135.0, ARCH_CONFIG),
    "ub_to_gm": Bandwidth(188.46, ARCH_CONFIG),
    "l1_to_gm": Bandwidth(32.0, ARCH_CONFIG),
    "l0c_to_gm": Bandwidth(70.0, ARCH_CONFIG),
    "l0c_to_l1": Bandwidth(128.0, ARCH_CONFIG),
    "ub_to_ub": Bandwidth(1024.0, ARCH_CONFIG),
    "l1_to_l0a": Bandwidth(441.0, ARCH_CONFIG),
    "l1_to_l0b": Bandwidth(220.5, ARCH_CONFIG),
    "l1_to_bt": Bandwidth(32.0, ARCH_CONFIG),
    "l1_to_fb": Bandwidth(32.0, ARCH_CONFIG),
    # a2a3 has no on-chip path between the cores: a tile crosses through GM.  Used only by a move that an
    # expanded kernel never contains (acc -> vec, vec -> mat on one core); the figure is L0C -> L1's.
    "l0c_to_ub": Bandwidth(128.0, f"{ASSUMED}: no such path on a2a3; L0C -> L1's figure"),
    "ub_to_l1": Bandwidth(128.0, f"{ASSUMED}: no such path on a2a3; L0C -> L1's figure"),
}
_A5_BANDWIDTH = {
    path: Bandwidth(b.gib_per_s, f"{ASSUMED}: a2a3's figure (pto-isa's cost model has no a5 table)")
    for path, b in _A2A3_BANDWIDTH.items()
}
_A5_BANDWIDTH["l0c_to_ub"] = Bandwidth(128.0, f"{ASSUMED}: the fixpipe's L0C -> L1 figure of a2a3")
_A5_BANDWIDTH["ub_to_l1"] = Bandwidth(128.0, f"{ASSUMED}: the fixpipe's L0C -> L1 figure of a2a3")


@dataclass(frozen=True)
class TargetCosts:
    """The constants of one target.  Each field's source is in `SOURCES` (per target where they differ)."""

    frequency_hz: float
    """The clock that turns a bandwidth into bytes per cycle: kMainFrequencyHz = 1.85 GHz (`ARCH_CONFIG`)."""
    bandwidth: dict[str, Bandwidth]
    """Peak GiB/s of each data path (`PATHS`), with its source."""
    cross_core_sync: int
    """Cycles of one cross-core flag operation (a push's ready signal, a pop's wait, a free signal): 1
    (`SYNC_COSTMODEL`).  A flag is visible to the other core when the signalling op ends."""
    cube_fractal: tuple[int, int, int]
    """(m, k, n) of the block the cube multiplies per cycle for 16-bit inputs: 16 x 16 x 16 = 4096 MACs per cycle.
    Source: Huawei's Da Vinci talk at Hot Chips 31 (2019): "Cube: 4096 FP16 MACs" per core and cycle."""
    cube_k_scale: tuple[tuple[int, float], ...]
    """(input element bits, factor on k per cycle): 8-bit inputs double k (the same talk: 8192 INT8 MACs); 32-bit
    inputs halve it (*assumption*: fp32 cube rates are not in that source)."""
    vector_bytes_per_cycle: int
    """Bytes one vector repeat reads: 8 data blocks of 32 bytes = 256 B (Ascend C documentation, vector
    instructions, common parameters; pto-isa's kBlockBytes = 32).  *Assumption*: one repeat per cycle."""
    vector_issue: int
    """Fixed cycles of one vector instruction (issue, pipeline fill).  *Assumption* (pto-isa's fitted formula
    table, `a2a3/formula_costmodel/formula_params.csv`, has per-op biases of 2 to 42 cycles; not used)."""
    vector_transcendental: int
    """Repeats per 256 B of exp / log / sqrt / rsqrt / recip / div.  *Assumption*."""
    gm_latency: int
    """Cycles before the first byte of a GM transfer arrives.  *Assumption* (pto-isa's flat bandwidth model has
    none; its fitted model's half-saturation size for GM -> UB, 30643 B at 247.16 GiB/s, amounts to about 214
    cycles of fixed cost)."""
    scalar_op: int
    """Cycles of a scalar op (arith, index math, a comm signal, pipe setup).  *Assumption*."""

    def k_scale(self, bits: int) -> float:
        return dict(self.cube_k_scale).get(bits, 1.0)

    def bytes_per_cycle(self, path: str) -> float:
        return self.bandwidth[path].gib_per_s * (1 << 30) / self.frequency_hz

    def transfer_cycles(self, nbytes: int, path: str) -> int:
        """ceil(bytes / the path's bytes per cycle), at least 1."""
        return max(1, math.ceil(nbytes / self.bytes_per_cycle(path)))


_COMMON = dict(
    frequency_hz=1.85e9,
    cross_core_sync=1,
    cube_fractal=(16, 16, 16),
    cube_k_scale=((8, 2.0), (16, 1.0), (32, 0.5)),
    vector_bytes_per_cycle=256,
    vector_issue=8,
    vector_transcendental=4,
    gm_latency=200,
    scalar_op=1,
)

TARGET_COSTS: dict[str, TargetCosts] = {
    "a2a3": TargetCosts(bandwidth=_A2A3_BANDWIDTH, **_COMMON),
    "a5": TargetCosts(bandwidth=_A5_BANDWIDTH, **_COMMON),
}
DEFAULT_TARGET = "a2a3"
"""The table used for a module without `pto.target`."""

SOURCES: dict[str, str] = {
    "frequency_hz": f"{ARCH_CONFIG} (kMainFrequencyHz; a5: {ASSUMED}, the same clock)",
    "cross_core_sync": SYNC_COSTMODEL,
    "cube_fractal": "Huawei, Da Vinci talk, Hot Chips 31 (2019)",
    "cube_k_scale": f"8 bit: the same talk; 32 bit: {ASSUMED}",
    "vector_bytes_per_cycle": f"Ascend C documentation (a repeat reads 8 blocks of 32 B); one repeat per cycle: {ASSUMED}",
    "vector_issue": ASSUMED,
    "vector_transcendental": ASSUMED,
    "gm_latency": ASSUMED,
    "scalar_op": ASSUMED,
}
"""Where each non-bandwidth constant comes from (a bandwidth carries its own source)."""


def costs_for(target: str | None) -> TargetCosts:
    return TARGET_COSTS[target if target in TARGET_COSTS else DEFAULT_TARGET]
