"""The whole `pto` dialect: every op family imported, `ALL_PTO_OPS` and the xDSL `Dialect` `PTO` (contract:
docs/dialect.md). `from pypto_mlir.dialects import PTO` imports this module on first use."""

from xdsl.ir import Dialect

from .pto_comm_ops import COMM_OPS
from .pto_lane_ops import LANE_OPS
from .pto_mx_ops import MX_OPS
from .pto_op_index import attributes
from .pto_ops import ALL_OPS
from .pto_view_ops import ADDRESSED_VIEW_OPS

# Every op of the dialect: the contract's (pto_ops) and those added beyond it (views, communication, MX matmuls, lane cooperation).
ALL_PTO_OPS = [*ALL_OPS, *ADDRESSED_VIEW_OPS, *COMM_OPS, *MX_OPS, *LANE_OPS]

PTO = Dialect("pto", ALL_PTO_OPS, attributes())

__all__ = ["ALL_PTO_OPS", "PTO"]
