"""The mlir-opt flags of issue 44 at the unit level (lit_tests/dialect/driver_mlir_opt_flags_more.mlir shows them
end to end): the "did you mean" of an unknown flag, and --emit-bytecode's plumbing, run against a stand-in for
upstream MLIR's bindings (the real ones are the optional `mlir` extra)."""

from __future__ import annotations

import sys
import types

import pytest

from pypto_mlir.tools.opt_flags import unknown_flag_message
from pypto_mlir.tools.pypto_opt import main

GOOD = """builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @main() attributes {pto.kind = #pto.kind<orchestration>} {
    func.return
  }
}
"""


@pytest.mark.parametrize(
    "arg, expected",
    [
        ("--mlir-print-ir-afer-all", "; did you mean '--mlir-print-ir-after-all'?"),
        ("--split-input", "; did you mean '--split-input-file'?"),
        ("--verify-eahc=0", "; did you mean '--verify-each=0'?"),  # the value is kept
        ("--frobnicate", ""),  # nothing close: no suggestion
    ],
)
def test_unknown_flag_suggestion(arg, expected):
    known = ["--mlir-print-ir-after-all", "--split-input-file", "--verify-each", "--expand-mixed-kernel"]
    assert unknown_flag_message(arg, known) == f"unknown command line argument '{arg}'{expected}"


class _FakeBindings:
    """The part of `mlir.ir` that --emit-bytecode uses; the "bytecode" is the magic number and the text read."""

    class MLIRError(Exception):
        pass

    class Context:
        allow_unregistered_dialects = False

    class Module:
        @staticmethod
        def parse(text, ctx):
            assert ctx.allow_unregistered_dialects  # the pto ops are unregistered upstream
            m = types.SimpleNamespace(operation=types.SimpleNamespace())
            m.operation.write_bytecode = lambda f: f.write(b"ML\xefR" + text.encode())
            return m


@pytest.fixture
def fake_mlir(monkeypatch):
    pkg = types.ModuleType("mlir")
    ir = types.ModuleType("mlir.ir")
    for name in ("MLIRError", "Context", "Module"):
        setattr(ir, name, getattr(_FakeBindings, name))
    pkg.ir = ir  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "mlir", pkg)
    monkeypatch.setitem(sys.modules, "mlir.ir", ir)


def test_emit_bytecode_writes_the_generic_form_with_locations_through_the_bindings(tmp_path, fake_mlir):
    src, out = tmp_path / "in.mlir", tmp_path / "out.mlirbc"
    src.write_text(GOOD)
    assert main([str(src), "--emit-bytecode", "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data.startswith(b"ML\xefR")
    text = data[4:].decode()
    assert '"func.func"' in text and "loc(" in text  # generic form, locations kept


def test_emit_bytecode_without_the_extra_says_how_to_get_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "mlir", None)  # import mlir fails
    src = tmp_path / "in.mlir"
    src.write_text(GOOD)
    assert main([str(src), "--emit-bytecode"]) == 1
    err = capsys.readouterr().err
    assert "--emit-bytecode writes MLIR bytecode" in err and "pip install 'pypto-mlir[mlir]'" in err
