"""The random-kernel campaign in CI (200 kernels on all cores), and the generator's coverage."""

from __future__ import annotations

import functools
import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings

from kernelgen.strategies import FEATURES, ILLEGAL_INPUT, NOT_EMITTED, features_of, kernels, ops_of
from pypto_mlir.dialects import ALL_PTO_OPS
from pypto_mlir.check_pipeline.campaign import classify, main, normalize, run_campaign, save_reproducer
from pypto_mlir.interpreter.runner import CheckResult
from pypto_mlir.pipeline import invalid_output_note

N_CAMPAIGN = int(os.environ.get("PYPTO_CAMPAIGN_KERNELS", "200"))


def test_campaign_of_random_kernels_finds_no_unknown_failure(tmp_path):
    summary = run_campaign(N_CAMPAIGN, jobs=os.cpu_count(), seed=0, chunk=25, out_dir=tmp_path, do_shrink=False,
                           progress=lambda s: None)
    print(summary.format())
    assert summary.kernels == N_CAMPAIGN
    assert summary.counts["checked"] > N_CAMPAIGN // 2, summary.format()
    unknown = summary.unknown_failures()
    assert not unknown, summary.format() + "\nreproducers: " + ", ".join(str(p) for p in summary.reproducers.values())
    if summary.failed:
        pytest.xfail("known findings: " + "; ".join(summary.failed))


COVERAGE_KERNELS = 800


@functools.cache
def _coverage_kernels() -> tuple[str, ...]:
    """COVERAGE_KERNELS generated kernels (derandomized: the same every run), shared by the coverage tests; enough
    that a rare feature (a rule behind two or three draws) is drawn a few times, not once by luck."""
    texts: list[str] = []

    @settings(max_examples=COVERAGE_KERNELS, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(kernels())
    def draw(text):
        texts.append(text)

    draw()
    return tuple(texts)


def test_generator_coverage_reports_every_feature():
    seen: Counter = Counter()
    for text in _coverage_kernels():
        seen.update(features_of(text))
    counts = "\n".join(f"  {seen[f]:4d}  {f}" for f in FEATURES)
    print(f"generator coverage over {COVERAGE_KERNELS} kernels:\n{counts}")
    assert [f for f in FEATURES if not seen[f]] == []
    assert set(seen) <= set(FEATURES), set(seen) - set(FEATURES)


def test_generator_covers_every_legal_op():
    """The coverage record of the generator: every op of the dialect is drawn in COVERAGE_KERNELS kernels or
    listed in `NOT_EMITTED` with its reason; an op listed there must not be drawn (the record would be stale)."""
    seen: Counter = Counter()
    for text in _coverage_kernels():
        seen.update(ops_of(text))
    names = [op.name for op in ALL_PTO_OPS]
    lines = []
    for name in names:
        if seen[name]:
            lines.append(f"  {seen[name]:4d}  {name}")
        elif name in NOT_EMITTED:
            kind, why = NOT_EMITTED[name]
            lines.append(f"     -  {name}: {kind}: {why}")
        else:
            lines.append(f"     !  {name}: NEITHER EMITTED NOR LISTED")
    print(f"ops in {COVERAGE_KERNELS} kernels (kernels using each op):\n" + "\n".join(lines))
    assert [n for n in names if not seen[n] and n not in NOT_EMITTED] == [], "legal ops the generator misses"
    assert [n for n in NOT_EMITTED if seen[n]] == [], "ops listed as not emitted that the generator emits"
    assert set(NOT_EMITTED) <= set(names), set(NOT_EMITTED) - set(names)
    assert set(seen) <= set(names), set(seen) - set(names)
    legal_missing = [n for n, (kind, _) in NOT_EMITTED.items() if kind != ILLEGAL_INPUT]
    print("legal in a mixed kernel but not generated yet: " + ", ".join(legal_missing))


def test_failure_classes_ignore_locations_numbers_and_names():
    a = normalize("data race on GM tensor %scratch3[0:16, 0:8] in Group @gen_incore_0: a load at gen.mlir:3:5 x")
    assert a == "data race on GM tensor %scratch[..] in Group @f: a load x"
    b = normalize("data race on GM tensor %scratch2[0:8, 0:8] in Group @gen_incore_0: a load at gen.mlir:9:7 x")
    assert a == b


def _Res(ok, stage, report):
    return CheckResult(ok, stage, report)


def test_outcomes_are_classified():
    assert classify(_Res(True, "ok", "")) == ("checked", None)
    rej = classify(_Res(False, "pass", "the pipeline rejects the program:\ngen.mlir:3:5: error: odd split 17 rows"))
    assert rej == ("rejected", "odd split N rows")
    ice = classify(_Res(False, "pass", "gen.mlir:1:1: error: internal compiler error in the pipeline: KeyError: 3"))
    assert ice[0] == "failed" and ice[1].startswith("pass: internal compiler error")
    bad = classify(_Res(False, "pass", "gen.mlir:3:5: error: 'pto.full' op result valid region [?, 16] ...\n"
                                       f"gen.mlir:3:5: note: {invalid_output_note('lower-auto-vector-split')}"))
    assert bad[0] == "failed" and bad[1].startswith("pass: 'pto.full' op result valid region")
    cmp_ = classify(_Res(False, "compare", "mismatch after the pipeline: output %out3 differs at [0, 1]: ..."))
    assert cmp_ == ("failed", "compare: mismatch after the pipeline: output differs")


def test_reproducer_file_says_how_to_reproduce(tmp_path):
    p = save_reproducer(tmp_path, "after: data race", "// features: x\nbuiltin.module {\n}\n", "gen.mlir:1:1: error: x")
    text = p.read_text()
    assert p.name == "after-data-race.mlir"
    assert text.startswith("// campaign failure class: after: data race\n// reproduce: pypto-run --check-pipeline")


def test_campaign_command_line_runs_and_summarises(tmp_path, capsys):
    rc = main(["-n", "4", "-j", "1", "--chunk", "2", "--quiet", "--out", str(tmp_path), "--no-shrink"])
    out = capsys.readouterr().out
    assert out.startswith("campaign: 4 kernels in")
    assert rc in (0, 1) and (rc == 1) == ("(0 not of a known class)" not in out.splitlines()[0])
