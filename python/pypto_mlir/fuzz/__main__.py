"""`python -m pypto_mlir.fuzz run|check ...` — see the package docstring and docs/pypto-opt.md."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .campaign import run_campaign
from .mutate import load_corpus
from .oracle import check_text


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m pypto_mlir.fuzz", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run a fuzz campaign")
    r.add_argument("-n", type=int, default=10000, help="number of inputs (default 10000)")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--jobs", "-j", type=int, default=0, help="worker processes (0: one per core)")
    r.add_argument("--time-limit", type=float, default=10.0, help="seconds per input (default 10)")
    r.add_argument("--out", type=Path, default=Path("fuzz-findings"), help="where reproducers are written")
    r.add_argument("--corpus", type=Path, action="append", help="corpus folder (default: lit_tests, examples)")
    r.add_argument("--shrink-budget", type=float, default=30.0, help="seconds spent shrinking each finding")
    c = sub.add_parser("check", help="run the oracle on files; exit 1 on a finding")
    c.add_argument("files", nargs="+", type=Path)
    c.add_argument("--time-limit", type=float, default=10.0)
    args = p.parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    if args.cmd == "check":
        bad = 0
        for path in args.files:
            text = path.read_text(encoding="utf-8")
            f = check_text(text, str(path), args.time_limit)
            if f is not None:
                bad += 1
                print(f"{path}: {f.kind} at {f.stage}: {f.message}")
            else:
                print(f"{path}: ok")
        return 1 if bad else 0
    corpus = load_corpus(args.corpus) if args.corpus else load_corpus()
    report = run_campaign(
        args.n, args.seed, args.jobs, args.time_limit, args.out, corpus, args.shrink_budget, progress=True
    )
    print(report.summary())
    for f, count, _ in report.findings.values():
        print(f"  {count:6d} x {f.kind} at {f.stage}: {f.message.splitlines()[0][:160]}")
    if report.findings:
        print(f"reproducers (shrunk) in {args.out}/")
    return 1 if report.findings else 0


if __name__ == "__main__":
    sys.exit(main())
