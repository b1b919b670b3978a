"""The reference interpreter of `pto` programs (numpy + ml_dtypes).

* `Machine(module).run(entry, args)` runs a function: Orchestration -> calls -> Group -> concurrent AIC/AIV cores
  talking through slot rings, with deadlock and protocol checking.
* `run_program`, `check_modules` run programs on seeded inputs and compare outputs (`check_pipeline_text`, which
  runs a pipeline between them, is in `pypto_mlir.check_pipeline`, above both the passes and the interpreter).

The semantics are documented in `docs/interpreter.md`.
"""

from .machine import Machine, RunError
from . import comm as _comm, mx as _mx, views as _views  # noqa: F401,E402  (register the semantics of the ops beyond the contract)
from .runner import (
    CheckResult,
    Outputs,
    check_modules,
    compare,
    find_entry,
    make_inputs,
    run_function,
    run_program,
    tolerance,
)
from .values import Buffer, InterpError, Tile

__all__ = [
    "Buffer",
    "CheckResult",
    "InterpError",
    "Machine",
    "Outputs",
    "RunError",
    "Tile",
    "check_modules",
    "compare",
    "find_entry",
    "make_inputs",
    "run_function",
    "run_program",
    "tolerance",
]
