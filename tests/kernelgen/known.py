"""Classes of findings in random kernels that are known and being fixed elsewhere (shared by the property test and
the campaign): a failure is known when its report contains `match` (if given) and the kernel exercises every
feature in `features` (its `// features:` line).  Remove an entry when its fix lands."""

from __future__ import annotations

from dataclasses import dataclass

from .strategies import features_of


@dataclass(frozen=True)
class Known:
    name: str
    reason: str
    match: str | None = None
    features: frozenset[str] = frozenset()


KNOWN_CLASSES: tuple[Known, ...] = (
    Known(
        "lane-workspace-rows-unwritten",
        "a reduction over the split axis of a tile with ragged valid rows (branch split-reduce, issue 43 part 1): a "
        "lane loads workspace cells the other lane never stores (found by the campaign test after split-reduce was "
        "merged into split-auto; the same failure with split-policy=always, so it is the lowering's, not the "
        "split-or-not choice's). The fix belongs to split-reduce.",
        match="cells of a pto.lane_workspace that no lane has written",
        features=frozenset({"tail:reduce:split_axis"}),
    ),
)


def known_class(report: str, text: str = "") -> str | None:
    """The name of the known class a failure belongs to, or None."""
    feats = features_of(text) if text else set()
    for k in KNOWN_CLASSES:
        if k.match is not None and k.match not in report:
            continue
        if k.features and not k.features <= feats:
            continue
        if k.match is None and not k.features:
            continue
        return k.name
    return None
