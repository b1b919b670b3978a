"""A fuzz campaign: N mutants, in parallel over cores, findings deduplicated, shrunk and saved."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from .mutate import Mutator, load_corpus, valid_entries
from .oracle import KINDS, Finding, check_text
from .shrink import shrink


@dataclass
class Report:
    inputs: int = 0
    rejected_or_ok: int = 0
    seconds: float = 0.0
    findings: dict[tuple[str, str, str], tuple[Finding, int, str]] = field(default_factory=dict)
    """signature -> (first finding, count, first input)"""

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(KINDS, 0)
        for f, n, _ in self.findings.values():
            out[f.kind] += n
        return out

    def summary(self) -> str:
        c = self.counts()
        parts = ", ".join(f"{c[k]} {k}" for k in KINDS)
        return (
            f"{self.inputs} inputs in {self.seconds:.0f} s ({self.inputs / max(self.seconds, 1e-9):.0f}/s): {parts}; "
            f"{len(self.findings)} distinct finding(s)"
        )


_CORPUS: list[str] = []
_VALID: list[str] = []
_LIMIT = 10.0


def _init(corpus: list[str], valid: list[str], limit: float) -> None:
    global _CORPUS, _VALID, _LIMIT
    _CORPUS, _VALID, _LIMIT = corpus, valid, limit
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))


def mutant_for(corpus: list[str], seed: int, index: int, valid: list[str] | None = None) -> str:
    """The input number `index` of the campaign `seed` (reproducible on its own)."""
    m = Mutator(corpus, 0, valid)
    m.rng = random.Random(f"{seed}:{index}")
    return m.mutant()


def _work(args: tuple[int, int, int]) -> list[tuple[int, Finding]]:
    seed, start, stop = args
    found = []
    for i in range(start, stop):
        text = mutant_for(_CORPUS, seed, i, _VALID)
        f = check_text(text, f"fuzz-{seed}-{i}.mlir", _LIMIT)
        if f is not None:
            found.append((i, f))
    return found


def run_campaign(
    n: int,
    seed: int = 1,
    jobs: int = 1,
    time_limit_s: float = 10.0,
    out_dir: Path | None = None,
    corpus: list[str] | None = None,
    shrink_budget_s: float = 30.0,
    chunk: int = 50,
    progress: bool = False,
) -> Report:
    """Run `n` mutants of `corpus` (default: the lit inputs and examples); findings are shrunk and written to
    `out_dir` (one `.mlir` per distinct finding) when it is given."""
    corpus = corpus if corpus is not None else load_corpus()
    valid = valid_entries(corpus)
    report = Report()
    start = time.monotonic()
    tasks = [(seed, s, min(s + chunk, n)) for s in range(0, n, chunk)]
    jobs = jobs if jobs > 0 else (os.cpu_count() or 1)
    examples: dict[tuple[str, str, str], str] = {}

    def record(results: list[tuple[int, Finding]]) -> None:
        for i, f in results:
            sig = f.signature()
            if sig in report.findings:
                first, count, text = report.findings[sig]
                report.findings[sig] = (first, count + 1, text)
            else:
                text = mutant_for(corpus, seed, i, valid)
                report.findings[sig] = (f, 1, text)
                examples[sig] = f"seed {seed}, input {i}"
                if out_dir is not None:  # saved at once (unshrunk), so a long run shows its findings early
                    out_dir.mkdir(parents=True, exist_ok=True)
                    save_reproducer(out_dir / "unshrunk", text, f, 1, examples[sig], mkdir=True)

    done = 0
    if jobs == 1:
        _init(corpus, valid, time_limit_s)
        for t in tasks:
            record(_work(t))
            done += t[2] - t[1]
            if progress:
                _progress(done, n, start, report)
    else:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(jobs, initializer=_init, initargs=(corpus, valid, time_limit_s)) as pool:
            for t, res in zip(tasks, pool.imap(_work, tasks)):
                record(res)
                done += t[2] - t[1]
                if progress:
                    _progress(done, n, start, report)
    report.inputs = n
    report.seconds = time.monotonic() - start
    if out_dir is not None and report.findings:
        out_dir.mkdir(parents=True, exist_ok=True)
        _init(corpus, valid, time_limit_s)
        for sig, (f, count, text) in report.findings.items():
            small = shrink(text, f, shrink_budget_s, time_limit_s)
            save_reproducer(out_dir, small, f, count, examples[sig])
    return report


def _progress(done: int, n: int, start: float, report: Report) -> None:
    el = time.monotonic() - start
    c = report.counts()
    sys.stderr.write(
        f"\r{done}/{n} inputs, {el:.0f} s, " + ", ".join(f"{c[k]} {k}" for k in KINDS) + " " * 4
    )
    if done == n:
        sys.stderr.write("\n")
    sys.stderr.flush()


def save_reproducer(out_dir: Path, text: str, f: Finding, count: int, origin: str, mkdir: bool = False) -> Path:
    if mkdir:
        out_dir.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    path = out_dir / f"{f.kind}-{digest}.mlir"
    header = [
        f"// fuzz finding: {f.kind} at {f.stage} ({count} input(s) in the campaign; first: {origin})",
        *[f"//   {line}" for line in f.message.splitlines()[:12]],
        "// Regression test once fixed (the oracle must report nothing):",
        "// RUN: %python -m pypto_mlir.fuzz check %s",
        "",
    ]
    path.write_text("\n".join(header) + text + ("\n" if not text.endswith("\n") else ""), encoding="utf-8")
    return path
