"""`pypto-run --timing` / `--trace`: which module the timing model times, and the unsplit figure beside it.

The model times Groups (the AIC + AIV kernels ExpandMixedKernel makes). What is timed:

- with `--check-pipeline`, the pipeline's output; with `--compare-with FILE`, FILE;
- a program that runs no Group but has mixed (`incore`) kernels: the output of the default pipeline
  (`lower-auto-vector-split,expand-mixed-kernel`, with the memory budget check pypto-opt adds), said on standard
  error; when a kernel asks for a lane split (`pto.split`), the same kernels without that request go through
  the same pipeline and their makespan is shown beside, so the gain of the split is visible;
- otherwise, the program as written. When no Group runs at all there is nothing to time: an error that says
  what to run, never an empty report or an empty trace.

pypto-run imports this module only for `--timing` / `--trace`, so its imports sit at the top.
"""

from __future__ import annotations

import sys

from xdsl.dialects import func

from pypto_mlir.dialects.pto_types import SPLIT_ATTR, FunctionKind, kind_of
from pypto_mlir.interpreter.runner import run_timed
from pypto_mlir.ir import parse_module
from pypto_mlir.pipeline import run_pipeline
from pypto_mlir.timing.report import format_text, schedules, summary as timing_summary, write_trace
from pypto_mlir.tools.run_common import UsageError, budgeted

DEFAULT_PIPELINE = "lower-auto-vector-split,expand-mixed-kernel"


def report_timing(args, name: str, text: str, module, compiled, given, summary: dict) -> None:
    """Print (`--timing`) and write (`--trace`) the modelled timing; `compiled` is the module the check compiled
    (`--check-pipeline`) or the other file (`--compare-with`), else None."""
    scheds = _timed(args, compiled if compiled is not None else module, given)
    unsplit = None
    if not scheds and compiled is None and _has_mixed_kernels(module):
        sys.stderr.write(
            f"{name}: note: the timing model times mixed kernels once they are split into AIC and AIV kernels: "
            f"timing the output of the default pipeline '{DEFAULT_PIPELINE}' (choose the passes with "
            "--check-pipeline)\n"
        )
        scheds = _timed(args, _compile(text, name, args, keep_split=True), given)
        if _asks_for_split(module):
            unsplit = _timed(args, _compile(text, name, args, keep_split=False), given)
        summary["timed_pipeline"] = DEFAULT_PIPELINE
    if not scheds:
        raise UsageError(_nothing_to_time(args))
    if args.trace:
        try:
            write_trace(scheds, args.trace)
        except OSError as e:
            raise UsageError(f"cannot write the trace file '{args.trace}': {e.strerror or e}") from None
        summary["trace"] = args.trace
    if args.timing:
        if args.json:
            summary["timing"] = timing_summary(scheds)
            if unsplit is not None:
                summary["timing"]["unsplit"] = timing_summary(unsplit)
        else:
            sys.stdout.write(format_text(scheds))
            if unsplit is not None:
                sys.stdout.write(unsplit_text(scheds, unsplit))


def unsplit_text(split, unsplit) -> str:
    """The makespan of each Group split and unsplit, and the ratio (split / unsplit: below 1, the split gains)."""
    lines = ["unsplit: the same kernels without their pto.split request, through the same pipeline"]
    for s, u in zip(split, unsplit):
        ratio = f" ({s.makespan / u.makespan:.2f}x)" if u.makespan else ""
        lines.append(f"  {s.timeline.label}: makespan {s.makespan} cycles split, {u.makespan} unsplit{ratio}")
    total_s, total_u = sum(s.makespan for s in split), sum(u.makespan for u in unsplit)
    ratio = f": the split takes {total_s / total_u:.2f}x the unsplit time" if total_u else ""
    lines.append(f"total makespan {total_s} cycles split, {total_u} unsplit{ratio}")
    return "\n".join(lines) + "\n"


def _timed(args, module, given) -> list:
    return schedules(run_timed(module, args.entry, args.seed, given))


def _compile(text: str, name: str, args, keep_split: bool):
    """A fresh copy of the program through the default pipeline (and the budget check); without its lane split
    requests when `keep_split` is False."""
    module = parse_module(text, name)
    if not keep_split:
        for f in module.walk():
            if isinstance(f, func.FuncOp):
                f.attributes.pop(SPLIT_ATTR, None)
    run_pipeline(module, ",".join(budgeted([DEFAULT_PIPELINE], args.no_verify_budget)))
    return module


def _functions(module):
    return [op for op in module.walk() if isinstance(op, func.FuncOp)]


def _has_mixed_kernels(module) -> bool:
    return any(kind_of(f) == FunctionKind.INCORE for f in _functions(module))


def _asks_for_split(module) -> bool:
    return any(SPLIT_ATTR in f.attributes for f in _functions(module))


def _nothing_to_time(args) -> str:
    what = "--timing" if args.timing else "--trace"
    msg = f"{what}: no Group ran, so there is nothing to time (the timing model times the AIC + AIV Groups " \
        "ExpandMixedKernel makes)"
    if args.check_pipeline is not None and "expand-mixed-kernel" not in args.check_pipeline:
        return f"{msg}; add it to the pipeline: --check-pipeline '{args.check_pipeline},expand-mixed-kernel'"
    return f"{msg}; this program has no mixed kernel to expand"
