"""PENDING (removed when house-emk is merged): the lane arithmetic moved to the dialect layer,
`dialects/pto_lanes.py`.  Only `passes/expand_mixed_kernel/` (owned by the parallel house-emk branch) still imports
it from here; the merge changes those imports to `pypto_mlir.dialects.pto_lanes` and deletes this file.  Nothing
else may import it (tests/tools/test_import_graph.py)."""

from pypto_mlir.dialects.pto_lanes import *  # noqa: F401,F403
from pypto_mlir.dialects.pto_lanes import __all__  # noqa: F401
