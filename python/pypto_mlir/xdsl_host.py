"""Errors of the pypto passes inside a host tool that is not `pypto-opt` (`xdsl-opt`).

`pypto-opt` parses with source locations (`ir.LocatedParser`) and prints every `PtoError` itself. `xdsl-opt`
loads the passes through the `xdsl.universe` entry point, parses without locations (ops carry `loc(...)` only
when the text spells one) and lets a pass's `DiagnosticException` escape unless it runs with
`--verify-diagnostics`: Python would print a traceback with an unlocated message.

`install_uncaught_error_hook` (run when the universe is loaded) replaces that traceback, for a `PtoError` only,
by the diagnostic `pypto-opt` would print: `file:line:col: error: message` and its notes on standard error, exit
status 1 (Python's status for an uncaught exception). An unlocated error is located by reading the input again
with locations and finding the op at fault there (`relocate`); when that cannot be done with certainty (input
from standard input, the op not found unchanged in the source) the message is printed with the input's name and
no line, still without a traceback. Every other exception reaches the previous hook unchanged.  A remark a pass
prints (no `capture_remarks` sink under `xdsl-opt`) is located the same way (`locate_remark`).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from types import TracebackType

from xdsl.dialects import func
from xdsl.ir import Operation

from pypto_mlir.diagnostics import PtoError, SourceLoc, add_remark_locator

_SPLIT_MARKER = re.compile(r"^// -----[ \t]*$", re.MULTILINE)


def input_path(argv: Sequence[str]) -> str | None:
    """The input file of an `xdsl-opt` command line: its positional argument that names a file (None: stdin)."""
    takes_value = {"-p", "--passes", "-o", "--output-file", "-f", "--frontend", "-t", "--target"}
    skip = False
    found = None
    for arg in argv[1:]:
        if skip:
            skip = False
            continue
        if arg in takes_value:
            skip = True
            continue
        if not arg.startswith("-") and os.path.isfile(arg):
            found = arg
    return found


def _function_of(op: Operation) -> func.FuncOp | None:
    while op is not None and not isinstance(op, func.FuncOp):
        op = op.parent_op()
    return op


def _signature(op: Operation) -> tuple[str, tuple[str | None, ...], int]:
    return op.name, tuple(r.name_hint for r in op.results), len(op.operands)



def relocate(err: PtoError, path: str) -> SourceLoc | None:
    """The source location of `err.op` in the file `path`: the op of the same function (by symbol name) that is
    the same occurrence of an op of its name, with the same result names and operand count. None when the file
    does not parse, or no op matches that way (the module may have been rewritten before the error)."""
    from pypto_mlir.ir import parse_module  # the parser with locations

    op = err.op
    if op is None:
        return None
    f = _function_of(op)
    if f is None:
        return None
    name = f.sym_name.data
    try:
        text = open(path, encoding="utf-8").read()
    except OSError:
        return None
    chunks, offset, start = [], 0, 0
    for m in _SPLIT_MARKER.finditer(text):
        chunks.append((text[start : m.start()], offset))
        offset += text[start : m.end()].count("\n")
        start = m.end()
    chunks.append((text[start:], offset))
    want = _signature(op)
    index = [o for o in f.walk() if o.name == op.name].index(op)
    hits = []
    for chunk, line_offset in chunks:
        if f"@{name}" not in chunk:
            continue
        try:
            module = parse_module(chunk, path, line_offset=line_offset)
        except PtoError:
            continue
        for g in module.body.block.ops:
            if isinstance(g, func.FuncOp) and g.sym_name.data == name:
                same = [o for o in g.walk() if o.name == op.name]
                if index < len(same) and _signature(same[index]) == want:
                    hits.append(err.__class__(err.message, op=same[index]).loc)
    # several chunks define the function: the match is not certain
    return hits[0] if len(hits) == 1 else None


def install_uncaught_error_hook() -> None:
    """Print an uncaught `PtoError` as a located diagnostic instead of a traceback (see the module docstring).
    Installing twice is a no-op."""
    previous = sys.excepthook
    if getattr(previous, "_pypto_uncaught_error_hook", False):
        return

    def hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        if not isinstance(value, PtoError):
            previous(kind, value, tb)
            return
        if value.loc is None and (path := input_path(sys.argv)) is not None:
            value.loc = relocate(value, path)
            fallback = path
        else:
            fallback = "<stdin>"
        sys.stderr.write(value.format(fallback) + "\n")

    hook._pypto_uncaught_error_hook = True  # type: ignore[attr-defined]
    sys.excepthook = hook
    add_remark_locator(locate_remark)


def locate_remark(remark: PtoError) -> str | None:
    """A remark a pass prints under `xdsl-opt` (e.g. LowerAutoVectorSplit's fallback): located in the input file
    the way an uncaught error is (`relocate`); else printed with the input's name."""
    path = input_path(sys.argv)
    if path is None:
        return "<stdin>"
    remark.loc = relocate(remark, path)
    return path
