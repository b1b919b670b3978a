"""The located parser's fast paths give exactly what xDSL's own code gives.

- The lexer's one-regex path for common tokens (`ir._LinearLexer.lex`) yields the same token stream (kind and
  span of every token, and the same error where lexing fails) as xDSL's `MLIRLexer`, on every input of the
  project and on random text over an alphabet of MLIR's token characters.
- A `pto` type read from the cache is the type a fresh parse gives, and a bad type is still an error at its text.
- The module verifier's indexed symbol lookup finds what xDSL's scan finds, and is undone afterwards.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from pypto_mlir import PtoError, parse_module, print_module, verify_module
from pypto_mlir.ir import LocatedParser, _LinearLexer

ROOT = Path(__file__).resolve().parents[1]


def tokens(lexer_cls, text: str) -> list:
    lexer = lexer_cls(Input(text, "t.mlir"))
    out: list = []
    while True:
        try:
            tok = lexer.lex()
        except ParseError as e:
            out.append(("error", e.span.start, e.span.end, e.msg))
            return out
        out.append((tok.kind, tok.span.start, tok.span.end))
        if tok.kind == MLIRTokenKind.EOF or len(out) > 100_000:
            return out


class _XdslLex(_LinearLexer):
    """The located lexer without its fast path: xDSL's `lex`, with the located lexer's string literals (a linear
    pattern, and UTF-8 escapes read as strings), which are not what is compared here."""

    lex = MLIRLexer.lex


def _same_as_xdsl(text: str) -> None:
    assert tokens(_LinearLexer, text) == tokens(_XdslLex, text)


INPUTS = sorted(p for folder in ("lit_tests", "examples") for p in (ROOT / folder).rglob("*.mlir"))


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_lexer_matches_xdsl_on_every_input(path):
    _same_as_xdsl(path.read_text(encoding="utf-8"))


EDGE_CASES = [
    "{-# x #-}",
    "#-} #- #-x #a-b",
    "0x1F 0xi32 0x 00x1 0.5 1.e3 12.5e-3 12. 007 1x2x3xf32",
    "-> - -1 -x --> ->>",
    "@f @\"quoted name\" @ @1 @_a.b$",
    "%0abc %a-b.c$ %- %$ %", "!pto.tile<32x64xf32, vec> !1 ^bb0 ^",
    "a // comment\n b //\n//\n\t c",
    "/ * + ? | ... .. . = :",
    "é ² _x x$.y",
    '"str" "a\\"b" "\\C3\\A9" "unterminated',
]


@pytest.mark.parametrize("text", EDGE_CASES)
def test_lexer_matches_xdsl_on_edge_cases(text):
    _same_as_xdsl(text)


def test_lexer_matches_xdsl_on_random_text():
    alphabet = list("aZ_09x.$-%!#^@{}()[]<>=+*?|:,/\" \n\t") + ["//", "->", "{-#", "#-}", "0x", "é"]
    rng = random.Random(20261203)
    for _ in range(3000):
        _same_as_xdsl("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40))))


TYPES = """builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @f(%a: !pto.tensor<32x64xf32>, %b: !pto.tensor<32x64xf32>) attributes {pto.kind = #pto.kind<incore>} {
    %t = pto.load %a[0, 0] : !pto.tensor<32x64xf32> -> !pto.tile<32x64xf32, vec>
    %u = pto.load %b[0, 0] : !pto.tensor<32x64xf32> -> !pto.tile<32x64xf32,   vec>
    %v = pto.load %b[0, 0] : !pto.tensor<32x64xf32> -> !pto.tile<32x64xf32, vec, valid = [16, ?]>
    %w = pto.load %b[0, 0] : !pto.tensor<32x64xf32> -> !pto.tile<32x64xf32, vec, valid = [16, ?]>
    func.return
  }
}
"""


def test_cached_types_are_the_types_a_fresh_parse_gives():
    m = parse_module(TYPES, "t.mlir")
    ops = list(m.body.block.first_op.body.block.ops)  # type: ignore[union-attr]
    t, u, v, w = (op.results[0].type for op in ops[:4])
    assert t is u or t == u  # two spellings of one type, equal
    assert v is w  # one spelling: read once
    for ty in (t, v):  # what a fresh parse of the type alone gives
        alone = parse_module(f"builtin.module attributes {{x = {ty}}} {{}}", "u.mlir")
        assert alone.attributes["x"] == ty
    assert print_module(m) == print_module(parse_module(print_module(m), "again.mlir"))


def test_a_bad_type_is_the_same_error_with_and_without_the_cache(monkeypatch):
    bad = TYPES.replace("valid = [16, ?]>\n    func.return", "valid = [99, ?]>\n    func.return")
    with pytest.raises(PtoError) as cached:
        parse_module(bad, "t.mlir")
    monkeypatch.setattr(LocatedParser, "_CACHEABLE_TYPE", re.compile(r"(?!)"))  # matches nothing: no cache
    with pytest.raises(PtoError) as fresh:
        parse_module(bad, "t.mlir")
    assert cached.value.loc.line == 6  # the type of %w, after the same spelling but for 99 was read on line 5
    assert (cached.value.message, cached.value.loc) == (fresh.value.message, fresh.value.loc)


CALLS = """builtin.module {
  func.func @callee(%x: i32) -> i32 {
    func.return %x : i32
  }
  func.func @caller(%x: i32) -> i32 {
    %y = func.call @callee(%x) : (i32) -> i32
    %z = func.call @missing(%y) : (i32) -> i32
    func.return %z : i32
  }
}
"""


def test_indexed_symbol_lookup_finds_what_xdsl_finds_and_is_undone():
    before = SymbolTable.__dict__["lookup_symbol"]
    with pytest.raises(PtoError) as e:
        verify_module(parse_module(CALLS, "c.mlir"))
    assert "'@missing' could not be found in symbol table" in e.value.message
    assert (e.value.loc.line, e.value.loc.col) == (7, 5)
    assert SymbolTable.__dict__["lookup_symbol"] is before
    verify_module(parse_module(CALLS.replace("@missing", "@callee"), "c.mlir"))
    assert SymbolTable.__dict__["lookup_symbol"] is before
