"""`skew-cross-core-pipeline` (issue 42 part 2): cross-core software pipelining of round-trip loops in expanded
kernels (docs/skew-cross-core-pipeline.md).

The public entry points: the pass, `skew_candidates` (the analysis: every loop pair it could skew, with why not for
the others) and `apply_skew` (rewrite one site by a distance)."""

from .pass_ import SkewCrossCorePipelinePass, SkewRefused, SkewResult, apply_skew, auto_distance
from .sites import SkewSite, skew_candidates

__all__ = ["SkewCrossCorePipelinePass", "SkewRefused", "SkewResult", "SkewSite", "apply_skew", "auto_distance",
           "skew_candidates"]
