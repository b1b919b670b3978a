"""LowerAutoVectorSplit's fallback policy and report (issue 17; unsplit the default since issue 27): pass options,
remarks, and a twin run with fallback=unsplit for every AUTO-path rejection (under fallback=error) of the lit suite
(it must compile and keep its results)."""

from __future__ import annotations

import re

import pytest
from xdsl.dialects import func

from kernelgen.corpus import ROOT, check_case, chunks
from pypto_mlir.diagnostics import PtoError, capture_remarks
from pypto_mlir.check_pipeline import apply_pipeline
from pypto_mlir.interpreter.values import InterpError
from pypto_mlir.ir import make_context, parse_module
from pypto_mlir.pipeline import PipelineError, parse_pipeline
from pypto_mlir.passes.lower_auto_vector_split.pass_ import LowerAutoVectorSplitPass
from pypto_mlir.tools import pypto_opt
from pypto_mlir.verify import verify_module

LAVS = "lower-auto-vector-split"
ERROR = "lower-auto-vector-split{fallback=error}"
UNSPLIT = "lower-auto-vector-split{fallback=unsplit remarks=false}"

# A reduction over the split axis the lanes cannot combine (its result's valid extent is a run-time value): the
# forcing op of the fallback tests, at line 6.
REDUCE = """builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%qk: !pto.tile<16x32xf32, acc>, %n: index, %out: !pto.tensor<1x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %w = pto.set_validshape %v valid [16, %n] : !pto.tile<16x32xf32, vec> -> !pto.tile<16x32xf32, vec, valid = [16, ?]>
    %s = pto.col_sum %w : !pto.tile<16x32xf32, vec, valid = [16, ?]> -> !pto.tile<1x32xf32, vec, valid = [1, ?]>
    %o = pto.store %s, %out[0, 0] : !pto.tile<1x32xf32, vec, valid = [1, ?]>, !pto.tensor<1x32xf32>
    func.return
  }
}
"""


def _split_attr(text: str, pass_) -> str:
    m = parse_module(text, "k.mlir")
    pass_.apply(make_context(), m)
    verify_module(m)
    f = next(op for op in m.walk() if isinstance(op, func.FuncOp))
    return f.attributes["pto.split"].data  # type: ignore[union-attr]


def test_options_parse_into_the_pass_fields():
    (p,) = parse_pipeline("lower-auto-vector-split{fallback=unsplit report=true}")
    assert isinstance(p, LowerAutoVectorSplitPass)
    assert (p.fallback, p.report, p.remarks) == ("unsplit", True, True)
    assert parse_pipeline(LAVS) == (LowerAutoVectorSplitPass(),)
    q, _ = parse_pipeline(f"{UNSPLIT}, expand-mixed-kernel")
    assert q == LowerAutoVectorSplitPass(fallback="unsplit", remarks=False)


@pytest.mark.parametrize(
    "spec,message",
    [
        ("lower-auto-vector-split{fallback=maybe}", "unknown fallback policy 'maybe'; expected one of error, unsplit"),
        ("lower-auto-vector-split{bogus=1}", "unknown option 'bogus' for pass 'lower-auto-vector-split'"),
        ("lower-auto-vector-split{report=3}", "bad value '3' for option 'report' of pass 'lower-auto-vector-split': "
         "expected true or false"),
    ],
)
def test_bad_options_are_usage_errors(spec, message, capsys):
    with pytest.raises(PipelineError, match=message.replace("[", r"\[").replace("(", r"\(")):
        parse_pipeline(spec)
    assert pypto_opt.main([f"--{spec}", "-"]) == 1
    assert "pypto-opt: error:" in capsys.readouterr().err


def test_error_policy_rejects_and_names_the_option():
    with pytest.raises(PtoError, match=r"--lower-auto-vector-split\{fallback=unsplit\}") as e:
        _split_attr(REDUCE, LowerAutoVectorSplitPass(fallback="error"))
    assert e.value.loc is not None and e.value.loc.line == 6
    assert parse_pipeline(ERROR) == (LowerAutoVectorSplitPass(fallback="error"),)


def test_default_is_unsplit_with_a_remark_naming_the_error_policy():
    """Issue 27: an AUTO split is a request; the default compiles a refused kernel unsplit, with the refusal's
    reason and the option that makes it an error instead, at the op that forced it."""
    assert LowerAutoVectorSplitPass().fallback == "unsplit"
    assert parse_pipeline(LAVS) == (LowerAutoVectorSplitPass(fallback="unsplit"),)
    with capture_remarks() as remarks:
        assert _split_attr(REDUCE, LowerAutoVectorSplitPass()) == "none"
    (r,) = remarks
    assert r.loc is not None and r.loc.line == 6
    assert "reduce op 'pto.col_sum' reduces over the split axis (dim 0)" in r.message
    assert r.message.endswith("; to reject such a kernel instead: --lower-auto-vector-split{fallback=error}")


def test_default_prints_the_remark_and_exits_0(tmp_path, capsys):
    path = tmp_path / "k.mlir"
    path.write_text(REDUCE)
    assert pypto_opt.main([str(path), "--lower-auto-vector-split"]) == 0
    out = capsys.readouterr()
    assert "pto.split = #pto.split<none>" in out.out
    assert f"{path}:6:5: remark: LowerAutoVectorSplit: kernel 'k' is compiled unsplit" in out.err
    assert "{fallback=error}" in out.err


def test_unsplit_keeps_the_body_and_remarks_at_the_forcing_op():
    with capture_remarks() as remarks:
        assert _split_attr(REDUCE, LowerAutoVectorSplitPass(fallback="unsplit")) == "none"
    assert len(remarks) == 1 and remarks[0].severity == "remark"
    assert remarks[0].loc is not None and remarks[0].loc.line == 6
    assert "kernel 'k' is compiled unsplit" in remarks[0].message and "'pto.col_sum'" in remarks[0].message
    with capture_remarks() as quiet:
        _split_attr(REDUCE, LowerAutoVectorSplitPass(fallback="unsplit", remarks=False))
    assert quiet == []


def test_report_lists_every_incore_kernel():
    with capture_remarks() as remarks:
        _split_attr(REDUCE, LowerAutoVectorSplitPass(fallback="unsplit", report=True, remarks=False))
    assert [r.message.split(":", 1)[0] for r in remarks] == ["LowerAutoVectorSplit report"]
    assert "falls back to unsplit because of 'pto.col_sum'" in remarks[0].message
    assert remarks[0].loc is not None and remarks[0].loc.line == 2  # the func.func


def test_verify_diagnostics_rejects_an_unexpected_remark(tmp_path, capsys):
    path = tmp_path / "k.mlir"
    path.write_text(REDUCE)
    assert pypto_opt.main([str(path), "--verify-diagnostics", "--lower-auto-vector-split{fallback=unsplit}"]) == 1
    assert "unexpected remark: LowerAutoVectorSplit: kernel 'k' is compiled unsplit" in capsys.readouterr().err
    path.write_text(REDUCE.replace("    %s = pto.col_sum", "    // expected-remark@+1 {{is compiled unsplit}}\n    %s = pto.col_sum"))
    assert pypto_opt.main([str(path), "--verify-diagnostics", "--lower-auto-vector-split{fallback=unsplit}"]) == 0


def _auto_rejections():
    """Every lit chunk the AUTO path rejects (its error names the option)."""
    out = []
    for folder in ("lower_auto_vector_split", "split_aiv", "expand_mixed_kernel"):
        for path in sorted((ROOT / "lit_tests" / folder).glob("*.mlir")):
            for c in chunks(path):
                if "pto.split = #pto.split<" not in c.text:
                    continue
                try:
                    m = parse_module(c.text, str(path))
                    verify_module(m)
                    apply_pipeline(m, [ERROR])
                except PtoError as e:
                    if "fallback=unsplit" in e.message:
                        out.append(pytest.param(c, id=c.id))
                    continue
                except Exception:  # noqa: BLE001 - not a rejection of this pass
                    continue
    return out


REJECTED = _auto_rejections()

# The twins ExpandMixedKernel refuses whatever the split (the same kernel written unsplit is refused with the same
# error), with the start of that error; any other refusal of a twin fails the test.
EMK_REFUSES_TWIN = {
    "lit_tests/lower_auto_vector_split/errors.mlir#10": (
        "AIC function 'reshape_track_dynamic_aic' uses cross-core tile ops with non-static tile size"
    ),
}


def test_the_lit_suite_has_rejections_to_twin():
    assert len(REJECTED) >= 10


@pytest.mark.parametrize("case", REJECTED)
@pytest.mark.parametrize("target", ["a2a3", "a5"])
def test_every_rejection_compiles_unsplit_and_keeps_its_results(case, target):
    text = case.text.replace("#pto.target<a2a3>", f"#pto.target<{target}>")
    m = parse_module(text, "twin.mlir")
    with capture_remarks() as remarks:
        apply_pipeline(m, [UNSPLIT.replace(" remarks=false", "")])
    assert any("is compiled unsplit" in r.message for r in remarks)
    try:
        apply_pipeline(m, ["expand-mixed-kernel"])  # compiles
    except PtoError as e:
        # Only a rejection that has nothing to do with the split may remain: the same kernel written unsplit
        # is rejected by ExpandMixedKernel too.
        unsplit = re.sub(r"pto\.split = #pto\.split<\w+>", "pto.split = #pto.split<none>", text)
        with pytest.raises(PtoError, match=re.escape(e.message[:60])):
            apply_pipeline(parse_module(unsplit, "twin.mlir"), ["expand-mixed-kernel"])
        expected = EMK_REFUSES_TWIN.get(case.id)
        assert expected is not None and e.message.startswith(expected), (
            f"ExpandMixedKernel refuses the unsplit twin of {case.id}, which is not an expected refusal "
            f"(EMK_REFUSES_TWIN): {e.message}"
        )
        return
    try:
        out = check_case(text, str(case.path.relative_to(ROOT)), [UNSPLIT, "expand-mixed-kernel"])
    except InterpError as e:  # not runnable (e.g. a dynamic tensor shape): compiling is what is checked
        pytest.skip(f"not runnable: {e}")
    assert out.status != "fail", out.detail
    assert "pipeline rejects" not in out.detail, out.detail
