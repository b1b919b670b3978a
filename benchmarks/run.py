"""The compile-time benchmark runner: how parse/verify/print and each pass scale with the module size.

For every input (shape x target x size) it measures, in this one process and side by side:

- `parse`, `verify`, `print`: `parse_module`, `verify_module`, `print_module` of the generated module;
- `lavs`: `LowerAutoVectorSplitPass().apply`, `emk`: `ExpandMixedKernelPass().apply` (on the `lavs` output, which
  it requires), `both`: the two in a row —
  each on a fresh copy of the parsed input (`module.clone()`), timing `apply` only (parse/print excluded); the
  output is verified (untimed).

Each time is the minimum over `--repeats` runs (the machine is shared, so the minimum is the least noisy).
The ratio `pass / (parse + print)` and the least-squares exponent `b` of `time ~ ops^b` over the sizes are
reported per shape and target, next to the targets (ratio <= 0.5, b <= 1.1).  Separately, the reference
interpreter's throughput (ops executed per second) is measured on a fixed kernel, before and after the passes.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import math
import platform
import pstats
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from pypto_mlir.ir import make_context, parse_module, print_module
from pypto_mlir.passes import get_pass
from pypto_mlir.pipeline import with_default_models
from pypto_mlir.verify import verify_module

from .generate import SHAPES, TARGETS, generate

DEFAULT_SIZES = (50, 500, 2500)
SMOKE_SIZES = (1, 2)
BASE_STAGES = ("parse", "verify", "print")
PASS_STAGES = ("lavs", "emk", "both")
STAGES = BASE_STAGES + PASS_STAGES
PIPELINES: dict[str, tuple[str, ...]] = {
    "lavs": ("lower-auto-vector-split",),
    "emk": ("expand-mixed-kernel",),
    "both": ("lower-auto-vector-split", "expand-mixed-kernel"),
}
RATIO_TARGET = 0.5
EXPONENT_TARGET = 1.1
INTERP_ROUNDS = 8
"""The fixed kernel of the interpreter measurement: `long_kernel(INTERP_ROUNDS)`."""


@dataclass
class Row:
    shape: str
    target: str
    size: int
    ops: int
    seconds: dict[str, float | None] = field(default_factory=dict)
    """stage -> min seconds over the repeats (None: skipped, see `skipped`)."""
    skipped: dict[str, str] = field(default_factory=dict)

    @property
    def base(self) -> float | None:
        p, q = self.seconds.get("parse"), self.seconds.get("print")
        return None if p is None or q is None else p + q

    def ratio(self, stage: str) -> float | None:
        t, b = self.seconds.get(stage), self.base
        return None if t is None or not b else t / b


@dataclass
class Fit:
    shape: str
    target: str
    stage: str
    exponent: float | None
    points: int


def count_ops(module) -> int:
    return sum(1 for _ in module.walk())


def _timed(fn: Callable[[], Any]) -> float:
    gc.collect()
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


class Bench:
    def __init__(
        self,
        repeats: int = 3,
        budget: float = 300.0,
        log: Callable[[str], None] | None = None,
        repeat_budget: float = 60.0,
    ):
        self.repeats = max(1, repeats)
        self.budget = budget
        self.repeat_budget = repeat_budget
        self.log = log or (lambda s: None)
        self.ctx = make_context()
        self.pass_classes = {name: get_pass(name) for names in PIPELINES.values() for name in names}

    def parse(self, text: str):
        self._last_parse = parse_module(text, "bench.mlir", self.ctx)
        return self._last_parse

    def _min_time(self, prepare: Callable[[], Any], run: Callable[[Any], Any], repeats: int | None = None) -> float:
        """Min over the repeats of `run(prepare())`, timing `run` only; no new repeat after `repeat_budget` s."""
        best = math.inf
        spent = 0.0
        for _ in range(self.repeats if repeats is None else repeats):
            arg = prepare()
            t = _timed(lambda: run(arg))
            best = min(best, t)
            spent += t
            if spent > self.repeat_budget:
                break
        return best

    def run_pipeline(self, module, stage: str) -> None:
        for name in PIPELINES[stage]:
            with_default_models(self.pass_classes[name]()).apply(self.ctx, module)

    def measure(
        self,
        shape: str,
        target: str,
        size: int,
        stages: Sequence[str],
        skip: Callable[[int], dict[str, str]] = lambda ops: {},
    ) -> Row:
        """One row; `skip(ops)` names the stages not to run on this input (stage -> why)."""
        text = generate(shape, size, target)
        first = _timed(lambda: self.parse(text))  # the first repeat of `parse`
        module = self._last_parse
        verify_module(module)
        row = Row(shape, target, size, count_ops(module))
        skipped = skip(row.ops)
        for stage in stages:
            if stage in skipped:
                row.seconds[stage] = None
                row.skipped[stage] = skipped[stage]
                continue
            if stage == "parse":
                more = self.repeats > 1 and first < self.repeat_budget
                rest = self._min_time(lambda: None, lambda _: self.parse(text), self.repeats - 1) if more else math.inf
                t = min(first, rest)
            elif stage == "verify":
                t = self._min_time(lambda: None, lambda _: verify_module(module))
            elif stage == "print":
                t = self._min_time(lambda: None, lambda _: print_module(module))
            else:
                # A fresh copy per repeat (a clone: same IR as a parse, cheaper); the last output is verified.
                last: list[Any] = [None]

                # `emk` alone starts from LowerAutoVectorSplit's output (untimed): ExpandMixedKernel requires a
                # split kernel in the per-lane form and rejects the unlowered input.
                source = module
                if PIPELINES[stage] == ("expand-mixed-kernel",):
                    source = module.clone()
                    self.run_pipeline(source, "lavs")

                def fresh(source: Any = source) -> Any:
                    last[0] = None  # drop the previous output before copying
                    last[0] = source.clone()
                    return last[0]

                t = self._min_time(fresh, lambda m, s=stage: self.run_pipeline(m, s))
                verify_module(last[0])  # the output must be valid IR (not timed)
            row.seconds[stage] = t
            self.log(f"  {shape:<5} {target:<5} n={size:<5} ops={row.ops:<7} {stage:<6} {t:9.4f} s")
        return row


def fit_exponent(points: Sequence[tuple[int, float]]) -> float | None:
    """Least-squares slope of log(seconds) against log(ops)."""
    pts = [(math.log(o), math.log(t)) for o, t in points if o > 0 and t and t > 0]
    if len(pts) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    if sxx == 0:
        return None
    return sum((x - mx) * (y - my) for x, y in pts) / sxx


def predicted(prev: Row, size_ops: int, stage: str, exponent: float | None) -> float | None:
    t = prev.seconds.get(stage)
    if t is None:
        return None
    b = max(1.0, exponent if exponent is not None else 1.0)
    return t * (size_ops / prev.ops) ** b


# ---------------------------------------------------------------------------------------------------------------
# interpreter throughput
# ---------------------------------------------------------------------------------------------------------------


def interpreter_throughput(target: str, repeats: int, rounds: int = INTERP_ROUNDS) -> dict[str, Any]:
    """Ops executed per second by the reference interpreter on `long_kernel(rounds)`, before and after the passes."""
    try:
        from pypto_mlir.interpreter import Machine, find_entry, make_inputs
    except ImportError as e:  # the interpreter's Python API is not there (yet)
        return {"available": False, "reason": f"interpreter API unavailable: {e}"}

    class CountingMachine(Machine):  # type: ignore[misc, valid-type]
        executed = 0

        def exec_op(self, op, env, ctx):  # type: ignore[override]
            self.executed += 1
            return (yield from super().exec_op(op, env, ctx))

    ctx = make_context()
    text = generate("long", rounds, target)
    out: dict[str, Any] = {"available": True, "kernel": f"long_kernel({rounds}, {target})", "runs": {}}
    for label, pipeline in (("input", ()), ("expanded", PIPELINES["both"])):
        module = parse_module(text, "interp.mlir", ctx)
        for name in pipeline:
            with_default_models(get_pass(name)()).apply(ctx, module)
        entry = find_entry(module)
        inputs = make_inputs(entry, seed=0)
        best, executed = math.inf, 0
        for _ in range(max(1, repeats)):
            m = CountingMachine(module)
            args = [_copy(v) for v in inputs]
            t = _timed(lambda: m.run(entry.sym_name.data, args))
            best, executed = min(best, t), m.executed
        out["runs"][label] = {"ops_executed": executed, "seconds": best, "ops_per_second": executed / best}
    return out


def _copy(v: Any) -> Any:
    try:
        from pypto_mlir.interpreter.runner import copy_inputs

        return copy_inputs([v])[0]
    except ImportError:
        return v


# ---------------------------------------------------------------------------------------------------------------
# report
# ---------------------------------------------------------------------------------------------------------------


def _fmt_t(t: float | None) -> str:
    return "-" if t is None else f"{t:.4f}"


def _fmt_r(r: float | None) -> str:
    if r is None:
        return "-"
    return f"{r:.2f}" + ("" if r <= RATIO_TARGET else "!")


def _fmt_b(b: float | None) -> str:
    if b is None:
        return "-"
    return f"{b:.2f}" + ("" if b <= EXPONENT_TARGET else "!")


def format_table(rows: Sequence[Row], fits: Sequence[Fit], interp: dict[str, Any] | None, stages: Sequence[str]) -> str:
    """A markdown table: one row per input, then the fitted exponents, then the interpreter throughput.

    A `!` marks a value that misses its target (ratio > 0.5, exponent > 1.1); `-` a stage not measured."""
    pass_stages = [s for s in PASS_STAGES if s in stages]
    base_stages = [s for s in BASE_STAGES if s in stages]
    head = ["shape", "target", "n", "ops"] + [f"{s} s" for s in base_stages] + ["parse+print s"]
    for s in pass_stages:
        head += [f"{s} s", f"{s}/pp"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [r.shape, r.target, str(r.size), str(r.ops)]
        cells += [_fmt_t(r.seconds.get(s)) for s in base_stages] + [_fmt_t(r.base)]
        for s in pass_stages:
            cells += [_fmt_t(r.seconds.get(s)), _fmt_r(r.ratio(s))]
        lines.append("| " + " | ".join(cells) + " |")
    out = ["\n".join(lines), ""]
    if fits:
        fstages = list(dict.fromkeys(f.stage for f in fits))
        head = ["shape", "target"] + [f"b({s})" for s in fstages]
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        keys = list(dict.fromkeys((f.shape, f.target) for f in fits))
        by = {(f.shape, f.target, f.stage): f for f in fits}
        for shape, target in keys:
            cells = [shape, target] + [_fmt_b(by[(shape, target, s)].exponent) for s in fstages]
            lines.append("| " + " | ".join(cells) + " |")
        out += ["Fitted exponent b of seconds ~ ops^b:", "", "\n".join(lines), ""]
    if skipped := [(r, s, why) for r in rows for s, why in r.skipped.items()]:
        out.append("Skipped: " + "; ".join(f"{r.shape}/{r.target}/n={r.size} {s} ({why})" for r, s, why in skipped))
        out.append("")
    if interp is not None:
        if interp.get("available"):
            for target, res in interp.get("targets", {}).items():
                for label, run in res["runs"].items():
                    out.append(
                        f"Interpreter ({res['kernel']}, {label}): {run['ops_executed']} ops in {run['seconds']:.4f} s "
                        f"= {run['ops_per_second']:.0f} ops/s"
                    )
        else:
            out.append(f"Interpreter: unavailable ({interp.get('reason')})")
        out.append("")
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------------------------
# driver
# ---------------------------------------------------------------------------------------------------------------


def run(
    shapes: Sequence[str],
    targets: Sequence[str],
    sizes: Sequence[int],
    stages: Sequence[str],
    repeats: int,
    budget: float,
    interpreter: bool,
    log: Callable[[str], None] | None = None,
    interp_rounds: int = INTERP_ROUNDS,
    repeat_budget: float = 60.0,
) -> dict[str, Any]:
    bench = Bench(repeats, budget, log, repeat_budget)
    rows: list[Row] = []
    fits: list[Fit] = []
    for shape in shapes:
        for target in targets:
            series: list[Row] = []
            skip: dict[str, str] = {}
            for size in sorted(sizes):

                def decide(ops: int) -> dict[str, str]:
                    # Do not start a pass whose predicted time (growth so far, at least linear) exceeds the budget;
                    # the baseline is always measured.
                    for stage in stages:
                        if not series or stage in skip or stage in BASE_STAGES:
                            continue
                        b = fit_exponent([(r.ops, r.seconds[stage]) for r in series if r.seconds.get(stage)])
                        p = predicted(series[-1], ops, stage, b)
                        if p is not None and p > budget:
                            skip[stage] = f"predicted {p:.0f} s > budget {budget:.0f} s"
                    return dict(skip)

                row = bench.measure(shape, target, size, stages, decide)
                series.append(row)
                rows.append(row)
            for stage in stages:
                pts = [(r.ops, r.seconds[stage]) for r in series if r.seconds.get(stage) is not None]
                fits.append(Fit(shape, target, stage, fit_exponent(pts), len(pts)))  # type: ignore[arg-type]
    interp: dict[str, Any] | None = None
    if interpreter:
        per_target = {t: interpreter_throughput(t, repeats, interp_rounds) for t in targets}
        missing = [r for r in per_target.values() if not r.get("available")]
        interp = missing[0] if missing else {"available": True, "targets": per_target}
    return {
        "meta": {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "repeats": repeats,
            "budget_seconds": budget,
            "repeat_budget_seconds": repeat_budget,
            "timing": "min over repeats of time.perf_counter around the stage; passes exclude parse/print",
            "ratio_target": RATIO_TARGET,
            "exponent_target": EXPONENT_TARGET,
        },
        "stages": list(stages),
        "rows": [dict(asdict(r), base=r.base, ratios={s: r.ratio(s) for s in PASS_STAGES if s in stages}) for r in rows],
        "fits": [asdict(f) for f in fits],
        "interpreter": interp,
        "_rows": rows,
        "_fits": fits,
    }


def profile_stage(shape: str, target: str, size: int, stage: str, top: int = 30) -> str:
    """cProfile of one stage on one input, sorted by cumulative time."""
    bench = Bench(1, math.inf)
    text = generate(shape, size, target)
    module = bench.parse(text)
    if stage == "parse":
        fn = lambda: bench.parse(text)  # noqa: E731
    elif stage == "verify":
        fn = lambda: verify_module(module)  # noqa: E731
    elif stage == "print":
        fn = lambda: print_module(module)  # noqa: E731
    else:
        fn = lambda: bench.run_pipeline(module, stage)  # noqa: E731
    prof = cProfile.Profile()
    prof.enable()
    fn()
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def load_results(paths: Sequence[str]) -> tuple[list[Row], list[Fit], dict[str, Any] | None, list[str]]:
    """Rows, fits, interpreter result and stages of earlier `--json` outputs (e.g. one run per shape/target)."""
    rows: list[Row] = []
    fits: list[Fit] = []
    interp: dict[str, Any] | None = None
    stages: list[str] = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        stages += [s for s in data["stages"] if s not in stages]
        for r in data["rows"]:
            rows.append(Row(r["shape"], r["target"], r["size"], r["ops"], dict(r["seconds"]), dict(r["skipped"])))
        fits += [Fit(**f) for f in data["fits"]]
        got = data.get("interpreter")
        if got and got.get("available"):
            if interp is None:
                interp = {"available": True, "targets": {}}
            interp["targets"].update(got["targets"])
        elif got and interp is None:
            interp = got
    return rows, fits, interp, [s for s in STAGES if s in stages]


_LOG_LINE = re.compile(r"^\s*(\w+)\s+(\w+)\s+n=(\d+)\s+ops=(\d+)\s+(\w+)\s+([\d.]+) s$")


def load_logs(paths: Sequence[str]) -> tuple[list[Row], list[Fit]]:
    """Rows and fits rebuilt from the progress lines a run prints on stderr (for runs stopped before the end)."""
    by_key: dict[tuple[str, str, int], Row] = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = _LOG_LINE.match(line.rstrip("\n"))
                if m is None:
                    continue
                shape, target, size, ops, stage, t = m.groups()
                row = by_key.setdefault((shape, target, int(size)), Row(shape, target, int(size), int(ops)))
                row.seconds[stage] = float(t)
    rows = sorted(by_key.values(), key=lambda r: (SHAPES.index(r.shape), TARGETS.index(r.target), r.size))
    fits: list[Fit] = []
    for shape, target in dict.fromkeys((r.shape, r.target) for r in rows):
        series = [r for r in rows if (r.shape, r.target) == (shape, target)]
        for stage in STAGES:
            pts = [(r.ops, r.seconds[stage]) for r in series if r.seconds.get(stage) is not None]
            if pts:
                fits.append(Fit(shape, target, stage, fit_exponent(pts), len(pts)))
    return rows, fits


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--sizes takes comma-separated integers, got {text!r}") from None
    if not sizes or any(s <= 0 for s in sizes):
        raise argparse.ArgumentTypeError(f"--sizes takes positive integers, got {text!r}")
    return sizes


def _choices(allowed: Sequence[str]) -> Callable[[str], list[str]]:
    def parse(text: str) -> list[str]:
        items = [s.strip() for s in text.split(",") if s.strip()]
        bad = [s for s in items if s not in allowed]
        if bad or not items:
            raise argparse.ArgumentTypeError(f"expected a comma-separated subset of {','.join(allowed)}, got {text!r}")
        return items

    return parse


def build_arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Compile-time benchmark of the pypto-mlir passes (run from the repository root).",
    )
    p.add_argument("--sizes", type=_sizes, default=list(DEFAULT_SIZES),
                   help="comma-separated sizes: functions (many) or rounds (long); default 50,500,2500")
    p.add_argument("--shapes", type=_choices(SHAPES), default=list(SHAPES), help="many,long (default both)")
    p.add_argument("--targets", type=_choices(TARGETS), default=list(TARGETS), help="a2a3,a5 (default both)")
    p.add_argument("--stages", type=_choices(STAGES), default=list(STAGES),
                   help="subset of parse,verify,print,lavs,emk,both (parse and print are needed for the ratio)")
    p.add_argument("--repeats", type=int, default=3, help="repeats per measurement; the minimum is kept (default 3)")
    p.add_argument("--budget", type=float, default=300.0,
                   help="seconds: a pass predicted to take longer at the next size is skipped (default 300)")
    p.add_argument("--repeat-budget", type=float, default=60.0,
                   help="seconds: no further repeat of a measurement once this much was spent on it (default 60)")
    p.add_argument("--no-interpreter", action="store_true", help="skip the interpreter throughput")
    p.add_argument("--smoke", action="store_true", help="tiny sizes, one target, one repeat (CI: keeps it working)")
    p.add_argument("--json", action="store_true", help="print JSON instead of the table")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.add_argument("--from-json", nargs="+", metavar="FILE",
                   help="print the table of earlier --json outputs (e.g. one run per shape and target) together")
    p.add_argument("--from-log", nargs="+", metavar="FILE",
                   help="print the table rebuilt from the progress lines (stderr) of runs, finished or not")
    p.add_argument("--profile", metavar="STAGE", choices=STAGES,
                   help="instead of the benchmark, cProfile STAGE on the first shape/target at the largest size")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    if args.smoke:
        args.sizes, args.targets, args.repeats = list(SMOKE_SIZES), args.targets[:1], 1
    if args.from_json:
        rows, fits, interp, stages = load_results(args.from_json)
        print(format_table(rows, fits, interp, stages))
        return 0
    if args.from_log:
        rows, fits = load_logs(args.from_log)
        print(format_table(rows, fits, None, [s for s in STAGES if any(s in r.seconds for r in rows)]))
        return 0
    if args.profile:
        print(profile_stage(args.shapes[0], args.targets[0], max(args.sizes), args.profile))
        return 0
    log = None if args.quiet else (lambda s: print(s, file=sys.stderr, flush=True))
    result = run(args.shapes, args.targets, args.sizes, args.stages, args.repeats, args.budget,
                 not args.no_interpreter, log, 2 if args.smoke else INTERP_ROUNDS, args.repeat_budget)
    rows, fits = result.pop("_rows"), result.pop("_fits")
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(format_table(rows, fits, result["interpreter"], args.stages))
    return 0
