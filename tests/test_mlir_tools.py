"""Tests of the upstream-MLIR helpers that do not need the optional `mlir` extra (they always run):
locating `mlir-opt`, the outline comparison the lit tests use, the `#loc` aliases of upstream-printed IR,
and the message `pypto_mlir.mlir_bridge` gives when the bindings are missing."""

from __future__ import annotations

import importlib
import os
import stat
import sys
from pathlib import Path

import pytest

from pypto_mlir import PtoError, parse_module
from pypto_mlir.mlir_tools import find_mlir_opt, main, outline_difference, pto_outline
from pypto_mlir.tools.pypto_opt import main as pypto_opt_main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.mlir"))

KERNEL = """
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%a: !pto.tile<16x128xf32, vec>, %b: !pto.tile<16x128xf32, vec>) -> !pto.tile<16x128xf32, vec>
      attributes {pto.kind = #pto.kind<aiv>} {
    %two = arith.constant 2.0 : f32
    %s = pto.add %a, %b : !pto.tile<16x128xf32, vec>
    %m = pto.muls %s, %two : !pto.tile<16x128xf32, vec>, f32
    %e = pto.exp %m : !pto.tile<16x128xf32, vec>
    func.return %e : !pto.tile<16x128xf32, vec>
  }
}
"""


def outline(text: str):
    return pto_outline(parse_module(text))


# -- find_mlir_opt ------------------------------------------------------------------------------------------------


def test_mlir_opt_env_override(tmp_path, monkeypatch):
    fake = tmp_path / "mlir-opt"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("MLIR_OPT", str(fake))
    assert find_mlir_opt() == str(fake)


def test_mlir_opt_env_ignored_when_not_executable(tmp_path, monkeypatch):
    monkeypatch.setenv("MLIR_OPT", str(tmp_path / "missing"))
    found = find_mlir_opt()
    assert found != str(tmp_path / "missing")
    assert found is None or os.access(found, os.X_OK)


def test_print_mlir_opt_path(tmp_path, monkeypatch, capsys):
    fake = tmp_path / "mlir-opt"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("MLIR_OPT", str(fake))
    assert pypto_opt_main(["--print-mlir-opt-path"]) == 0
    assert capsys.readouterr().out.strip() == str(fake)
    assert main(["mlir-opt-path"]) == 0
    assert capsys.readouterr().out.strip() == str(fake)


# -- outlines -----------------------------------------------------------------------------------------------------


def test_outline_ignores_names_constants_and_attribute_order():
    renamed = (
        KERNEL.replace("%s", "%0").replace("%m", "%1").replace("%e", "%2").replace("%two", "%cst")
        .replace("%a", "%arg0").replace("%b", "%arg1")
    )
    hoisted = renamed.replace("    %cst = arith.constant 2.0 : f32\n", "").replace(
        "attributes {pto.kind = #pto.kind<aiv>} {\n", "attributes {pto.kind = #pto.kind<aiv>} {\n    %cst = arith.constant 2.0 : f32\n"
    )
    assert outline_difference(outline(KERNEL), outline(hoisted)) is None


@pytest.mark.parametrize(
    "change, expected",
    [
        (("pto.exp %m", "pto.relu %m"), "pto op #2 differs"),
        (("pto.add %a, %b", "pto.add %b, %a"), "pto op #0 differs"),  # same types, other operands
        (("%e = pto.exp %m", "%e = pto.exp %s"), "pto op #2 differs"),  # a different producer
        (("#pto.kind<aiv>", "#pto.kind<aic>"), "attributes differ"),
        (("#pto.target<a2a3>", "#pto.target<a5>"), "module attributes differ"),
        (("func.func @k(", "func.func @k2("), "functions differ"),
    ],
)
def test_outline_difference_finds_changes(change, expected):
    other = KERNEL.replace(*change)
    assert other != KERNEL
    diff = outline_difference(outline(KERNEL), outline(other))
    assert diff is not None and expected in diff


def test_outline_difference_finds_a_missing_op():
    other = KERNEL.replace("    %e = pto.exp %m : !pto.tile<16x128xf32, vec>\n", "").replace("return %e", "return %m")
    diff = outline_difference(outline(KERNEL), outline(other))
    assert diff is not None and "3 pto ops vs 2" in diff


def test_same_pto_ops_cli(tmp_path, capsys):
    a = tmp_path / "a.mlir"
    b = tmp_path / "b.mlir"
    a.write_text(KERNEL)
    b.write_text(KERNEL.replace("%s", "%sum"))
    assert main(["same-pto-ops", str(a), str(b)]) == 0
    assert "1 functions, 3 pto ops" in capsys.readouterr().out
    b.write_text(KERNEL.replace("pto.exp %m", "pto.relu %m"))
    assert main(["same-pto-ops", str(a), str(b)]) == 1
    assert "pto op #2 differs" in capsys.readouterr().err
    b.write_text(KERNEL.replace("16x128xf32, vec>, f32", "16x64xf32, vec>, f32"))
    assert main(["same-pto-ops", str(a), str(b)]) == 1  # does not verify: a located error, no traceback
    assert f"{b}:" in capsys.readouterr().err
    assert main(["bogus"]) == 2


# -- upstream-printed IR ------------------------------------------------------------------------------------------


def test_loc_aliases_after_the_module_are_resolved():
    text = """#loc2 = loc(unknown)
module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%arg0: !pto.tile<16x128xf32, vec> loc(unknown)) -> !pto.tile<16x128xf32, vec> attributes {pto.kind = #pto.kind<aiv>} {
    %0 = "pto.exp"(%arg0) : (!pto.tile<16x128xf32, vec>) -> !pto.tile<16x128xf32, vec> loc(#loc3)
    return %0 : !pto.tile<16x128xf32, vec> loc(#loc4)
  } loc(#loc1)
} loc(#loc)
#loc = loc("k.py":1:1)
#loc1 = loc("k.py":2:1)
#loc3 = loc("k.py":5:9)
#loc4 = loc(fused[#loc3, #loc1])
"""
    m = parse_module(text, "upstream.mlir")
    exp = next(op for op in m.walk() if op.name == "pto.exp")
    assert str(exp.location) == 'loc("k.py":5:9)'
    ret = next(op for op in m.walk() if op.name == "func.return")
    assert "fused" in str(ret.location)


def test_undefined_loc_alias_is_a_located_error():
    text = 'builtin.module {\n  func.func @f() {\n    func.return loc(#nowhere)\n  }\n}\n'
    with pytest.raises(PtoError) as e:
        parse_module(text, "f.mlir")
    assert e.value.loc is not None and e.value.loc.line == 3


# -- the bridge without the extra ----------------------------------------------------------------------------------


def test_bridge_import_without_bindings_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "mlir", None)  # makes `import mlir` fail, as without the extra
    monkeypatch.delitem(sys.modules, "pypto_mlir.mlir_bridge", raising=False)
    with pytest.raises(ImportError, match=r"pip install 'pypto-mlir\[mlir\]'"):
        importlib.import_module("pypto_mlir.mlir_bridge")
    monkeypatch.delitem(sys.modules, "pypto_mlir.mlir_bridge", raising=False)


def test_the_project_does_not_import_mlir_outside_the_bridge():
    """Only `mlir_bridge` imports the upstream bindings at module level (`mlir_tools.have_mlir_bindings` tries
    one guarded import), so importing anything else works without the extra."""
    for folder in ("python", "passes", "dialects", "tools"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name == "mlir_bridge.py":
                continue
            for line in path.read_text(encoding="utf-8").splitlines():
                assert not line.startswith(("import mlir", "from mlir ", "from mlir.")), f"{path}: {line}"


def test_same_pto_ops_cli_runs_passes_on_the_first_and_reads_stdin(tmp_path, monkeypatch, capsys):
    import io

    from pypto_mlir.ir import make_context, print_module
    from pypto_mlir.passes import get_pass
    from pypto_mlir.pipeline import with_default_models

    src = ROOT / "examples" / "seed_example1.a2a3.mlir"
    expanded = parse_module(src.read_text(encoding="utf-8"), str(src))
    with_default_models(get_pass("expand-mixed-kernel")()).apply(make_context(), expanded)
    monkeypatch.setattr(sys, "stdin", io.StringIO(print_module(expanded, generic=True)))
    assert main(["same-pto-ops", "--passes", "expand-mixed-kernel", str(src), "-"]) == 0
    assert "4 functions" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO(print_module(expanded, generic=True)))
    assert main(["same-pto-ops", str(src), "-"]) == 1  # without the passes they differ
    assert "functions differ" in capsys.readouterr().err
    assert main(["same-pto-ops", "--passes", "canonicalize", str(src), "-"]) == 2
    assert "unknown pass 'canonicalize'" in capsys.readouterr().err
