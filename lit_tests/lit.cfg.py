# lit configuration of the pypto-mlir regression suite.
# Finds `pypto-opt` (and `pypto-run` when present) and the Python `filecheck`, next to the running Python first.
import os
import shutil
import sys

import lit.formats

config.name = "pypto-mlir"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
# Where `%t` files go: `--param exec_root=DIR` (CMake passes its build tree), else lit_tests/.lit_out. Two lit
# runs at once must use different roots, or they overwrite each other's `%t` files.
config.test_exec_root = os.path.abspath(
    lit_config.params.get("exec_root") or os.path.join(config.test_source_root, ".lit_out")
)

bindir = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join([bindir, os.environ.get("PATH", "")])
for var in ("PYTHONPATH", "HOME", "MLIR_OPT", "PYPTO_DEBUG"):
    if var in os.environ:
        config.environment[var] = os.environ[var]


def _find(tool):
    cand = os.path.join(bindir, tool)
    return cand if os.path.exists(cand) else shutil.which(tool)


for tool in ("pypto-opt", "pypto-run", "filecheck"):
    path = _find(tool)
    if path is None:
        if tool == "pypto-run":
            continue
        lit_config.fatal(f"cannot find '{tool}'; install the project with: pip install -e '.[test]'")
    config.substitutions.append((r"\b" + tool + r"\b", path))
    config.available_features.add(tool)

config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%examples", os.path.join(os.path.dirname(config.test_source_root), "examples")))

# Upstream MLIR (the optional `mlir` extra): enables tests marked `REQUIRES: mlir`.
try:
    sys.path.insert(0, os.path.join(os.path.dirname(config.test_source_root), "python"))
    from pypto_mlir.mlir_tools import find_mlir_opt

    _mlir_opt = find_mlir_opt()
except Exception:  # pragma: no cover - lit must not crash when the package is missing
    _mlir_opt = None
finally:
    sys.path.pop(0)
if _mlir_opt:
    config.available_features.add("mlir")
    config.substitutions.append((r"\bmlir-opt\b", _mlir_opt))
elif lit_config.params.get("require_mlir", "0") not in ("", "0", "false", "False", "OFF", "off"):
    # `cmake -DPYPTO_ENABLE_MLIR_TESTS=ON` passes --param=require_mlir=1: the mlir tests must run, not skip.
    lit_config.fatal(
        "require_mlir is set but upstream mlir-opt was not found; install the extra "
        "(pip install -e '.[mlir]') or set MLIR_OPT=/path/to/mlir-opt"
    )
