"""The `pto` ops' declarative assembly formats, read when an op of the class is first parsed or printed.

xDSL reads an op class's `assembly_format` into a `FormatProgram` when the class is defined: for the 85 `pto`
ops that is about a third of the dialect's import, paid by every run, though a kernel uses a dozen of them
(docs/performance.md, "Startup on a real input"). `install()` (called by `dialects/__init__.py` before any op
family is defined) has xDSL's `FormatProgram.from_str` return a `LazyFormatProgram` for a `pto` op, which reads
the format on its first `parse` / `print` and is the real program from then on; the ops of every other dialect
are read by xDSL as before.
The parse and print of every op are xDSL's own, unchanged; only the time a format is read moves. A malformed
format would surface at the op's first use instead of at import, so `tests/dialects/test_lazy_formats.py`
reads every format of the dialect (`read_all`) and compares the printed output of the examples.
"""

from __future__ import annotations

from xdsl.irdl.declarative_assembly_format import FormatProgram

_read = FormatProgram.from_str  # xDSL's reader (a staticmethod: a plain function here)


class LazyFormatProgram:
    """A `FormatProgram` read on first use."""

    __slots__ = ("text", "op_def", "_program")

    def __init__(self, text: str, op_def) -> None:
        self.text = text
        self.op_def = op_def
        self._program: FormatProgram | None = None

    def program(self) -> FormatProgram:
        if self._program is None:
            self._program = _read(self.text, self.op_def)
        return self._program

    def parse(self, parser, op_type):
        return self.program().parse(parser, op_type)

    def print(self, printer, op) -> None:
        return self.program().print(printer, op)


def _from_str(text: str, op_def) -> FormatProgram | LazyFormatProgram:
    """xDSL's reader for every other dialect's ops; a `LazyFormatProgram` for a `pto` op."""
    if op_def.name.startswith("pto."):
        return LazyFormatProgram(text, op_def)
    return _read(text, op_def)


def install() -> None:
    """Have xDSL read a `pto` op's format lazily from now on (idempotent; `dialects/__init__.py` calls it before
    any op family is defined). Ops of other dialects are read by xDSL as before."""
    FormatProgram.from_str = staticmethod(_from_str)  # type: ignore[method-assign]


def read_all(op_classes) -> int:
    """Read the format of every class in `op_classes` that has one now (as xDSL would have at import); returns
    how many were read. A malformed format raises xDSL's error here."""
    n = 0
    for cls in op_classes:
        fmt = cls.get_irdl_definition().assembly_format
        if fmt is not None:
            _read(fmt, cls.get_irdl_definition())
            n += 1
    return n
