"""The interpreter's semantics of the lane cooperation ops (issue 43): `pto.lane_barrier` is a rendezvous of the two
AIV lanes (and a happens-before edge of the race detector), `pto.lane_workspace` one buffer both lanes share,
poisoned and checked for reads before writes.  The kernels are lit_tests/interpreter/Inputs/lane_reduce_*.mlir,
run on non-uniform data against numpy, and mutated: a dropped or misplaced barrier must be reported."""

from __future__ import annotations

import re

import ml_dtypes
import numpy as np
import pytest

from pypto_mlir.interpreter import Buffer, Machine, RunError
from pypto_mlir.interpreter.gm import POISON_BYTE, poisoned
from pypto_mlir.ir import parse_module
from pypto_mlir.verify import verify_module

from kernelgen.interp_util import input_text

REGION = input_text("lane_reduce_region.a2a3.mlir")
LOOP = input_text("lane_reduce_loop.a5.mlir")
ORDERS = ("forward", "reverse")
BARRIER = re.compile(r"^ *pto\.lane_barrier\n", re.MULTILINE)


def _run(text: str, entry: str, arrays: list[np.ndarray], order: str = "forward") -> list[np.ndarray]:
    module = parse_module(text, "t.mlir")
    verify_module(module)
    bufs = [Buffer(np.array(a, copy=True)) for a in arrays]
    Machine(module, order=order).run(entry, bufs)
    return [b.data for b in bufs]


def _region_inputs():
    rng = np.random.default_rng(43)
    a = rng.uniform(0.5, 1.5, (16, 64)).astype(ml_dtypes.bfloat16)
    b = rng.uniform(0.5, 1.5, (64, 128)).astype(ml_dtypes.bfloat16)
    return a, b


def _loop_input():
    # Rows differ between the lanes' halves, so a lane that used only its own partial (or the other's twice)
    # gives another total.
    rng = np.random.default_rng(7)
    x = rng.uniform(0.5, 1.5, (16, 256)).astype(np.float32)
    x[8:] *= np.arange(1, 9, dtype=np.float32)[:, None]
    return x


@pytest.mark.parametrize("order", ORDERS)
def test_the_lanes_combine_their_partial_sums_through_the_workspace(order):
    a, b = _region_inputs()
    acc = a.astype(np.float32) @ b.astype(np.float32)
    _, _, out = _run(REGION, "colnorm", [a, b, np.zeros((16, 128), np.float32)], order)
    np.testing.assert_allclose(out, acc / acc.sum(axis=0), rtol=1e-5)


@pytest.mark.parametrize("order", ORDERS)
def test_a_workspace_reused_in_a_loop_between_two_barriers(order):
    x = _loop_input()
    _, out = _run(LOOP, "colnorm_loop", [x, np.zeros_like(x)], order)
    expect = np.concatenate([blk / blk.sum(axis=0) for blk in (x[:, :128], x[:, 128:])], axis=1)
    np.testing.assert_allclose(out, expect, rtol=1e-5)


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize(
    "name,mutate",
    [
        ("dropped", lambda t: BARRIER.sub("", t)),
        ("before the stores", lambda t: BARRIER.sub("", t).replace("      %ws1 = pto.store", "      pto.lane_barrier\n      %ws1 = pto.store")),
    ],
)
def test_a_missing_or_misplaced_barrier_is_a_race_on_the_workspace(name, mutate, order):
    a, b = _region_inputs()
    with pytest.raises(RunError, match=r"data race on GM tensor %ws\[\d:\d, 0:1, 0:128\] .* no pipe handshake or lane barrier orders"):
        _run(mutate(REGION), "colnorm", [a, b, np.zeros((16, 128), np.float32)], order)


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("which", [0, 1], ids=["write after read", "read after write"])
def test_each_barrier_of_the_loop_is_needed(which, order):
    spans = [m.span() for m in BARRIER.finditer(LOOP)]
    lo, hi = spans[which]
    with pytest.raises(RunError, match=r"data race on GM tensor %ws\[.*\] in @colnorm_loop"):
        _run(LOOP[:lo] + LOOP[hi:], "colnorm_loop", [_loop_input(), np.zeros((16, 256), np.float32)], order)


def test_a_read_of_a_row_no_lane_wrote_is_reported_at_the_load():
    text = REGION.replace("2x1x128xf32", "3x1x128xf32").replace("%ws1[1, 0, 0]", "%ws1[2, 0, 0]")
    a, b = _region_inputs()
    with pytest.raises(RunError, match=r"'pto.load' reads %ws\[2:3, 0:1, 0:128\], cells of a pto.lane_workspace "
                       r"that no lane has written") as e:
        _run(text, "colnorm", [a, b, np.zeros((16, 128), np.float32)])
    assert e.value.loc is not None and e.value.loc.line == 23


SINGLE = """builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @one(%o: !pto.tensor<2x16xf32> {pto.out}) -> !pto.tensor<2x16xf32> attributes {pto.kind = #pto.kind<incore>} {
    %ws = pto.lane_workspace : !pto.tensor<2x16xf32>
    %zero = arith.constant 0.0 : f32
    %z = pto.full %zero : f32 -> !pto.tile<1x16xf32, vec>
    %ws1 = pto.store %z, %ws[0, 0] : !pto.tile<1x16xf32, vec>, !pto.tensor<2x16xf32>
    pto.lane_barrier
    %t = pto.load %ws1[ROW, 0] : !pto.tensor<2x16xf32> -> !pto.tile<1x16xf32, vec>
    %o2 = pto.store %t, %o[1, 0] : !pto.tile<1x16xf32, vec>, !pto.tensor<2x16xf32>
    func.return %o2 : !pto.tensor<2x16xf32>
  }
}
"""


def test_on_one_lane_the_barrier_is_a_no_op_and_an_undefined_read_is_reported_at_once():
    (out,) = _run(SINGLE.replace("ROW", "0"), "one", [np.ones((2, 16), np.float32)])
    assert np.all(out[1] == 0)
    with pytest.raises(RunError, match=r"reads %ws\[1:2, 0:16\], cells of a pto.lane_workspace that no lane has "
                       r"written .* on @one"):
        _run(SINGLE.replace("ROW", "1"), "one", [np.ones((2, 16), np.float32)])


@pytest.mark.parametrize("flag,rendezvous", [("pto.dual_aiv_dispatch", False), ("pto.split_aiv", True)])
def test_a_dual_dispatch_s_replayed_lane_is_not_waited_for(flag, rendezvous):
    """a2a3 runs an unsplit AIV kernel on both lanes, lane 1 replaying the handshakes only: the barrier is no
    rendezvous there (only one lane runs code); in a split kernel it is one (the recording for the timing model
    says which)."""
    text = SINGLE.replace("ROW", "0").replace("#pto.kind<incore>", f"#pto.kind<aiv>, {flag}").replace("a5", "a2a3")
    module = parse_module(text, "t.mlir")
    verify_module(module)
    machine = Machine(module, timing=True)
    out = Buffer(np.ones((2, 16), np.float32))
    machine.run("one", [out])
    assert np.all(out.data[1] == 0)
    (tl,) = machine.timelines
    syncs = {it.sync for t in tl.tracks for it in t.items if it.op.name == "pto.lane_barrier"}
    assert syncs == ({"barrier"} if rendezvous else {None})


def test_the_barrier_on_one_lane_only_deadlocks_with_the_barrier_named():
    text = BARRIER.sub("      %z = arith.constant 0 : index\n      %is0 = arith.cmpi eq, %lane, %z : index\n"
                       "      scf.if %is0 {\n        pto.lane_barrier\n      }\n", REGION)
    a, b = _region_inputs()
    with pytest.raises(RunError, match="deadlock") as e:
        _run(text, "colnorm", [a, b, np.zeros((16, 128), np.float32)])
    assert any("waits for the other lane to reach its lane_barrier #1" in msg for _, msg in e.value.notes)


@pytest.mark.parametrize(
    "dtype,check",
    [
        (np.dtype(np.float32), lambda d: np.isnan(d).all()),
        (np.dtype(ml_dtypes.bfloat16), lambda d: np.isnan(d.astype(np.float32)).all()),
        (np.dtype(np.int32), lambda d: (d.view(np.uint8) == POISON_BYTE).all()),
        (np.dtype(np.int8), lambda d: (d.view(np.uint8) == POISON_BYTE).all()),
    ],
)
def test_a_workspace_starts_poisoned(dtype, check):
    assert check(poisoned((2, 4), dtype))
