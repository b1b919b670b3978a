"""The `xdsl.universe` entry point: makes `xdsl-opt` know the `pto` dialect and the pypto passes.

Loading it also installs `xdsl_host.install_uncaught_error_hook`, so a pass error that `xdsl-opt` does not catch
prints as `file:line:col: error: ...` (exit status 1) instead of a Python traceback."""

from xdsl.universe import Universe

from pypto_mlir.passes import PASSES
from pypto_mlir.xdsl_host import install_uncaught_error_hook


def _dialect():
    from pypto_mlir.dialects import PTO

    return PTO


PYPTO_UNIVERSE = Universe(
    all_dialects={"pto": _dialect},
    all_passes={name: info.load for name, info in PASSES.items()},
)

install_uncaught_error_hook()
