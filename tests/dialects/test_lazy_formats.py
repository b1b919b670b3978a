"""The `pto` ops' assembly formats are read on first use (dialects/pto_lazy_format.py, issue 44): every format of
the dialect still reads without error (as xDSL would have checked at import), a lazily defined op parses and
prints as an eagerly defined one, and xDSL's reader is left as it was outside the dialect's import."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, IntegerType
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def
from xdsl.irdl.declarative_assembly_format import FormatProgram
from xdsl.parser import Parser

from pypto_mlir.dialects import ALL_PTO_OPS
from pypto_mlir.dialects.pto_lazy_format import LazyFormatProgram, lazy_assembly_formats, read_all
from pypto_mlir.ir import print_module


def test_every_format_of_the_dialect_reads():
    with_format = [op for op in ALL_PTO_OPS if op.get_irdl_definition().assembly_format is not None]
    assert len(with_format) > 50
    assert read_all(ALL_PTO_OPS) == len(with_format)


def _define(lazy: bool):
    def make():
        @irdl_op_definition
        class Neg(IRDLOperation):
            name = "t.neg"
            x = operand_def(IntegerType)
            y = result_def(IntegerType)
            assembly_format = "$x attr-dict `:` type($x) `->` type($y)"

        return Neg

    if not lazy:
        return make()
    with lazy_assembly_formats():
        return make()


def _round_trip(op_class) -> str:
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_op(op_class)
    text = '"builtin.module"() ({\n^bb(%a : i32):\n  %b = t.neg %a : i32 -> i32\n}) : () -> ()'
    return print_module(Parser(ctx, text).parse_module())


def test_a_lazy_format_is_read_on_first_use_and_behaves_as_the_eager_one():
    lazy, eager = _define(lazy=True), _define(lazy=False)
    program = lazy.parse.__func__.__closure__  # xDSL's parse_with_format closes over the program
    held = [c.cell_contents for c in program if isinstance(c.cell_contents, LazyFormatProgram)]
    assert len(held) == 1 and held[0]._program is None  # not read at definition
    assert _round_trip(lazy) == _round_trip(eager)
    assert isinstance(held[0]._program, FormatProgram)  # read once, kept


def test_xdsl_reader_is_restored_outside_the_dialect_import():
    assert not isinstance(FormatProgram.from_str("$x attr-dict `:` type($x) `->` type($y)",
                                                 _define(lazy=False).get_irdl_definition()), LazyFormatProgram)
