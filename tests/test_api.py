"""The public Python API: parse_module / print_module, verify_module, PtoError and its formatting,
location_of, make_context."""

from __future__ import annotations

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, NameLoc, StringAttr, UnknownLoc

import pypto_mlir
from pypto_mlir import PtoError, SourceLoc, make_context, parse_module, print_module, verify_module
from pypto_mlir.diagnostics import error, location_of
from pypto_mlir.verify import function_kind, module_target

KERNEL = """builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @k(%t: !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<incore>} {
    %a = pto.load %t[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %e = pto.exp %a : !pto.tile<16x128xf32, vec>
    %o = pto.store %e, %t[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %o : !pto.tensor<16x128xf32>
  }
}
"""


def test_public_names():
    assert set(pypto_mlir.__all__) >= {"PtoError", "SourceLoc", "make_context", "parse_module", "print_module",
                                       "verify_module"}
    assert pypto_mlir.__version__


def test_parse_print_round_trip():
    m = parse_module(KERNEL, "k.mlir")
    assert isinstance(m, ModuleOp)
    assert print_module(m) == KERNEL
    verify_module(m)
    assert module_target(m) == "a5"
    f = next(op for op in m.ops if isinstance(op, func.FuncOp))
    assert function_kind(f) == "incore"


def test_generic_print_reparses_to_the_same_module():
    m = parse_module(KERNEL)
    generic = print_module(m, generic=True)
    assert '"pto.exp"(%a)' in generic
    assert print_module(parse_module(generic)) == KERNEL


def test_every_op_gets_a_file_line_col_location():
    m = parse_module(KERNEL, "k.mlir")
    assert location_of(m) == SourceLoc("k.mlir", 1, 1)
    locs = {op.name: location_of(op) for op in m.walk()}
    assert locs["func.func"] == SourceLoc("k.mlir", 2, 3)
    assert locs["pto.load"] == SourceLoc("k.mlir", 3, 5)
    assert locs["pto.exp"] == SourceLoc("k.mlir", 4, 5)
    assert str(locs["pto.store"]) == "k.mlir:5:5"


def test_debuginfo_prints_locations():
    text = print_module(parse_module(KERNEL, "k.mlir"), debuginfo=True)
    assert 'loc("k.mlir":4:5)' in text


def test_line_offset_shifts_locations():
    m = parse_module(KERNEL, "k.mlir", line_offset=10)
    assert location_of(next(op for op in m.walk() if op.name == "pto.exp")) == SourceLoc("k.mlir", 14, 5)


def test_location_of_falls_back_to_the_nearest_located_ancestor():
    m = parse_module(KERNEL, "k.mlir")
    exp = next(op for op in m.walk() if op.name == "pto.exp")
    exp.location = UnknownLoc()
    assert location_of(exp) == SourceLoc("k.mlir", 2, 3)  # the enclosing func.func
    exp.location = NameLoc(StringAttr("x"), FileLineColLoc(StringAttr("n.mlir"), IntAttr(7), IntAttr(2)))
    assert location_of(exp) == SourceLoc("n.mlir", 7, 2)
    assert location_of(None) is None


def test_parse_errors_are_located_pto_errors():
    with pytest.raises(PtoError) as e:
        parse_module(KERNEL.replace("16x128xf32, vec>\n    %e", "16x128xf32, ub>\n    %e"), "k.mlir")
    assert e.value.loc == SourceLoc("k.mlir", 3, 79)
    assert e.value.format().startswith("k.mlir:3:79: error: unknown memory space 'ub'")


def test_verify_errors_name_the_op():
    m = parse_module(KERNEL.replace("%e = pto.exp %a : !pto.tile<16x128xf32, vec>",
                                    "%e = pto.exp %a : !pto.tile<16x128xf32, vec>\n    %x = pto.cast %a : "
                                    "!pto.tile<16x128xf32, vec> -> !pto.tile<16x64xf16, vec>"), "k.mlir")
    with pytest.raises(PtoError) as e:
        verify_module(m)
    assert e.value.op is not None and e.value.op.name == "pto.cast"
    assert e.value.format() == "k.mlir:5:5: error: 'pto.cast' op cast cannot change the shape"


def test_pto_error_formatting():
    plain = PtoError("something is wrong")
    assert plain.loc is None
    assert plain.format() == "<unknown>: error: something is wrong"
    assert plain.format(fallback="in.mlir") == "in.mlir: error: something is wrong"
    assert str(plain) == "something is wrong"
    noted = PtoError("bad", loc=SourceLoc("a.mlir", 3, 4), severity="warning",
                     notes=[(SourceLoc("a.mlir", 1, 1), "defined here"), (None, "see above")])
    assert noted.format() == "a.mlir:3:4: warning: bad\na.mlir:1:1: note: defined here\na.mlir:3:4: note: see above"
    # A located error prints located (what xdsl-opt shows for a DiagnosticException).
    assert str(noted) == noted.format()
    from xdsl.utils.exceptions import DiagnosticException

    assert isinstance(noted, DiagnosticException)


def test_error_helper_locates_at_the_op():
    m = parse_module(KERNEL, "k.mlir")
    exp = next(op for op in m.walk() if op.name == "pto.exp")
    err = error(exp, "no")
    assert isinstance(err, PtoError) and err.op is exp and err.loc == SourceLoc("k.mlir", 4, 5)


def test_unregistered_ops_need_the_context_flag():
    text = 'func.func @f() {\n  "my.op"() : () -> ()\n  func.return\n}\n'
    with pytest.raises(PtoError, match="unknown operation 'my.op'"):
        parse_module(text)
    m = parse_module(text, ctx=make_context(allow_unregistered=True))
    assert '"my.op"() : () -> ()' in print_module(m)


def test_context_knows_the_dialects_pto_programs_use():
    ctx = make_context()
    for name in ("builtin", "func", "arith", "scf", "pto"):
        assert name in ctx.registered_dialect_names
