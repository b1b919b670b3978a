"""pypto-mlir: the `pto` dialect and the cross-core passes of the PyPTO tile compiler, on xDSL.

Public API:
- `make_context`, `parse_module`, `print_module` — read and write `pto` IR;
- `verify_module` — the verifier run after parsing and after every pass;
- `PtoError` — a located, user-facing diagnostic;
- `run_passes` / `PASSES` — the pass registry used by `pypto-opt`.
"""

from .diagnostics import PtoError, SourceLoc
from .ir import make_context, parse_module, print_module
from .verify import verify_module

__all__ = ["PtoError", "SourceLoc", "make_context", "parse_module", "print_module", "verify_module"]
__version__ = "0.1.0"
