"""The inputs of a run (the entry function, seeded random arguments) and the timing model's run (`run_timed`).

The interpreter runs no pass (running a pipeline between two runs is `pypto_mlir.check_pipeline`'s job, a driver).
No pass calls `run_timed` either: ExpandMixedKernel's ring depth choice asks a cost model it is handed, and the
default one (`ring_cost.py`, handed by the pipeline runner) is what runs the kernel here."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_abi import param_direction
from pypto_mlir.dialects.pto_types import FunctionKind, TensorType, TileType

from .machine import Machine, kind_of
from .values import Buffer, Tile, is_float_dtype, make_tile, np_dtype, static_shape


# ---------------------------------------------------------------------------------------------------------------
# Entry and inputs
# ---------------------------------------------------------------------------------------------------------------


def find_entry(module: ModuleOp, entry: str | None = None) -> func.FuncOp:
    """The function to run: `entry` if given, else the module's only orchestration function, else `@main`."""
    funcs = [op for op in module.body.block.ops if isinstance(op, func.FuncOp)]
    if entry is not None:
        for f in funcs:
            if f.sym_name.data == entry:
                return f
        raise PtoError(f"no function @{entry} in the module (functions: {', '.join('@' + f.sym_name.data for f in funcs)})", op=module)
    orch = [f for f in funcs if kind_of(f) == FunctionKind.ORCHESTRATION]
    if len(orch) == 1:
        return orch[0]
    for f in funcs:
        if f.sym_name.data == "main":
            return f
    if len(funcs) == 1:
        return funcs[0]
    raise PtoError(
        "cannot tell which function to run (no single orchestration function and no @main); pass --entry NAME",
        op=module,
    )


def param_names(f: func.FuncOp) -> list[str]:
    """Parameter names: the SSA name hints (xDSL drops a trailing `_<digits>`), else `arg<i>`; a repeated name
    gets `_<i>` appended so every name is unique."""
    names: list[str] = []
    for i, a in enumerate(f.body.block.args):
        n = a.name_hint or f"arg{i}"
        if n in names:
            n = f"{n}_{i}"
        names.append(n)
    return names


def random_array(shape: tuple[int, ...], dt: np.dtype, rng: np.random.Generator) -> np.ndarray:
    """Floats uniform in [-1, 1); integers uniform in [-8, 8) (booleans 0/1), rounded to the element type."""
    if is_float_dtype(dt):
        return rng.uniform(-1.0, 1.0, size=shape).astype(dt)
    if dt == np.bool_:
        return rng.integers(0, 2, size=shape).astype(dt)
    return rng.integers(-8, 8, size=shape).astype(dt)


def make_inputs(f: func.FuncOp, seed: int = 0, given: dict[str, np.ndarray] | None = None) -> list[Any]:
    """One value per parameter of `f`: the given array, zeros for a `pto.out` tensor, else seeded random data.

    Parameter i draws from its own generator seeded with (seed, i), so one parameter's data does not depend on
    the others'."""
    given = dict(given or {})
    values: list[Any] = []
    for i, (arg, name) in enumerate(zip(f.body.block.args, param_names(f))):
        t = arg.type
        rng = np.random.default_rng([seed, i])
        if isinstance(t, TensorType):
            shape = static_shape(t, "tensor")
            dt = np_dtype(t.element_type)
            if name in given:
                data = np.asarray(given.pop(name))
                if tuple(data.shape) != shape:
                    raise PtoError(f"input '{name}' has shape {list(data.shape)} but the parameter is {t}", op=f)
                if data.dtype.kind == "V" and data.dtype.itemsize == dt.itemsize:
                    data = data.view(dt)  # bf16/fp8 saved by numpy come back as raw bytes
                data = data.astype(dt)
            elif param_direction(f, i) == "out":
                data = np.zeros(shape, dtype=dt)
            else:
                data = random_array(shape, dt, rng)
            values.append(Buffer(np.array(data, copy=True), name=name))
        elif isinstance(t, TileType):
            shape = static_shape(t)
            dt = np_dtype(t.element_type)
            data = given.pop(name) if name in given else random_array(shape, dt, rng)
            values.append(make_tile(np.asarray(data), t))
        else:
            if name in given:
                values.append(given.pop(name).item())
            elif is_float_dtype(np_dtype(t)):
                values.append(np_dtype(t).type(rng.uniform(-1.0, 1.0)))
            else:
                values.append(0)
    if given:
        raise PtoError(f"no parameter named {', '.join(sorted(given))} in @{f.sym_name.data}", op=f)
    return values


def copy_inputs(values: list[Any]) -> list[Any]:
    out = []
    for v in values:
        if isinstance(v, Buffer):
            out.append(Buffer(v.data.copy(), v.name))
        elif isinstance(v, Tile):
            out.append(Tile(v.data.copy(), v.valid, v.type))
        else:
            out.append(v)
    return out


def run_timed(module: ModuleOp, entry: str | None = None, seed: int = 0, given=None) -> list:
    """Run the program once for the timing model; returns the `Timeline` of every Group run, in order."""
    f = find_entry(module, entry)
    machine = Machine(module, timing=True)
    machine.run(f.sym_name.data, copy_inputs(make_inputs(f, seed, given)))
    return machine.timelines or []


def record_runs(module: ModuleOp, group: str, scalar_values: Iterable[Mapping[str, Any]] = ({},)) -> list[list]:
    """Run the Group `group` of `module` once per assignment of its scalar parameters (name -> value; tensors get
    seeded data, `make_inputs`) and return each run's timelines, for `pypto_mlir.timing.depth`.  The rings run at
    the depth the module sets, which must be deep enough for the run (the replay then tries any depth).  A
    kernel whose scalar parameters only bound loops or pick branches is timed by stating the values to time it
    over (e.g. each branch's flag, a typical trip count); errors of a run are the caller's to handle."""
    return [run_timed(module, group, given={k: np.asarray(v) for k, v in values.items()}) for values in scalar_values]
