"""`pypto-run`: run a `pto` program in the reference interpreter, or check a pass pipeline by execution.

    pypto-run [options] input.mlir
    pypto-run --check-pipeline "lower-auto-vector-split,expand-mixed-kernel" input.mlir
    pypto-run --compare-with after.mlir input.mlir
    pypto-run --expect out=golden.npy input.mlir

The entry function (`--entry`, else the module's only orchestration function, else `@main`) runs on seeded
random inputs (`--seed`), or on arrays given with `--input NAME=FILE.npy`; `pto.out` tensors start zeroed.
A given array must have the parameter's element type; a file of another type is accepted when every value
converts exactly (a bf16 output saved as float32 feeds back as is), and converted with rounding only with
`--cast`. Outputs are the returned values (`result#i`) and every tensor parameter (`%name`); they are printed,
or saved as `.npy` files with `--output-dir` (element types plain numpy cannot name -- bf16, fp8 -- are saved
as float32, which holds them exactly). With `--check-pipeline` (or `--compare-with`) the program runs before
and after the pipeline (or against a second file) on the same inputs and every output is compared: integers
exactly, floats within rtol = atol = 4 machine epsilons of their element type. `--compare-with` matches the
two entry functions' parameters by position (upstream MLIR renames them `%arg0`, ...). `--expect NAME=FILE`
compares an output with a golden file, with the same tolerance. `--json` prints a machine-readable summary on
standard output. The exit code is 0 when the run (or the check) succeeds and 1 otherwise; every failure is
printed as `file:line:col: error: message`, with a note per core.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
import traceback
from collections.abc import Sequence

import numpy as np

from pypto_mlir.diagnostics import PtoError, SourceLoc
from pypto_mlir.tools.run_common import UsageError, budgeted


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
        allow_abbrev=False,
    )
    p.add_argument("input", help="input .mlir file ('-': standard input); MLIR bytecode needs the mlir extra")
    p.add_argument("--entry", metavar="NAME", help="function to run (default: the orchestration function, or @main)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default 0)")
    p.add_argument(
        "--input", dest="inputs", action="append", default=[], metavar="NAME=FILE.npy",
        help="take parameter NAME from a .npy file (repeatable); its element type must match (see --cast)",
    )
    p.add_argument(
        "--cast", action="store_true",
        help="convert --input arrays of another element type to the parameter's, rounding if needed",
    )
    p.add_argument(
        "--output-dir", metavar="DIR",
        help="save every output as DIR/<name>.npy instead of printing it (bf16/fp8 as float32)",
    )
    p.add_argument(
        "--expect", action="append", default=[], metavar="NAME=FILE.npy",
        help="compare output NAME (%%param or result#i) with a golden .npy file (repeatable)",
    )
    p.add_argument(
        "--check-pipeline", metavar="PIPELINE",
        help="run the program before and after these passes and compare the outputs",
    )
    p.add_argument(
        "--compare-with", metavar="FILE",
        help="run the input and FILE (e.g. a pass output) on the same inputs and compare the outputs",
    )
    p.add_argument(
        "--no-verify-budget", action="store_true",
        help="with --check-pipeline: do not check memory budgets after expand-mixed-kernel (as pypto-opt)",
    )
    p.add_argument(
        "--timing", action="store_true",
        help="also print the modelled timing of the run (makespan, each core's busy and waiting cycles, ring "
        "stalls; of the pipeline's output with --check-pipeline / of FILE with --compare-with; of the default "
        "pipeline's output, beside the same kernels unsplit, for a program of mixed kernels): modelled "
        "cycles, not hardware time (docs/timing-model.md)",
    )
    p.add_argument(
        "--trace", metavar="OUT.json",
        help="write the modelled run as a Chrome trace-event file (Perfetto, chrome://tracing): one track per core",
    )
    p.add_argument("--json", action="store_true", help="print a JSON summary on standard output")
    p.add_argument(
        "--progress", choices=("auto", "always", "never"), default="auto",
        help="report what is running on standard error every few seconds (auto: when stderr is a terminal)",
    )
    p.add_argument("--quiet", action="store_true", help="print nothing on success")
    return p


# ---------------------------------------------------------------------------------------------------------------
# Inputs and outputs
# ---------------------------------------------------------------------------------------------------------------


def _read(path: str) -> str:
    from pypto_mlir.tools.pypto_opt import decode_input, read_input

    name = "<stdin>" if path == "-" else path
    return decode_input(read_input(path), name)


def _name_value(spec: str, flag: str) -> tuple[str, str]:
    if "=" not in spec:
        raise UsageError(f"{flag} expects NAME=FILE.npy, got '{spec}'")
    name, path = spec.split("=", 1)
    return name, path


def _load_npy(path: str) -> np.ndarray:
    try:
        return np.load(path)
    except (OSError, ValueError) as e:
        raise UsageError(f"cannot read '{path}': {e}") from None


def _load_inputs(specs: list[str]) -> dict[str, np.ndarray]:
    out = {}
    for spec in specs:
        name, path = _name_value(spec, "--input")
        out[name.lstrip("%")] = _load_npy(path)
    return out


def plain_numpy(arr: np.ndarray) -> np.ndarray:
    """`arr` in an element type plain numpy reads back: types from ml_dtypes (bf16, fp8, int4) are widened to
    float32 / int8, which hold every value exactly; numpy's own types are kept."""
    if arr.dtype.kind in "biufc" and type(arr.dtype).__module__.startswith("numpy") and arr.dtype.isbuiltin:
        return arr
    return arr.astype(np.float32 if arr.dtype.kind == "V" or "float" in arr.dtype.name else np.int8)


def _category(dt: np.dtype) -> str:
    """'float' or 'integer' (ml_dtypes' bf16/fp8 report numpy kind 'V', so the name decides for them)."""
    return "float" if dt.kind in "fc" or "float" in dt.name else "integer"


def check_given(f, given: dict[str, np.ndarray], cast: bool, name: str) -> dict[str, np.ndarray]:
    """The given arrays converted to their parameters' element types: exactly (every value survives the
    round trip), or with rounding under `--cast`; else a PtoError naming the parameter and the two types."""
    from pypto_mlir.dialects.pto_types import TensorType, TileType
    from pypto_mlir.interpreter.runner import param_names
    from pypto_mlir.interpreter.values import np_dtype

    out = dict(given)
    for arg, pname in zip(f.body.block.args, param_names(f)):
        if pname not in given or not isinstance(arg.type, (TensorType, TileType)):
            continue
        data = np.asarray(given[pname])
        want = np_dtype(arg.type.element_type)
        if data.dtype == want:
            continue
        if data.dtype.kind == "V" and data.dtype.itemsize == want.itemsize:
            out[pname] = data.view(want)  # bf16/fp8 saved through ml_dtypes read back as raw bytes
            continue
        with np.errstate(invalid="ignore", over="ignore"):
            converted = data.astype(want)
            back = converted.astype(data.dtype)
            same = (back == data) | (np.isnan(back.astype(np.float64)) & np.isnan(data.astype(np.float64)))
        if cast or (_category(data.dtype) == _category(want) and bool(np.all(same))):
            out[pname] = converted
            continue
        if _category(data.dtype) != _category(want):
            raise PtoError(
                f"input '{pname}' has element type {data.dtype} but parameter %{pname} is {arg.type} (a "
                f"{_category(want)} type); convert the file, or pass --cast to convert it",
                op=f,
            )
        bad = int(np.count_nonzero(~same))
        raise PtoError(
            f"input '{pname}' has element type {data.dtype} but parameter %{pname} is {arg.type}, and {bad} of its "
            f"{data.size} values are not exactly representable in {want}; convert the file, or pass --cast to "
            "round them",
            op=f,
        )
    return out


def _safe_name(name: str) -> str:
    return name.replace("%", "").replace("#", "_")


def _output_records(outputs, out_dir: str | None, quiet: bool) -> dict[str, dict]:
    """Print or save every output; returns {name: {shape, dtype, [file, saved_as]}} for --json."""
    records: dict[str, dict] = {}
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
    for name, v in outputs.values.items():
        arr = np.asarray(v)
        rec: dict = {"shape": list(arr.shape), "dtype": str(arr.dtype)}
        if out_dir:
            path = os.path.join(out_dir, _safe_name(name) + ".npy")
            saved = plain_numpy(arr)
            np.save(path, saved)
            rec.update(file=path, saved_as=str(saved.dtype))
            if not quiet:
                as_ = "" if saved.dtype == arr.dtype else f" as {saved.dtype}"
                print(f"{name}: saved {list(arr.shape)} {arr.dtype}{as_} to {path}")
        elif not quiet:
            with np.printoptions(threshold=256, edgeitems=3, linewidth=120, precision=5):
                print(f"{name}: {list(arr.shape)} {arr.dtype}\n{arr}")
        records[name] = rec
    return records


def check_expected(outputs, specs: list[str]) -> list[dict]:
    """Compare outputs with golden files (`--expect NAME=FILE.npy`), with the pipeline check's tolerance."""
    from pypto_mlir.interpreter.runner import Outputs, compare

    results = []
    for spec in specs:
        name, path = _name_value(spec, "--expect")
        key = name if name.startswith(("%", "result#")) else "%" + name
        golden = _load_npy(path)
        if key not in outputs.values:
            raise UsageError(f"--expect {name}: no output named {key} (outputs: {', '.join(outputs.values)})")
        got = np.asarray(outputs.values[key])
        if golden.dtype != got.dtype:  # a golden file of another element type is compared in the output's type
            golden = golden.view(got.dtype) if golden.dtype.kind == "V" and golden.dtype.itemsize == got.dtype.itemsize else golden.astype(got.dtype)
        mm = compare(Outputs({key: golden}), Outputs({key: got}), labels=("expected", "got"))
        results.append({"name": key, "file": path, "ok": mm is None, "message": None if mm is None else mm.message})
    return results


# ---------------------------------------------------------------------------------------------------------------
# Progress
# ---------------------------------------------------------------------------------------------------------------


class Progress:
    """Every few seconds, `pypto-run: <what is running>... N s` on standard error (a long run is not a hang)."""

    def __init__(self, mode: str, every: float = 2.0):
        self.enabled = mode == "always" or (mode == "auto" and sys.stderr.isatty())
        self.every = every
        self.stage = "starting"
        self.start = time.monotonic()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Progress:
        if self.enabled:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def set(self, stage: str) -> None:
        self.stage = stage

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            sys.stderr.write(f"pypto-run: {self.stage}... {time.monotonic() - self.start:.0f} s\n")
            sys.stderr.flush()


# ---------------------------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    summary: dict = {"ok": False}
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
        for spec in args.expect:
            _name_value(spec, "--expect")
    except UsageError as e:
        sys.stderr.write(f"pypto-run: error: {e}\n(see pypto-run --help)\n")
        return 1
    name = "<stdin>" if args.input == "-" else args.input
    summary.update(input=name, seed=args.seed)
    code = 1
    try:
        with Progress(args.progress) as progress:
            code = _run(args, name, pipeline, given, summary, progress)
    except UsageError as e:
        sys.stderr.write(f"pypto-run: error: {e}\n(see pypto-run --help)\n")
        summary["error"] = str(e)
    except OSError as e:
        if isinstance(e, BrokenPipeError):
            return 0
        sys.stderr.write(f"{e.filename or name}: error: cannot read input file: {e.strerror or e}\n")
        summary["error"] = f"cannot read input file: {e.strerror or e}"
    except PtoError as e:
        text = e.format(fallback=name)
        sys.stderr.write(text + "\n")
        summary["error"] = text
    except Exception as e:  # never a traceback for the user
        if os.environ.get("PYPTO_DEBUG"):
            traceback.print_exc()
        err = PtoError(
            f"internal interpreter error: {type(e).__name__}: {e} (please report this; PYPTO_DEBUG=1 shows details)",
            loc=SourceLoc(name, 1, 1),
        )
        sys.stderr.write(err.format() + "\n")
        summary["error"] = err.format()
    if args.json:
        summary["ok"] = code == 0
        sys.stdout.write(json.dumps(summary, indent=2) + "\n")
    return code


def _match_parameters_by_position(before_mod, after_mod, entry: str | None) -> None:
    """Give the entry function of `after_mod` the parameter names of `before_mod`'s, by position: the signature
    is positional, and upstream MLIR renames parameters (`%arg0`), so an unchanged round trip compares equal."""
    from pypto_mlir.interpreter.runner import find_entry

    f = find_entry(before_mod, entry)
    try:
        g = find_entry(after_mod, f.sym_name.data)
    except PtoError:
        return  # reported by the check itself
    if len(f.body.block.args) == len(g.body.block.args):
        for a, b in zip(f.body.block.args, g.body.block.args):
            b.name_hint = a.name_hint


def _run(args, name: str, pipeline: list[str], given, summary: dict, progress: Progress) -> int:
    from pypto_mlir.interpreter import check_modules, run_program
    from pypto_mlir.check_pipeline import check_pipeline_text
    from pypto_mlir.interpreter.runner import find_entry
    from pypto_mlir.ir import parse_module
    from pypto_mlir.verify import verify_module

    progress.set("reading the input")
    text = _read(args.input)
    module = parse_module(text, name)
    verify_module(module)
    if given:
        given = check_given(find_entry(module, args.entry), given, args.cast, name)

    outputs = None
    if args.check_pipeline is not None or args.compare_with:
        if args.check_pipeline is not None:
            progress.set(f"checking the pipeline '{','.join(pipeline)}' (running before and after it)")
            # the memory budget check pypto-opt runs after expand-mixed-kernel runs here too
            res = check_pipeline_text(text, budgeted(pipeline, args.no_verify_budget), name, args.entry, args.seed, given)
            what = f"pipeline '{','.join(pipeline)}'"
            summary.update(mode="check-pipeline", pipeline=",".join(pipeline))
        else:
            other = args.compare_with
            progress.set(f"reading '{other}'")
            after = parse_module(_read(other), other)
            verify_module(after)
            _match_parameters_by_position(module, after, args.entry)
            progress.set(f"running '{name}' and '{other}'")
            res = check_modules(module, after, args.entry, args.seed, given, name)
            what = f"'{other}'"
            summary.update(mode="compare-with", compare_with=other)
        summary.update(check={"ok": res.ok, "stage": res.stage, "report": res.report})
        if not res.ok:
            sys.stderr.write(f"{name}: check of {what} FAILED ({res.stage})\n{res.report}\n")
            return 1
        if not args.quiet and not args.json:
            print(f"{name}: check of {what} passed: {res.report} (seed {args.seed})")
        outputs = res.after
        if outputs is not None and args.output_dir:
            summary["outputs"] = _output_records(outputs, args.output_dir, args.quiet or args.json)
    else:
        summary.update(mode="run")
        progress.set("running the program")
        outputs = run_program(module, args.entry, args.seed, given)
        summary["outputs"] = _output_records(outputs, args.output_dir, args.quiet or args.json)
    if args.expect:
        progress.set("comparing with the expected outputs")
        results = check_expected(outputs, args.expect)
        summary["expect"] = results
        for r in results:
            if not r["ok"]:
                sys.stderr.write(f"{name}: error: {r['message']} (expected: {r['file']})\n")
            elif not args.quiet and not args.json:
                print(f"{r['name']}: matches {r['file']}")
        if not all(r["ok"] for r in results):
            return 1
    if args.timing or args.trace:
        progress.set("running the timing model")
        from pypto_mlir.tools.run_timing import report_timing

        compiled = res.after_module if args.check_pipeline is not None else after if args.compare_with else None
        report_timing(args, name, text, module, compiled, given, summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
