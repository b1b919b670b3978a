"""pypto-mlir: the `pto` dialect and the cross-core passes of the PyPTO tile compiler, on xDSL.

Public API:
- `make_context`, `parse_module`, `print_module` — read and write `pto` IR;
- `verify_module` — the verifier run after parsing and after every pass;
- `PtoError` — a located, user-facing diagnostic;
- `run_passes` / `PASSES` — the pass registry used by `pypto-opt`.

The names are imported on first use (PEP 562 `__getattr__`), so importing a submodule (`pypto_mlir.tools.pypto_opt`,
`pypto_mlir.universe` for `xdsl-opt`) does not load the parser, the verifier and the dialects it may not need.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .diagnostics import PtoError, SourceLoc
    from .ir import make_context, parse_module, print_module
    from .verify import verify_module

_HOMES = {
    "PtoError": "diagnostics",
    "SourceLoc": "diagnostics",
    "make_context": "ir",
    "parse_module": "ir",
    "print_module": "ir",
    "verify_module": "verify",
}

__all__ = ["PtoError", "SourceLoc", "make_context", "parse_module", "print_module", "verify_module"]
__version__ = "0.1.0"


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'pypto_mlir' has no attribute '{name}'")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
