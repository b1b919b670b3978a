"""The lit suite passes under both FileChecks (the Python `filecheck` of the test extra and LLVM's, shipped in
the `mlir` extra): static checks for what LLVM's is stricter about, so CI (which has only the Python one) keeps
the suite compatible; and, when LLVM's FileCheck is installed, the suite itself under it is
`lit --param filecheck=llvm lit_tests` (see test_lit_under_llvm_filecheck below for a sample).

- every prefix a RUN line names (`--check-prefix`, `--check-prefixes`) has a directive in the file (LLVM:
  "no check strings found with prefix");
- without --strict-whitespace, LLVM folds runs of spaces and tabs into one space in both the input and the
  literal parts of a pattern, but not inside a regex: a literal space next to a regex that needs another
  (`x {{ +}}y`) asks for two spaces in a row and never matches."""

from __future__ import annotations

import os
import shutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIT = ROOT / "lit_tests"
# The test sources only: not Inputs/, nor a hidden folder (lit's outputs of an older checkout, editor files).
FILES = sorted(
    p for p in LIT.rglob("*.mlir")
    if "Inputs" not in p.parts and not any(part.startswith(".") for part in p.relative_to(LIT).parts)
)
RUN = re.compile(r"//\s*RUN:(.*)$", re.M)
FILECHECK = re.compile(r"\bfilecheck\b([^|]*)", re.I)


def _run_lines(text: str) -> list[str]:
    """RUN lines, with `\\` continuations joined."""
    return [m.group(1) for m in RUN.finditer(text)]


def _prefixes(args: str) -> list[str]:
    out = []
    for m in re.finditer(r"--check-prefix(?:es)?[= ]([\w,-]+)", args):
        out += m.group(1).split(",")
    return out or ["CHECK"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(LIT)))
def test_every_named_prefix_is_used(path):
    text = path.read_text()
    unused = set()
    for run in _run_lines(text):
        for m in FILECHECK.finditer(run):
            for prefix in _prefixes(m.group(1)):
                if not re.search(rf"(^|[^\w-]){re.escape(prefix)}(-[A-Z]+)?:", text.replace(run, "")):
                    unused.add(prefix)
    assert not unused, f"prefixes named by a RUN line but never used (LLVM FileCheck rejects them): {sorted(unused)}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(LIT)))
def test_no_pattern_needs_two_spaces_in_a_row(path):
    text = path.read_text()
    strict_prefixes = {
        p for run in _run_lines(text) for m in FILECHECK.finditer(run) if "--strict-whitespace" in m.group(1)
        for p in _prefixes(m.group(1))
    }
    bad = []
    for line in text.splitlines():
        m = re.match(r"\s*//\s*([A-Z][\w-]*?)(-[A-Z]+)?:(.*)$", line)
        if not m or m.group(1) in strict_prefixes or m.group(1) in ("RUN", "REQUIRES", "UNSUPPORTED", "XFAIL"):
            continue
        pattern = m.group(3).strip()
        if re.search(r" \{\{(?: |\\s)\+\}\}|\{\{(?: |\\s)\+\}\} ", pattern):
            bad.append(line.strip())
    assert not bad, f"patterns LLVM FileCheck's whitespace folding cannot match: {bad}"


def _llvm_filecheck() -> str | None:
    import importlib.util

    spec = importlib.util.find_spec("llvm")
    for root in (spec.submodule_search_locations or []) if spec else []:
        cand = os.path.join(root, "bin", "FileCheck")
        if os.access(cand, os.X_OK):
            return cand
    return None


@pytest.mark.mlir_extra
@pytest.mark.skipif(_llvm_filecheck() is None, reason="LLVM's FileCheck (the `mlir` extra) is not installed")
def test_lit_under_llvm_filecheck(tmp_path):
    """The driver and interpreter folders under LLVM's FileCheck (the whole suite: lit --param filecheck=llvm)."""
    lit = Path(sys.executable).with_name("lit")
    r = subprocess.run(
        [str(lit), "-q", "--param", "filecheck=llvm", "--param", f"exec_root={tmp_path}",
         str(LIT / "dialect"), str(LIT / "interpreter")],
        capture_output=True, text=True, timeout=1800,
    )
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]


@pytest.mark.parametrize("param", ["llvm", "FileCheck-99"])
def test_a_versioned_filecheck_on_path_is_found(tmp_path, param):
    """Issue 44: distributions install LLVM's FileCheck as `FileCheck-<version>`; `--param filecheck=llvm` finds
    the newest one on PATH, and `--param filecheck=NAME` takes a name on PATH. A stand-in `FileCheck-99` logs its
    use and runs the Python filecheck."""
    log = tmp_path / "used.log"
    fake = tmp_path / "bin" / "FileCheck-99"
    fake.parent.mkdir()
    fake.write_text(f'#!/bin/sh\necho used >> "{log}"\nexec "{Path(sys.executable).with_name("filecheck")}" "$@"\n')
    fake.chmod(0o755)
    env = dict(os.environ, PATH=f"{fake.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    lit = Path(sys.executable).with_name("lit")
    r = subprocess.run(
        [str(lit), "-q", "--param", f"filecheck={param}", "--param", f"exec_root={tmp_path / 'out'}",
         "--param", "forkserver=0", str(LIT / "dialect" / "smoke.mlir")],
        capture_output=True, text=True, timeout=600, env=env,
    )
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    if param != "llvm" or (shutil.which("FileCheck") is None and _llvm_filecheck() is None):  # those come first
        assert log.exists() and "used" in log.read_text()
