"""Parsing, printing and verification of `pto` modules.

`parse_module` records the source position of every operation as a `FileLineColLoc`, so that verifiers and
passes can report `file:line:col`; passes copy the location of the op they rewrite onto the ops they create.
"""

from __future__ import annotations

import bisect
import re
from io import StringIO

from xdsl.context import Context
from xdsl.dialects.builtin import (
    Builtin,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    FloatAttr,
    IntAttr,
    ModuleOp,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute, Dialect, Operation
from xdsl.parser import Parser
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.lexer import Input, Span, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError, VerifyException

from .diagnostics import PtoError, SourceLoc


def _func() -> Dialect:
    from xdsl.dialects.func import Func

    return Func


def _arith() -> Dialect:
    from xdsl.dialects.arith import Arith

    return Arith


def _scf() -> Dialect:
    from xdsl.dialects.scf import Scf

    return Scf


def _pto() -> Dialect:
    """The pto dialect's types and attributes; its ops are loaded one at a time (`_PtoContext`)."""
    from pypto_mlir.dialects.pto_op_index import attributes

    return Dialect("pto", [], attributes())


DIALECT_LOADERS = {"func": _func, "arith": _arith, "scf": _scf, "pto": _pto}
"""The dialects besides builtin that pto programs use, each imported when the parser first meets one of its ops,
types or attributes (or `Context.load_registered_dialect` asks for it): a run pays only for what its input uses."""


class _PtoContext(Context):
    """xDSL's context, which loads a `pto` op when it is first looked up (`pto_op_index.OP_CLASSES` says which
    family module defines it): a module that uses the tile and matmul ops never imports the pipe, view, comm or
    MX families (docs/performance.md, "Startup on a real input")."""

    def _get_known_op(self, name: str) -> type[Operation] | None:
        op = super()._get_known_op(name)
        if op is None and name.startswith("pto."):
            from pypto_mlir.dialects.pto_op_index import OP_CLASSES

            where = OP_CLASSES.get(name)
            if where is not None:  # (an `import` statement's path, which `python -X importtime` reports)
                module = __import__(f"pypto_mlir.dialects.{where[0]}", fromlist=[where[1]])
                op = getattr(module, where[1])
                self.load_op(op)
        return op

    def clone(self) -> Context:
        c = super().clone()
        return _PtoContext(
            c.allow_unregistered, c._loaded_dialects, c._loaded_ops, c._loaded_attrs, c._loaded_types,
            c._registered_dialects,
        )


def make_context(allow_unregistered: bool = False) -> Context:
    """A context with the dialects pto programs use: builtin, func, arith, scf and pto (builtin loaded, the others
    registered and loaded on first use; the pto ops one at a time)."""
    ctx = _PtoContext(allow_unregistered=allow_unregistered)
    ctx.load_dialect(Builtin)
    for name, load in DIALECT_LOADERS.items():
        ctx.register_dialect(name, load)
    return ctx


class _LinearLexer(MLIRLexer):
    """xDSL's lexer with a string-literal pattern that cannot backtrack.

    xDSL 0.74 matches a string literal with `"(?:[^"\\...]+|\\...)*"`: a `+` inside a `*`, which on an
    unterminated literal (`note = "a {a {...`) tries every way of cutting the text into runs before failing,
    exponential in the length of the rest of the input. The same language with possessive quantifiers is matched
    (or rejected) in one pass.
    """

    _unescaped_characters_regex = re.compile(r'"(?:[^"\\\n\v\f]++|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+"')

    # The common tokens in one match (after the whitespace and `//` comments xDSL's lexer skips): a bare
    # identifier, a `%`/`!`/`#`/`^` identifier, a one-character punctuation, `{`, `->`, a decimal integer, an
    # `@` identifier. Each alternative is the language xDSL's lexer gives that token kind, and stops where it
    # stops (a `#-}`, `{-#`, a `0x`, an integer followed by `.`, a lone `-` or `/`, strings, non-ASCII and the
    # end of the input are left to xDSL's `lex`). xDSL reads a token with a dozen Python calls; this is the
    # largest single cost of parsing.
    _FAST_TOKEN = re.compile(
        r"(?:(?://[^\n]*\n?)|\s+)*+"
        r"(?:(?P<bare>[a-zA-Z_][a-zA-Z0-9_$.]*+)"
        r"|(?P<prefixed>[%!^](?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)|#(?!-\})(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*))"
        r"|(?P<punct>[:,()}\[\]<>=+*?|]|\{(?!-\#)|->)"
        r"|(?P<int>(?!0x)[0-9]++(?!\.))"
        r"|(?P<at>@[a-zA-Z_][a-zA-Z0-9_$.]*+))",
        re.ASCII,
    )
    _PREFIXED_KINDS = {
        "%": MLIRTokenKind.PERCENT_IDENT,
        "!": MLIRTokenKind.EXCLAMATION_IDENT,
        "#": MLIRTokenKind.HASH_IDENT,
        "^": MLIRTokenKind.CARET_IDENT,
    }
    _PUNCT_KINDS = {
        ":": MLIRTokenKind.COLON,
        ",": MLIRTokenKind.COMMA,
        "(": MLIRTokenKind.L_PAREN,
        ")": MLIRTokenKind.R_PAREN,
        "{": MLIRTokenKind.L_BRACE,
        "}": MLIRTokenKind.R_BRACE,
        "[": MLIRTokenKind.L_SQUARE,
        "]": MLIRTokenKind.R_SQUARE,
        "<": MLIRTokenKind.LESS,
        ">": MLIRTokenKind.GREATER,
        "=": MLIRTokenKind.EQUAL,
        "+": MLIRTokenKind.PLUS,
        "*": MLIRTokenKind.STAR,
        "?": MLIRTokenKind.QUESTION,
        "|": MLIRTokenKind.VERTICAL_BAR,
        "->": MLIRTokenKind.ARROW,
    }

    def lex(self):  # type: ignore[override]
        inp = self.input
        m = self._FAST_TOKEN.match(inp.content, self.pos)
        if m is None:
            return super().lex()
        group = m.lastgroup
        start, end = m.span(group)
        self.pos = end
        if group == "bare":
            kind = MLIRTokenKind.BARE_IDENT
        elif group == "prefixed":
            kind = self._PREFIXED_KINDS[inp.content[start]]
        elif group == "punct":
            kind = self._PUNCT_KINDS[m.group(group)]
        elif group == "int":
            kind = MLIRTokenKind.INTEGER_LIT
        else:
            kind = MLIRTokenKind.AT_IDENT
        return Token(kind, Span(start, end, inp))

    def _lex_string_literal(self, start_pos):  # type: ignore[override]
        # xDSL lexes a literal with escapes of non-ASCII bytes as BYTES_LIT even when they are UTF-8 (against its
        # own docstring), so the printed form of a non-ASCII string ("h\C3\A9") no longer parses as a string:
        # UTF-8 payloads are strings, only the rest are bytes.
        token = super()._lex_string_literal(start_pos)
        if token.kind == MLIRTokenKind.BYTES_LIT:
            try:
                token.span.bytes_contents.decode("utf-8")  # type: ignore[attr-defined]
            except UnicodeDecodeError:
                return token
            return Token(MLIRTokenKind.STRING_LIT, token.span)
        return token


def unsupported_attribute(attr: Attribute) -> str | None:
    """Why xDSL could not print `attr` back (its element type has no binary format), or None if it can."""
    if isinstance(attr, FloatAttr):
        elt = attr.type
    elif isinstance(attr, (DenseArrayBase, DenseIntOrFPElementsAttr)):
        elt = attr.get_element_type()
    else:
        return None
    try:
        elt.format  # type: ignore[union-attr]
    except NotImplementedError:
        if isinstance(attr, FloatAttr):
            return f"float constants of type {elt} are not supported; use f16, bf16, f32 or f64"
        return f"element type {elt} is not supported in a constant array; use an integer of at most 64 bits or f16/f32/f64"
    except AttributeError:
        return None
    return None


class LocatedParser(Parser):
    """An xDSL parser that stamps each parsed op with its `file:line:col` (unless the text gives a `loc`)."""

    def __init__(self, ctx: Context, text: str, name: str = "<stdin>", line_offset: int = 0):
        super().__init__(ctx, "", name)
        # the real input goes through the linear lexer (its first token is lexed here: may raise ParseError)
        self._parser_state = ParserState(_LinearLexer(Input(text, name)))
        self.first_forward_use: dict = {}
        self._name_attr = StringAttr(name)
        self._line_offset = line_offset
        starts = [0]
        i = text.find("\n")
        while i >= 0:
            starts.append(i + 1)
            i = text.find("\n", i + 1)
        self._line_starts = starts
        self._text = text
        self._type_cache: dict[str, Attribute] = {}

    def _loc_at(self, pos: int) -> FileLineColLoc:
        line = bisect.bisect_right(self._line_starts, pos) - 1
        col = pos - self._line_starts[line] + 1
        return FileLineColLoc(self._name_attr, IntAttr(line + 1 + self._line_offset), IntAttr(col))

    # Upstream MLIR prints locations with debug info as `loc(#loc3)` and defines the aliases *after* the module
    # (`#loc3 = loc("f.mlir":7:5)`); xDSL needs an alias before its use, so these are read first.
    _LOC_ALIAS = re.compile(r"^#[A-Za-z_][\w$.]*[ \t]*=[ \t]*loc\(", re.MULTILINE)

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        self._loc_alias_starts = {m.start() for m in self._LOC_ALIAS.finditer(self.lexer.input.content)}
        for pos in sorted(self._loc_alias_starts):
            self._resume_from(pos)
            self._parse_alias_def()
        if self._loc_alias_starts:
            self._resume_from(0)
        return super().parse_module(allow_implicit_module)

    def _parse_alias_def(self) -> None:
        start = self._current_token.span.start
        if start not in getattr(self, "_loc_alias_starts", ()):
            return super()._parse_alias_def()
        name = self._consume_token().text
        self.parse_punctuation("=", "after location alias name")
        loc = self.parse_optional_location()
        if loc is None:
            self.raise_error("expected a location 'loc(...)'")
        if name in self.attribute_aliases and self.attribute_aliases[name] != loc:
            self.raise_error(f"re-declaration of alias '{name}'")
        self.attribute_aliases[name] = loc

    # A `pto` type whose body holds no nested `<`, alias, string or comment: its text alone decides what it parses
    # to (the parameters are read and verified by the type's own `parse_parameters`), so each distinct spelling
    # is parsed once and the attribute reused (attributes are immutable). A kernel repeats a few tile and tensor
    # types hundreds of times; reading one costs about as much as an op.
    _CACHEABLE_TYPE = re.compile(r"!pto\.\w+<[\w \t\r\n,.?=\[\]]*>")
    _BLANK = re.compile(r"(?:\s|//[^\n]*)*")

    def parse_optional_type(self):  # type: ignore[override]
        token = self._current_token
        if token.kind is not MLIRTokenKind.EXCLAMATION_IDENT:
            return super().parse_optional_type()
        m = self._CACHEABLE_TYPE.match(self._text, token.span.start)
        if m is None:
            return super().parse_optional_type()
        key = m.group()
        cached = self._type_cache.get(key)
        if cached is not None:
            self._resume_from(m.end())
            return cached
        parsed = super().parse_optional_type()
        # Cached only if the type ended exactly at the match's `>` (nothing but blanks and comments up to the next
        # token), so resuming after the match on a hit reads the same tokens as parsing again would.
        if parsed is not None and self._BLANK.fullmatch(self._text, m.end(), self._current_token.span.start):
            self._type_cache[key] = parsed
        return parsed

    def parse_optional_attribute(self) -> Attribute | None:
        # A literal xDSL cannot represent (a negative f8E8M0FNU, an f80 constant, an i128 array, ...) is an
        # error at the literal, not an exception escaping the parser or the printer later.
        start = self._current_token.span.start
        try:
            attr = super().parse_optional_attribute()
        except (ValueError, NotImplementedError, OverflowError) as e:
            msg = _strip(str(e))
            if m := re.fullmatch(r"Format not implemented for (\S+)", msg):
                msg = f"element type {m.group(1)} is not supported in a constant array; use an integer of at most 64 bits or f16/f32/f64"
            else:
                msg = f"invalid attribute value: {msg}"
            self.raise_error(msg, start, self._current_token.span.start)
        if attr is not None and (why := unsupported_attribute(attr)) is not None:
            self.raise_error(why, start, self._current_token.span.start)
        return attr

    def resolve_operand(self, operand, type):  # type: ignore[override]
        # Remember where a not-yet-defined value is first used, to locate "used but not defined" there.
        name = operand.operand_name
        if name not in self.ssa_values:
            self.first_forward_use.setdefault(name, operand.span)
        return super().resolve_operand(operand, type)

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        try:
            op = super().parse_operation()
        except VerifyException as e:  # an invalid attribute met while building the op: a located error
            from .verify import readable_parse_constraint

            msg = readable_parse_constraint(" ".join(str(e).split()))
            self.raise_error(msg, start, self._current_token.span.start)
        if isinstance(op.location, UnknownLoc):
            op.location = self._loc_at(start)
        if op.name == "scf.execute_region" and not op.results:
            _add_implicit_yield(op)
        return op


def _add_implicit_yield(op: Operation) -> None:
    """xDSL prints an `scf.execute_region` without results with no terminator (`scf.execute_region { }`) but
    does not add it back when parsing; restore the empty `scf.yield`, so printed output parses to the same op."""
    from xdsl.dialects import scf
    from xdsl.ir import Block
    from xdsl.traits import IsTerminator

    if not isinstance(op, scf.ExecuteRegionOp):
        return
    region = op.region
    if not region.blocks:
        region.add_block(Block())
    block = region.blocks[-1]
    last = block.last_op
    if last is None or not last.has_trait(IsTerminator):
        y = scf.YieldOp()
        y.location = op.location
        block.add_op(y)


def parse_error_to_pto(e: ParseError, line_offset: int = 0) -> PtoError:
    loc = e.span.get_location()
    msg = _strip(e.msg)
    if (m := re.fullmatch(r"Unexpected character: (.)", msg, re.S)) is not None:
        ch = m.group(1)
        msg = (
            f"unexpected character '{ch}' (U+{ord(ch):04X}); outside string literals and comments the input must "
            "be ASCII MLIR syntax"
        )
    return PtoError(msg, loc=SourceLoc(loc.file, loc.line + line_offset, loc.col))


def _strip(msg: str) -> str:
    return msg.strip().rstrip(".") if msg else "parse error"


def parse_module(
    text: str, name: str = "<stdin>", ctx: Context | None = None, line_offset: int = 0, implicit_module: bool = True
) -> ModuleOp:
    """Parse `text` into a module; raises `PtoError` with the source location on malformed input. A list of ops
    is wrapped in a module unless `implicit_module=False` (`pypto-opt --no-implicit-module`)."""
    ctx = ctx or make_context()
    try:
        parser = LocatedParser(ctx, text, name, line_offset)
    except ParseError as e:  # the first token is already bad (a stray non-ASCII character, ...)
        raise parse_error_to_pto(e, line_offset) from None
    try:
        module = parser.parse_module(implicit_module)
    except ParseError as e:
        err = parse_error_to_pto(e, line_offset)
        if m := re.fullmatch(r"Operation ([\w.$-]+) is not registered", err.message):
            # xDSL points after the name (at its `(` or `:`); the caret goes under the name itself
            at = text.rfind(m.group(1), 0, e.span.start)
            loc = parser._loc_at(at) if at >= 0 else None
            err = PtoError(
                f"unknown operation '{m.group(1)}'; the pto ops are listed in docs/dialect.md "
                "(--allow-unregistered-dialect keeps ops of other dialects)",
                loc=SourceLoc(name, loc.line.data, loc.column.data) if loc is not None else err.loc,
            )
        elif not implicit_module and err.message == "builtin.module operation expected":
            err = PtoError(
                "expected a builtin.module: with --no-implicit-module a list of ops is not wrapped in one", loc=err.loc
            )
        elif err.message == "SSA value used before assignment":
            err = PtoError(
                f"use of undefined value {e.span.text}; define it (as an op result or a block argument) before "
                "using it",
                loc=err.loc,
            )
        undefined = [n for n in parser.forward_ssa_references if n in parser.first_forward_use]
        if err.message.startswith("values used but not defined") and undefined:
            loc = parser.first_forward_use[undefined[0]].get_location()
            names = ", ".join(f"%{n}" for n in undefined)
            err = PtoError(
                f"use of undefined value {names}; define it (as an op result or a block argument) before using it",
                loc=SourceLoc(loc.file, loc.line + line_offset, loc.col),
            )
        at_end = e.span.start >= len(text.rstrip())
        if at_end and ("expected" in err.message.lower() or err.message.startswith("in block definition")):
            # ran off the end: say so rather than only what was expected next
            if err.message.startswith("in block definition"):
                err = PtoError("unexpected end of input; is a closing '}' missing?", loc=err.loc)
            else:
                err = PtoError(f"unexpected end of input: {err.message}", loc=err.loc)
        raise err from None
    if isinstance(module.location, UnknownLoc):
        module.location = parser._loc_at(0)
    return module


class _ModulePrinter(Printer):
    """xDSL's printer with two hot paths made cheap, output unchanged:

    - a string goes to the stream by `write` (xDSL calls `print(text, end="", file=stream)`, two writes each);
    - an attribute's text is made once per attribute object and reused: a module repeats a few tile, tensor and
      integer types thousands of times, mostly as the same objects (the parser reuses a type it read before,
      `clone` shares them). Attributes are immutable and print the same wherever they stand, unless their text
      spans lines (then the indentation matters): such text is not reused."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._attr_text: dict[int, tuple[Attribute, str | None]] = {}

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        if "\n" not in text:
            self._current_column += len(text)
            self.stream.write(text)  # type: ignore[union-attr]
            return
        super().print_string(text, indent=indent)

    def print_attribute(self, attribute: Attribute) -> None:
        seen = self._attr_text.get(id(attribute))
        if seen is not None:
            text = seen[1]
            if text is not None:
                self._current_column += len(text)
                self.stream.write(text)  # type: ignore[union-attr]
                return
            super().print_attribute(attribute)
            return
        stream = self.stream
        buf = self.stream = StringIO()
        line = self._current_line
        try:
            super().print_attribute(attribute)
        finally:
            self.stream = stream
        text = buf.getvalue()
        stream.write(text)  # type: ignore[union-attr]
        # the attribute keeps its identity while it is in the table (no other object takes its id)
        self._attr_text[id(attribute)] = (attribute, text if self._current_line == line and "\n" not in text else None)


def print_module(op: Operation, generic: bool = False, debuginfo: bool = False) -> str:
    out = StringIO()
    printer = _ModulePrinter(stream=out, print_generic_format=generic, print_debuginfo=debuginfo)
    printer.print_op(op)
    out.write("\n")
    return out.getvalue()
