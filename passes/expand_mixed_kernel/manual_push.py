"""a5 adapter for hand-written V->C pushes (issue 5; reference §3 phase 6).  Placeholder."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp


def adapt_manual_v2c_pushes(module: ModuleOp, target: str) -> None:
    return None  # TODO(issue 5)
