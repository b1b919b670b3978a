"""The ops that make the two AIV lanes of one kernel instance cooperate (beyond the contract, issue 43):
`pto.lane_workspace` (a GM buffer both lanes share) and `pto.lane_barrier` (both lanes wait for each other).

A reduction over the split axis is computed by each lane on its half; the partials meet in GM: each lane stores
its partial to its own row of a workspace, the lanes meet at a barrier, and both load both rows (docs/dialect.md,
"Lane cooperation").

- `lane_workspace` allocates a GM buffer of its (static) result type, one per kernel instance; both AIV lanes
  get the same buffer (the runtime allocates it, like `reserve_buffer` with `base = -1`), its contents are
  undefined at entry.  Vector op; its only effect is the allocation (`AllocatesResult`), so an unused one may
  be removed and a used one is kept.
- `lane_barrier` returns on a lane once both lanes of the instance have arrived (a sub-vector barrier).  Vector
  op with unknown effects: never removed, never moved across memory accesses.  It is not `OncePerKernel`:
  it must run on both lanes.  On a kernel whose other lane runs no code (an unsplit AIV kernel, a lane replayed
  by dual dispatch) it is a no-op.

Both run unchanged on both lanes under LowerAutoVectorSplit (`HalvingRule.WHOLE`).
"""

from __future__ import annotations

from xdsl.irdl import IRDLOperation, irdl_op_definition, result_def, traits_def
from xdsl.utils.exceptions import VerifyException

from .pto_traits import AllocatesResult, HalvingRule, LaneHalving, VectorAffinity
from .pto_types import DYNAMIC, TensorType


@irdl_op_definition
class LaneWorkspaceOp(IRDLOperation):
    """`%ws = pto.lane_workspace : !pto.tensor<2x16x1xf32>` — a GM buffer shared by both AIV lanes of the kernel
    instance (conventionally one row of the leading dim per lane)."""

    name = "pto.lane_workspace"
    result = result_def(TensorType)
    assembly_format = "attr-dict `:` type($result)"
    traits = traits_def(LaneHalving(HalvingRule.WHOLE), VectorAffinity(), AllocatesResult())

    def __init__(self, result_type: TensorType):
        super().__init__(result_types=[result_type])

    def verify_(self) -> None:
        t = self.result.type
        assert isinstance(t, TensorType)
        shape = t.get_shape()
        if not shape or DYNAMIC in shape:
            raise VerifyException(
                f"lane_workspace must have a static shape of rank at least 1 (the runtime allocates it before the "
                f"kernel runs), got {t}"
            )


@irdl_op_definition
class LaneBarrierOp(IRDLOperation):
    """`pto.lane_barrier` — wait until both AIV lanes of the kernel instance have arrived."""

    name = "pto.lane_barrier"
    assembly_format = "attr-dict"
    traits = traits_def(LaneHalving(HalvingRule.WHOLE), VectorAffinity())

    def __init__(self):
        super().__init__()


LANE_OPS = (LaneWorkspaceOp, LaneBarrierOp)
"""The ops of this module, in the dialect's registration order."""

__all__ = ["LANE_OPS", "LaneBarrierOp", "LaneWorkspaceOp"]
