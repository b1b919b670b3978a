"""Structure-aware mutations of `pto` modules.

The mutator knows the shape of the language (SSA names, numbers, tile shapes, dtypes, memory spaces, targets,
split modes, attributes, regions), so most mutants still parse and reach the passes; a few are deliberately
broken (truncation, stray non-ASCII, unbalanced nesting) to exercise the error paths.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

SPLIT_MARKER = re.compile(r"^// -----[ \t]*$", re.MULTILINE)

DTYPES = ("f32", "f16", "bf16", "i8", "i16", "i32", "i64", "i1", "f64", "ui8", "f8E8M0FNU", "f8E4M3FN", "f80",
          "f128", "i128", "index")
SPACES = ("vec", "mat", "left", "right", "acc", "bias", "scaling", "gm")
TARGETS = ("a2a3", "a5", "a3", "")
SPLITS = ("none", "up_down", "left_right", "both")
KINDS = ("incore", "orchestration", "group", "aic", "aiv", "spmd", "inline")
NUMBERS = ("0", "1", "-1", "2", "3", "7", "8", "9", "13", "15", "16", "17", "31", "32", "33", "63", "64", "127",
           "128", "255", "256", "4096", "65536", "2147483647", "2147483648", "-2147483649", "9223372036854775807",
           "-9223372036854775808", "9223372036854775808", "18446744073709551616", "99999999999999999999999",
           "1.5", "-0.0", "1e400", "0x10", "true")
NON_ASCII = ("é", "中", "\u00a0", "\ufeff", "€", "\u200b", "💥", "\u0301", "Ω", "\u2028")
ATTRS = (
    "pto.split = #pto.split<up_down>", "pto.split = #pto.split<left_right>", "pto.split = #pto.split<none>",
    "pto.kind = #pto.kind<incore>", "pto.kind = #pto.kind<group>", "pto.split_aiv", "pto.dual_aiv_dispatch",
    "pto.split_aiv_region_validated", "pto.local_slot_num = 1 : i64", "pto.local_slot_num = 1.0 : f80",
    "pto.slot_num = 0 : i64", "pto.core_num = 3 : i64", 'note = "héllo"', 'note = "\\FF"', "a = array<i64: 1, 2>",
    "a = array<i128: 1>", "a = dense<1> : tensor<2xi65>", "a = -1.0 : f8E8M0FNU", "a = 1 : i1", "lane_stride = 3 : i64",
    "split = 5 : i64", "atomic = 1 : i64", "axes = array<i64: 1, 0>", "a = unit", "a = [1, \"x\", @f]",
)

_TOKEN = re.compile(
    r'"(?:[^"\\\n]|\\.)*"'  # string literal
    r"|%[\w$.-]+(?::\d+|#\d+)?"  # SSA name
    r"|@[\w$.-]+"  # symbol
    r"|\^[\w$.-]+"  # block
    r"|#[\w.]+<[^<>]*>"  # pto attribute
    r"|!pto\.\w+<"  # type head
    r"|\d+(?=x)"  # a dim in a shape
    r"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?"  # number
    r"|[A-Za-z_][\w.$-]*"  # word
    r"|->|[^\s\w]"  # punctuation
)
_SSA_DEF = re.compile(r"(%[\w$.-]+)(?::\d+)?\s*(?:,\s*%[\w$.-]+\s*)*=")
_SSA = re.compile(r"%[\w$.-]+")
_SHAPE = re.compile(r"(?<=<)(\d+(?:x\d+)*)x(?=[a-z])")
_DTYPE = re.compile(r"(?<=x)(f32|f16|bf16|i8|i16|i32|i64|i1|f64)(?=[,>])")
_SPACE = re.compile(r"(?<=, )(vec|mat|left|right|acc|bias)(?=[,>])")
_TARGET = re.compile(r"#pto\.target<(\w*)>")
_SPLIT = re.compile(r"#pto\.split<(\w*)>|split_aiv_scope (\w+)")
_KIND = re.compile(r"#pto\.kind<(\w*)>")
_ATTR_DICT = re.compile(r"attributes \{|\{(?=[a-z_.]+ = )")
_DIRECTIVES = re.compile(r"^\s*//\s*(RUN|CHECK|expected-|[A-Z0-9]+(?:-[A-Z]+)*:).*$", re.MULTILINE)


def _repo_root() -> Path:
    return Path(__file__).resolve().parents[3]


def default_corpus_dirs() -> list[Path]:
    root = _repo_root()
    return [p for p in (root / "lit_tests", root / "examples") if p.is_dir()]


def load_corpus(dirs: list[Path] | None = None) -> list[str]:
    """Every `// -----` chunk of every `.mlir` file under `dirs` (lit inputs and examples), without the
    RUN/CHECK/expected-* comment lines."""
    seeds: list[str] = []
    for d in dirs if dirs is not None else default_corpus_dirs():
        for path in sorted(Path(d).rglob("*.mlir")):
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            for chunk in SPLIT_MARKER.split(text):
                chunk = _DIRECTIVES.sub("", chunk)
                if chunk.strip():
                    seeds.append(chunk)
    return seeds


class Mutator:
    """Applies 1-3 random structure-aware mutations to a corpus entry (deterministic for a given seed)."""

    def __init__(self, corpus: list[str], seed: int, valid: list[str] | None = None):
        if not corpus:
            raise ValueError("empty fuzz corpus")
        self.corpus = corpus
        self.valid = valid or []
        """the entries that parse and verify: mutated 80% of the time (the rest are rejection tests)"""
        self.rng = random.Random(seed)
        self.ops = [
            (self.number, 4), (self.shape, 4), (self.dtype, 3), (self.space, 3), (self.target, 1),
            (self.split_mode, 2), (self.kind, 1), (self.ssa_name, 4), (self.attribute, 2), (self.nest, 2),
            (self.delete_line, 3), (self.duplicate_line, 2), (self.swap_lines, 1), (self.splice_line, 2),
            (self.delete_token, 3), (self.duplicate_token, 1), (self.truncate, 1), (self.non_ascii, 1),
        ]
        self._weights = [w for _, w in self.ops]

    def mutant(self) -> str:
        rng = self.rng
        pool = self.valid if self.valid and rng.random() < 0.8 else self.corpus
        text = rng.choice(pool)
        for _ in range(rng.choice((1, 1, 2, 2, 3))):
            op = rng.choices(self.ops, self._weights)[0][0]
            text = op(text)
        return text

    # -- helpers ------------------------------------------------------------------------------------------------
    def _sub_one(self, pattern: re.Pattern[str], text: str, choices, group: int = 0) -> str:
        ms = list(pattern.finditer(text))
        if not ms:
            return text
        m = self.rng.choice(ms)
        g = group if m.group(group) is not None else 0
        if g and m.group(g) is None:
            return text
        return text[: m.start(g)] + self.rng.choice(choices) + text[m.end(g) :]

    def _lines(self, text: str) -> list[str]:
        return text.split("\n")

    # -- mutations ----------------------------------------------------------------------------------------------
    def number(self, text: str) -> str:
        return self._sub_one(re.compile(r"(?<![\w%@#.])-?\d+(?:\.\d+)?(?![\w.])"), text, NUMBERS)

    def shape(self, text: str) -> str:
        ms = list(_SHAPE.finditer(text))
        if not ms:
            return text
        m = self.rng.choice(ms)
        dims = m.group(1).split("x")
        i = self.rng.randrange(len(dims))
        r = self.rng.random()
        if r < 0.6:
            dims[i] = self.rng.choice(("1", "2", "3", "7", "8", "15", "16", "17", "31", "32", "64", "128", "0", "?"))
        elif r < 0.8 and len(dims) > 1:
            del dims[i]
        else:
            dims.insert(i, self.rng.choice(("1", "2", "16")))
        return text[: m.start(1)] + "x".join(dims) + text[m.end(1) :]

    def dtype(self, text: str) -> str:
        return self._sub_one(_DTYPE, text, DTYPES)

    def space(self, text: str) -> str:
        return self._sub_one(_SPACE, text, SPACES)

    def target(self, text: str) -> str:
        if self.rng.random() < 0.2:
            return _TARGET.sub("#pto.target<a5>", text) if "a2a3" in text else _TARGET.sub("#pto.target<a2a3>", text)
        return self._sub_one(_TARGET, text, TARGETS, 1)

    def split_mode(self, text: str) -> str:
        ms = list(_SPLIT.finditer(text))
        if not ms:
            return text
        m = self.rng.choice(ms)
        g = 1 if m.group(1) is not None else 2
        return text[: m.start(g)] + self.rng.choice(SPLITS) + text[m.end(g) :]

    def kind(self, text: str) -> str:
        return self._sub_one(_KIND, text, KINDS, 1)

    def ssa_name(self, text: str) -> str:
        """Replace one use (or definition) of an SSA value by another name of the module, or an undefined one."""
        names = sorted(set(_SSA.findall(text)))
        ms = list(_SSA.finditer(text))
        if not ms:
            return text
        m = self.rng.choice(ms)
        new = self.rng.choice(names) if self.rng.random() < 0.85 else self.rng.choice(("%undef", "%0", "%é", "%x_1"))
        return text[: m.start()] + new + text[m.end() :]

    def attribute(self, text: str) -> str:
        ms = list(_ATTR_DICT.finditer(text))
        if not ms:
            return text
        m = self.rng.choice(ms)
        return text[: m.end()] + self.rng.choice(ATTRS) + ", " + text[m.end() :]

    def nest(self, text: str) -> str:
        """Wrap a run of lines of a region in `scf.execute_region` / `scf.if` / `scf.for` (or nest them deeply)."""
        lines = self._lines(text)
        body = [i for i, line in enumerate(lines) if re.match(r"\s+%[\w$.-]+ = (pto|arith)\.", line)]
        if not body:
            return text
        a = self.rng.choice(body)
        b = min(len(lines) - 1, a + self.rng.randrange(1, 4))
        while b > a and not re.match(r"\s+%[\w$.-]+ = ", lines[b]):
            b -= 1
        depth = self.rng.choice((1, 1, 2, 3, 8, 40))
        kind = self.rng.choice(("exec", "if", "for"))
        opens, closes = [], []
        for k in range(depth):
            if kind == "exec":
                opens.append("scf.execute_region {")
                closes.append("scf.yield\n}")
            elif kind == "if":
                opens.append(f"%fz_c{k} = arith.constant true\nscf.if %fz_c{k} {{")
                closes.append("}")
            else:
                opens.append(f"%fz_lb{k} = arith.constant 0 : index\n%fz_ub{k} = arith.constant 2 : index\n"
                             f"%fz_st{k} = arith.constant 1 : index\n"
                             f"scf.for %fz_i{k} = %fz_lb{k} to %fz_ub{k} step %fz_st{k} {{")
                closes.append("}")
        new = lines[:a] + opens + lines[a : b + 1] + list(reversed(closes)) + lines[b + 1 :]
        return "\n".join(new)

    def delete_line(self, text: str) -> str:
        lines = self._lines(text)
        if len(lines) > 1:
            del lines[self.rng.randrange(len(lines))]
        return "\n".join(lines)

    def duplicate_line(self, text: str) -> str:
        lines = self._lines(text)
        i = self.rng.randrange(len(lines))
        lines.insert(self.rng.randrange(len(lines) + 1), lines[i])
        return "\n".join(lines)

    def swap_lines(self, text: str) -> str:
        lines = self._lines(text)
        i, j = self.rng.randrange(len(lines)), self.rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)

    def splice_line(self, text: str) -> str:
        other = self._lines(self.rng.choice(self.corpus))
        lines = self._lines(text)
        ops = [ln for ln in other if re.match(r"\s+%[\w$.-]+ = pto\.", ln)]
        if not ops:
            return text
        lines.insert(self.rng.randrange(len(lines) + 1), self.rng.choice(ops))
        return "\n".join(lines)

    def delete_token(self, text: str) -> str:
        ms = list(_TOKEN.finditer(text))
        if not ms:
            return text
        m = self.rng.choice(ms)
        return text[: m.start()] + text[m.end() :]

    def duplicate_token(self, text: str) -> str:
        ms = list(_TOKEN.finditer(text))
        if not ms:
            return text
        m = self.rng.choice(ms)
        return text[: m.end()] + " " + m.group(0) + text[m.end() :]

    def truncate(self, text: str) -> str:
        return text[: self.rng.randrange(len(text) + 1)]

    def non_ascii(self, text: str) -> str:
        ch = self.rng.choice(NON_ASCII)
        r = self.rng.random()
        if r < 0.3:
            return ch + text
        strings = list(re.finditer(r'"[^"\n]*"', text))
        if r < 0.6 and strings:
            m = self.rng.choice(strings)
            return text[: m.start() + 1] + ch + text[m.start() + 1 :]
        i = self.rng.randrange(len(text) + 1)
        return text[:i] + ch + text[i:]


def valid_entries(corpus: list[str]) -> list[str]:
    """The corpus entries that parse and verify."""
    from pypto_mlir.diagnostics import PtoError
    from pypto_mlir.ir import parse_module
    from pypto_mlir.verify import verify_module

    out = []
    for text in corpus:
        try:
            verify_module(parse_module(text))
        except PtoError:
            continue
        except Exception:  # noqa: BLE001 - a crashing seed is still worth mutating, but not preferred
            continue
        out.append(text)
    return out
