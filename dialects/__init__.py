"""The `pto` dialect: types, attributes and operations (contract: docs/dialect.md)."""

from xdsl.ir import Dialect

from .pto_lazy_format import lazy_assembly_formats

with lazy_assembly_formats():  # each op's assembly format is read on its first parse or print (pto_lazy_format.py)
    from .pto_comm_ops import COMM_OPS
    from .pto_mx_ops import MX_OPS
    from .pto_ops import ALL_OPS
    from .pto_types import KindAttr, SplitAttr, TargetAttr, TensorType, TileType
    from .pto_view_ops import ADDRESSED_VIEW_OPS

# Every op of the dialect: the contract's (pto_ops) and those added beyond it (views, communication, MX matmuls).
ALL_PTO_OPS = [*ALL_OPS, *ADDRESSED_VIEW_OPS, *COMM_OPS, *MX_OPS]

PTO = Dialect("pto", ALL_PTO_OPS, [TensorType, TileType, TargetAttr, KindAttr, SplitAttr])

__all__ = ["ALL_PTO_OPS", "PTO"]
