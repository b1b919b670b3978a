"""The halving patterns of `SplitLowering`, one module per op family: `boundaries.py` (cube<->vector boundaries and
hand-written transfers), `memory.py` (load / store), `views.py` (slice, reshape, transpose, set_validshape),
`compute.py` (generators, elementwise), `beyond_contract.py` (ops added beyond the dialect contract); `base.py`
holds the pattern base classes and shared helpers. A new split rule goes into the module of its op family."""
