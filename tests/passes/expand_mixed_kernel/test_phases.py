"""ExpandMixedKernel as a pipeline of phase passes (passes/expand_mixed_kernel/pass_.py, docs/expand-mixed-kernel.md
*The pipeline of phases*).

- run as separate passes, verified after each (so the IR between phases must verify), the phases give
  `--expand-mixed-kernel`'s output and errors byte for byte, over every example and every ExpandMixedKernel lit
  input, on both targets, with and without LowerAutoVectorSplit before;
- every phase is registered under its name, runs alone, and says in its docstring what it expects and
  guarantees;
- the ring depth choice asks a cost model it is handed: no module of passes/ imports the interpreter or the
  timing model, and a pass that must time a kernel without one says so.
"""

from __future__ import annotations

import ast
import contextlib
import io
import pathlib
import sys

import pytest

from pypto_mlir.passes import PASSES, get_pass
from pypto_mlir.passes.expand_mixed_kernel.pass_ import PHASES, ExpandMixedKernelPass
from pypto_mlir.passes.expand_mixed_kernel.phase import half_name, kernel_of_half
from pypto_mlir.dialects.pto_traits import CoreSide

ROOT = pathlib.Path(__file__).resolve().parents[3]
PHASE_FLAGS = [f"--{cls.name}" for cls in PHASES]


def _opt(argv: list[str]) -> tuple[int, str, str]:
    from pypto_mlir.tools.pypto_opt import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code or 0, out.getvalue(), err.getvalue()


def _cases() -> list[pathlib.Path]:
    return sorted((ROOT / "examples").glob("*.mlir")) + sorted((ROOT / "lit_tests" / "expand_mixed_kernel").glob("*.mlir"))


@pytest.mark.parametrize("path", _cases(), ids=lambda p: p.name)
def test_phases_as_separate_passes_give_the_pipelines_output(path, tmp_path):
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    text = path.read_text()
    split = ["--split-input-file"] if "--split-input-file" in text else []
    for target in ("a2a3", "a5"):
        src = tmp_path / f"{target}.mlir"
        src.write_text(text.replace("a2a3", target))
        for before in ([], ["--lower-auto-vector-split"]):
            whole = _opt([str(src), *split, *before, "--expand-mixed-kernel"])
            phased = _opt([str(src), *split, *before, *PHASE_FLAGS])
            assert phased == whole, (target, before)


def test_every_phase_is_registered_and_documented():
    assert [cls.name for cls in PHASES] == [
        "insert-gm-fences", "split-mixed-kernel", "insert-tfree", "setup-pipes", "normalize-group-abi",
        "adapt-manual-pushes", "verify-mixed-kernel-expanded", "choose-ring-depth",
    ]
    for cls in PHASES:
        assert get_pass(cls.name) is cls and cls.name in PASSES
        doc = sys.modules[cls.__module__].__doc__ or ""
        if cls.name != "verify-mixed-kernel-expanded":  # the verifier's module doc lists the checks it makes
            assert "Expects" in doc and "Guarantees" in doc, cls.name


def test_half_names():
    assert half_name("k", CoreSide.AIC) == "k_aic" and half_name("k", CoreSide.AIV) == "k_aiv"
    assert kernel_of_half("k_aic", CoreSide.AIC) == "k" and kernel_of_half("k_aiv", CoreSide.AIC) is None
    assert kernel_of_half("_aiv", CoreSide.AIV) is None


# pto-isa's flow-control rules (when a push waits, when the consumer signals free: counters, no cost) are not the
# timing model: the skew pass proves its schedules free of deadlock with them (passes/skew_cross_core_pipeline/
# rings.py), and their one home is timing/flow.py.
FLOW_RULES = "pypto_mlir.timing.flow"


def test_passes_import_no_interpreter_or_timing_model():
    offenders = []
    for path in sorted((ROOT / "passes").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for n in names:
                if n.startswith(("pypto_mlir.interpreter", "pypto_mlir.timing")) and n != FLOW_RULES:
                    offenders.append(f"{path.relative_to(ROOT)}: {n}")
    assert offenders == []


RING_KERNEL = ROOT / "lit_tests" / "expand_mixed_kernel" / "ring_depth_chosen.mlir"


def test_a_pass_without_a_cost_model_says_so_when_it_must_time():
    from pypto_mlir import parse_module
    from pypto_mlir.ir import make_context
    from pypto_mlir.passes.expand_mixed_kernel.ring_depth import MissingCostModel
    from pypto_mlir.passes.lower_auto_vector_split.pass_ import LowerAutoVectorSplitPass

    m = parse_module(RING_KERNEL.read_text())
    LowerAutoVectorSplitPass().apply(make_context(), m)
    with pytest.raises(MissingCostModel, match="no cost model was handed to the pass"):
        ExpandMixedKernelPass().apply(make_context(), m)


def test_the_cost_model_is_asked_per_depth():
    """A stub model that prefers depth 4: the pass sets it on both halves (and asked for every candidate)."""
    from pypto_mlir import parse_module, print_module
    from pypto_mlir.ir import make_context
    from pypto_mlir.passes.lower_auto_vector_split.pass_ import LowerAutoVectorSplitPass

    asked: list[tuple[str, list[int]]] = []

    class Prefers4:
        def makespans(self, module, group, depths, scalar_values):
            asked.append((group, list(depths)))
            return {d: (10 if d == 4 else 20) for d in depths}

    m = parse_module(RING_KERNEL.read_text().replace("a2a3", "a5"))
    LowerAutoVectorSplitPass().apply(make_context(), m)
    ExpandMixedKernelPass().with_cost_model(Prefers4()).apply(make_context(), m)
    out = print_module(m)
    assert ("phase_incore_0", [2, 3, 4, 5, 6, 7, 8]) in asked
    assert 'name = "phase_incore_0_c2v_slot_buffer", size = 32768' in out
