"""The interface between the structural half of ExpandMixedKernel (splitting, boundaries, repair: issue 4)
and its pipe protocol half (tfree, pipe setup, GM sync, dual dispatch, manual pushes, verifier: issue 5).

`pass_.py` (structural) calls these, in this order, for each expanded mixed function:
  1. `collect_gm_syncs(original_func, affinity)`           before the split (analysis of the mixed body)
  2. body construction, loop repair, DCE                     (structural)
  3. `emit_gm_syncs(syncs, aic_map, aiv_map)`               insert the GM fences into the split bodies
  4. `finalize_tfrees(aic, "aic")`, `finalize_tfrees(aiv, "aiv")`
  5. `build_pipe_setup(aic, aiv, name, original_func, target)`
  6. `stamp_dual_aiv_dispatch(aiv, original_func, target)`
and once per module at the end: `adapt_manual_v2c_pushes(module, target)`, then `verify_mixed_kernel_expanded`.

`aic_map` / `aiv_map` map each op of the original function to its clone in that side's body (absent when the
side dropped it).
"""

from __future__ import annotations

from .gm_sync import GmSync, collect_gm_syncs, emit_gm_syncs
from .manual_push import adapt_manual_v2c_pushes
from .pipe_setup import build_pipe_setup, stamp_dual_aiv_dispatch
from .tfree import finalize_tfrees
from .verifier import verify_mixed_kernel_expanded

__all__ = [
    "GmSync",
    "adapt_manual_v2c_pushes",
    "build_pipe_setup",
    "collect_gm_syncs",
    "emit_gm_syncs",
    "finalize_tfrees",
    "stamp_dual_aiv_dispatch",
    "verify_mixed_kernel_expanded",
]
