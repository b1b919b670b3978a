"""Parser and verifier robustness (issue 14): inputs that used to hang or escape as exceptions."""

from __future__ import annotations

import time

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.irdl import IRDLOperation, irdl_op_definition
from xdsl.utils.exceptions import VerifyException

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.ir import parse_module
from pypto_mlir.verify import verify_module


@pytest.mark.parametrize("n", [40, 400, 4000])
def test_unterminated_string_is_linear(n):
    """xDSL's string-literal pattern backtracks exponentially on an unterminated literal; ours fails at once.
    Before the fix n = 10 already took more than a minute."""
    text = 'builtin.module attributes {note = "' + "a {" * n + "\n"
    start = time.perf_counter()
    with pytest.raises(PtoError, match="End of file reached before closing string literal"):
        parse_module(text, "hang.mlir")
    assert time.perf_counter() - start < 2.0


def test_unterminated_string_as_first_token():
    """The first token is lexed while the parser is built: it must not hang nor escape either."""
    start = time.perf_counter()
    with pytest.raises(PtoError) as e:
        parse_module('"' + "x {" * 2000, "first.mlir")
    assert e.value.loc is not None and (e.value.loc.line, e.value.loc.col) == (1, 1)
    assert time.perf_counter() - start < 2.0


def test_input_size_scaling_is_linear():
    """Doubling a valid input (many ops) roughly doubles the parse time: no quadratic path in our parser."""

    def cost(n: int) -> float:
        body = "".join(f"    %c{i} = arith.constant {i} : i32\n" for i in range(n))
        text = f"func.func @f() {{\n{body}    func.return\n}}\n"
        start = time.perf_counter()
        verify_module(parse_module(text))
        return time.perf_counter() - start

    cost(200)  # warm up
    small, big = cost(1000), cost(4000)
    assert big < 4 * small * 2.5


def test_verifier_exception_without_message():
    @irdl_op_definition
    class SilentOp(IRDLOperation):
        name = "test.silent"

        def verify_(self) -> None:
            raise VerifyException()

    module = ModuleOp([SilentOp()])
    with pytest.raises(PtoError) as e:
        verify_module(module)
    assert e.value.message.startswith("'test.silent' op does not verify (its verifier gave no reason)")
