"""The decision log: what a pass decided about a kernel and why, for the split report (`pypto-opt --split-report`).

A pass calls `record(kernel, kind, **facts)` where it makes a choice that the output IR does not spell by itself
(why a kernel fell back unsplit; which GM hazards a fence closes). Outside `capture_decisions()` a record costs
one list check and is dropped, so the passes keep no state and print nothing for it. Facts are plain JSON
values (strings, numbers, booleans, lists and dicts of them); an op is named by `op_ref` (its name and source
location), never kept itself, so the log outlives the IR it describes.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from xdsl.ir import Operation

from pypto_mlir.diagnostics import location_of


@dataclass(frozen=True)
class Decision:
    pass_name: str
    kernel: str
    kind: str
    facts: dict = field(default_factory=dict)


_sinks: list[list[Decision]] = []


def recording() -> bool:
    """Whether a `capture_decisions()` is active (a pass may skip gathering facts when not)."""
    return bool(_sinks)


def record(pass_name: str, kernel: str, kind: str, **facts: object) -> None:
    if _sinks:
        _sinks[-1].append(Decision(pass_name, kernel, kind, dict(facts)))


@contextmanager
def capture_decisions() -> Iterator[list[Decision]]:
    """Collect the decisions recorded inside the `with` block."""
    sink: list[Decision] = []
    _sinks.append(sink)
    try:
        yield sink
    finally:
        _sinks.pop()


def op_ref(op: Operation | None) -> dict:
    """`{"op": name, "at": "file:line:col"}` (no "at" when the op has no location)."""
    if op is None:
        return {}
    loc = location_of(op)
    return {"op": op.name, "at": str(loc)} if loc is not None else {"op": op.name}
