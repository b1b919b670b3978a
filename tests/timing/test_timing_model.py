"""The timing model (`pypto_mlir.timing`): the cost table's formulas, the replay schedule's rules (a pop waits
for its push plus the pipe latency, a push that reuses a slot for its frees plus the free latency, a too-shallow
ring deadlocks), that the recorded run matches what the interpreter ran, and that every constant is documented."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, i64

from pypto_mlir.interpreter.runner import run_timed
from pypto_mlir.ir import parse_module
from pypto_mlir.timing.costs import TARGET_COSTS, TargetCosts, cost_of, cube_cycles
from pypto_mlir.timing.report import chrome_trace, schedules, summary
from pypto_mlir.timing.timeline import Item, RingInfo, Timeline, Track, replay

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.mlir"))


def _op():
    return arith.ConstantOp(IntegerAttr(0, i64))


def _timeline(tracks: dict[str, list[tuple]], producers=1, consumers=1, slot_num=2) -> Timeline:
    """A hand-made recording: per core a list of (cycles, sync, entry); one ring (0, "c2v")."""
    tl = Timeline("t", "a2a3")
    for label, items in tracks.items():
        t = Track(label, label)
        for cycles, sync, index in items:
            t.items.append(Item(_op(), cycles, "x", sync, (0, "c2v") if sync else None, index))
        tl.tracks.append(t)
    tl.rings[(0, "c2v")] = RingInfo("c2v ring of pipe 0", slot_num, producers, consumers)
    return tl


A2A3 = TARGET_COSTS["a2a3"]


def test_a_pop_waits_for_its_push_plus_the_pipe_latency():
    tl = _timeline({"P": [(10, None, -1), (5, "push", 0)], "C": [(1, "pop", 0), (3, "free", 0)]})
    s = replay(tl)
    assert s.placed[1][0].start == 15 + A2A3.pipe_latency
    assert s.makespan == 15 + A2A3.pipe_latency + 1 + 3
    assert s.empty_stall[(0, "c2v")] == 15 + A2A3.pipe_latency


def test_a_push_reusing_a_slot_waits_for_its_frees_plus_the_free_latency():
    # Depth 1: the second push reuses entry 0's slot, freed by the consumer at 1 + latency + 1 + 50.
    prod = [(1, "push", 0), (1, "push", 1)]
    cons = [(1, "pop", 0), (50, None, -1), (1, "free", 0), (1, "pop", 1), (1, "free", 1)]
    deep = replay(_timeline({"P": prod, "C": cons}), {(0, "c2v"): 2})
    shallow = replay(_timeline({"P": prod, "C": cons}), {(0, "c2v"): 1})
    free_end = 1 + A2A3.pipe_latency + 1 + 50 + 1
    assert shallow.placed[0][1].start == free_end + A2A3.free_latency
    assert shallow.full_stall[(0, "c2v")] == free_end + A2A3.free_latency - 1
    assert deep.placed[0][1].start == 1 and deep.full_stall.get((0, "c2v"), 0) == 0
    assert shallow.makespan > deep.makespan


def test_every_consumer_frees_before_the_slot_is_reused_and_every_producer_pushes_before_the_pop():
    # Two consumer lanes: the reuse waits for the slower lane's free.
    tl = _timeline(
        {"P": [(1, "push", 0), (1, "push", 1)], "L0": [(1, "pop", 0), (1, "free", 0), (1, "pop", 1), (1, "free", 1)],
         "L1": [(1, "pop", 0), (90, None, -1), (1, "free", 0), (1, "pop", 1), (1, "free", 1)]},
        consumers=2,
    )
    s = replay(tl, {(0, "c2v"): 1})
    slow_free = 1 + A2A3.pipe_latency + 1 + 90 + 1
    assert s.placed[0][1].start == slow_free + A2A3.free_latency


def test_a_ring_too_shallow_for_the_slots_a_core_holds_deadlocks():
    # The consumer pops both entries before freeing either: one slot cannot hold that.
    tl = _timeline({"P": [(1, "push", 0), (1, "push", 1)], "C": [(1, "pop", 0), (1, "pop", 1), (1, "free", 0), (1, "free", 1)]})
    assert replay(tl, {(0, "c2v"): 1}).deadlock == ["P", "C"]
    assert not replay(tl, {(0, "c2v"): 2}).deadlock


def test_cube_cycles_count_fractal_blocks():
    mod = parse_module(
        """builtin.module {
  func.func @f(%l: !pto.tile<32x64xbf16, left>, %r: !pto.tile<64x48xbf16, right>, %c: !pto.tile<32x48xf32, acc>,
               %lf: !pto.tile<32x64xf32, left>, %rf: !pto.tile<64x48xf32, right>) {
    %a = pto.matmul %l, %r : !pto.tile<32x64xbf16, left>, !pto.tile<64x48xbf16, right> -> !pto.tile<32x48xf32, acc>
    %b = pto.matmul_acc %c, %l, %r : !pto.tile<32x48xf32, acc>, !pto.tile<32x64xbf16, left>, !pto.tile<64x48xbf16, right> -> !pto.tile<32x48xf32, acc>
    %d = pto.matmul %lf, %rf : !pto.tile<32x64xf32, left>, !pto.tile<64x48xf32, right> -> !pto.tile<32x48xf32, acc>
    func.return
  }
}"""
    )
    ops = [op for op in mod.walk() if op.name.startswith("pto.matmul")]
    # bf16: ceil(32/16) x ceil(64/16) x ceil(48/16) = 2 x 4 x 3; the acc form takes K from its lhs, not its acc;
    # f32 halves k per cycle: 2 x 8 x 3.
    assert [cube_cycles(op, A2A3) for op in ops] == [24, 24, 48]
    assert {cost_of(op, "a5").unit for op in ops} == {"cube"}


def test_vector_and_move_costs():
    mod = parse_module(
        """builtin.module {
  func.func @f(%x: !pto.tile<32x64xf32, vec>, %m: !pto.tile<32x64xbf16, mat>) {
    %a = pto.add %x, %x : !pto.tile<32x64xf32, vec>
    %e = pto.exp %x : !pto.tile<32x64xf32, vec>
    %l = pto.move %m : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
    func.return
  }
}"""
    )
    add, exp, move = [op for op in mod.walk() if op.name.startswith("pto.")]
    repeats = 32 * 64 * 4 // 256  # 8 KiB / 256 B per repeat
    assert cost_of(add, "a2a3").cycles == A2A3.vector_issue + repeats
    assert cost_of(exp, "a2a3").cycles == A2A3.vector_issue + repeats * A2A3.vector_transcendental
    assert cost_of(move, "a2a3") .cycles == 32 * 64 * 2 // A2A3.onchip_bytes_per_cycle
    assert cost_of(move, "a2a3").unit == "mte"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_each_example_is_timed_and_its_recording_matches_the_run(path):
    out = subprocess.run(
        [sys.executable, "-m", "pypto_mlir.tools.pypto_opt", "--lower-auto-vector-split", "--expand-mixed-kernel", str(path)],
        capture_output=True, text=True, check=True,
    ).stdout
    timelines = run_timed(parse_module(out))
    assert timelines, "no Group was recorded"
    for tl in timelines:
        pushes = {(it.ring, it.index) for t in tl.tracks for it in t.items if it.sync == "push"}
        pops = [(it.ring, it.index) for t in tl.tracks for it in t.items if it.sync == "pop"]
        frees = [(it.ring, it.index) for t in tl.tracks for it in t.items if it.sync == "free"]
        assert set(pops) == pushes and sorted(pops) == sorted(frees)  # every entry popped and freed by each consumer
        s = replay(tl)
        assert not s.deadlock
        assert s.makespan >= s.overlap_bound() > 0
        # deeper never slower; the run's own depth is the replay's default
        spans = [replay(tl, {k: d for k in tl.rings}).makespan for d in (2, 3, 4, 8)]
        assert spans == sorted(spans, reverse=True)
    data = summary(schedules(timelines))
    assert data["unit"] == "modelled cycle" and "not hardware time" in data["note"]
    trace = chrome_trace(schedules(timelines))
    assert trace["traceEvents"] and {e["ph"] for e in trace["traceEvents"]} >= {"M", "X", "s", "f"}


def test_every_cost_constant_is_documented_with_its_source():
    doc = (ROOT / "docs" / "timing-model.md").read_text()
    for f in dataclasses.fields(TargetCosts):
        assert f"`{f.name}`" in doc, f"docs/timing-model.md does not list the constant {f.name}"
        for target, costs in TARGET_COSTS.items():
            assert str(getattr(costs, f.name)) in doc or isinstance(getattr(costs, f.name), tuple), (f.name, target)
