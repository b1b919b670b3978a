"""Located diagnostics.

Every error a user can cause is reported as `file:line:col: error: message` (MLIR's format) and exit code 1.
Passes and verifiers raise `PtoError` with the op (or location) at fault; the tools format it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc
from xdsl.ir import Attribute, Operation


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


class PtoError(Exception):
    """A user-facing error at an op or source location."""

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

    def format(self, fallback: str = "<unknown>") -> str:
        where = str(self.loc) if self.loc is not None else fallback
        lines = [f"{where}: {self.severity}: {self.message}"]
        for nloc, note in self.notes:
            lines.append(f"{nloc if nloc is not None else where}: note: {note}")
        return "\n".join(lines)


def error(op: Operation | None, message: str) -> PtoError:
    """Build an error at `op` (raise the result)."""
    return PtoError(message, op=op)
