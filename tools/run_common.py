"""What `pypto-run` (`pypto_run.py`) and its timing part (`run_timing.py`) share: the usage error and the
pipeline with pypto-opt's memory budget checks. In its own module so that neither of the two imports the other
(the timing part is loaded only for `--timing` / `--trace`)."""

from __future__ import annotations


class UsageError(Exception):
    """A bad command line or a request pypto-run cannot serve: `pypto-run: error: ...`, exit status 1."""


def budgeted(pipeline: list[str], off: bool = False) -> list[str]:
    """The pass specs of `pipeline` with pypto-opt's `verify-budget` after every expand-mixed-kernel (one rule:
    `pypto_opt.with_budget_checks`; `off`: `--no-verify-budget`)."""
    from pypto_mlir.pipeline import describe_pass, parse_pipeline
    from pypto_mlir.tools.pypto_opt import with_budget_checks

    return [describe_pass(p) for p in with_budget_checks(list(parse_pipeline(pipeline)), enabled=not off)[0]]
