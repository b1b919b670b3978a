"""The `xdsl.universe` entry point: makes `xdsl-opt` know the `pto` dialect and the pypto passes."""

from xdsl.universe import Universe

from pypto_mlir.passes import PASSES


def _dialect():
    from pypto_mlir.dialects import PTO

    return PTO


PYPTO_UNIVERSE = Universe(
    all_dialects={"pto": _dialect},
    all_passes={name: info.load for name, info in PASSES.items()},
)
