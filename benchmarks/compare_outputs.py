"""Capture `pypto-opt` outputs over a fixed corpus, to prove a refactoring changes no behaviour byte for byte.

    python -m benchmarks.compare_outputs capture DIR      # write one file per (input, target, pipeline) into DIR
    python -m benchmarks.compare_outputs diff BEFORE AFTER  # list the cases whose output differs

The corpus: every `*.mlir` under `lit_tests/` and `examples/`, plus the compile-time benchmark's generated kernels
(`benchmarks.generate`, both shapes, a small size).  Each input runs on both targets (the text with `a2a3`
replaced by `a5`, as `sed s/a2a3/a5/` would), through four pipelines: no pass (parse/verify/print), each pass
alone, and both in a row.  An input whose `RUN:` lines use `--split-input-file` is run chunk by chunk the same way.
Each capture records the exit code, stdout and stderr of `pypto-opt`'s `main` (run in this process, so the
whole corpus takes seconds, not minutes); file names in messages are replaced by `<input>`.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PIPELINES: dict[str, list[str]] = {
    "none": [],
    "lavs": ["--lower-auto-vector-split"],
    "emk": ["--expand-mixed-kernel"],
    "both": ["--lower-auto-vector-split", "--expand-mixed-kernel"],
}
GENERATED_SIZE = 3


def corpus() -> list[tuple[str, str]]:
    """(case name, text) of every input, in a stable order."""
    cases: list[tuple[str, str]] = []
    for folder in ("lit_tests", "examples"):
        for path in sorted((ROOT / folder).rglob("*.mlir")):
            cases.append((str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
    sys.path.insert(0, str(ROOT))
    from benchmarks.generate import SHAPES, generate

    for shape in SHAPES:
        cases.append((f"generated/{shape}{GENERATED_SIZE}.mlir", generate(shape, GENERATED_SIZE, "a2a3")))
    return cases


def run_opt(argv: list[str]) -> tuple[int, str, str]:
    from pypto_mlir.tools.pypto_opt import main  # type: ignore[import-not-found]

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse
            code = e.code if isinstance(e.code, int) else 1
    return code or 0, out.getvalue(), err.getvalue()


def capture(dest: Path) -> int:
    dest.mkdir(parents=True, exist_ok=True)
    count = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in corpus():
            split = ["--split-input-file"] if "--split-input-file" in text else []
            for target, body in (("a2a3", text), ("a5", text.replace("a2a3", "a5"))):
                src = Path(tmp) / "input.mlir"
                src.write_text(body, encoding="utf-8")
                for pipe, flags in PIPELINES.items():
                    code, out, err = run_opt([str(src), *split, *flags])
                    record = f"exit {code}\n--- stdout\n{out}--- stderr\n{err}".replace(str(src), "<input>")
                    key = name.replace("/", "__") + f".{target}.{pipe}.txt"
                    (dest / key).write_text(record, encoding="utf-8")
                    count += 1
    print(f"captured {count} runs into {dest}")
    return 0


def diff(before: Path, after: Path) -> int:
    names = sorted({p.name for p in before.iterdir()} | {p.name for p in after.iterdir()})
    changed = 0
    for n in names:
        a, b = before / n, after / n
        if not a.exists() or not b.exists() or a.read_bytes() != b.read_bytes():
            changed += 1
            print(f"differs: {n}" + ("" if a.exists() and b.exists() else " (missing on one side)"))
    print(f"{len(names) - changed} identical, {changed} different")
    return 1 if changed else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("capture")
    c.add_argument("dest", type=Path)
    d = sub.add_parser("diff")
    d.add_argument("before", type=Path)
    d.add_argument("after", type=Path)
    args = ap.parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    os.chdir(ROOT)
    return capture(args.dest) if args.cmd == "capture" else diff(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
