"""Classes of findings in random kernels that are known and being fixed elsewhere (shared by the property test and
the campaign test): a failure whose report contains a key is reported as known instead of failing the suite.
Remove an entry when its fix lands."""

from __future__ import annotations

KNOWN_CLASSES: dict[str, str] = {
    "data race on GM tensor %scratch": (
        "a C->V exchange through a GM scratch tensor that ExpandMixedKernel does not fence (issue 15 classes 1-3: "
        "the scratch reused across loop iterations, several cube stores to it, a vector load before the cube "
        "store in the loop body); being fixed by the sync work (passes/analysis/hazards.py, gm_sync.py)"
    ),
}


def known_class(report: str) -> str | None:
    return next((k for k in KNOWN_CLASSES if k in report), None)
