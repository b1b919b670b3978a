"""The `pto` dialect: types, attributes and operations (contract: docs/dialect.md)."""

from xdsl.ir import Dialect

from .pto_ops import ALL_OPS
from .pto_types import KindAttr, SplitAttr, TargetAttr, TensorType, TileType

PTO = Dialect("pto", ALL_OPS, [TensorType, TileType, TargetAttr, KindAttr, SplitAttr])

__all__ = ["PTO"]
