"""Shrink a failing input to a minimal reproducer that fails the same way (same class, stage and message)."""

from __future__ import annotations

import time
from collections.abc import Callable

from .mutate import _TOKEN
from .oracle import Finding, check_text


def shrink(text: str, finding: Finding, budget_s: float = 30.0, time_limit_s: float = 10.0) -> str:
    """Delta-debug `text`: drop chunks of lines, then single lines, then single tokens, while the oracle still
    reports a finding with the same signature. Stops after `budget_s` seconds with the smallest text so far."""
    want = finding.signature()
    deadline = time.monotonic() + budget_s
    limit = time_limit_s if finding.kind == "timeout" else min(time_limit_s, 5.0)

    def same(candidate: str) -> bool:
        f = check_text(candidate, time_limit_s=limit)
        return f is not None and f.signature() == want

    text = _ddmin(text.split("\n"), "\n", same, deadline)
    pieces: list[str] = []
    pos = 0
    for m in _TOKEN.finditer(text):
        pieces.append(text[pos : m.start()])
        pieces.append(m.group(0))
        pos = m.end()
    pieces.append(text[pos:])
    return _ddmin(pieces, "", same, deadline)


def _ddmin(parts: list[str], sep: str, same: Callable[[str], bool], deadline: float) -> str:
    n = 2
    while len(parts) >= 2 and time.monotonic() < deadline:
        size = max(1, len(parts) // n)
        removed = False
        for start in range(0, len(parts), size):
            if time.monotonic() >= deadline:
                break
            cand = parts[:start] + parts[start + size :]
            if cand and same(sep.join(cand)):
                parts = cand
                n = max(n - 1, 2)
                removed = True
                break
        if not removed:
            if size == 1:
                break
            n = min(len(parts), n * 2)
    return sep.join(parts)
