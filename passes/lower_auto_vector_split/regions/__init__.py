"""The explicit `pto.split_aiv_scope` region path: `lower.py` (the driver: checks, per-region lowering, splice),
`rules.py` (the rules a region must satisfy: AivSplitValid, E-MIXED, the transpose hazard, cross-lane GM order;
they reject, they rewrite nothing) and `valid_extents.py` (the valid-extent repair of explicit-boundary regions:
it rewrites types and guards stores)."""
