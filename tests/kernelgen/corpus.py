"""The runnable programs of the repository: examples and every chunk of the passes' lit tests.

A chunk is *runnable* when the interpreter can run it before the pipeline (static shapes, no rejected input) and
the pipeline accepts it; such a chunk must then give the same outputs after the pipeline.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects import func

from pypto_mlir.diagnostics import PtoError
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
    status: str  # "ok", "skip", "fail"
    detail: str


def check_case(text: str, name: str, pipeline: list[str], seed: int = 0) -> Outcome:
    """Run every entry of `text` before and after `pipeline`."""
    try:
        before = parse_module(text, name)
        verify_module(before)
    except PtoError as e:
        return Outcome("skip", "input does not parse/verify: " + e.format(name))
    after = parse_module(text, name)
    try:
        apply_pipeline(after, pipeline)
    except PtoError as e:
        return Outcome("skip", "pipeline rejects the input: " + e.format(name))
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
