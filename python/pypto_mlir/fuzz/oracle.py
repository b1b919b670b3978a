"""The fuzz oracle: run one input through the pipeline and classify what happened."""

from __future__ import annotations

import difflib
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.ir import make_context, parse_module, print_module
from pypto_mlir.pipeline import run_pipeline
from pypto_mlir.verify import verify_module

KINDS = ("internal", "timeout", "fixed-point", "idempotence")


@dataclass(frozen=True)
class Finding:
    kind: str
    """one of KINDS"""
    stage: str
    """where it happened: parse, verify, lower-auto-vector-split, expand-mixed-kernel, reparse, ..."""
    message: str

    def signature(self) -> tuple[str, str, str]:
        """What must stay the same while shrinking: the class, the stage and the message's first words."""
        return (self.kind, self.stage, " ".join(self.message.split()[:6]))


class _Timeout(BaseException):
    """Raised by the alarm; a BaseException so that no `except Exception` in the code under test swallows it."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Interrupt the block after `seconds` of CPU time of this process (SIGPROF; main thread only, elsewhere no
    limit). CPU time, not wall-clock time: on a loaded machine (more workers than cores) a wall-clock limit
    reports inputs that merely waited for a core."""
    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return

    def _raise(signum, frame):
        raise _Timeout()

    old = signal.signal(signal.SIGPROF, _raise)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def _bad_error(e: PtoError) -> str | None:
    """A PtoError that is still a bug: an internal-error message, or no location."""
    if "internal error" in e.message.lower() or "internal compiler error" in e.message.lower():
        return e.message
    if e.loc is None:
        return f"error without a location: {e.message}"
    return None


class _Rejected(Exception):
    pass


def _run_pipeline(text: str, name: str, passes: list[str]) -> Finding | None:
    ctx = make_context()
    stage = "parse"

    def step(fn, *args):
        try:
            return fn(*args)
        except PtoError as e:
            why = _bad_error(e)
            if why is not None:
                raise _Found(Finding("internal", stage, why)) from None
            raise _Rejected() from None
        except (_Found, _Timeout):
            raise
        except RecursionError:
            raise _Rejected() from None  # reported by the driver as "input nests too deeply"
        except Exception as e:  # noqa: BLE001 - any other exception is the finding
            raise _Found(Finding("internal", stage, f"{type(e).__name__}: {e}")) from None

    try:
        module = step(parse_module, text, name, ctx)
        stage = "verify"
        step(verify_module, module)
        stage = "print"
        printed = step(print_module, module)
        stage = "reparse-input"
        _check_fixed_point(printed, name, ctx, stage)
        for p in passes:
            stage = p
            step(run_pipeline, module, p, ctx)
        if not passes:
            return None
        stage = "print-output"
        out = step(print_module, module)
        stage = "reparse-output"
        again = _check_fixed_point(out, name, ctx, stage)
        stage = "expand-mixed-kernel (second run)"
        try:
            run_pipeline(again, "expand-mixed-kernel", ctx)
            second = print_module(again)
        except PtoError as e:
            return Finding("idempotence", stage, f"the second run rejects the first run's output: {e.message}")
        if second != out:
            return Finding("idempotence", stage, "a second --expand-mixed-kernel changes the output:\n" + _diff(out, second))
    except _Rejected:
        return _REJECTED_BY_PASS if stage in passes[:-1] else None
    except _Found as f:
        return f.finding
    return None


_REJECTED_BY_PASS = Finding("none", "", "")  # a pass before the last one rejected: try the shorter pipeline


class _Found(Exception):
    def __init__(self, finding: Finding):
        super().__init__(finding.message)
        self.finding = finding


def _check_fixed_point(printed: str, name: str, ctx, stage: str):
    try:
        again = parse_module(printed, name, ctx)
        verify_module(again)
        reprinted = print_module(again)
    except (_Timeout, _Found):
        raise
    except PtoError as e:
        raise _Found(Finding("fixed-point", stage, f"printed IR does not parse back: {e.format()}")) from None
    except Exception as e:  # noqa: BLE001
        raise _Found(Finding("fixed-point", stage, f"printed IR does not parse back: {type(e).__name__}: {e}")) from None
    if reprinted != printed:
        raise _Found(Finding("fixed-point", stage, "print(parse(print(x))) differs from print(x):\n" + _diff(printed, reprinted)))
    return again


def _diff(a: str, b: str) -> str:
    return "".join(list(difflib.unified_diff(a.splitlines(True), b.splitlines(True), n=1))[:20])


PIPELINES: tuple[tuple[str, ...], ...] = (
    ("lower-auto-vector-split", "expand-mixed-kernel"),
    ("expand-mixed-kernel",),
)


def check_text(text: str, name: str = "<fuzz>", time_limit_s: float = 10.0) -> Finding | None:
    """Run `text` through LAVS + EMK (and EMK alone when LAVS rejects it); the finding, or None."""
    start = time.process_time()
    try:
        with time_limit(time_limit_s):
            for passes in PIPELINES:
                f = _run_pipeline(text, name, list(passes))
                if f is not _REJECTED_BY_PASS:
                    break  # the shorter pipeline only runs when LowerAutoVectorSplit rejected the input
            if f is not None and f is not _REJECTED_BY_PASS:
                return f
    except _Timeout:
        return Finding("timeout", "any", f"took more than {time_limit_s:g} s of CPU time")
    if time.process_time() - start > time_limit_s:
        return Finding("timeout", "any", f"took more than {time_limit_s:g} s of CPU time")
    return None
