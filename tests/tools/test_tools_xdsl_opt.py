"""The `xdsl.universe` entry point: an installed pypto-mlir makes `xdsl-opt` know the pto dialect and passes."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from pypto_mlir.passes import PASSES
from pypto_mlir.universe import PYPTO_UNIVERSE

ROOT = Path(__file__).resolve().parents[2]
XDSL_OPT = Path(sys.executable).with_name("xdsl-opt")
MODULE = """builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @main(%t: !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %a = pto.load %t[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec, pad = zero>
    %o = pto.store %a, %t[0, 0] : !pto.tile<16x128xf32, vec, pad = zero>, !pto.tensor<16x128xf32>
    func.return %o : !pto.tensor<16x128xf32>
  }
}
"""


def test_entry_point_is_registered():
    eps = {ep.name: ep for ep in entry_points(group="xdsl.universe")}
    assert "pypto_mlir" in eps
    assert eps["pypto_mlir"].load() is PYPTO_UNIVERSE


def test_universe_lists_the_dialect_and_every_pass():
    assert set(PYPTO_UNIVERSE.all_dialects) == {"pto"}
    assert PYPTO_UNIVERSE.all_dialects["pto"]().name == "pto"
    assert set(PYPTO_UNIVERSE.all_passes) == set(PASSES)
    for name, load in PYPTO_UNIVERSE.all_passes.items():
        assert load().name == name


needs_xdsl_opt = pytest.mark.skipif(not XDSL_OPT.exists(), reason="xdsl-opt is not installed next to this Python")


def xdsl_opt(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(XDSL_OPT), *args], input=stdin, capture_output=True, text=True, timeout=300)


@needs_xdsl_opt
def test_xdsl_opt_help_lists_the_passes():
    r = xdsl_opt("--help")
    assert r.returncode == 0
    flat = "".join(r.stdout.split())  # argparse wraps the pass list
    for name in ("lower-auto-vector-split", "expand-mixed-kernel", "verify-mixed-kernel-expanded"):
        assert name in flat


@needs_xdsl_opt
def test_xdsl_opt_parses_and_prints_a_pto_module():
    r = xdsl_opt(stdin=MODULE)
    assert r.returncode == 0, r.stderr
    assert r.stdout.rstrip("\n") == MODULE.rstrip("\n")


@needs_xdsl_opt
def test_xdsl_opt_runs_a_pypto_pass():
    r = xdsl_opt("-p", "verify-mixed-kernel-expanded", stdin=MODULE)
    assert r.returncode == 0, r.stderr
    assert r.stdout.rstrip("\n") == MODULE.rstrip("\n")


@needs_xdsl_opt
def test_xdsl_opt_reports_pto_type_errors():
    r = xdsl_opt(stdin=MODULE.replace("vec, pad = zero>\n    %o", "l0c>\n    %o"))
    assert r.returncode != 0
    assert "unknown memory space 'l0c'" in r.stdout + r.stderr


@needs_xdsl_opt
def test_xdsl_opt_reports_our_pass_errors_as_diagnostics():
    """PtoError is an xDSL DiagnosticException: under --verify-diagnostics xdsl-opt prints the message, as for
    its own verifier errors, instead of a Python traceback."""
    no_target = MODULE.replace(" attributes {pto.target = #pto.target<a5>}", "")
    r = xdsl_opt("-p", "expand-mixed-kernel", "--verify-diagnostics", stdin=no_target)
    assert r.returncode == 0, r.stderr
    assert "ExpandMixedKernel depends on the backend, but the module has no 'pto.target' attribute" in r.stdout
    assert "Traceback" not in r.stdout + r.stderr


@needs_xdsl_opt
def test_xdsl_opt_prints_our_pass_errors_located_without_a_traceback(tmp_path):
    """Without --verify-diagnostics xdsl-opt re-raises every DiagnosticException; its own verifier errors end in a
    traceback, ours print as pypto-opt prints them (`xdsl_host.install_uncaught_error_hook`): located through the
    input file (xdsl-opt's parser records no locations), exit 1, no traceback."""
    bad_return = "func.func @f() -> i32 {\n  %a = arith.constant 1 : i64\n  func.return %a : i64\n}\n"
    r = xdsl_opt(stdin=bad_return)
    assert r.returncode == 1 and r.stderr.startswith("Traceback (most recent call last):"), r.stderr[:500]

    no_target = MODULE.replace(" attributes {pto.target = #pto.target<a5>}", "")
    r = xdsl_opt("-p", "lower-auto-vector-split,expand-mixed-kernel", stdin=no_target)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr == (
        "<stdin>: error: ExpandMixedKernel depends on the backend, but the module has no 'pto.target' attribute; "
        "add `attributes {pto.target = #pto.target<a2a3>}` (or <a5>) to the builtin.module\n"
    )

    # A transpose of the split axis, from a file: the error is at the transpose's line and column.
    src = ROOT / "lit_tests" / "expand_mixed_kernel" / "transpose_hazard.mlir"
    path = tmp_path / "k.mlir"
    path.write_text(src.read_text().split("// -----")[0])
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if "%pre_t = pto.transpose" in t)
    r = xdsl_opt("-p", "expand-mixed-kernel", str(path))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"{path}:{line}:5: error: ExpandMixedKernel: kernel 'k' requests pto.split<up_down>")


@needs_xdsl_opt
def test_passes_run_by_xdsl_opt_verify_their_input():
    """xdsl-opt runs only xDSL's verifier; the pass checks the rest itself (`verify.ensure_verified`), so input
    that breaks a pto rule is the located verifier error, not a crash inside the pass."""
    path = ROOT / "lit_tests" / "lower_auto_vector_split" / "scf_yield_errors.mlir"
    r = xdsl_opt("-p", "lower-auto-vector-split", "--split-input-file", str(path))
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr[-800:]
    assert ": error: 'scf.if' op must end its then region with an scf.yield of its result types" in r.stderr


def test_the_hook_leaves_other_exceptions_and_unmatched_ops_alone(tmp_path, monkeypatch, capsys):
    import sys

    from pypto_mlir.diagnostics import PtoError
    from pypto_mlir.ir import parse_module
    from pypto_mlir.xdsl_host import input_path, install_uncaught_error_hook, relocate

    assert input_path(["xdsl-opt", "-p", str(tmp_path), "-o", str(tmp_path / "x")]) is None  # option values
    path = tmp_path / "in.mlir"
    path.write_text(MODULE)
    assert input_path(["xdsl-opt", "-p", "expand-mixed-kernel", str(path)]) == str(path)

    # the op is found again by function, op name, occurrence and result names; a renamed result is not the op
    module = parse_module(MODULE.replace("%o", "%renamed"), "elsewhere.mlir")
    store = next(o for o in module.walk() if o.name == "pto.store")
    assert relocate(PtoError("x", op=store), str(path)) is None
    module = parse_module(MODULE, "elsewhere.mlir")
    store = next(o for o in module.walk() if o.name == "pto.store")
    loc = relocate(PtoError("x", op=store), str(path))
    assert (loc.file, loc.line, loc.col) == (str(path), 4, 5)

    seen = []
    monkeypatch.setattr(sys, "excepthook", lambda *a: seen.append(a[0]))
    install_uncaught_error_hook()
    install_uncaught_error_hook()  # twice: one hook
    sys.excepthook(ValueError, ValueError("boom"), None)
    assert seen == [ValueError]
    sys.excepthook(PtoError, PtoError("bad", loc=loc), None)
    assert seen == [ValueError]
    assert capsys.readouterr().err == f"{path}:4:5: error: bad\n"


REFUSED = """builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%qk: !pto.tile<16x32xf32, acc>, %out: !pto.tensor<16x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : i32
    %g = pto.random %c0 : i32 -> !pto.tile<16x32xf32, vec>
    %v = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %s = pto.add %v, %g : !pto.tile<16x32xf32, vec>
    %o = pto.store %s, %out[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>
    func.return
  }
}
"""


@needs_xdsl_opt
def test_xdsl_opt_locates_a_pass_remark_in_the_input_file(tmp_path):
    """xdsl-opt parses without locations: the fallback remark is located by reading the input again (as an
    uncaught error is); from standard input it carries the input's name."""
    path = tmp_path / "k.mlir"
    path.write_text(REFUSED)
    r = xdsl_opt("-p", "lower-auto-vector-split{fallback=unsplit}", str(path))
    assert r.returncode == 0, r.stderr
    assert r.stderr.startswith(f"{path}:5:5: remark: LowerAutoVectorSplit: kernel 'k' is compiled unsplit"), r.stderr
    assert "pto.split = #pto.split<none>" in r.stdout
    r = xdsl_opt("-p", "lower-auto-vector-split{fallback=unsplit}", stdin=REFUSED)
    assert r.returncode == 0 and r.stderr.startswith("<stdin>: remark: LowerAutoVectorSplit: kernel 'k'"), r.stderr
