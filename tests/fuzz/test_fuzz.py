"""The fuzzer (python -m pypto_mlir.fuzz): a short fixed-seed campaign in CI, and the oracle's classes."""

from __future__ import annotations

import pytest

from pypto_mlir.fuzz import Mutator, check_text, load_corpus, run_campaign
from pypto_mlir.fuzz.campaign import mutant_for
from pypto_mlir.fuzz.shrink import shrink

GOOD = """builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%a: !pto.tile<16x16xbf16, left>, %b: !pto.tile<16x16xbf16, right>, %o: !pto.tensor<16x16xf32> {pto.out})
      -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<incore>} {
    %c = pto.matmul %a, %b : !pto.tile<16x16xbf16, left>, !pto.tile<16x16xbf16, right> -> !pto.tile<16x16xf32, acc>
    %v = pto.move %c : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %e = pto.exp %v : !pto.tile<16x16xf32, vec>
    %o2 = pto.store %e, %o[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
}
"""


def test_ci_fuzz_run():
    """A short fixed-seed campaign over the lit inputs and examples: no internal error, timeout, fixed-point or
    idempotence violation (the long run is `python -m pypto_mlir.fuzz run -n 100000`, docs/pypto-opt.md)."""
    report = run_campaign(300, seed=14, jobs=1, time_limit_s=10.0)
    assert report.inputs == 300
    assert not report.findings, "\n".join(
        f"{f.kind} at {f.stage}: {f.message}\n--- input ---\n{text}" for f, _, text in report.findings.values()
    )


def test_corpus_and_mutants_are_reproducible():
    corpus = load_corpus()
    assert len(corpus) > 100  # every `// -----` chunk of lit_tests/ and examples/
    assert mutant_for(corpus, 3, 17) == mutant_for(corpus, 3, 17)
    m = Mutator(corpus, 0)
    kinds = {name for name in dir(m) if not name.startswith("_")}
    assert {"number", "shape", "dtype", "space", "target", "split_mode", "ssa_name", "attribute", "nest",
            "truncate", "non_ascii"} <= kinds


def test_oracle_accepts_correct_input_and_rejections():
    assert check_text(GOOD) is None
    assert check_text(GOOD.replace("left>, %b", "vec>, %b", 1)) is None  # a located error is a correct rejection
    assert check_text(GOOD[:200]) is None


def test_oracle_reports_internal_error(monkeypatch):
    from pypto_mlir.passes.expand_mixed_kernel import pass_

    def boom(self, op):
        raise KeyError("boom")

    monkeypatch.setattr(pass_.ExpandMixedKernelPass, "_apply", boom)
    f = check_text(GOOD)
    assert f is not None and f.kind == "internal" and "KeyError" in f.message


def test_oracle_reports_timeout(monkeypatch):
    from pypto_mlir.passes.expand_mixed_kernel import pass_

    def spin(self, op):
        while True:
            pass

    monkeypatch.setattr(pass_.ExpandMixedKernelPass, "_apply", spin)
    f = check_text(GOOD, time_limit_s=0.5)
    assert f is not None and f.kind == "timeout"


def test_oracle_reports_idempotence_and_fixed_point(monkeypatch):
    from xdsl.dialects.builtin import StringAttr

    from pypto_mlir.passes.expand_mixed_kernel import pass_

    original = pass_.ExpandMixedKernelPass._apply

    def tag(self, op):
        original(self, op)
        op.attributes["runs"] = StringAttr(op.attributes.get("runs", StringAttr("")).data + "x")

    monkeypatch.setattr(pass_.ExpandMixedKernelPass, "_apply", tag)
    f = check_text(GOOD)
    assert f is not None and f.kind == "idempotence"

    from pypto_mlir.fuzz import oracle

    monkeypatch.setattr(pass_.ExpandMixedKernelPass, "_apply", original)
    monkeypatch.setattr(oracle, "print_module", lambda m: "builtin.module {" if "runs" not in m.attributes else "")
    f = check_text(GOOD)
    assert f is not None and f.kind == "fixed-point"


def test_shrink_keeps_the_failure(monkeypatch):
    from pypto_mlir.passes.expand_mixed_kernel import pass_

    def boom_on_exp(self, op):
        if any(o.name == "pto.exp" for o in op.walk()):
            raise KeyError("exp seen")

    monkeypatch.setattr(pass_.ExpandMixedKernelPass, "_apply", boom_on_exp)
    f = check_text(GOOD)
    assert f is not None
    small = shrink(GOOD, f, budget_s=20)
    assert len(small) < len(GOOD) and "pto.exp" in small
    assert check_text(small).signature() == f.signature()


@pytest.mark.parametrize("n", [1, 8, 40])
def test_deep_nesting_mutants_finish(n):
    body = "scf.execute_region {\n" * n + "%c = arith.constant 1 : i32\n" + "scf.yield\n}\n" * n
    assert check_text(f"func.func @f() {{\n{body}func.return\n}}\n") is None
