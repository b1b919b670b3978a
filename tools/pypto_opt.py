"""`pypto-opt`: the mlir-opt-style driver of pypto-mlir.

    pypto-opt [options] [input.mlir]

Passes run in the order their flags are given (`--lower-auto-vector-split --expand-mixed-kernel`, or
`-p lower-auto-vector-split,expand-mixed-kernel`).  The verifier runs after parsing and after every pass.
Every error is printed as `file:line:col: error: message` and the exit code is 1; no Python traceback reaches
the user (set PYPTO_DEBUG=1 to see one for an internal error).

`--verify-diagnostics` checks the errors against `// expected-error@+N {{text}}` annotations in the input, as
mlir-opt does: every expected error must be reported on its line, and no other error may be reported.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import traceback
from collections.abc import Sequence
from dataclasses import dataclass

from pypto_mlir.diagnostics import PtoError, SourceLoc
from pypto_mlir.ir import make_context, parse_module, print_module
from pypto_mlir.passes import PASSES, get_pass
from pypto_mlir.verify import verify_module

SPLIT_MARKER = re.compile(r"^// -----[ \t]*$", re.MULTILINE)  # not \s: it would swallow the next blank line
EXPECTED = re.compile(r"//\s*expected-(error|warning|note|remark)\s*(@(?:[+-]\d+|above|below))?\s*\{\{(.*?)\}\}")


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # type: ignore[override]
        raise UsageError(message)


class _AppendPass(argparse.Action):
    """Collect passes, from flags and -p, in command-line order."""

    def __call__(self, parser, namespace, values, option_string=None):
        pipeline = list(getattr(namespace, "pipeline", None) or [])
        if self.const is not None:
            pipeline.append(self.const)
        else:
            pipeline.extend(parse_pipeline(str(values)))
        namespace.pipeline = pipeline


def parse_pipeline(text: str) -> list[str]:
    """`a,b` or MLIR's `builtin.module(a, b)`."""
    text = text.strip()
    m = re.fullmatch(r"(?:builtin\.module|any)\((.*)\)", text, re.S)
    if m:
        text = m.group(1)
    names = [n.strip() for n in text.split(",") if n.strip()]
    for n in names:
        if n not in PASSES:
            raise UsageError(f"unknown pass '{n}' in the pipeline (available: {', '.join(PASSES)})")
    return names


def build_arg_parser() -> argparse.ArgumentParser:
    epilog = "passes (run in the order given):\n" + "\n".join(
        f"  --{name:<32} {info.description}" for name, info in PASSES.items()
    )
    p = _Parser(
        prog="pypto-opt",
        description="Run pypto-mlir passes on a `pto` module (mlir-opt style).",
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("input", nargs="?", default="-", help="input file ('-' or nothing: standard input)")
    p.add_argument("-o", dest="output", default="-", metavar="FILE", help="output file (default: standard output)")
    p.add_argument(
        "-p",
        "--pass-pipeline",
        action=_AppendPass,
        metavar="PIPELINE",
        help="comma-separated passes, or builtin.module(p1, p2)",
    )
    for name, info in PASSES.items():
        p.add_argument(f"--{name}", action=_AppendPass, nargs=0, const=name, help=argparse.SUPPRESS)
    p.add_argument("--split-input-file", action="store_true", help="process each '// -----' chunk separately")
    p.add_argument(
        "--verify-diagnostics", action="store_true", help="check errors against expected-error annotations"
    )
    p.add_argument("--mlir-print-op-generic", action="store_true", help="print the generic op form")
    p.add_argument("--mlir-print-debuginfo", action="store_true", help="print op locations")
    p.add_argument("--mlir-print-ir-after-all", action="store_true", help="print the IR after every pass (stderr)")
    p.add_argument("--allow-unregistered-dialect", action="store_true", help="accept ops of unknown dialects")
    p.add_argument("--print-mlir-opt-path", action="store_true", help="print the path of the upstream mlir-opt")
    p.set_defaults(pipeline=[])
    return p


@dataclass
class Expected:
    severity: str
    line: int
    text: str
    matched: bool = False


def collect_expected(chunk: str, line_offset: int) -> list[Expected]:
    out: list[Expected] = []
    lines = chunk.split("\n")
    for i, line in enumerate(lines):
        for m in EXPECTED.finditer(line):
            where = m.group(2)
            lineno = i + 1
            if where in (None, ""):
                target = lineno
            elif where == "@above":
                target = lineno - 1
            elif where == "@below":
                target = lineno + 1
            else:
                target = lineno + int(where[1:])
            out.append(Expected(m.group(1), target + line_offset, m.group(3).strip()))
    return out


class Driver:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.ctx = make_context(allow_unregistered=args.allow_unregistered_dialect)
        self.pass_classes = [get_pass(n) for n in args.pipeline]

    def run_chunk(self, text: str, name: str, line_offset: int) -> str:
        """Parse, verify, run the pipeline; returns the printed result or raises PtoError."""
        if is_blank(text):
            raise PtoError(EMPTY_INPUT, loc=SourceLoc(name, line_offset + 1, 1))
        module = parse_module(text, name, self.ctx, line_offset)
        verify_module(module)
        for cls in self.pass_classes:
            cls().apply(self.ctx, module)
            verify_module(module)
            if self.args.mlir_print_ir_after_all:
                sys.stderr.write(f"// -----// IR Dump After {cls.name} //----- //\n")
                sys.stderr.write(self._print(module))
        return self._print(module)

    def _print(self, module) -> str:
        return print_module(module, generic=self.args.mlir_print_op_generic, debuginfo=self.args.mlir_print_debuginfo)

    def guarded_chunk(self, text: str, name: str, line_offset: int) -> str:
        try:
            return self.run_chunk(text, name, line_offset)
        except PtoError:
            raise
        except RecursionError:
            raise PtoError(
                "input nests too deeply to be processed; reduce the nesting of regions (thousands of levels)", loc=SourceLoc(name, line_offset + 1, 1)
            ) from None
        except Exception as e:  # an internal error is still reported, never as a traceback
            if os.environ.get("PYPTO_DEBUG"):
                traceback.print_exc()
            raise PtoError(
                f"internal compiler error: {type(e).__name__}: {e} (please report this; PYPTO_DEBUG=1 shows details)",
                loc=SourceLoc(name, line_offset + 1, 1),
            ) from None


EMPTY_INPUT = "the input is empty; expected a builtin.module (or the ops of one)"


def is_blank(text: str) -> bool:
    """Nothing but whitespace and `//` comments."""
    return all(not line.strip() or line.strip().startswith("//") for line in text.splitlines())


def split_chunks(text: str) -> list[tuple[str, int]]:
    """Split on `// -----` lines; returns (chunk, line offset of its first line)."""
    chunks: list[tuple[str, int]] = []
    start, line = 0, 0
    for m in SPLIT_MARKER.finditer(text):
        chunk = text[start : m.start()]
        chunks.append((chunk, line))
        line += chunk.count("\n") + 1
        start = m.end() + 1 if m.end() < len(text) and text[m.end()] == "\n" else m.end()
    chunks.append((text[start:], line))
    return chunks


def main(argv: Sequence[str] | None = None) -> int:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    try:
        args = build_arg_parser().parse_args(argv)
    except UsageError as e:
        sys.stderr.write(f"pypto-opt: error: {e}\n(see pypto-opt --help)\n")
        return 1
    if args.print_mlir_opt_path:
        from pypto_mlir.mlir_tools import find_mlir_opt

        path = find_mlir_opt()
        if path is None:
            sys.stderr.write("pypto-opt: error: mlir-opt not found; install the extra: pip install 'pypto-mlir[mlir]'\n")
            return 1
        print(path)
        return 0
    name = "<stdin>" if args.input == "-" else args.input
    try:
        if args.input == "-":
            text = sys.stdin.read()
        else:
            with open(args.input, encoding="utf-8") as f:
                text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        sys.stderr.write(f"{name}: error: cannot read input file: {reason}\n")
        return 1
    try:
        driver = Driver(args)
    except UsageError as e:
        sys.stderr.write(f"pypto-opt: error: {e}\n")
        return 1

    if is_blank(text):
        sys.stderr.write(f"{name}:1:1: error: {EMPTY_INPUT}\n")
        return 1
    chunks = split_chunks(text) if args.split_input_file else [(text, 0)]
    outputs: list[str] = []
    failed = False
    for chunk, offset in chunks:
        if args.verify_diagnostics:
            ok, out = verify_chunk(driver, chunk, name, offset)
            failed |= not ok
            if out is not None:
                outputs.append(out)
            continue
        try:
            outputs.append(driver.guarded_chunk(chunk, name, offset))
        except PtoError as e:
            sys.stderr.write(e.format(fallback=name) + "\n")
            failed = True
    result = "// -----\n".join(outputs)
    try:
        if args.output == "-":
            sys.stdout.write(result)
            sys.stdout.flush()
        else:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(result)
    except OSError as e:
        sys.stderr.write(f"{args.output}: error: cannot write output file: {e.strerror or e}\n")
        return 1
    except BrokenPipeError:
        return 1 if failed else 0
    return 1 if failed else 0


def verify_chunk(driver: Driver, chunk: str, name: str, offset: int) -> tuple[bool, str | None]:
    """Run one chunk under --verify-diagnostics; report mismatches; returns (ok, printed output or None)."""
    expected = collect_expected(chunk, offset)
    produced: PtoError | None = None
    out = None
    try:
        out = driver.guarded_chunk(chunk, name, offset)
    except PtoError as e:
        produced = e
    ok = True
    if produced is not None:
        diags = [(produced.severity, produced.loc, produced.message)] + [
            ("note", nloc or produced.loc, text) for nloc, text in produced.notes
        ]
        for severity, loc, message in diags:
            match = next(
                (
                    x
                    for x in expected
                    if not x.matched
                    and x.severity == severity
                    and loc is not None
                    and loc.line == x.line
                    and x.text in message
                ),
                None,
            )
            if match is not None:
                match.matched = True
            elif severity != "note":
                where = str(loc) if loc is not None else name
                sys.stderr.write(f"{where}: error: unexpected {severity}: {message}\n")
                ok = False
    for x in expected:
        if not x.matched:
            sys.stderr.write(f"{name}:{x.line}:1: error: expected {x.severity} \"{x.text}\" was not produced\n")
            ok = False
    return ok, out


if __name__ == "__main__":
    sys.exit(main())
