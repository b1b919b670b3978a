"""`pypto-opt`: the mlir-opt-style driver of pypto-mlir.

    pypto-opt [options] [input.mlir]

Passes run in the order their flags are given (`--lower-auto-vector-split --expand-mixed-kernel`, or
`-p lower-auto-vector-split,expand-mixed-kernel`).  The verifier runs after parsing and after every pass.
Every error is printed as `file:line:col: error: message` and the exit code is 1; no Python traceback reaches
the user (set PYPTO_DEBUG=1 to see one for an internal error).

`--verify-diagnostics` checks the errors (and remarks: `expected-remark`) against `// expected-error@+N {{text}}` annotations in the input, as
mlir-opt does: every expected error must be reported on its line, and no other error may be reported.
"""

from __future__ import annotations

import gc

# Cyclic-GC thresholds while pypto-opt runs (docs/performance.md, "Garbage collection"). An IR module is a large
# graph of small objects that are allocated by the thousand and live until the process ends, so with CPython's
# defaults (700, 10, 10) the collector re-traverses the growing heap again and again: 15-20 % of a pipeline run
# on a 500-kernel module, growing faster than the input. A young generation of 100k allocations and rarer older
# collections keep cycles collected (memory close to the default's) at a fraction of the cost. The imports below
# (xDSL's builtin dialect, parser and printer: most of the startup) run with them too, and the caller's are
# restored after them; `main` sets them again for the run.
GC_THRESHOLDS = (100_000, 50, 100)
_caller_gc = gc.get_threshold()
gc.set_threshold(*GC_THRESHOLDS)

import argparse  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from dataclasses import dataclass  # noqa: E402

try:
    # Only what every run needs is imported here: the parser and printer (`ir`, which loads the func/arith/scf/
    # pto dialects when the input first uses them), the verifier and the pass *registry*; a pass module is
    # imported when the command line names the pass, the upstream-MLIR helpers when bytecode or mlir-opt is
    # asked for. tests/tools/test_startup.py fails if a heavy module is imported on the plain path.
    from pypto_mlir.diagnostics import PtoError, SourceLoc, capture_remarks
    from pypto_mlir.ir import make_context, parse_module, print_module
    from pypto_mlir.passes import PASSES
    from pypto_mlir.pipeline import (
        PipelineError,
        PipelineHooks,
        describe_pass,
        parse_pipeline,
        pass_display_name,
        run_pipeline,
    )
    from pypto_mlir.tools.opt_flags import (
        emit_bytecode,
        format_statistics,
        pass_statistics,
        pipeline_text,
        unknown_flag_message,
    )
    from pypto_mlir.verify import VerifyMemo, verify_module
finally:
    gc.set_threshold(*_caller_gc)

SPLIT_MARKER = re.compile(r"^// -----[ \t]*$", re.MULTILINE)  # not \s: it would swallow the next blank line
EXPECTED = re.compile(r"//\s*expected-(error|warning|note|remark)\s*(@(?:[+-]\d+|above|below))?\s*\{\{(.*?)\}\}")
BYTECODE_MAGIC = b"ML\xefR"  # the first four bytes of an MLIR bytecode file


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # type: ignore[override]
        raise UsageError(message)


class _AppendPass(argparse.Action):
    """Collect passes, from flags and -p, in command-line order (`namespace.passes`: the pass instances,
    options set; `namespace.pipeline`: how each is written)."""

    def __call__(self, parser, namespace, values, option_string=None):
        text = self.const if self.const is not None else str(values)
        try:
            new = parse_pipeline(text)
        except PipelineError as e:
            raise UsageError(str(e)) from None
        namespace.passes = list(getattr(namespace, "passes", None) or []) + list(new)
        namespace.pipeline = [describe_pass(p) for p in namespace.passes]


class _PassNames(argparse.Action):
    """`--mlir-print-ir-before=a,b` (repeatable): pass names, checked against the registry."""

    def __call__(self, parser, namespace, values, option_string=None):
        names = [n.strip() for n in str(values).split(",") if n.strip()]
        for n in names:
            if n not in PASSES:
                raise UsageError(f"{option_string}: unknown pass '{n}' (available: {', '.join(PASSES)})")
        setattr(namespace, self.dest, (getattr(namespace, self.dest, None) or []) + names)


def _bool(text: str) -> bool:
    """An LLVM boolean option value: 1/0, true/false (any case)."""
    low = text.strip().lower()
    if low in ("1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected 0/1 or true/false, got '{text}'")


def _verify_each(text: str) -> bool | str:
    """`--verify-each` value: a boolean, or `full` (verify every op after every pass, with no memo)."""
    if text.strip().lower() == "full":
        return "full"
    try:
        return _bool(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"expected 0/1, true/false or full, got '{text}'") from None


# LLVM boolean options written bare mean `=1` (`--verify-each` is `--verify-each=1`).
BOOL_OPTIONS = ("--verify-each",)
# Options whose value is the next argument when not written `--opt=value`.
VALUE_OPTIONS = ("-o", "-p", "--pass-pipeline", "--mlir-print-ir-before", "--mlir-print-ir-after")


def normalize_argv(argv: Sequence[str], long_options: set[str]) -> list[str]:
    """mlir-opt spellings argparse does not know, rewritten to ours:

    - a single-dash long option (`-pass-pipeline=...`, `-split-input-file`), as LLVM's command line accepts;
    - `--<pass>=<options>` (mlir-opt's pass flag with options) -> `-p <pass>{<options>}`, and
      `--<pass>{<options>}` -> `-p <pass>{<options>}`;
    - a bare LLVM boolean option (`--verify-each`) -> `--verify-each=1`.
    A value that follows `-o`/`-p` is left alone, and so is everything after `--`."""
    out: list[str] = []
    it = iter(argv)
    for arg in it:
        if arg == "--":
            out.append(arg)
            out.extend(it)
            break
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 2:
            name = "-" + arg.split("=", 1)[0]
            if name in long_options:
                arg = "-" + arg
        if arg.startswith("--") and arg.endswith("}") and arg[2:].split("{", 1)[0] in PASSES:
            out += ["-p", arg[2:]]  # `--<pass>{<options>}`, the pass flag written like its pipeline element
            continue
        if arg.startswith("--") and "=" in arg:
            name, value = arg[2:].split("=", 1)
            if name in PASSES:
                out += ["-p", f"{name}{{{value}}}"]
                continue
        if arg in BOOL_OPTIONS:
            arg += "=1"
        out.append(arg)
        if arg in VALUE_OPTIONS:
            nxt = next(it, None)
            if nxt is not None:
                out.append(nxt)
    return out


def build_arg_parser() -> argparse.ArgumentParser:
    epilog = "passes (run in the order given):\n" + "\n".join(
        f"  --{name:<32} {info.description}" for name, info in PASSES.items()
    )
    p = _Parser(
        prog="pypto-opt",
        description="Run pypto-mlir passes on a `pto` module (mlir-opt style).",
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,  # mlir-opt takes no abbreviations: `--expand` is not `--expand-mixed-kernel`
    )
    p.add_argument("input", nargs="?", default="-", help="input file ('-' or nothing: standard input)")
    p.add_argument("-o", dest="output", default="-", metavar="FILE", help="output file (default: standard output)")
    p.add_argument(
        "-p",
        "--pass-pipeline",
        action=_AppendPass,
        metavar="PIPELINE",
        help="passes, comma-separated, or builtin.module(p1, p2{opt=val})",
    )
    for name, info in PASSES.items():
        p.add_argument(f"--{name}", action=_AppendPass, nargs=0, const=name, help=argparse.SUPPRESS)
    p.add_argument(
        "--no-verify-budget",
        action="store_true",
        help="do not check memory budgets after --expand-mixed-kernel (docs/memory-budget.md)",
    )
    p.add_argument("--split-input-file", action="store_true", help="process each '// -----' chunk separately")
    p.add_argument(
        "--verify-diagnostics", action="store_true", help="check errors against expected-error annotations"
    )
    p.add_argument(
        "--verify-each", type=_verify_each, default=True, metavar="0|1|full",
        help="verify the module after each pass (default 1: the ops the pass created or changed, with the full "
        "verifier's verdict and message; full: every op again; 0: off)",
    )
    p.add_argument("--mlir-print-op-generic", action="store_true", help="print the generic op form")
    p.add_argument("--mlir-print-debuginfo", action="store_true", help="print op locations")
    p.add_argument("--mlir-print-ir-before-all", action="store_true", help="print the IR before every pass (stderr)")
    p.add_argument("--mlir-print-ir-after-all", action="store_true", help="print the IR after every pass (stderr)")
    p.add_argument(
        "--mlir-print-ir-before", action=_PassNames, default=[], metavar="PASS[,PASS]",
        help="print the IR before these passes (stderr)",
    )
    p.add_argument(
        "--mlir-print-ir-after", action=_PassNames, default=[], metavar="PASS[,PASS]",
        help="print the IR after these passes (stderr)",
    )
    p.add_argument(
        "--mlir-print-ir-after-failure", action="store_true", help="print the IR as a failing pass left it (stderr)"
    )
    p.add_argument(
        "--mlir-print-ir-after-change", action="store_true",
        help="with --mlir-print-ir-after-all / --mlir-print-ir-after: only when the pass changed the IR",
    )
    p.add_argument(
        "--mlir-print-local-scope", action="store_true",
        help="accepted for mlir-opt compatibility (pypto-opt prints every attribute and location inline already)",
    )
    p.add_argument("--dump-pass-pipeline", action="store_true", help="print the pipeline that runs, with every option (stderr)")
    p.add_argument(
        "--mlir-pass-statistics", action="store_true",
        help="print what each pass did, counted over the kernels (split, fallen back, halved, pipes, fences; stderr)",
    )
    p.add_argument(
        "--no-implicit-module", action="store_true",
        help="the input must be one builtin.module (no list of ops wrapped in a module)",
    )
    p.add_argument("--emit-bytecode", action="store_true", help="write MLIR bytecode (needs the mlir extra)")
    p.add_argument(
        "--split-report", metavar="FILE", default=None,
        help="write what the split passes decided, per kernel (FILE.json: JSON; '-': text on stderr; else text)",
    )
    p.add_argument("--mlir-timing", action="store_true", help="print the time of parsing, each pass and printing (stderr)")
    p.add_argument("--mlir-disable-threading", action="store_true", help="accepted for mlir-opt compatibility (pypto-opt is single-threaded)")
    p.add_argument("--allow-unregistered-dialect", action="store_true", help="accept ops of unknown dialects")
    p.add_argument("--list-passes", action="store_true", help="list the passes and their options, and exit")
    p.add_argument("--show-dialects", action="store_true", help="list the dialects pypto-opt reads, and exit")
    p.add_argument("--print-mlir-opt-path", action="store_true", help="print the path of the upstream mlir-opt")
    p.add_argument("--version", action="store_true", help="print the version and exit")
    p.set_defaults(pipeline=[], passes=[])
    return p


def long_options(parser: argparse.ArgumentParser) -> set[str]:
    return {s for a in parser._actions for s in a.option_strings if s.startswith("--")}


class Timer:
    """--mlir-timing: wall time per phase, printed as mlir-opt's execution time report."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, float]] = []
        self.start = time.perf_counter()

    def add(self, name: str, seconds: float) -> None:
        for i, (n, t) in enumerate(self.rows):
            if n == name:
                self.rows[i] = (n, t + seconds)
                return
        self.rows.append((name, seconds))

    def report(self) -> str:
        total = time.perf_counter() - self.start
        rule = "===" + "-" * 73 + "==="
        lines = [rule, "... Execution time report ...".center(79).rstrip(), rule, f"  Total Execution Time: {total:.4f} seconds", ""]
        lines.append("  ----Wall Time----  ----Name----")
        for name, t in self.rows:
            lines.append(f"  {t:10.4f} ({100 * t / total if total else 0:5.1f}%)  {name}")
        lines.append(f"  {total:10.4f} (100.0%)  Total")
        return "\n".join(lines) + "\n"


class DriverHooks(PipelineHooks):
    """Printing the IR around passes (--mlir-print-ir-*) and timing them (--mlir-timing)."""

    def __init__(self, driver: "Driver") -> None:
        self.d = driver
        self.t0 = 0.0
        self.before_text = ""  # --mlir-print-ir-after-change: the IR before the running pass

    def _dump(self, when: str, p, module) -> None:
        sys.stderr.write(self._dump_text(when, p, module))
        sys.stderr.flush()

    def _dump_text(self, when: str, p, module, failed: bool = False) -> str:
        what = f"{pass_display_name(p)}{' Failed' if failed else ''} ({p.name})"  # mlir-opt's header
        return f"// -----// IR Dump {when} {what} //----- //\n" + self.d._print(module)

    def before_pass(self, p, module) -> None:
        if id(p) in self.d.implicit:  # a check pypto-opt adds (verify-budget) prints and times nothing of its own
            return
        a = self.d.args
        if a.mlir_print_ir_before_all or p.name in a.mlir_print_ir_before:
            self._dump("Before", p, module)
        if a.mlir_print_ir_after_change and self._prints_after(p):
            self.before_text = self._dump_text("After", p, module)
        self.t0 = time.perf_counter()

    def _prints_after(self, p) -> bool:
        a = self.d.args
        return a.mlir_print_ir_after_all or p.name in a.mlir_print_ir_after

    def after_pass(self, p, module) -> None:
        if id(p) in self.d.implicit:
            return
        if self.d.timer is not None:
            self.d.timer.add(pass_display_name(p), time.perf_counter() - self.t0)
        if self._prints_after(p):
            text = self._dump_text("After", p, module)
            if self.d.args.mlir_print_ir_after_change and text == self.before_text:
                return  # --mlir-print-ir-after-change: the pass left the IR as it was
            sys.stderr.write(text)
            sys.stderr.flush()

    def after_failure(self, p, module, error) -> None:
        if self.d.timer is not None:
            self.d.timer.add(pass_display_name(p), time.perf_counter() - self.t0)
        if self.d.args.mlir_print_ir_after_failure:
            # Printed after the error, as mlir-opt does (its diagnostic is emitted while the pass runs).
            try:
                self.d.failure_dump = self._dump_text("After", p, module, failed=True)
            except Exception:  # a pass may leave IR that cannot be printed; the error matters more
                self.d.failure_dump = "// (the IR left by the failed pass cannot be printed)\n"


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
        self.passes, self.implicit = with_budget_checks(list(args.passes), enabled=not args.no_verify_budget)
        self.timer: Timer | None = Timer() if args.mlir_timing else None
        self.hooks = DriverHooks(self)
        self.failure_dump = ""  # --mlir-print-ir-after-failure: printed after the error
        self.reports: list[dict] = []  # --split-report: one per chunk

    def flush_failure_dump(self) -> None:
        if self.failure_dump:
            sys.stderr.write(self.failure_dump)
            self.failure_dump = ""

    def _timed(self, name: str, fn, *a):
        t0 = time.perf_counter()
        try:
            return fn(*a)
        finally:
            if self.timer is not None:
                self.timer.add(name, time.perf_counter() - t0)

    def run_chunk(self, text: str, name: str, line_offset: int) -> str:
        """Parse, verify, run the pipeline; returns the printed result or raises PtoError."""
        if is_blank(text):
            raise PtoError(EMPTY_INPUT, loc=SourceLoc(name, line_offset + 1, 1))
        module = self._timed(
            "Parser", parse_module, text, name, self.ctx, line_offset, not self.args.no_implicit_module
        )
        memo = None if self.args.verify_each == "full" else VerifyMemo()
        self._timed("Verifier", verify_module, module, memo)
        if self.args.split_report is None and not self.args.mlir_pass_statistics:
            run_pipeline(module, self.passes, self.ctx, hooks=self.hooks, input_verified=True, **self._verify(memo))
        else:
            self._run_reported(module, name, memo)
        return self._timed("Output", self._print, module)

    def _verify(self, memo: VerifyMemo | None) -> dict:
        """run_pipeline's verification arguments for --verify-each."""
        mode = self.args.verify_each
        return {"verify_each": bool(mode), "memo": memo, "full_verify": mode == "full"}

    def _run_reported(self, module, name: str, memo: VerifyMemo | None) -> None:
        """Run the pipeline recording the split report of this chunk (`--split-report`), also when it fails."""
        from pypto_mlir.passes.decisions import capture_decisions
        from pypto_mlir.split_report import SplitReportRecorder, build_report

        rec = SplitReportRecorder(self.hooks)
        with capture_decisions() as log:
            try:
                run_pipeline(module, self.passes, self.ctx, hooks=rec, input_verified=True, **self._verify(memo))
            finally:
                if rec.input is None:  # no pass ran: the module as read
                    rec.input = module
                if rec.output is None and rec.error is None:
                    rec.output = module
                self.reports.append(build_report(rec, log, name))

    def _print(self, module) -> str:
        a = self.args  # bytecode is written from the generic form with locations, which upstream MLIR reads
        return print_module(module, generic=a.mlir_print_op_generic or a.emit_bytecode, debuginfo=a.mlir_print_debuginfo or a.emit_bytecode)

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
                import traceback

                traceback.print_exc()
            raise PtoError(
                f"internal compiler error: {type(e).__name__}: {e} (please report this; PYPTO_DEBUG=1 shows details)",
                loc=SourceLoc(name, line_offset + 1, 1),
            ) from None


EXPANDED_BY = ("expand-mixed-kernel", "choose-ring-depth")
"""The passes after which the kernels are expanded: the pipeline, and its last phase run as a pass of its own."""


def with_budget_checks(passes: list, enabled: bool = True) -> tuple[list, set[int]]:
    """The pipeline with a `verify-budget` after every `expand-mixed-kernel` (or its last phase,
    `choose-ring-depth`), unless one follows it already or `enabled` is False (`--no-verify-budget`), and the ids
    of the passes added that way."""
    if not enabled or not any(p.name in EXPANDED_BY for p in passes):
        return passes, set()
    from pypto_mlir.passes import get_pass

    check = get_pass("verify-budget")
    out: list = []
    added: set[int] = set()
    for i, p in enumerate(passes):
        out.append(p)
        nxt = passes[i + 1] if i + 1 < len(passes) else None
        if p.name in EXPANDED_BY and (nxt is None or nxt.name != "verify-budget"):
            c = check()
            out.append(c)
            added.add(id(c))
    return out, added


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


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    def v(pkg: str) -> str:
        try:
            return version(pkg)
        except PackageNotFoundError:
            return "not installed"

    return f"pypto-opt (pypto-mlir) version {v('pypto-mlir')}\n  xDSL version {v('xdsl')}\n"


def _list_passes() -> str:
    """mlir-opt's `--list-passes` layout: each pass flag with its description, then its options."""
    import dataclasses

    from pypto_mlir.passes import get_pass

    lines = ["Passes:"]
    for flag, info in PASSES.items():
        lines.append(f"  --{flag:<48} -   {info.description}")
        cls = get_pass(flag)
        for f in dataclasses.fields(cls) if dataclasses.is_dataclass(cls) else ():
            if not f.init:
                continue
            default = "" if f.default is dataclasses.MISSING else f" (default: {str(f.default).lower()})"
            type_name = getattr(f.type, "__name__", str(f.type))
            lines.append(f"    --{f.name.replace('_', '-') + '=<' + type_name + '>':<46} - {default.strip()}")
    return "\n".join(lines) + "\n"


def _show_dialects() -> str:
    ctx = make_context()
    return "Available Dialects: " + ",".join(sorted(ctx.registered_dialect_names)) + "\n"


def read_input(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as f:
        return f.read()


def decode_input(data: bytes, name: str) -> str:
    """The text of an input: UTF-8 text as is; MLIR bytecode converted through the upstream bindings (the `mlir`
    extra); anything else a PtoError saying what the bytes are not."""
    if data.startswith(BYTECODE_MAGIC):
        from pypto_mlir.mlir_tools import bytecode_to_text

        return bytecode_to_text(data, name)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise PtoError(
            f"cannot read input file: it is neither UTF-8 text nor MLIR bytecode (byte 0x{data[e.start]:02x} at "
            f"offset {e.start} is not UTF-8)",
            loc=None,
        ) from None


def write_output(path: str, text: str | bytes) -> None:
    """Write `text` (or bytes) to `path` atomically (a temporary file in the same folder, renamed over `path` when complete),
    so a reader never sees a partial file and a failure leaves the old file as it was."""
    import tempfile

    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8") if isinstance(text, str) else text)
        try:
            mode = os.stat(path).st_mode & 0o7777  # keep an existing file's permissions
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def main(argv: Sequence[str] | None = None) -> int:
    """pypto-opt; runs with the GC thresholds of GC_THRESHOLDS and restores the caller's on return."""
    previous = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        return _main(argv)
    finally:
        gc.set_threshold(*previous)


def _main(argv: Sequence[str] | None) -> int:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    parser = build_arg_parser()
    try:
        raw = list(sys.argv[1:] if argv is None else argv)
        args = parser.parse_args(normalize_argv(raw, long_options(parser)))
        if args.emit_bytecode and args.split_input_file:
            raise UsageError("--emit-bytecode writes one module; it cannot be combined with --split-input-file")
    except UsageError as e:
        message = str(e)
        if message.startswith("unrecognized arguments: "):  # argparse's wording; mlir-opt's, with a suggestion
            first = message.split(": ", 1)[1].split(" ")[0]
            if first.startswith("-"):
                message = unknown_flag_message(first, long_options(parser))
            else:
                message = f"unexpected argument '{first}': pypto-opt reads one input file"
        sys.stderr.write(f"pypto-opt: error: {message}\n(see pypto-opt --help)\n")
        return 1
    if args.version:
        sys.stdout.write(_version())
        return 0
    if args.list_passes:
        sys.stdout.write(_list_passes())
        return 0
    if args.show_dialects:
        sys.stdout.write(_show_dialects())
        return 0
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
        data = read_input(args.input)
    except OSError as e:
        sys.stderr.write(f"{name}: error: cannot read input file: {e.strerror or e}\n")
        return 1
    try:
        text = decode_input(data, name)
    except PtoError as e:
        sys.stderr.write(e.format(fallback=name) + "\n")
        return 1
    driver = Driver(args)
    sources = {name: text}
    if args.dump_pass_pipeline:
        sys.stderr.write(pipeline_text(driver.passes))

    if is_blank(text):
        sys.stderr.write(f"{name}:1:1: error: {EMPTY_INPUT}\n")
        return 1
    chunks = split_chunks(text) if args.split_input_file else [(text, 0)]
    outputs: list[str] = []
    failed = False
    for chunk, offset in chunks:
        if args.verify_diagnostics:
            ok, out = verify_chunk(driver, chunk, name, offset)
            driver.flush_failure_dump()
            failed |= not ok
            if out is not None:
                outputs.append(out)
            continue
        try:
            outputs.append(driver.guarded_chunk(chunk, name, offset))
        except PtoError as e:
            sys.stderr.write(e.format(fallback=name, sources=sources) + "\n")
            driver.flush_failure_dump()
            failed = True
    if driver.timer is not None:
        sys.stderr.write(driver.timer.report())
    if args.mlir_pass_statistics:
        ran = [pass_display_name(p) for p in driver.passes]
        sys.stderr.write(format_statistics(pass_statistics(driver.reports, ran)))
    if args.split_report is not None:  # written for a failing run too: it says what was refused and why
        from pypto_mlir.split_report import write_reports

        try:
            write_reports(args.split_report, driver.reports)
        except OSError as e:
            sys.stderr.write(f"{args.split_report}: error: cannot write the split report: {e.strerror or e}\n")
            return 1
    result: str | bytes = "// -----\n".join(outputs)
    if args.emit_bytecode and not failed:
        try:
            result = emit_bytecode(str(result))
        except PtoError as e:
            sys.stderr.write(e.format(fallback=name) + "\n")
            return 1
    if args.output == "-":
        try:
            if isinstance(result, bytes):
                sys.stdout.buffer.write(result)
            else:
                sys.stdout.write(result)
            sys.stdout.flush()
        except BrokenPipeError:  # the reader went away (`| head`): not an error of ours
            pass
        return 1 if failed else 0
    if failed:  # as mlir-opt: no output file for a failing run (an existing one keeps its contents)
        return 1
    try:
        write_output(args.output, result)
    except OSError as e:
        sys.stderr.write(f"{args.output}: error: cannot write output file: {e.strerror or e}\n")
        return 1
    return 0


def verify_chunk(driver: Driver, chunk: str, name: str, offset: int) -> tuple[bool, str | None]:
    """Run one chunk under --verify-diagnostics; report mismatches; returns (ok, printed output or None)."""
    expected = collect_expected(chunk, offset)
    produced: PtoError | None = None
    out = None
    with capture_remarks() as remarks:  # a pass's remarks are diagnostics too (expected-remark)
        try:
            out = driver.guarded_chunk(chunk, name, offset)
        except PtoError as e:
            produced = e
    ok = True
    diags = [(r.severity, r.loc, r.message) for r in remarks]
    if produced is not None:
        diags += [(produced.severity, produced.loc, produced.message)] + [
            ("note", nloc or produced.loc, text) for nloc, text in produced.notes
        ]
    if diags:
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
