"""The explicit `pto.split_aiv_scope` region path of LowerAutoVectorSplit (issue 6; not implemented yet)."""

from __future__ import annotations

from xdsl.dialects import func

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import SplitAivScopeOp


def has_split_aiv_scope(f: func.FuncOp) -> bool:
    return any(isinstance(op, SplitAivScopeOp) for op in f.walk())


def lower_region_function(f: func.FuncOp) -> None:
    """Lower every split_aiv_scope of an incore function in place (checked before the AUTO path)."""
    scope = next(op for op in f.walk() if isinstance(op, SplitAivScopeOp))
    raise PtoError("lowering of pto.split_aiv_scope regions is not implemented yet", op=scope)
