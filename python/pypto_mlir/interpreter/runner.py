"""Running a program on inputs, and checking a pass pipeline by running the program before and after it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from pypto_mlir.diagnostics import PtoError

from .inputs import copy_inputs, find_entry, make_inputs, param_direction, param_names, random_array, run_timed  # noqa: F401  (re-exported)
from .machine import Machine
from .values import Buffer, Tile, is_float_dtype


# ---------------------------------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class Outputs:
    """Named results of one run: `result#i` for returned values, `%name` for every tensor parameter."""

    values: dict[str, np.ndarray | Any] = field(default_factory=dict)


def to_array(v: Any) -> Any:
    if isinstance(v, Buffer):
        return v.data
    if isinstance(v, Tile):
        return v.valid_view()
    return v


def run_function(
    module: ModuleOp, f: func.FuncOp, inputs: list[Any], order: str = "forward", detect_races: bool = True
) -> Outputs:
    args = copy_inputs(inputs)
    results = Machine(module, order, detect_races).run(f.sym_name.data, args)
    out = Outputs()
    for i, r in enumerate(results or []):
        out.values[f"result#{i}"] = np.array(to_array(r), copy=True) if not np.isscalar(to_array(r)) else to_array(r)
    for name, a in zip(param_names(f), args):
        if isinstance(a, Buffer):
            out.values[f"%{name}"] = a.data
    return out


def run_program(module: ModuleOp, entry: str | None = None, seed: int = 0, given=None) -> Outputs:
    f = find_entry(module, entry)
    return run_function(module, f, make_inputs(f, seed, given))


# ---------------------------------------------------------------------------------------------------------------
# Comparing
# ---------------------------------------------------------------------------------------------------------------


def tolerance(dt: np.dtype) -> tuple[float, float]:
    """(rtol, atol) for comparing floats of dtype `dt`: 4 machine epsilons of the element type, both ways.

    Integers (and booleans) are compared exactly."""
    if not is_float_dtype(dt):
        return 0.0, 0.0
    import ml_dtypes

    try:
        eps = float(np.finfo(dt).eps)
    except ValueError:
        eps = float(ml_dtypes.finfo(dt).eps)
    return 4 * eps, 4 * eps


@dataclass
class Mismatch:
    name: str
    message: str


def compare(before: Outputs, after: Outputs, labels: tuple[str, str] = ("before", "after")) -> Mismatch | None:
    """The first output that differs (in the order of `before`), or None. `labels` name the two sides in the
    messages (`pypto-run --expect` says "expected"/"got")."""
    lb, la = labels
    for name, b in before.values.items():
        if name not in after.values:
            return Mismatch(name, f"output {name} exists before the pipeline but not after it")
        a = after.values[name]
        if np.isscalar(b) or np.isscalar(a):
            if not (np.isscalar(a) and np.isscalar(b)) or not _scalar_equal(b, a):
                return Mismatch(name, f"output {name} differs: {lb} {b!r}, {la} {a!r}")
            continue
        b, a = np.asarray(b), np.asarray(a)
        if b.shape != a.shape:
            return Mismatch(name, f"output {name} differs in shape: {lb} {list(b.shape)}, {la} {list(a.shape)}")
        if b.dtype != a.dtype:
            return Mismatch(name, f"output {name} differs in element type: {lb} {b.dtype}, {la} {a.dtype}")
        rtol, atol = tolerance(b.dtype)
        if rtol == 0.0:
            bad = b != a
        else:
            b64, a64 = b.astype(np.float64), a.astype(np.float64)
            bad = ~np.isclose(a64, b64, rtol=rtol, atol=atol, equal_nan=True)
        if np.any(bad):
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            n = int(np.count_nonzero(bad))
            tol = "exact comparison" if rtol == 0.0 else f"tolerance rtol = atol = {rtol:.3g}"
            return Mismatch(
                name,
                f"output {name} differs at {list(idx)}: {lb} {_fmt(b[idx])}, {la} {_fmt(a[idx])} "
                f"({n} of {b.size} elements differ; {tol}; element type {b.dtype})",
            )
    for name in after.values:
        if name not in before.values:
            return Mismatch(name, f"output {name} exists after the pipeline but not before it")
    return None


def _fmt(v: Any) -> str:
    try:
        return repr(v.item())
    except (AttributeError, ValueError):
        return repr(v)


def _scalar_equal(a: Any, b: Any) -> bool:
    try:
        if isinstance(a, (float, np.floating)) or isinstance(b, (float, np.floating)):
            return bool(np.isclose(float(a), float(b), rtol=1e-6, atol=1e-6, equal_nan=True))
    except TypeError:
        pass
    return a == b


# ---------------------------------------------------------------------------------------------------------------
# Pipeline checking
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class CheckResult:
    ok: bool
    stage: str  # "ok", "before", "pass", "after", "compare"
    report: str
    before: Outputs | None = None
    after: Outputs | None = None
    after_module: ModuleOp | None = None  # check_pipeline_text: the pipeline's output (for a timing run)


def check_modules(
    before_mod: ModuleOp, after_mod: ModuleOp, entry=None, seed=0, given=None, fallback="<input>", detect_races=True
) -> CheckResult:
    """Run `before_mod` and `after_mod` on the same inputs (drawn for the entry of `before_mod`) and compare."""
    try:
        f = find_entry(before_mod, entry)
        inputs = make_inputs(f, seed, given)
        before = run_function(before_mod, f, inputs, "forward", detect_races)
        racy = compare(before, run_function(before_mod, f, inputs, "reverse", detect_races))
    except PtoError as e:
        return CheckResult(False, "before", "the program fails before the pipeline:\n" + e.format(fallback))
    if racy is not None:
        return CheckResult(
            False,
            "before",
            f"{fallback}: error: the input program's outputs depend on the order its cores or lanes run in (a race "
            f"in the input itself), so there is nothing to compare against: {racy.message}",
        )
    # The output program runs under both schedule orders (AIC first, then AIV lanes first), so a race between
    # cores that the protocol leaves unordered shows up whichever way it goes.
    after = None
    for order in ("forward", "reverse"):
        sched = "" if order == "forward" else " (schedule: AIV lanes resumed before the AIC)"
        try:
            f2 = find_entry(after_mod, f.sym_name.data)
            after = run_function(after_mod, f2, inputs, order, detect_races)
        except PtoError as e:
            return CheckResult(
                False, "after", f"the program fails after the pipeline{sched}:\n" + e.format(fallback), before
            )
        mm = compare(before, after)
        if mm is not None:
            return CheckResult(False, "compare", f"mismatch after the pipeline{sched}: {mm.message}", before, after)
    return CheckResult(True, "ok", f"{len(before.values)} output(s) match", before, after)
