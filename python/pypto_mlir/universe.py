"""The `xdsl.universe` entry point: makes `xdsl-opt` know the `pto` dialect and the pypto passes.

Loading it also installs `xdsl_host.install_uncaught_error_hook`, so a pass error that `xdsl-opt` does not catch
prints as `file:line:col: error: ...` (exit status 1) instead of a Python traceback."""

from xdsl.universe import Universe

from pypto_mlir.passes import PASSES
from pypto_mlir.pipeline import DefaultRingCostModel, DefaultSkewRewriter, DefaultSplitCostModel
from pypto_mlir.xdsl_host import install_uncaught_error_hook


def _dialect():
    from pypto_mlir.dialects import PTO

    return PTO


def _with_default_models(load):
    """`xdsl-opt` builds a pass from its spec itself: a pass that takes a cost model or a skew rewriter
    (`choose-ring-depth`, `expand-mixed-kernel`: a ring cost model and a skew rewriter; `lower-auto-vector-split`:
    a split cost model) is loaded as a subclass that hands itself the default ones, as `run_pipeline` does."""

    def loader():
        cls = load()
        if not hasattr(cls, "with_cost_model") and not hasattr(cls, "with_split_model"):
            return cls

        def __post_init__(self) -> None:
            cls.__post_init__(self)
            if getattr(self, "cost_model", False) is None:
                object.__setattr__(self, "cost_model", DefaultRingCostModel())
            if getattr(self, "skew_rewriter", False) is None:
                object.__setattr__(self, "skew_rewriter", DefaultSkewRewriter())
            if getattr(self, "split_model", False) is None:
                object.__setattr__(self, "split_model", DefaultSplitCostModel())

        return type(cls.__name__, (cls,), {"__post_init__": __post_init__})

    return loader


PYPTO_UNIVERSE = Universe(
    all_dialects={"pto": _dialect},
    all_passes={name: _with_default_models(info.load) for name, info in PASSES.items()},
)

install_uncaught_error_hook()
