"""Located diagnostics.

Every error a user can cause is reported as `file:line:col: error: message` (MLIR's format) and exit code 1.
Passes and verifiers raise `PtoError` with the op (or location) at fault; the tools format it. `PtoError` is an
xDSL `DiagnosticException`, so `xdsl-opt --verify-diagnostics` reports it as a diagnostic (the located message),
not as a crash. `pypto-opt` follows each located line with the source line and a caret, as mlir-opt does
(`format(sources=...)`). A pass that succeeds can still report located remarks (`emit_remark`), printed as
`file:line:col: remark: ...` (collected by `capture_remarks()`, e.g. for `--verify-diagnostics`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import DiagnosticException


@dataclass(frozen=True)
class SourceLoc:
    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


def location_of(op: Operation | None) -> SourceLoc | None:
    """The source location of an op: its own, else the nearest located ancestor's."""
    while op is not None:
        loc = _from_attr(op.location)
        if loc is not None:
            return loc
        op = op.parent_op()
    return None


def _from_attr(attr: Attribute) -> SourceLoc | None:
    if isinstance(attr, FileLineColLoc):
        return SourceLoc(attr.filename.data, attr.line.data, attr.column.data)
    if isinstance(attr, NameLoc):
        return _from_attr(attr.location)
    # Locations upstream MLIR builds (inlining: callsite; CSE/folding: fused): the callee / first known place.
    if isinstance(attr, CallSiteLoc):
        return _from_attr(attr.callee) or _from_attr(attr.caller)
    if isinstance(attr, FusedLoc):
        return next((loc for loc in map(_from_attr, attr.locations) if loc is not None), None)
    return None


class PtoError(DiagnosticException):
    """A user-facing error at an op or source location.

    `str(err)` is the located text (`file:line:col: error: message` and its notes) when the error has a
    location -- what xDSL's tools print for a `DiagnosticException` -- else the bare message (`err.message`)."""

    def __init__(
        self,
        message: str,
        op: Operation | None = None,
        loc: SourceLoc | None = None,
        severity: str = "error",
        notes: list[tuple[SourceLoc | None, str]] | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.op = op
        self.loc = loc if loc is not None else location_of(op)
        self.severity = severity
        self.notes = notes or []

    def __str__(self) -> str:
        return self.format() if self.loc is not None else self.message

    def format(self, fallback: str = "<unknown>", sources: dict[str, str] | None = None) -> str:
        """The located text; with `sources` (file name -> text), each located line is followed by that source
        line and a caret under the column, as mlir-opt prints them."""
        where = str(self.loc) if self.loc is not None else fallback
        lines = [f"{where}: {self.severity}: {self.message}"]
        lines += source_excerpt(self.loc, sources)
        for nloc, note in self.notes:
            lines.append(f"{nloc if nloc is not None else where}: note: {note}")
            lines += source_excerpt(nloc, sources)
        return "\n".join(lines)


def source_excerpt(loc: SourceLoc | None, sources: dict[str, str] | None) -> list[str]:
    """[the source line at `loc`, a caret under its column], or [] when the text of that file is not known."""
    if loc is None or not sources or loc.file not in sources or loc.line < 1:
        return []
    text_lines = sources[loc.file].split("\n")
    if loc.line > len(text_lines):
        return []
    line = text_lines[loc.line - 1].rstrip("\r")
    col = min(max(loc.col, 1), len(line) + 1)
    # Tabs before the column stay tabs so the caret lines up however the terminal expands them.
    pad = "".join(c if c == "\t" else " " for c in line[: col - 1])
    return [line, pad + "^"]


def error(op: Operation | None, message: str) -> PtoError:
    """Build an error at `op` (raise the result)."""
    return PtoError(message, op=op)


# ---------------------------------------------------------------------------------------------------------------
# Remarks: non-fatal, located notes a pass reports while it succeeds (mlir-opt's `remark:` lines)
# ---------------------------------------------------------------------------------------------------------------

_remark_sinks: list[list[PtoError]] = []
# How a host that parses without locations (xdsl-opt, `xdsl_host.py`) locates a remark printed to stderr: each
# locator may set `remark.loc` and returns the name to print when it cannot (None: it has nothing to say).
_remark_locators: list[Callable[[PtoError], str | None]] = []


def add_remark_locator(locate: Callable[[PtoError], str | None]) -> None:
    """Register how an unlocated remark is located before it is printed to stderr (once per function)."""
    if locate not in _remark_locators:
        _remark_locators.append(locate)


def emit_remark(message: str, op: Operation | None = None, loc: SourceLoc | None = None) -> None:
    """Report a remark (`file:line:col: remark: message`): to the innermost `capture_remarks()` if one is
    active (the driver collects them, e.g. for --verify-diagnostics), else straight to standard error."""
    remark = PtoError(message, op=op, loc=loc, severity="remark")
    if _remark_sinks:
        _remark_sinks[-1].append(remark)
        return
    where = "<unknown>"
    for locate in _remark_locators if remark.loc is None else ():
        where = locate(remark) or where
    sys.stderr.write(remark.format(where) + "\n")


@contextmanager
def capture_remarks() -> Iterator[list[PtoError]]:
    """Collect the remarks emitted inside the `with` block (instead of printing them)."""
    sink: list[PtoError] = []
    _remark_sinks.append(sink)
    try:
        yield sink
    finally:
        _remark_sinks.pop()
