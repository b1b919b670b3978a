"""GM-mediated cross-core sync (issue 5; reference §6).  Placeholder: finds nothing yet."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.ir import Operation

from ..analysis.affinity import AffinityAnalysis


@dataclass
class GmSync:
    store: Operation
    load: Operation


def collect_gm_syncs(f: func.FuncOp, affinity: AffinityAnalysis) -> list[GmSync]:
    return []  # TODO(issue 5)


def emit_gm_syncs(syncs: list[GmSync], aic_map: dict[Operation, Operation], aiv_map: dict[Operation, Operation]) -> None:
    return None  # TODO(issue 5)
