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
from pypto_mlir.timing.costs import ARCH_CONFIG, PATHS, SOURCES, TARGET_COSTS, TargetCosts
from pypto_mlir.timing.op_costs import cost_of, cube_cycles
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


def test_a_pop_starts_when_its_push_and_its_ready_signal_have_ended():
    tl = _timeline({"P": [(10, None, -1), (5, "push", 0)], "C": [(1, "pop", 0), (3, "free", 0)]})
    s = replay(tl)
    assert s.placed[1][0].start == 15
    assert s.makespan == 15 + 1 + 3
    assert s.empty_stall[(0, "c2v")] == 15


def test_a2a3_two_slots_the_third_push_waits_for_the_signal_after_the_second_pop():
    # Sync period 2: no push before index 2 waits; push 2 waits for the consumer's first free signal, which a2a3
    # sends at the end of pop 1 (the copy out of the ring frees the slot; the tfree does nothing).  Push 3 does not
    # wait (3 % 2 != 0), push 4 waits for the second signal, sent at the end of pop 3.
    prod = [(1, "push", k) for k in range(5)]
    cons = []
    for k in range(5):
        cons += [(1, "pop", k), (40, None, -1), (1, "free", k)]
    s = replay(_timeline({"P": prod, "C": cons}))
    pop_end = [p.end for p, it in zip(s.placed[1], cons) if it[1] == "pop"]
    assert [p.start for p in s.placed[0]] == [0, 1, pop_end[1], pop_end[1] + 1, pop_end[3]]


def test_a5_the_free_signal_is_the_tfree_s():
    prod = [(1, "push", k) for k in range(3)]
    cons = [(1, "pop", 0), (40, None, -1), (1, "free", 0), (1, "pop", 1), (40, None, -1), (1, "free", 1),
            (1, "pop", 2), (1, "free", 2)]
    tl = _timeline({"P": prod, "C": cons})
    tl.target = "a5"
    s = replay(tl)
    assert s.placed[0][2].start == s.placed[1][5].end  # the tfree after pop 1


def test_three_slots_signal_every_tile_and_every_push_from_the_third_on_waits():
    # Sync period 1 (slot_num 3 > 2: 3 // 2): push n >= 3 takes the free signal of pop n - 3.
    prod = [(1, "push", k) for k in range(5)]
    cons = [(50, None, -1)]
    for k in range(5):
        cons += [(1, "pop", k), (30, None, -1), (1, "free", k)]
    s = replay(_timeline({"P": prod, "C": cons}), {(0, "c2v"): 3})
    pop_end = [p.end for p, it in zip(s.placed[1], cons) if it[1] == "pop"]
    assert [p.start for p in s.placed[0]][3:] == [pop_end[0], pop_end[1]]


def test_every_consumer_signals_before_a_waiting_push_and_every_producer_pushes_before_the_pop():
    # Two consumer lanes, depth 1 (every push from 1 on waits): push 1 waits for the slower lane's signal.
    tl = _timeline(
        {"P": [(1, "push", 0), (1, "push", 1)], "L0": [(1, "pop", 0), (1, "free", 0), (1, "pop", 1), (1, "free", 1)],
         "L1": [(90, None, -1), (1, "pop", 0), (1, "free", 0), (1, "pop", 1), (1, "free", 1)]},
        consumers=2,
    )
    s = replay(tl, {(0, "c2v"): 1})
    assert s.placed[0][1].start == s.placed[2][1].end == 91


def test_a_ring_whose_free_signal_never_comes_deadlocks():
    # a5, two slots: push 2 waits for the consumer's first free signal, which a5 sends at a tfree once an even
    # number of tiles was popped; the consumer frees nothing after pop 1 and needs entry 2 first.  Three slots:
    # push 2 does not wait.
    prod = [(1, "push", k) for k in range(3)]
    cons = [(1, "pop", 0), (1, "free", 0), (1, "pop", 1), (1, "pop", 2), (1, "free", 2), (1, "free", 2)]
    tl = _timeline({"P": prod, "C": cons})
    tl.target = "a5"
    assert replay(tl).deadlock == ["P", "C"]
    assert not replay(tl, {(0, "c2v"): 3}).deadlock


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
    assert cost_of(move, "a2a3").cycles == A2A3.transfer_cycles(32 * 64 * 2, "l1_to_l0a") == 17
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
        assert set(pops) == pushes  # every entry popped
        for t in tl.tracks:  # each consumer frees once per pop; a tfree carries the index of the last pop before it
            last: dict = {}
            for it in t.items:
                if it.sync == "pop":
                    assert it.index == last.get(it.ring, -1) + 1
                    last[it.ring] = it.index
                elif it.sync == "free":
                    assert it.index == last[it.ring]
            assert sum(it.sync == "pop" for it in t.items) == sum(it.sync == "free" for it in t.items)
        s = replay(tl)
        assert not s.deadlock and not s.unguarded  # the compiled depth is one pto-isa runs safely
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
        if f.name != "bandwidth":
            assert SOURCES[f.name], f.name
    for path in PATHS:
        assert f"`{path}`" in doc, f"docs/timing-model.md does not list the path {path}"
        for target, costs in TARGET_COSTS.items():
            b = costs.bandwidth[path]
            assert b.source and f"{b.gib_per_s:g}" in doc, (path, target)
            assert b.source.startswith((ARCH_CONFIG, "assumption")), (path, target)


def test_the_a2a3_figures_are_pto_isa_s():
    # include/pto/costmodel/arch_config.hpp: 1.85 GHz; kA2A3ArchConfig's peaks in GiB/s.
    assert A2A3.frequency_hz == 1.85e9 and A2A3.cross_core_sync == 1
    peaks = {"gm_to_ub": 100.9, "gm_to_l1": 135.0, "ub_to_gm": 188.46, "l0c_to_gm": 70.0, "l0c_to_l1": 128.0}
    for path, gib in peaks.items():
        assert A2A3.bandwidth[path].gib_per_s == gib and A2A3.bandwidth[path].source == ARCH_CONFIG
    assert round(A2A3.bytes_per_cycle("gm_to_ub"), 2) == 58.56  # 100.9 * 2^30 / 1.85e9
    assert all(b.source.startswith("assumption") for b in TARGET_COSTS["a5"].bandwidth.values())
