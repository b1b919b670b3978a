"""Checking passes by running programs: the program before and after a pipeline, on the same seeded inputs, in
the interpreter (`pypto-run --check-pipeline`, the kernel-generator tests, the campaigns; docs/interpreter.md).

This composes the two sides that sit beside each other in the layers (docs/contributing.md *Layers*): the pass
pipeline (`pypto_mlir.pipeline`) and the interpreter (`pypto_mlir.interpreter`, which never imports a pass), so it
lives above both, with the drivers.  `campaign.py` is the random-kernel campaign built on it.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.interpreter.runner import CheckResult, check_modules
from pypto_mlir.ir import parse_module
from pypto_mlir.pipeline import INVALID_OUTPUT, parse_pipeline, run_pipeline
from pypto_mlir.verify import verify_module


def apply_pipeline(module: ModuleOp, pipeline: list[str] | str) -> None:
    """Run passes (names or pass specs, or one pipeline spec) on `module` in place, verifying after each, through
    the one pipeline runner every tool uses (`pypto_mlir.pipeline`)."""
    run_pipeline(module, parse_pipeline(pipeline))


def check_pipeline_text(
    text: str, pipeline: list[str], name: str = "<input>", entry=None, seed=0, given=None
) -> CheckResult:
    """Parse `text` twice, run `pipeline` on one copy, and compare the two programs' outputs."""
    try:
        before_mod = parse_module(text, name)
        verify_module(before_mod)
    except PtoError as e:
        return CheckResult(False, "before", e.format(name))
    after_mod = parse_module(text, name)
    try:
        apply_pipeline(after_mod, pipeline)
    except PtoError as e:
        return CheckResult(False, "pass", "the pipeline rejects the program:\n" + e.format(name))
    except Exception as e:  # a crashing pass is a finding, not a crash of the checker
        return CheckResult(False, "pass", f"{name}:1:1: error: internal compiler error in the pipeline: {type(e).__name__}: {e}")
    res = check_modules(before_mod, after_mod, entry, seed, given, name)
    res.after_module = after_mod
    return res


PIPELINE_FAULTS = ("internal compiler error", "is not implemented", INVALID_OUTPUT)
"""What a report of the pass stage says when the pipeline failed rather than refused its input: a pass crashed, took
an unimplemented path, or left IR that does not verify (`pipeline.INVALID_OUTPUT`)."""


def is_rejection(res: CheckResult) -> bool:
    """Whether `res` is the pipeline refusing its input with a located error (a documented rejection, not a finding;
    the campaign and the property test discard it), rather than a failure of the pipeline (`PIPELINE_FAULTS`)."""
    return res.stage == "pass" and not any(f in res.report for f in PIPELINE_FAULTS)


__all__ = ["PIPELINE_FAULTS", "apply_pipeline", "check_pipeline_text", "is_rejection"]
