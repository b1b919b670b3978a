"""`pypto-run`: run a `pto` program in the reference interpreter, or check a pass pipeline by execution.

    pypto-run [options] input.mlir
    pypto-run --check-pipeline "lower-auto-vector-split,expand-mixed-kernel" input.mlir
    pypto-run --compare-with after.mlir input.mlir

The entry function (`--entry`, else the module's only orchestration function, else `@main`) runs on seeded
random inputs (`--seed`), or on arrays given with `--input NAME=FILE.npy`; `pto.out` tensors start zeroed.
Outputs are the returned values (`result#i`) and every tensor parameter (`%name`); they are printed, or saved as
`.npy` files with `--output-dir`.  With `--check-pipeline` (or `--compare-with`) the program runs before and after
the pipeline (or against a second file) on the same inputs and every output is compared: integers exactly, floats
within rtol = atol = 4 machine epsilons of their element type.  The exit code is 0 when the run (or the check)
succeeds and 1 otherwise; every failure is printed as `file:line:col: error: message`, with a note per core.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence

import numpy as np

from pypto_mlir.diagnostics import PtoError, SourceLoc


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # type: ignore[override]
        raise UsageError(message)


def build_arg_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="pypto-run",
        description="Run a `pto` program in the reference interpreter, or check a pass pipeline by execution.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Float outputs are compared with rtol = atol = 4 machine epsilons of their element type; "
        "integer outputs exactly.",
    )
    p.add_argument("input", help="input .mlir file ('-': standard input)")
    p.add_argument("--entry", metavar="NAME", help="function to run (default: the orchestration function, or @main)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default 0)")
    p.add_argument(
        "--input", dest="inputs", action="append", default=[], metavar="NAME=FILE.npy",
        help="take parameter NAME from a .npy file (repeatable)",
    )
    p.add_argument("--output-dir", metavar="DIR", help="save every output as DIR/<name>.npy instead of printing it")
    p.add_argument(
        "--check-pipeline", metavar="PIPELINE",
        help="run the program before and after these passes (comma-separated) and compare the outputs",
    )
    p.add_argument(
        "--compare-with", metavar="FILE",
        help="run the input and FILE (e.g. a pass output) on the same inputs and compare the outputs",
    )
    p.add_argument("--quiet", action="store_true", help="print nothing on success")
    return p


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as f:
        return f.read()


def _load_inputs(specs: list[str]) -> dict[str, np.ndarray]:
    out = {}
    for spec in specs:
        if "=" not in spec:
            raise UsageError(f"--input expects NAME=FILE.npy, got '{spec}'")
        name, path = spec.split("=", 1)
        try:
            out[name.lstrip("%")] = np.load(path)
        except (OSError, ValueError) as e:
            raise UsageError(f"cannot read '{path}': {e}") from None
    return out


def _safe_name(name: str) -> str:
    return name.replace("%", "").replace("#", "_")


def _print_outputs(outputs, out_dir: str | None) -> None:
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
    for name, v in outputs.values.items():
        arr = np.asarray(v)
        if out_dir:
            path = os.path.join(out_dir, _safe_name(name) + ".npy")
            np.save(path, arr)
            print(f"{name}: saved {list(arr.shape)} {arr.dtype} to {path}")
        else:
            with np.printoptions(threshold=256, edgeitems=3, linewidth=120, precision=5):
                print(f"{name}: {list(arr.shape)} {arr.dtype}\n{arr}")


def main(argv: Sequence[str] | None = None) -> int:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    try:
        args = build_arg_parser().parse_args(argv)
        given = _load_inputs(args.inputs)
        pipeline: list[str] = []
        if args.check_pipeline is not None:
            from pypto_mlir.pipeline import PipelineError, describe_pass, parse_pipeline

            try:
                pipeline = [describe_pass(p) for p in parse_pipeline(args.check_pipeline)]
            except PipelineError as e:
                raise UsageError(str(e)) from None
            if args.compare_with:
                raise UsageError("--check-pipeline and --compare-with cannot be combined")
    except UsageError as e:
        sys.stderr.write(f"pypto-run: error: {e}\n(see pypto-run --help)\n")
        return 1
    name = "<stdin>" if args.input == "-" else args.input
    try:
        text = _read(args.input)
    except (OSError, UnicodeDecodeError) as e:
        sys.stderr.write(f"{name}: error: cannot read input file: {getattr(e, 'strerror', None) or e}\n")
        return 1
    try:
        return _run(args, text, name, pipeline, given)
    except PtoError as e:
        sys.stderr.write(e.format(fallback=name) + "\n")
        return 1
    except BrokenPipeError:
        return 0
    except Exception as e:  # never a traceback for the user
        if os.environ.get("PYPTO_DEBUG"):
            traceback.print_exc()
        err = PtoError(
            f"internal interpreter error: {type(e).__name__}: {e} (please report this; PYPTO_DEBUG=1 shows details)",
            loc=SourceLoc(name, 1, 1),
        )
        sys.stderr.write(err.format() + "\n")
        return 1


def _run(args, text: str, name: str, pipeline: list[str], given) -> int:
    from pypto_mlir.interpreter import check_modules, check_pipeline_text, run_program
    from pypto_mlir.ir import parse_module
    from pypto_mlir.verify import verify_module

    if args.check_pipeline is not None or args.compare_with:
        if args.check_pipeline is not None:
            res = check_pipeline_text(text, pipeline, name, args.entry, args.seed, given)
            what = f"pipeline '{','.join(pipeline)}'"
        else:
            before = parse_module(text, name)
            verify_module(before)
            other = args.compare_with
            after = parse_module(_read(other), other)
            verify_module(after)
            res = check_modules(before, after, args.entry, args.seed, given, name)
            what = f"'{other}'"
        if not res.ok:
            sys.stderr.write(f"{name}: check of {what} FAILED ({res.stage})\n{res.report}\n")
            return 1
        if not args.quiet:
            print(f"{name}: check of {what} passed: {res.report} (seed {args.seed})")
        if args.output_dir and res.after is not None:
            _print_outputs(res.after, args.output_dir)
        return 0
    module = parse_module(text, name)
    verify_module(module)
    outputs = run_program(module, args.entry, args.seed, given)
    if not args.quiet:
        _print_outputs(outputs, args.output_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
