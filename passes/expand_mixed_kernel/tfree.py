"""tfree insertion (issue 5; reference §4.2).  Placeholder."""

from __future__ import annotations

from xdsl.dialects import func


def finalize_tfrees(f: func.FuncOp, side: str) -> None:
    return None  # TODO(issue 5)
