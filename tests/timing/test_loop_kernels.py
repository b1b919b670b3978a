"""The loop kernels of the ring-depth benchmark (benchmarks/loop_kernels.py) compile through both passes and
compute the same results before and after them on both targets (`pypto-run --check-pipeline`: the race detector
and the deadlock check run too), and each is timed."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("_loop_kernels", ROOT / "benchmarks" / "loop_kernels.py")
assert _spec is not None and _spec.loader is not None
loop_kernels = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(loop_kernels)


@pytest.mark.parametrize("target", ["a2a3", "a5"])
@pytest.mark.parametrize("name", sorted(loop_kernels.LOOP_KERNELS))
def test_each_loop_kernel_runs_the_same_after_both_passes_and_is_timed(name, target):
    text = loop_kernels.LOOP_KERNELS[name](target)
    run = subprocess.run(
        [sys.executable, "-m", "pypto_mlir.tools.pypto_run", "-", "--entry", f"{name}_incore", "--quiet",
         "--check-pipeline", "lower-auto-vector-split,expand-mixed-kernel", "--timing"],
        input=text, capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    assert f"Group @{name}_incore ({target}): makespan" in run.stdout
    assert "deadlock" not in run.stdout and "unguarded" not in run.stdout
