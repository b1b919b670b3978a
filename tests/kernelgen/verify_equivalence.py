"""The memoized verifier (`verify_module(m, memo)`, what the pipeline runs after each pass) against the full one.

    python tests/kernelgen/verify_equivalence.py                    # lit inputs, examples, 1000 kernels, 1000 mutants
    python tests/kernelgen/verify_equivalence.py --kernels 200 --mutants 0 --seed 3

For every input: parse it; verify it in full and with the corpus's one shared `VerifyMemo` (shared across all
inputs of a corpus, so it holds as many remembered signatures as possible when an invalid op comes); then run
`lower-auto-vector-split`, `expand-mixed-kernel` one pass at a time and after each pass verify the pass output
both ways again.  The two verdicts must be equal at every step: both accept, or both reject with the same
located message (`PtoError.format`).  A step where the verdicts differ is printed and the exit code is 1.

Corpora: every `// -----` chunk of every `.mlir` file under `lit_tests/` and `examples/` (valid programs and
the `--verify-diagnostics` inputs, many of which the verifier rejects), the kernels of the project's generator
(`tests/kernelgen/strategies.py`, both targets, derandomized by `--seed`) and mutants of the lit/example corpus
(`pypto_mlir.fuzz`: structure-aware mutations, mostly invalid IR).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

PASSES = ("lower-auto-vector-split", "expand-mixed-kernel")


@dataclass
class Tally:
    inputs: int = 0
    steps: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)
    mismatches: list[str] = field(default_factory=list)
    hits: int = 0
    misses: int = 0


def _verdict(fn, name: str) -> str:
    from pypto_mlir.diagnostics import PtoError

    try:
        fn()
    except PtoError as e:
        return "error: " + e.format(name)
    except Exception as e:  # noqa: BLE001 - a crash of either verifier is a verdict of its own, and a finding
        return f"crash: {type(e).__name__}: {e}"
    return "ok"


def compare_text(text: str, name: str, memo, tally: Tally) -> None:
    """Compare the two verifiers on `text` and on each pass's output (module state, not reparsed)."""
    from pypto_mlir.diagnostics import PtoError
    from pypto_mlir.ir import make_context, parse_module
    from pypto_mlir.pipeline import parse_pipeline
    from pypto_mlir.verify import verified_input, verify_module

    ctx = make_context()
    try:
        module = parse_module(text, name, ctx)
    except PtoError:
        return
    tally.inputs += 1
    h0, m0 = memo.hits, memo.misses
    stage = "input"
    for p in (None, *parse_pipeline(",".join(PASSES))):
        if p is not None:
            stage = p.name
            try:
                with verified_input(module):
                    p.apply(ctx, module)
            except Exception:  # noqa: BLE001 - the pass refused (or crashed on) the input: nothing more to compare
                break
        full = _verdict(lambda: verify_module(module), name)
        memoized = _verdict(lambda: verify_module(module, memo), name)
        tally.steps += 1
        tally.verdicts["ok" if full == "ok" else "rejected"] += 1
        if full != memoized:
            tally.mismatches.append(f"{name} after {stage}:\n  full:     {full}\n  memoized: {memoized}")
        if full != "ok":
            break
    tally.hits += memo.hits - h0
    tally.misses += memo.misses - m0


def corpus_texts() -> Iterable[tuple[str, str]]:
    """(name, text) of every chunk of every .mlir file under lit_tests/ and examples/, lines kept in place."""
    from pypto_mlir.fuzz.mutate import SPLIT_MARKER

    for d in ("lit_tests", "examples"):
        for path in sorted((ROOT / d).rglob("*.mlir")):
            text = path.read_text(encoding="utf-8")
            line = 0
            for i, part in enumerate(SPLIT_MARKER.split(text)):
                yield f"{path.relative_to(ROOT)}#{i}", "\n" * line + part
                line += part.count("\n") + 1


def kernel_texts(n: int, seed: int) -> list[str]:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as hseed

    from kernelgen.strategies import kernels

    out: list[str] = []

    @hseed(seed)
    @settings(max_examples=n, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(kernels())
    def draw(text: str) -> None:
        out.append(text)

    draw()
    return out


def mutant_texts(n: int, seed: int) -> list[str]:
    from pypto_mlir.fuzz.campaign import mutant_for
    from pypto_mlir.fuzz.mutate import load_corpus, valid_entries

    corpus = load_corpus()
    valid = valid_entries(corpus)
    return [mutant_for(corpus, seed, i, valid) for i in range(n)]


def run(kernels: int, mutants: int, seed: int, quiet: bool = False) -> dict[str, Tally]:
    from pypto_mlir.diagnostics import capture_remarks
    from pypto_mlir.verify import VerifyMemo

    tallies: dict[str, Tally] = {}

    def corpus(label: str, items: Iterable[tuple[str, str]]) -> None:
        tally = tallies[label] = Tally()
        memo = VerifyMemo()  # one memo for the whole corpus
        with capture_remarks():  # the passes' fallback remarks are not what is compared
            for name, text in items:
                compare_text(text, name, memo, tally)
        if not quiet:
            print(
                f"{label}: {tally.inputs} inputs, {tally.steps} verifications compared "
                f"({tally.verdicts['ok']} accepted, {tally.verdicts['rejected']} rejected), "
                f"{len(tally.mismatches)} differ; memo {tally.hits} hits / {tally.misses} misses",
                flush=True,
            )

    corpus("lit+examples", corpus_texts())
    if kernels:
        corpus("generated kernels", ((f"kernel{i}.mlir", t) for i, t in enumerate(kernel_texts(kernels, seed))))
    if mutants:
        corpus("mutants", ((f"mutant{i}.mlir", t) for i, t in enumerate(mutant_texts(mutants, seed))))
    return tallies


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernels", type=int, default=1000, help="generated kernels (default 1000)")
    ap.add_argument("--mutants", type=int, default=1000, help="fuzz mutants of the lit/example corpus (default 1000)")
    ap.add_argument("--seed", type=int, default=17)
    args = ap.parse_args(argv)
    tallies = run(args.kernels, args.mutants, args.seed)
    bad = [m for t in tallies.values() for m in t.mismatches]
    for m in bad:
        print(m)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
