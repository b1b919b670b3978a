"""Whole-process CPU cost of the command-line driver, as ratios to references measured in the same run.

    python -m benchmarks.cli                 # the three ratios below, 7 repeats
    python -m benchmarks.cli --repeats 11 --json
    python -m benchmarks.cli --smoke         # one repeat, tiny inputs (keeps the script working in CI)

Each command runs as a fresh process; its cost is the CPU time (user + system) the process and its children used
(`resource.getrusage(RUSAGE_CHILDREN)` around the run), which, unlike wall time, is hardly affected by other
processes on a loaded machine. Every process runs with Python's bytecode cache on, in a temporary
`PYTHONPYCACHEPREFIX` (so `PYTHONDONTWRITEBYTECODE` in the environment does not make one side compile its
sources on every run, and nothing is written into the checkout), and each command runs once unmeasured first:
both sides are measured as an installed package runs, from compiled bytecode.  The commands of one comparison are run alternately (a, b, a, b, ...), `--repeats`
times each, and the median of each is kept; the ratio is median(a) / median(b).

- **startup**: `pypto-opt` on a real input against a Python that imports what a `pto` module needs from xDSL
  (builtin, func, arith and scf dialects, parser, printer): what the driver, the `pto` dialect and the run cost
  beyond the least an xDSL tool reading such a module must load. Two inputs: the smallest real one, a module with
  a `pto.target` (it loads the `pto` dialect), and a small kernel (`examples/loop_accumulate.a2a3.mlir`: func,
  arith and pto ops parsed, verified, printed). Target: at most 1.15 on both.
- **parse**: `pypto-opt FILE` (parse, verify, print) against `xdsl-opt FILE` (the same, through xDSL's own
  driver, which knows `pto` by the `xdsl.universe` entry point) on the generated `many` modules of 50 and 500
  kernels (`benchmarks.generate`).  Target: xdsl-opt / pypto-opt at least 1.5 (printed as `speedup`).
- **pipeline**: `pypto-opt --lower-auto-vector-split --expand-mixed-kernel FILE` against `pypto-opt FILE` on the
  same modules: what the passes (and the verification after each) add to a run.  Target: at most 1.2.
- **pipeline vs xdsl-opt**: the same pipeline run against `xdsl-opt FILE` (xDSL only reading, verifying and
  printing the input): the whole compile against the framework's own round trip (issue 28).  Target: at most 1.0,
  and its ratio at the largest size no worse than at the smallest (cost linear in the input; the `scaling` line
  under the table).
- with `--context`, two rows without a target: the pipeline with `--verify-each=0`, and `pypto-opt` on the
  pipeline's own output (parse, verify, print of the larger module the passes produce), both against
  `pypto-opt FILE` (docs/performance.md, target 3, says what they show).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from .generate import generate

STARTUP_TARGET = 1.15
SPEEDUP_TARGET = 1.5
PIPELINE_TARGET = 1.2
PIPELINE_XDSL_TARGET = 1.0
REFERENCE_IMPORT = (
    "import xdsl.dialects.builtin, xdsl.dialects.func, xdsl.dialects.arith, xdsl.dialects.scf, xdsl.parser, "
    "xdsl.printer"
)
TARGET_MODULE = "builtin.module attributes {pto.target = #pto.target<a2a3>} {\n}\n"
KERNEL = Path(__file__).resolve().parents[1] / "examples" / "loop_accumulate.a2a3.mlir"  # func, arith, scf and pto ops
PASSES = ("--lower-auto-vector-split", "--expand-mixed-kernel")


def _tool(name: str) -> str:
    """The console script next to the running Python (the venv's), else the one on PATH."""
    cand = Path(sys.executable).with_name(name)
    if cand.exists():
        return str(cand)
    found = shutil.which(name)
    if found is None:
        raise SystemExit(f"benchmarks.cli: cannot find '{name}'; install the project with: pip install -e .")
    return found


def cpu_seconds(cmd: Sequence[str], env: dict[str, str] | None = None) -> float:
    """User + system CPU seconds of running `cmd` to completion (output discarded; a failure is an error)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(list(cmd), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit(f"benchmarks.cli: {' '.join(cmd)} failed (exit {r.returncode}):\n{r.stderr}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def compare(a: Sequence[str], b: Sequence[str], repeats: int, env: dict[str, str] | None = None) -> dict[str, float]:
    """Run `a` and `b` once unmeasured (bytecode cached), then alternately `repeats` times each; their median CPU
    seconds and median(a) / median(b)."""
    cpu_seconds(a, env)
    cpu_seconds(b, env)
    ta: list[float] = []
    tb: list[float] = []
    for _ in range(repeats):
        ta.append(cpu_seconds(a, env))
        tb.append(cpu_seconds(b, env))
    ma, mb = statistics.median(ta), statistics.median(tb)
    return {"a": ma, "b": mb, "ratio": ma / mb if mb else float("inf")}


def run(repeats: int, sizes: Sequence[int], quiet: bool = False, context: bool = False) -> list[dict]:
    opt, xopt, py = _tool("pypto-opt"), _tool("xdsl-opt"), sys.executable
    rows: list[dict] = []

    def note(row: dict) -> None:
        rows.append(row)
        if not quiet:
            print(f"... {row['what']}: {row['a']:.3f} s / {row['b']:.3f} s", file=sys.stderr, flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        target = Path(tmp) / "target.mlir"
        target.write_text(TARGET_MODULE, encoding="utf-8")
        kernel = Path(tmp) / "kernel.mlir"
        kernel.write_text(KERNEL.read_text(encoding="utf-8") if KERNEL.exists() else generate("many", 1, "a2a3"))
        for what, path in (("startup pto.target module", target), ("startup kernel", kernel)):
            r = compare([opt, str(path)], [py, "-c", REFERENCE_IMPORT], repeats, env)
            shown = KERNEL.name if path is kernel and KERNEL.exists() else path.name
            note({"what": what, "a_cmd": f"pypto-opt {shown}", "b_cmd": "python -c 'import xdsl.dialects.{builtin,"
                  "func,arith,scf}, xdsl.parser, xdsl.printer'", **r})
        for n in sizes:
            src = Path(tmp) / f"many{n}.mlir"
            src.write_text(generate("many", n, "a2a3"), encoding="utf-8")
            r = compare([xopt, str(src)], [opt, str(src)], repeats, env)
            note({"what": f"parse many{n}", "a_cmd": f"xdsl-opt many{n}.mlir", "b_cmd": f"pypto-opt many{n}.mlir", **r})
            r = compare([opt, *PASSES, str(src)], [opt, str(src)], repeats, env)
            note({
                "what": f"pipeline many{n}",
                "a_cmd": f"pypto-opt --lower-auto-vector-split --expand-mixed-kernel many{n}.mlir",
                "b_cmd": f"pypto-opt many{n}.mlir",
                **r,
            })
            r = compare([opt, *PASSES, str(src)], [xopt, str(src)], repeats, env)
            note({
                "what": f"pipeline vs xdsl-opt many{n}",
                "a_cmd": f"pypto-opt --lower-auto-vector-split --expand-mixed-kernel many{n}.mlir",
                "b_cmd": f"xdsl-opt many{n}.mlir",
                **r,
            })
            if context:
                r = compare([opt, "--verify-each=0", *PASSES, str(src)], [opt, str(src)], repeats, env)
                note({
                    "what": f"pipeline many{n}, no verify-each (context)",
                    "a_cmd": f"pypto-opt --verify-each=0 --lower-auto-vector-split --expand-mixed-kernel many{n}.mlir",
                    "b_cmd": f"pypto-opt many{n}.mlir",
                    **r,
                })
                out = Path(tmp) / f"many{n}.out.mlir"
                subprocess.run([opt, *PASSES, str(src), "-o", str(out)], check=True, stdout=subprocess.DEVNULL)
                r = compare([opt, str(out)], [opt, str(src)], repeats, env)
                note({
                    "what": f"output of many{n} alone (context)",
                    "a_cmd": f"pypto-opt many{n}.out.mlir",
                    "b_cmd": f"pypto-opt many{n}.mlir",
                    **r,
                })
    return rows


def format_table(rows: Sequence[dict], repeats: int) -> str:
    lines = [
        f"CPU seconds (user+sys) of whole processes, median of {repeats}, commands alternated",
        "",
        "| measurement | command A | A s | command B | B s | A/B | target |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if r["what"].startswith("startup"):
            target = f"≤ {STARTUP_TARGET}" + ("" if r["ratio"] <= STARTUP_TARGET else " !")
        elif r["what"].startswith("parse"):
            target = f"≥ {SPEEDUP_TARGET} (speedup)" + ("" if r["ratio"] >= SPEEDUP_TARGET else " !")
        elif r["what"].endswith("(context)"):
            target = "—"
        elif r["what"].startswith("pipeline vs xdsl-opt"):
            target = f"≤ {PIPELINE_XDSL_TARGET}" + ("" if r["ratio"] <= PIPELINE_XDSL_TARGET else " !")
        else:
            target = f"≤ {PIPELINE_TARGET}" + ("" if r["ratio"] <= PIPELINE_TARGET else " !")
        lines.append(
            f"| {r['what']} | `{r['a_cmd']}` | {r['a']:.3f} | `{r['b_cmd']}` | {r['b']:.3f} | {r['ratio']:.2f} | {target} |"
        )
    s = scaling(rows)
    if s is not None:
        verdict = "" if s["ratio"] <= 1.0 else " !"
        lines += ["", f"scaling: pipeline vs xdsl-opt at {s['large']} / at {s['small']} = {s['ratio']:.2f} (target ≤ 1.0{verdict})"]
    return "\n".join(lines) + "\n"


def scaling(rows: Sequence[dict]) -> dict | None:
    """The `pipeline vs xdsl-opt` ratio at the largest module over the one at the smallest (None with one size):
    above 1, the compile grows faster than xDSL's round trip of the same input."""
    prefix = "pipeline vs xdsl-opt "
    vs = [r for r in rows if r["what"].startswith(prefix)]
    if len(vs) < 2:
        return None
    small, large = vs[0], vs[-1]
    return {
        "small": small["what"][len(prefix):],
        "large": large["what"][len(prefix):],
        "ratio": large["ratio"] / small["ratio"],
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.cli", description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7, help="runs of each command (default 7); medians are kept")
    ap.add_argument("--sizes", default="50,500", help="kernels of the generated `many` modules (default 50,500)")
    ap.add_argument("--smoke", action="store_true", help="one repeat, a module of 2 kernels (what CI runs)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of the table")
    ap.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    ap.add_argument(
        "--context",
        action="store_true",
        help="also the pipeline without the verification after each pass, and the pipeline's output parsed, "
        "verified and printed alone (what the pipeline target is up against)",
    )
    args = ap.parse_args(argv)
    repeats = 1 if args.smoke else max(1, args.repeats)
    sizes = [2] if args.smoke else [int(s) for s in args.sizes.split(",") if s.strip()]
    rows = run(repeats, sizes, quiet=args.quiet, context=args.context or args.smoke)
    if args.json:
        print(json.dumps({"repeats": repeats, "rows": rows, "scaling": scaling(rows)}, indent=2))
    else:
        sys.stdout.write(format_table(rows, repeats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
