"""The runnable programs of the repository: examples and every chunk of the passes' lit tests.

A chunk is *runnable* when the interpreter can run it before the pipeline (static shapes, no rejected input) and
the pipeline accepts it; such a chunk must then give the same outputs after the pipeline.

A chunk the verifier or the pipeline *refuses* (with a located error) is not skipped: it must be an expected
refusal, listed with its error in `expected_refusals.txt` (`<case>[<pipeline>]<TAB><first line of the error>`),
or the test fails; a listed case the pipeline now accepts fails too, until its line is removed.  So a pass that
starts refusing valid kernels, or changes what it says, shows up as a failure.  After a deliberate change,
`python tests/kernelgen/corpus.py` rewrites the list from what the pipeline does now: review its diff.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects import func

from pypto_mlir.diagnostics import PtoError, capture_remarks
from pypto_mlir.interpreter import check_modules
from pypto_mlir.check_pipeline import apply_pipeline
from pypto_mlir.interpreter.values import InterpError
from pypto_mlir.ir import parse_module
from pypto_mlir.verify import verify_module

ROOT = Path(__file__).resolve().parents[2]
SPLIT = re.compile(r"^// -----\s*$", re.MULTILINE)
FULL = ["lower-auto-vector-split", "expand-mixed-kernel"]
PIPELINES = {
    "lower_auto_vector_split": [["lower-auto-vector-split"], FULL],
    "expand_mixed_kernel": [["expand-mixed-kernel"], FULL],
}


@dataclass
class Case:
    path: Path
    index: int
    text: str
    line_offset: int

    target: str = ""

    @property
    def id(self) -> str:
        suffix = f"@{self.target}" if self.target else ""
        return f"{self.path.relative_to(ROOT)}#{self.index}{suffix}"


def chunks(path: Path) -> list[Case]:
    text = path.read_text()
    out, line = [], 0
    for i, part in enumerate(SPLIT.split(text)):
        out.append(Case(path, i, "\n" * line + part, line))
        line += part.count("\n") + 1
    return out


def lit_cases() -> list[tuple[Case, list[str]]]:
    """Every chunk with each pipeline of its folder, and an a2a3 chunk once more on a5 with the
    full pipeline, as the lit RUN lines do with `sed 's/a2a3/a5/'`."""
    cases = []
    for d, pipelines in PIPELINES.items():
        for p in sorted((ROOT / "lit_tests" / d).glob("*.mlir")):
            for c in chunks(p):
                for pl in pipelines:
                    cases.append((c, pl))
                if "#pto.target<a2a3>" in c.text:
                    other = Case(c.path, c.index, c.text.replace("#pto.target<a2a3>", "#pto.target<a5>"), c.line_offset)
                    other.target = "a5"
                    cases.append((other, FULL))
    return cases


def example_cases() -> list[tuple[Path, list[str]]]:
    return [(p, pl) for p in sorted((ROOT / "examples").glob("*.mlir")) for pl in (FULL, FULL[:1], FULL[1:])]


def entries(module) -> list[str]:
    """Functions no other function calls (the programs' entry points), with a body."""
    funcs = [op for op in module.body.block.ops if isinstance(op, func.FuncOp) and op.body.blocks]
    called = {c.callee.root_reference.data for f in funcs for c in f.walk() if isinstance(c, func.CallOp)}
    return [f.sym_name.data for f in funcs if f.sym_name.data not in called]


@dataclass
class Outcome:
    status: str  # "ok", "refused" (detail: the first line of the located error), "skip" (not runnable), "fail"
    detail: str


REFUSALS_FILE = Path(__file__).resolve().parent / "expected_refusals.txt"


def case_key(name: str, pipeline: list[str]) -> str:
    """The key of a case in `expected_refusals.txt`: `<case id or file>[<pipeline>]`."""
    return f"{name}[{','.join(pipeline)}]"


def expected_refusals() -> dict[str, str]:
    """Case key -> the first line of the error the case is expected to be refused with."""
    out = {}
    for line in REFUSALS_FILE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            key, _, message = line.partition("\t")
            out[key] = message
    return out


def check_refusal(key: str, out: Outcome, expected: dict[str, str]) -> bool:
    """True when `out` is a refusal, after checking it is the expected one; fails when the case is refused
    unexpectedly, with another error, or is listed but accepted now."""
    if out.status != "refused":
        assert key not in expected, (
            f"{key} is listed in {REFUSALS_FILE.name} as refused with '{expected.get(key)}', but the pipeline accepts "
            "it now: remove its line"
        )
        return False
    assert key in expected, (
        f"the pipeline refuses {key}, which is not an expected refusal ({REFUSALS_FILE.name}): {out.detail}"
    )
    assert out.detail == expected[key], f"{key} is refused with another error than expected:\n  now: {out.detail}\n  was: {expected[key]}"
    return True


def refusal(e: PtoError, name: str) -> Outcome:
    return Outcome("refused", e.format(name).splitlines()[0])


def check_case(text: str, name: str, pipeline: list[str], seed: int = 0) -> Outcome:
    """Run every entry of `text` before and after `pipeline`."""
    try:
        before = parse_module(text, name)
        verify_module(before)
    except PtoError as e:
        return refusal(e, name)  # the input itself is refused (a rejection test of the verifier)
    after = parse_module(text, name)
    try:
        apply_pipeline(after, pipeline)
    except PtoError as e:
        return refusal(e, name)
    except Exception as e:  # noqa: BLE001 - a crashing pass is a finding
        return Outcome("fail", f"pipeline crashes: {type(e).__name__}: {e}")
    ran = 0
    notes = []
    for entry in entries(before):
        try:
            res = check_modules(before, after, entry, seed, None, name)
        except InterpError as e:
            if "dynamic shape" not in str(e):
                raise
            # The interpreter needs static shapes (a kernel the pipeline compiles, e.g. unsplit by the default
            # fallback, may still have a dynamic one): compiling is what is checked.
            notes.append(f"@{entry} not runnable: {e}")
            continue
        if res.stage == "before":
            notes.append(f"@{entry} not runnable before the pipeline: {res.report.splitlines()[-1]}")
            continue
        if not res.ok:
            return Outcome("fail", f"@{entry}: {res.report}")
        ran += 1
    if not ran:
        return Outcome("skip", "; ".join(notes) or "no entry function")
    return Outcome("ok", f"{ran} entr{'y' if ran == 1 else 'ies'} match")


def _all_cases() -> list[tuple[str, str, str, list[str]]]:
    """(id, text, file name, pipeline) of every corpus case: the lit chunks, then the examples."""
    cases = [(c.id, c.text, str(c.path.relative_to(ROOT)), p) for c, p in lit_cases()]
    cases += [(str(p.relative_to(ROOT)), p.read_text(), str(p.relative_to(ROOT)), pl) for p, pl in example_cases()]
    return cases


def all_case_keys() -> set[str]:
    return {case_key(ident, pipeline) for ident, _, _, pipeline in _all_cases()}


def all_refusals() -> list[str]:
    """`<key>\t<error>` of every corpus case the verifier or the pipeline refuses now (the lit chunks, the
    examples), in key order: what `expected_refusals.txt` holds."""
    lines = []
    for ident, text, name, pipeline in _all_cases():
        out = refusal_only(text, name, pipeline)
        if out is not None:
            lines.append(f"{case_key(ident, pipeline)}\t{out}")
    return sorted(lines)


def refusal_only(text: str, name: str, pipeline: list[str]) -> str | None:
    """The first line of the error with which the verifier or `pipeline` refuses `text`, or None (no run)."""
    try:
        verify_module(parse_module(text, name))
        with capture_remarks():  # a fallback's remark is not a refusal
            apply_pipeline(parse_module(text, name), pipeline)
    except PtoError as e:
        return refusal(e, name).detail
    return None


if __name__ == "__main__":
    header = (
        "# Corpus cases the verifier or the pipeline refuses, each with the first line of its located error\n"
        "# (tests/kernelgen/corpus.py; rewrite with `python tests/kernelgen/corpus.py` and review the diff).\n"
    )
    body = all_refusals()
    REFUSALS_FILE.write_text(header + "\n".join(body) + "\n", encoding="utf-8")
    print(f"{len(body)} expected refusals written to {REFUSALS_FILE}")

