"""The `pto` ops' assembly formats are read on first use (dialects/pto_lazy_format.py, issue 44): every format of
the dialect still reads without error (as xDSL would have checked at import), a lazily defined op parses and
prints as an eagerly defined one, and the ops of other dialects are read by xDSL as before."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, IntegerType
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def
from xdsl.irdl.declarative_assembly_format import FormatProgram
from xdsl.parser import Parser

from pypto_mlir.dialects import ALL_PTO_OPS
from pypto_mlir.dialects.pto_lazy_format import LazyFormatProgram, read_all
from pypto_mlir.ir import print_module


def test_every_format_of_the_dialect_reads():
    with_format = [op for op in ALL_PTO_OPS if op.get_irdl_definition().assembly_format is not None]
    assert len(with_format) > 50
    assert read_all(ALL_PTO_OPS) == len(with_format)


def _op(name: str):
    ns = {"name": name, "x": operand_def(IntegerType), "y": result_def(IntegerType),
          "assembly_format": "$x attr-dict `:` type($x) `->` type($y)"}
    return irdl_op_definition(type("Neg", (IRDLOperation,), ns))


def _program(op_class):
    cells = op_class.parse.__func__.__closure__  # xDSL's parse_with_format closes over the program
    (program,) = [c.cell_contents for c in cells if isinstance(c.cell_contents, (FormatProgram, LazyFormatProgram))]
    return program


def _round_trip(op_class) -> str:
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_op(op_class)
    text = '"builtin.module"() ({\n^bb(%a : i32):\n  %b = ' + op_class.name + ' %a : i32 -> i32\n}) : () -> ()'
    return print_module(Parser(ctx, text).parse_module())


def test_a_pto_format_is_read_on_first_use_and_behaves_as_an_eager_one():
    lazy, eager = _op("pto.test_neg"), _op("other.test_neg")
    program = _program(lazy)
    assert isinstance(program, LazyFormatProgram) and program._program is None  # not read at definition
    assert isinstance(_program(eager), FormatProgram)  # another dialect's op: read by xDSL as before
    assert _round_trip(lazy).replace("pto.test_neg", "X") == _round_trip(eager).replace("other.test_neg", "X")
    assert isinstance(program._program, FormatProgram)  # read once, kept
