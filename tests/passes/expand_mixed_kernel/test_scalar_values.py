"""The values the ring depth choice times a kernel's scalar parameters at (`scalar_values.py`, issue 42): which
use makes a parameter *control* or *data*, the stated values per type, the runs, and the choice end to end (a
kernel timed over its trip counts; one whose stated values leave a tensor is left untimed, saying why)."""

from __future__ import annotations

import pytest

from pypto_mlir import parse_module
from pypto_mlir.check_pipeline import apply_pipeline
from pypto_mlir.passes.decisions import capture_decisions
from pypto_mlir.passes.expand_mixed_kernel.scalar_values import PARAM_VALUES, scalar_params, timing_runs

# One mixed kernel whose scalar parameters are used in every way the rule tells apart: %n bounds the loop (through
# an index_cast), %st is its step, %flag picks a branch, %off is a GM row offset, %s a tile scalar, %k unused.
KERNEL = """
builtin.module attributes {pto.target = #pto.target<TARGET>} {
  func.func @k(%a: !pto.tensor<64x64xbf16>, %b: !pto.tensor<64x64xbf16>, %n: i32, %st: index, %flag: i1,
               %off: index, %s: f32, %k: index, %out: !pto.tensor<64x64xf32> {pto.out}) -> !pto.tensor<64x64xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %ni = arith.index_cast %n : i32 to index
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x64xbf16> -> !pto.tile<64x64xbf16, mat>
    %b_right = pto.move %b_mat : !pto.tile<64x64xbf16, mat> -> !pto.tile<64x64xbf16, right>
    %res = scf.for %i = %c0 to %ni step %st iter_args(%o = %out) -> (!pto.tensor<64x64xf32>) {
      %a_mat = pto.load %a[%off, 0] : !pto.tensor<64x64xbf16> -> !pto.tile<16x64xbf16, mat>
      %a_left = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
      %p = pto.matmul %a_left, %b_right : !pto.tile<16x64xbf16, left>, !pto.tile<64x64xbf16, right> -> !pto.tile<16x64xf32, acc>
      %v = pto.move %p : !pto.tile<16x64xf32, acc> -> !pto.tile<16x64xf32, vec>
      %t = scf.if %flag -> (!pto.tile<16x64xf32, vec>) {
        %e = pto.exp %v : !pto.tile<16x64xf32, vec>
        scf.yield %e : !pto.tile<16x64xf32, vec>
      } else {
        %m = pto.muls %v, %s : !pto.tile<16x64xf32, vec>, f32
        scf.yield %m : !pto.tile<16x64xf32, vec>
      }
      %o2 = pto.store %t, %o[0, 0] : !pto.tile<16x64xf32, vec>, !pto.tensor<64x64xf32>
      scf.yield %o2 : !pto.tensor<64x64xf32>
    }
    func.return %res : !pto.tensor<64x64xf32>
  }
}
"""


def _expanded(text: str, target: str = "a2a3"):
    m = parse_module(text.replace("TARGET", target))
    with capture_decisions() as log:
        apply_pipeline(m, "expand-mixed-kernel")
    return m, [d for d in log if d.kind == "ring_depth"]


def _group(m, name: str):
    return next(op for op in m.body.block.ops if getattr(op, "sym_name", None) and op.sym_name.data == name)


def test_each_parameter_is_classified_by_its_uses():
    m, _ = _expanded(KERNEL)
    got = {p.name: (p.role, set(p.uses)) for p in scalar_params(m, _group(m, "k"))}
    assert got == {
        "%n": ("control", {"bound"}),
        "%st": ("control", {"step"}),
        "%flag": ("control", {"branch"}),
        "%off": ("data", {"data"}),
        "%s": ("data", {"data"}),
        "%k": ("unused", set()),
    }


def test_the_stated_values_and_the_runs():
    """Control parameters take their type's set (no 0 for a step), data and unused ones 0; run j takes each
    parameter's j-th value, cycling, so every value is timed in as many runs as the longest set has."""
    m, _ = _expanded(KERNEL)
    params, runs = timing_runs(m, _group(m, "k"))
    by_name = {p.name: p.index for p in params}
    assert PARAM_VALUES == {"i1": (0, 1), "integer": (0, 1, 2, 8), "float": (0.0, 1.0, 2.0, 8.0)}
    assert [r[by_name["%n"]] for r in runs] == [0, 1, 2, 8]
    assert [r[by_name["%st"]] for r in runs] == [1, 2, 8, 1]
    assert [r[by_name["%flag"]] for r in runs] == [0, 1, 0, 1]
    assert [r[by_name["%off"]] for r in runs] == [0, 0, 0, 0]
    assert [r[by_name["%s"]] for r in runs] == [0.0, 0.0, 0.0, 0.0]
    assert [r[by_name["%k"]] for r in runs] == [0, 0, 0, 0]


@pytest.mark.parametrize("target", ["a2a3", "a5"])
def test_a_kernel_with_scalar_parameters_is_timed_over_the_stated_values(target):
    """The kernel above is timed (not kept at 2 untimed): the decision lists each parameter's role and the values."""
    _, log = _expanded(KERNEL, target)
    (d,) = log
    assert d.facts["chosen"] is True, d.facts
    assert "summed over 4 runs at the stated scalar values" in d.facts["reason"]
    assert d.facts["scalar_params"]["%off"] == {"role": "data", "uses": ["data"]}
    assert d.facts["scalar_values"][3] == {"%n": 8, "%st": 1, "%flag": 1, "%off": 0, "%s": 0.0, "%k": 0}
    assert all(m is None or m > 0 for m in d.facts["makespans"].values())


@pytest.mark.parametrize("target", ["a2a3", "a5"])
def test_a_parameter_that_moves_an_access_out_of_its_tensor_leaves_the_kernel_untimed(target):
    """%n bounds the loop and is also a row offset: at %n = 8 the 16-row window at row 8 x 8 = 64 leaves the
    64-row tensor, so the kernel keeps depth 2, and the reason names the values and the access."""
    text = KERNEL.replace("%a[%off, 0]", "%a[%row, 0]").replace(
        "%ni = arith.index_cast %n : i32 to index\n",
        "%ni = arith.index_cast %n : i32 to index\n    %c8 = arith.constant 8 : index\n    %row = arith.muli %ni, %c8 : index\n",
    )
    _, log = _expanded(text, target)
    (d,) = log
    assert d.facts["chosen"] is False and d.facts["slot_num"] == 2
    assert d.facts["scalar_params"]["%n"] == {"role": "data", "uses": ["bound", "data"]}
    assert "its run in the interpreter with %n = 8" in d.facts["reason"]
    assert "lies outside the tensor's extent 64" in d.facts["reason"]
