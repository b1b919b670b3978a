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
def test_xdsl_opt_treats_our_pass_errors_as_its_own_verifier_errors_without_verify_diagnostics():
    """Without --verify-diagnostics, xdsl-opt re-raises every DiagnosticException, its own verifier errors
    included: exit 1, a traceback ending in `<class>: <message>`. A pypto pass error behaves exactly so (it is
    not a crash of ours, nor printed differently); docs/using-from-mlir.md says so."""
    from xdsl.utils.exceptions import DiagnosticException, VerifyException

    from pypto_mlir.diagnostics import PtoError

    assert issubclass(PtoError, DiagnosticException) and issubclass(VerifyException, DiagnosticException)
    bad_return = "func.func @f() -> i32 {\n  %a = arith.constant 1 : i64\n  func.return %a : i64\n}\n"
    no_target = MODULE.replace(" attributes {pto.target = #pto.target<a5>}", "")
    own = ((), bad_return, "VerifyException", "Expected arguments to have the same types as the function output types")
    ours = (("-p", "lower-auto-vector-split,expand-mixed-kernel"), no_target, "PtoError",
            "ExpandMixedKernel depends on the backend, but the module has no 'pto.target' attribute")
    for args, stdin, cls, msg in (own, ours):
        r = xdsl_opt(*args, stdin=stdin)
        assert r.returncode == 1, r.stderr
        assert r.stdout == ""
        assert r.stderr.startswith("Traceback (most recent call last):"), r.stderr[:500]
        last = [line for line in r.stderr.splitlines() if line.startswith(("xdsl.", "pypto_mlir."))][-1]
        assert last.split(": ", 1)[0].endswith("." + cls) and msg in last, last
        # With --verify-diagnostics both are printed as messages on stdout, exit 0 (xdsl-opt's own convention).
        r = xdsl_opt(*args, "--verify-diagnostics", stdin=stdin)
        assert r.returncode == 0 and msg in r.stdout, r.stderr
        assert "Traceback" not in r.stdout + r.stderr
