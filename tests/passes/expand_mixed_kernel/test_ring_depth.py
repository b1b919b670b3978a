"""ExpandMixedKernel's ring depth choice (`ring_depth.py`): the selection rule, the static shortcut (a ring that
carries at most the default's tiles is never timed), the option, and that the chosen depths keep the results."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pypto_mlir.check_pipeline import check_pipeline_text
from pypto_mlir.passes.expand_mixed_kernel.pass_ import ExpandMixedKernelPass
from pypto_mlir.passes.expand_mixed_kernel.ring_depth import pick_depth

ROOT = Path(__file__).resolve().parents[3]
LIT = ROOT / "lit_tests" / "expand_mixed_kernel" / "ring_depth_chosen.mlir"


def test_the_shallowest_depth_of_the_best_makespan_is_picked():
    assert pick_depth({2: 100, 3: 90, 4: 90, 5: 95}) == 3
    assert pick_depth({2: 100, 3: 100, 4: 100}) == 2  # a tie keeps the default
    assert pick_depth({2: None, 3: 80, 4: 80}) == 3  # the default deadlocks: the shallowest that does not
    assert pick_depth({2: None, 3: None}) == 2  # nothing runs: the default stays (the verifier reports it)
    assert pick_depth({}) == 2


def test_an_unknown_ring_depth_option_is_refused():
    with pytest.raises(ValueError, match="unknown ring-depth 'deep'; expected one of auto, fixed"):
        ExpandMixedKernelPass(ring_depth="deep")


@pytest.mark.parametrize("target", ["a2a3", "a5"])
@pytest.mark.parametrize("entry", ["phase_incore_0", "phase_big_incore_0"])
def test_chosen_depths_keep_the_results(target, entry):
    text = LIT.read_text().replace("a2a3", target)
    res = check_pipeline_text(text, ["lower-auto-vector-split", "expand-mixed-kernel"], entry=entry)
    assert res.ok, res.report


def test_a_kernel_with_at_most_two_tiles_per_ring_is_not_timed():
    """The examples move one tile per ring: the pass keeps 2 without running them, so pypto-opt loads no
    interpreter (and no numpy) for them (tests/tools/test_startup.py checks the imports)."""
    out = subprocess.run(
        [sys.executable, "-m", "pypto_mlir.tools.pypto_opt", "--lower-auto-vector-split", "--expand-mixed-kernel",
         str(ROOT / "examples" / "matmul_softmax.a5.mlir"), "--split-report=-"],
        capture_output=True, text=True, check=True,
    )
    assert "each ring carries at most 1 tile per run, so no push waits for a slot at depth 2" in out.stderr
