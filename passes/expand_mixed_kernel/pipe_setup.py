"""Automatic pipe setup and dual AIV dispatch (issue 5; reference §4.1, §6).  Placeholder."""

from __future__ import annotations

from xdsl.dialects import func


def build_pipe_setup(aic: func.FuncOp, aiv: func.FuncOp, name: str, original: func.FuncOp, target: str) -> None:
    return None  # TODO(issue 5)


def stamp_dual_aiv_dispatch(aiv: func.FuncOp, original: func.FuncOp, target: str) -> None:
    return None  # TODO(issue 5)
