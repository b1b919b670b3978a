"""The `xdsl.universe` entry point: an installed pypto-mlir makes `xdsl-opt` know the pto dialect and passes."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from pypto_mlir.passes import PASSES
from pypto_mlir.universe import PYPTO_UNIVERSE

ROOT = Path(__file__).resolve().parents[1]
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
