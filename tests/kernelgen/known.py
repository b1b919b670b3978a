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
    *(
        Known(
            f"emk-dce-drops-{feat.split(':')[1].replace('_', '-')}",
            f"ExpandMixedKernel's DCE erases a 'pto.{feat.split(':')[1]}' whose result is unused, though the op has "
            "unknown (memory) effects, so the tensor it writes keeps its old contents after the pipeline "
            "(passes/expand_mixed_kernel/repair.py: _removable only keeps StoreOp, pops, setup and calls; it should "
            "keep every op that is not side-effect free)",
            match="mismatch after the pipeline",
            features=frozenset({feat}),
        )
        for feat in ("comm:tensor_get", "comm:tensor_put", "tail:tile_put")
    ),
    *(
        Known(
            "emk-notify-duplicated-after-gm-fence",
            "ExpandMixedKernel places a pto.notify (NoDuplicate) on both the AIC and the AIV when the kernel also "
            "has a GM exchange: after insert_gm_fences it recomputes the affinity without placement=True "
            "(passes/expand_mixed_kernel/pass_.py, ExpandMixedIncoreKernel.match_and_rewrite), so the peer is "
            "signalled twice",
            match="mismatch after the pipeline",
            features=frozenset({"comm:notify_wait", gm}),
        )
        for gm in ("gm_exchange", "gm_exchange_in_loop")
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
