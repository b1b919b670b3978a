"""GM lineage now lives in `passes/analysis/lineage.py` (the interpreter uses it too); re-exported here for the
pass's modules."""

from ..analysis.lineage import gm_origin, output_binding, param_direction, returned_param_indices

__all__ = ["gm_origin", "output_binding", "param_direction", "returned_param_indices"]
