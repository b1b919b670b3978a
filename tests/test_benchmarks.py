"""Smoke tests of the compile-time benchmark (`python -m benchmarks`): it runs and its output has the documented
structure.  No timing is asserted (the benchmark itself is run by hand; see docs/performance.md)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pypto_mlir.check_pipeline import check_pipeline_text
from pypto_mlir.ir import make_context, parse_module
from pypto_mlir.passes import get_pass
from pypto_mlir.pipeline import with_default_models
from pypto_mlir.verify import verify_module

ROOT = Path(__file__).resolve().parents[1]
PIPELINE = ["lower-auto-vector-split", "expand-mixed-kernel"]


def _load_benchmarks():
    """The repository's `benchmarks/` folder under a private name (xDSL installs a top-level `benchmarks` package,
    and ours is deliberately not installed; `python -m benchmarks` from the root picks ours)."""
    name = "pypto_benchmarks_under_test"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(
        name, ROOT / "benchmarks" / "__init__.py", submodule_search_locations=[str(ROOT / "benchmarks")]
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def _bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "benchmarks", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


@pytest.fixture(scope="module")
def gen():
    _load_benchmarks()
    return importlib.import_module("pypto_benchmarks_under_test.generate")


@pytest.fixture(scope="module")
def runner():
    _load_benchmarks()
    return importlib.import_module("pypto_benchmarks_under_test.run")


@pytest.mark.parametrize("target", ["a2a3", "a5"])
@pytest.mark.parametrize("shape", ["many", "long"])
def test_generated_modules_go_through_both_passes(gen, shape, target):
    ctx = make_context()
    module = parse_module(gen.generate(shape, 6, target), "gen.mlir", ctx)
    verify_module(module)
    for name in PIPELINE:
        with_default_models(get_pass(name)()).apply(ctx, module)
        verify_module(module)
    kinds = {f.attributes["pto.kind"].data for f in module.body.block.ops}
    assert {"aic", "aiv", "group"} <= kinds
    assert "incore" not in kinds


@pytest.mark.parametrize("shape", ["many", "long"])
def test_generated_modules_compute_the_same_after_the_passes(gen, shape):
    result = check_pipeline_text(gen.generate(shape, 4, "a2a3"), PIPELINE, name="gen.mlir")
    assert result.ok, result.report


@pytest.mark.parametrize("shape,period", [("many", 4), ("long", 12)])
def test_generated_size_grows_linearly(gen, shape, period):
    """Every period of functions (rounds) adds the same number of ops, so `n` is a linear size knob."""

    def ops(n: int) -> int:
        return sum(1 for _ in parse_module(gen.generate(shape, n), "gen.mlir").walk())

    a, b, c = ops(period), ops(2 * period), ops(3 * period)
    assert b - a == c - b > 0


def test_fit_exponent(runner):
    assert runner.fit_exponent([(10, 1.0), (100, 10.0), (1000, 100.0)]) == pytest.approx(1.0)
    assert runner.fit_exponent([(10, 1.0), (100, 100.0)]) == pytest.approx(2.0)
    assert runner.fit_exponent([(10, 1.0)]) is None


def test_smoke_json_structure():
    proc = _bench("--smoke", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    stages = ["parse", "verify", "print", "lavs", "emk", "both"]
    assert data["stages"] == stages
    rows = data["rows"]
    assert [(r["shape"], r["size"]) for r in rows] == [("many", 1), ("many", 2), ("long", 1), ("long", 2)]
    for r in rows:
        assert r["target"] == "a2a3" and r["ops"] > 0
        assert set(r["seconds"]) == set(stages)
        assert all(isinstance(t, float) and t > 0 for t in r["seconds"].values())
        assert r["base"] == pytest.approx(r["seconds"]["parse"] + r["seconds"]["print"])
        assert set(r["ratios"]) == {"lavs", "emk", "both"}
    assert {(f["shape"], f["stage"]) for f in data["fits"]} == {(s, st) for s in ("many", "long") for st in stages}
    assert all(isinstance(f["exponent"], float) for f in data["fits"])
    interp = data["interpreter"]
    assert interp["available"], interp
    for run in interp["targets"]["a2a3"]["runs"].values():
        assert run["ops_executed"] > 0 and run["ops_per_second"] > 0


def test_smoke_table(runner):
    proc = _bench("--smoke", "--no-interpreter", "--shapes", "long", "--stages", "parse,print,lavs")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "| shape | target | n | ops | parse s | print s | parse+print s | lavs s | lavs/pp |"
    assert sum(1 for line in lines if line.startswith("| long | a2a3 |")) == 3  # two sizes + one exponent row
    assert any(line.startswith("| shape | target | b(parse) | b(print) | b(lavs) |") for line in lines)


def test_cli_smoke_json_structure():
    """`python -m benchmarks.cli` (whole-process CPU ratios of the driver) runs and reports its four comparisons,
    and (the smoke run includes them) the two context rows of the pipeline target."""
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.cli", "--smoke", "--json", "--quiet"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["repeats"] == 1
    assert [r["what"] for r in data["rows"]] == [
        "startup pto.target module", "startup kernel", "parse many2", "pipeline many2", "pipeline vs xdsl-opt many2",
        "pipeline many2, no verify-each (context)", "output of many2 alone (context)",
    ]
    assert data["scaling"] is None  # one size
    assert data["rows"][4]["b_cmd"] == "xdsl-opt many2.mlir"
    for r in data["rows"]:
        assert r["a"] > 0 and r["b"] > 0 and r["ratio"] == pytest.approx(r["a"] / r["b"])
    # issue 44: startup is measured on real inputs (the pto dialect loaded) against xDSL's import of what they need
    assert data["rows"][0]["a_cmd"] == "pypto-opt target.mlir"
    assert data["rows"][1]["a_cmd"] == "pypto-opt loop_accumulate.a2a3.mlir"
    assert "func,arith,scf" in data["rows"][0]["b_cmd"]
    assert data["rows"][2]["a_cmd"].startswith("xdsl-opt ")


def test_cli_smoke_table():
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.cli", "--smoke", "--quiet"], cwd=ROOT, capture_output=True, text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[2] == "| measurement | command A | A s | command B | B s | A/B | target |"
    rows = [line.split(" | ") for line in lines[4:]]
    assert [r[0] for r in rows] == [
        "| startup pto.target module", "| startup kernel", "| parse many2", "| pipeline many2",
        "| pipeline vs xdsl-opt many2", "| pipeline many2, no verify-each (context)", "| output of many2 alone (context)",
    ]
    assert rows[4][-1].startswith("≤ 1.0")
    assert [r[-1] for r in rows[5:]] == ["— |", "— |"]  # context rows have no target


def test_bad_sizes_are_rejected():
    proc = _bench("--sizes", "0,x")
    assert proc.returncode == 2
    assert "--sizes" in proc.stderr


def test_tables_rebuilt_from_logs_and_json(runner, tmp_path):
    """`--from-log` reads the progress lines of a run (finished or not); `--from-json` merges `--json` outputs."""
    log = tmp_path / "run.err"
    log.write_text(
        "  long  a2a3  n=50    ops=663     parse     1.0000 s\n"
        "  long  a2a3  n=50    ops=663     print     0.5000 s\n"
        "  long  a2a3  n=50    ops=663     lavs      0.3000 s\n"
        "  long  a2a3  n=500   ops=6630    parse    10.0000 s\n"
        "  long  a2a3  n=500   ops=6630    print     5.0000 s\n"
        "  long  a2a3  n=500   ops=6630    lavs      3.0000 s\n"
        "some other line\n"
    )
    rows, fits = runner.load_logs([str(log)])
    assert [(r.size, r.ops, r.ratio("lavs")) for r in rows] == [(50, 663, pytest.approx(0.2)), (500, 6630, pytest.approx(0.2))]
    by_stage = {f.stage: f.exponent for f in fits}
    assert by_stage["lavs"] == pytest.approx(1.0) and set(by_stage) == {"parse", "print", "lavs"}
    data = {
        "stages": ["parse", "print", "lavs"],
        "rows": [dict(shape=r.shape, target=r.target, size=r.size, ops=r.ops, seconds=r.seconds, skipped={}) for r in rows],
        "fits": [dict(shape=f.shape, target=f.target, stage=f.stage, exponent=f.exponent, points=f.points) for f in fits],
        "interpreter": None,
    }
    path = tmp_path / "run.json"
    path.write_text(json.dumps(data))
    rows2, fits2, interp, stages = runner.load_results([str(path)])
    assert [(r.size, r.seconds) for r in rows2] == [(r.size, r.seconds) for r in rows]
    assert stages == ["parse", "print", "lavs"] and interp is None
    table = runner.format_table(rows2, fits2, interp, stages)
    assert "| long | a2a3 | 500 | 6630 | 10.0000 | 5.0000 | 15.0000 | 3.0000 | 0.20 |" in table


def test_cli_scaling_is_the_pipeline_vs_xdsl_ratio_at_the_largest_over_the_smallest():
    # run from the project root: a `benchmarks` package of another distribution may sit in site-packages
    code = """
from benchmarks.cli import format_table, scaling
rows = [
    {"what": "pipeline vs xdsl-opt many50", "a_cmd": "a", "b_cmd": "b", "a": 1.0, "b": 2.0, "ratio": 0.5},
    {"what": "pipeline vs xdsl-opt many500", "a_cmd": "a", "b_cmd": "b", "a": 6.0, "b": 10.0, "ratio": 0.6},
]
s = scaling(rows)
print(s["small"], s["large"], round(s["ratio"], 6))
print(format_table(rows, 1).splitlines()[-1])
"""
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "many50 many500 1.2",
        "scaling: pipeline vs xdsl-opt at many500 / at many50 = 1.20 (target ≤ 1.0 !)",
    ]
