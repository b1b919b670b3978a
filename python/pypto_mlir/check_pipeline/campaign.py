"""A random-kernel campaign: check many generated mixed kernels through the pass pipeline, on all cores.

    python -m pypto_mlir.check_pipeline.campaign -n 10000 --out campaign-failures/

Each kernel comes from the hypothesis strategy in `tests/kernelgen/strategies.py` (so the campaign needs a source
checkout with the test extras installed) and is checked with `check_pipeline_text`: run before and after the
pipeline (both targets are drawn), compare, race detector on.  Outcomes:

* **checked** — the outputs match;
* **rejected** — the pipeline refuses the kernel with a located error (e.g. an odd V->C split): not a finding,
  counted by reason;
* **failed** — anything else (a mismatch, a protocol error or race after the pipeline, a pass output that does
  not verify (`check_pipeline.is_rejection`), an internal compiler error), counted by class; a failure of a class
  listed in `tests/kernelgen/known.py` (being fixed elsewhere) is marked `known [name]`.

The campaign keeps going after a failure.  The first kernel of each failure class is shrunk (hypothesis replays
the same seed and shrinks the example while it keeps failing with the same class) and saved as
`<out>/<class>.mlir`, with the class, the report and the command that reproduces it in a comment header.
Progress is printed per chunk, and a summary at the end.  Exit status: 0 if no failure outside the known
classes, 1 otherwise.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pypto_mlir.check_pipeline import check_pipeline_text, is_rejection

PIPELINE = ["lower-auto-vector-split", "expand-mixed-kernel"]


def _load_strategies():
    """`tests/kernelgen/strategies.py` of the source checkout this package runs from."""
    root = Path(__file__).resolve().parents[3]
    tests = root / "tests"
    if not (tests / "kernelgen" / "strategies.py").exists():
        raise SystemExit(
            "pypto-campaign: error: the kernel generator tests/kernelgen/strategies.py was not found next to this "
            f"package ({root}); run the campaign from a source checkout (pip install -e '.[test]')"
        )
    if str(tests) not in sys.path:
        sys.path.insert(0, str(tests))
    from kernelgen import strategies

    return strategies


_NUM = re.compile(r"\b\d+\b")
_LOC = re.compile(r"[\w./<>-]+:\d+:\d+:? ?")
_SSA = re.compile(r"%[\w.$-]+")
_SYM = re.compile(r"@[\w.$-]+")


def normalize(message: str) -> str:
    """A failure message without the parts that vary between kernels (locations, numbers, names)."""
    m = re.sub(r"\s+at [\w./<>-]+:\d+:\d+", "", message)
    m = _LOC.sub("", m)
    m = _SSA.sub(lambda x: re.sub(r"_?\d+$", "", x.group()), _SYM.sub("@f", m))  # %scratch3 -> %scratch
    m = re.sub(r"'([A-Za-z_]+)\d+'", r"'\1'", m)
    m = _NUM.sub("N", m)
    m = re.sub(r"\[[N:, ]+\]", "[..]", m)
    return m.strip()[:140]


def first_error(report: str) -> str:
    for line in report.splitlines():
        if "error: " in line:
            return line.split("error: ", 1)[1]
    lines = [l for l in report.splitlines() if l.strip()]
    return lines[0] if lines else report


def classify(res) -> tuple[str, str | None]:
    """("checked", None), ("rejected", reason) or ("failed", class) for a `CheckResult`."""
    if res.ok:
        return "checked", None
    msg = first_error(res.report)
    if is_rejection(res):
        return "rejected", normalize(msg)
    if res.stage == "compare":
        # "mismatch after the pipeline[ (schedule: ...)]: output %x differs at ..."
        head = res.report.split(": output", 1)[0]
        return "failed", f"compare: {normalize(head)}: output differs"
    return "failed", f"{res.stage}: {normalize(msg)}"


def check_text(text: str, pipeline=PIPELINE):
    return check_pipeline_text(text, pipeline, "gen.mlir")


@dataclass
class ChunkResult:
    chunk: int
    counts: Counter = field(default_factory=Counter)  # checked / rejected / failed
    rejected: Counter = field(default_factory=Counter)
    failed: Counter = field(default_factory=Counter)
    examples: dict[str, tuple[str, str]] = field(default_factory=dict)  # class -> (text, report)
    seconds: float = 0.0


def _settings(n: int, shrink: bool):
    from hypothesis import HealthCheck, Phase, settings

    phases = [Phase.generate, Phase.shrink] if shrink else [Phase.generate]
    return settings(
        max_examples=n,
        deadline=None,
        database=None,
        derandomize=False,
        phases=phases,
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
    )


def _over_kernels(seed: int, n: int, shrink: bool):
    """The decorator that runs a test body over `n` kernels of the generator drawn with hypothesis seed `seed`:
    `run_chunk` and `shrink` replay the same draw through it, so a chunk's failure is found again."""
    from hypothesis import given
    from hypothesis import seed as hseed

    strategies = _load_strategies()

    def wrap(body):
        return hseed(seed)(_settings(n, shrink=shrink)(given(strategies.kernels())(body)))

    return wrap


def _finding_key(known, status: str, key: str, res, text: str) -> str:
    """The class a checked kernel is counted under: a failure of a known class is `known [<name>] <key>` (one rule,
    so that `shrink` looks for the key `run_chunk` counted)."""
    name = known(res.report, text) if status == "failed" else None
    return f"known [{name}] {key}" if name is not None else key


def _known_fn():
    """`tests/kernelgen/known.py`'s `known_class(report, text)`: the name of a known class of findings, or None."""
    _load_strategies()
    try:
        from kernelgen.known import known_class
    except ImportError:  # pragma: no cover - an older checkout without the list
        return lambda report, text: None
    return known_class


def run_chunk(args: tuple[int, int, int]) -> ChunkResult:
    """Check `n` kernels drawn with hypothesis seed `seed`."""
    chunk, seed, n = args
    known = _known_fn()

    out = ChunkResult(chunk)
    start = time.time()

    @_over_kernels(seed, n, shrink=False)
    def body(text: str) -> None:
        res = check_text(text)
        status, key = classify(res)
        out.counts[status] += 1
        if status == "rejected":
            out.rejected[key] += 1
        elif status == "failed":
            key = _finding_key(known, status, key, res, text)
            out.failed[key] += 1
            out.examples.setdefault(key, (text, res.report))

    body()
    out.seconds = time.time() - start
    return out


class _Found(Exception):
    pass


def shrink(args: tuple[str, int, int, str]) -> tuple[str, str, str]:
    """Replay the chunk's seed until a kernel fails with `key`, let hypothesis shrink it; (key, text, report)."""
    key, seed, n, fallback = args
    known = _known_fn()

    best: list[tuple[str, str]] = []

    @_over_kernels(seed, n, shrink=True)
    def body(text: str) -> None:
        res = check_text(text)
        status, k = classify(res)
        k = _finding_key(known, status, k, res, text)
        if (status, k) == ("failed", key):
            best.append((text, res.report))
            raise _Found()

    try:
        body()
    except _Found:
        pass
    except Exception:  # noqa: BLE001 - shrinking is best effort; keep the unshrunk kernel
        pass
    if best:
        text, report = min(best, key=lambda tr: len(tr[0]))
        return key, text, report
    return key, fallback, ""


def slug(key: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-")
    return s[:80] or "failure"


def save_reproducer(out_dir: Path, key: str, text: str, report: str) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{slug(key)}.mlir"
    header = [
        f"// campaign failure class: {key}",
        f"// reproduce: pypto-run --check-pipeline {','.join(PIPELINE)} {path.name}",
    ] + [f"// | {line}" for line in report.splitlines()[:12] if line.strip()]
    path.write_text("\n".join(header) + "\n" + text)
    return path


@dataclass
class Summary:
    kernels: int = 0
    counts: Counter = field(default_factory=Counter)
    rejected: Counter = field(default_factory=Counter)
    failed: Counter = field(default_factory=Counter)
    reproducers: dict[str, Path] = field(default_factory=dict)
    seconds: float = 0.0

    def unknown_failures(self) -> Counter:
        return Counter({k: n for k, n in self.failed.items() if not k.startswith("known [")})

    def format(self) -> str:
        rate = self.kernels / self.seconds if self.seconds else 0.0
        lines = [
            f"campaign: {self.kernels} kernels in {self.seconds:.0f} s ({rate:.1f} kernels/s): "
            f"{self.counts['checked']} checked, {self.counts['rejected']} rejected, {self.counts['failed']} failed "
            f"({sum(self.unknown_failures().values())} not of a known class)"
        ]
        if self.rejected:
            lines.append("rejected by reason:")
            lines += [f"  {n:6d}  {k}" for k, n in self.rejected.most_common()]
        if self.failed:
            lines.append("failed by class:")
            for k, n in self.failed.most_common():
                where = f"  -> {self.reproducers[k]}" if k in self.reproducers else ""
                lines.append(f"  {n:6d}  {k}{where}")
        return "\n".join(lines)


def run_campaign(
    n: int,
    jobs: int | None = None,
    seed: int = 0,
    chunk: int = 50,
    out_dir: Path | None = None,
    do_shrink: bool = True,
    progress=print,
    summary_every: int = 0,
) -> Summary:
    jobs = jobs or os.cpu_count() or 1
    tasks = []
    left, i = n, 0
    while left > 0:
        size = min(chunk, left)
        tasks.append((i, seed * 1_000_003 + i, size))
        left -= size
        i += 1
    summary = Summary()
    examples: dict[str, tuple[str, str, int, int]] = {}
    start = time.time()
    ctx = multiprocessing.get_context("spawn" if sys.platform == "darwin" else "fork")
    with ctx.Pool(jobs) as pool:
        for res in pool.imap_unordered(run_chunk, tasks):
            summary.kernels += sum(res.counts.values())
            summary.counts.update(res.counts)
            summary.rejected.update(res.rejected)
            summary.failed.update(res.failed)
            for k, (text, report) in res.examples.items():
                if k not in examples:
                    examples[k] = (text, report, tasks[res.chunk][1], tasks[res.chunk][2])
                    progress(f"campaign: new failure class: {k}")
            el = time.time() - start
            if summary_every and summary.kernels // summary_every != (summary.kernels - sum(res.counts.values())) // summary_every:
                summary.seconds = el
                progress(summary.format())
            progress(
                f"campaign: [{summary.kernels}/{n}] {summary.counts['checked']} checked, "
                f"{summary.counts['rejected']} rejected, {summary.counts['failed']} failed "
                f"({summary.kernels / el:.1f} kernels/s)"
            )
        if out_dir is not None and examples:
            if do_shrink:
                progress(f"campaign: shrinking {len(examples)} failure class(es)")
                jobs_ = [(k, s, size, text) for k, (text, _, s, size) in examples.items()]
                for key, text, report in pool.imap_unordered(shrink, jobs_):
                    report = report or examples[key][1]
                    summary.reproducers[key] = save_reproducer(out_dir, key, text, report)
            else:
                for key, (text, report, _, _) in examples.items():
                    summary.reproducers[key] = save_reproducer(out_dir, key, text, report)
    summary.seconds = time.time() - start
    return summary


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pypto_mlir.check_pipeline.campaign", description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", "--kernels", type=int, default=1000, help="number of random kernels (default 1000)")
    ap.add_argument("-j", "--jobs", type=int, default=None, help="worker processes (default: all cores)")
    ap.add_argument("--seed", type=int, default=0, help="campaign seed (default 0)")
    ap.add_argument("--chunk", type=int, default=50, help="kernels per work item (default 50)")
    ap.add_argument("--out", type=Path, default=Path("campaign-failures"), help="where reproducers are saved")
    ap.add_argument("--no-shrink", action="store_true", help="save each failure class's first kernel unshrunk")
    ap.add_argument("--quiet", action="store_true", help="print the summary only")
    ap.add_argument("--summary-every", type=int, default=1000, help="print the summary every K kernels (0: at the end)")
    a = ap.parse_args(argv)
    progress = (lambda s: None) if a.quiet else (lambda s: print(s, flush=True))
    summary = run_campaign(a.kernels, a.jobs, a.seed, a.chunk, a.out, not a.no_shrink, progress, a.summary_every)
    print(summary.format())
    return 1 if summary.unknown_failures() else 0


if __name__ == "__main__":
    sys.exit(main())
