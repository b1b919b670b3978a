"""Random-kernel campaign of LowerAutoVectorSplit's split coverage and fallback.

    python benchmarks/lavs_campaign.py -n 2000 --seed 17 [--suite project|independent] [--fallback error|unsplit]
        [--split auto] [--json out.json]

Draws `n` kernels from the project's generator (`--suite project`, the default: `tests/kernelgen/strategies.py`,
both targets, all split modes) or from the kernels of issue 27 (`--suite independent`:
`tests/kernelgen/independent.py`, legal AUTO kernels with index generators, slice windows, reductions and
transposes on the split axis, and a loop-carried value feeding an `scf.if`), derandomized by `--seed`; runs
`lower-auto-vector-split[{fallback=...}],expand-mixed-kernel` on each (no option: the pass's default policy,
unsplit; `--split auto` makes every up_down / left_right kernel ask for `#pto.split<auto>`) and checks it by
execution (`check_pipeline_text`: the same outputs before and after, both schedules).  Prints the number of kernels compiled and checked, rejected (a located error of a pass, grouped
by message), fallen back (fallback=unsplit remarks) and failed (any other outcome: a wrong result, a crash, a
run-time error after the pipeline; a failure of a class in `tests/kernelgen/known.py` is counted apart).  A rejection with an error the
reference compiler defines for the kernel itself (`REFERENCE_ERRORS`: a program outside the language, which no
policy compiles) is counted apart from the rejections of legal kernels.  Exit code 1 when anything
outside the known classes failed.  (`python -m pypto_mlir.check_pipeline.campaign` is the general, parallel
campaign of the default pipeline; this one measures the fallback policy.)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Errors the reference defines for an ill-formed split program (shared/spec/lower-auto-vector-split.reference.md
# §6), by a phrase of our message: the generator draws such kernels on purpose, to exercise the rejections.  Both
# are explicit-region (`pto.split_aiv_scope`) kernels, whose author wrote the per-lane program: there is no
# unsplit form to fall back to.
REFERENCE_ERRORS = {
    "E-MIXED": "mixes explicit pto.aiv_shard/pto.aic_gather boundary ops with plain full-width",
    "E-VALID-RESHAPE": "reshapes the logical valid region of a per-lane cross-core value",
}
sys.path.insert(0, str(ROOT / "tests"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=2000, help="number of kernels (default 2000)")
    ap.add_argument("--seed", type=int, default=17, help="hypothesis seed (default 17)")
    ap.add_argument("--suite", choices=("project", "independent"), default="project",
                    help="the kernel generator (default: project, tests/kernelgen/strategies.py)")
    ap.add_argument("--fallback", choices=("default", "error", "unsplit"), default="default",
                    help="the pass's fallback policy (default: none given, the pass's default, unsplit)")
    ap.add_argument("--split", choices=("drawn", "auto"), default="drawn",
                    help="the split each kernel asks for: as drawn (default), or auto for every up_down / left_right "
                    "kernel (#pto.split<auto>: the pass chooses the axis)")
    ap.add_argument("--json", help="write the counts and the rejected/failed programs here")
    args = ap.parse_args()

    from hypothesis import HealthCheck, given, seed, settings

    from kernelgen.strategies import features_of

    if args.suite == "independent":
        from kernelgen.independent import kernels
    else:
        from kernelgen.strategies import kernels
    from pypto_mlir.check_pipeline import check_pipeline_text

    try:
        from kernelgen.known import known_class  # failure classes being fixed elsewhere
    except ImportError:
        known_class = None  # type: ignore[assignment]
    try:
        from pypto_mlir.diagnostics import capture_remarks
    except ImportError:  # a tree from before the fallback policy (for the baseline figures)
        from contextlib import nullcontext as capture_remarks  # type: ignore[assignment]

    lavs = "lower-auto-vector-split" if args.fallback == "default" else f"lower-auto-vector-split{{fallback={args.fallback}}}"
    pipeline = [lavs, "expand-mixed-kernel"]
    counts: Counter[str] = Counter()
    classes: Counter[str] = Counter()
    fallen: Counter[str] = Counter()
    # Per construct of the independent suite (its `// features: construct:<c>` tags): kernels, refused, fallen back.
    constructs: dict[str, Counter[str]] = {}
    samples: dict[str, list[str]] = {}
    start = time.time()

    @seed(args.seed)
    @settings(max_examples=args.n, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(kernels())
    def run(text: str) -> None:
        if args.split == "auto":
            text = re.sub(r"#pto\.split<(up_down|left_right)>", "#pto.split<auto>", text)
        counts["kernels"] += 1
        tags = [c for c in features_of(text) if c.startswith("construct:")]
        tags += [f"{tags[0]} alone"] if len(tags) == 1 else []  # the kernels with this one construct only
        for c in tags:
            constructs.setdefault(c, Counter())["kernels"] += 1
        counts["a5" if "#pto.target<a5>" in text else "a2a3"] += 1
        with capture_remarks() as remarks:
            res = check_pipeline_text(text, pipeline, "gen.mlir")
        for r in remarks or []:
            if "is compiled unsplit" in r.message:
                counts["fallen back"] += 1
                for c in tags:
                    constructs[c]["fallen back"] += 1
                fallen[_shape(r.message.split("cannot be lane-split: ", 1)[-1])] += 1
        if res.ok:
            counts["ok"] += 1
            return
        if res.stage == "pass" and "internal compiler error" not in res.report:
            counts["rejected"] += 1
            for c in tags:
                constructs[c]["rejected"] += 1
            m = re.search(r"error: (.*)", res.report)
            message = m.group(1) if m else res.report
            code = next((c for c, phrase in REFERENCE_ERRORS.items() if phrase in message), None)
            counts[f"rejected ({code})" if code else "rejected (legal kernel)"] += 1
            key = _shape(message)
            classes[key] += 1
            samples.setdefault(key, []).append(text)
            return
        known = known_class(res.report, text) if known_class is not None else None
        counts["failed (known)" if known else "failed"] += 1
        key = f"KNOWN {known}" if known else f"FAILED {res.stage}"
        samples.setdefault(key, []).append(text + "\n// " + res.report.replace("\n", "\n// "))

    run()
    took = time.time() - start
    print(f"{counts['kernels']} kernels ({counts['a2a3']} a2a3, {counts['a5']} a5), suite={args.suite}, "
          f"fallback={args.fallback}, split={args.split}: "
          f"{counts['ok']} checked ok, {counts['rejected']} rejected ({counts['rejected (legal kernel)']} legal kernels; "
          + ", ".join(f"{counts[f'rejected ({c})']} {c}" for c in REFERENCE_ERRORS)
          + f": errors the reference defines), {counts['fallen back']} fallen back, "
          f"{counts['failed']} failed, {counts['failed (known)']} failed in a known class (tests/kernelgen/known.py) "
          f"({took:.0f} s)")
    for key, n in classes.most_common():
        print(f"  rejected {n:5}  {key}")
    for key, n in fallen.most_common():
        print(f"  fell back {n:4}  {key}")
    for c, n in sorted(constructs.items()):
        print(f"  {c:28} in {n['kernels']:5} kernels: {n['rejected']:5} rejected, {n['fallen back']:5} fallen back")
    if args.json:
        Path(args.json).write_text(json.dumps({"counts": counts, "rejected": classes, "fallen": fallen,
                                               "samples": samples}, indent=1))
    return 1 if counts["failed"] else 0


def _shape(message: str) -> str:
    """A message with its numbers and names blanked, so messages of one class group together."""
    message = re.sub(r"'[%\w.]+'", "'_'", message)
    return re.sub(r"\d+", "N", message)[:110]


if __name__ == "__main__":
    sys.exit(main())
