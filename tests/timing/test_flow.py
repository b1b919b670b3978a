"""pto-isa's flow-control rules (`pypto_mlir.timing.flow`), each checked against the conditions of the public
pto-isa library (include/pto/npu/a2a3/TPush.hpp and include/pto/npu/a5/TPush.hpp: `SyncPeriod`,
`shouldWaitFree`, `shouldNotifyFree`; TPop.hpp / TFree.hpp of both: who signals free)."""

from __future__ import annotations

import pytest

from pypto_mlir.timing.flow import (
    consumer_signals_free,
    depth_is_guarded,
    producer_waits,
    releases_at_pop,
    sync_period,
    unguarded_reuses,
    wait_number,
)

DEPTHS = range(1, 9)


@pytest.mark.parametrize("slot_num", DEPTHS)
def test_sync_period_is_the_depth_up_to_two_then_half_of_it(slot_num):
    assert sync_period(slot_num) == (slot_num if slot_num <= 2 else slot_num // 2)
    assert sync_period(slot_num) >= 1


@pytest.mark.parametrize("slot_num", DEPTHS)
def test_a_producer_waits_only_from_the_depth_on_and_only_on_a_multiple_of_the_period(slot_num):
    period = sync_period(slot_num)
    for n in range(40):
        assert producer_waits(n, slot_num) == (n >= slot_num and n % period == 0), (slot_num, n)
    assert not any(producer_waits(n, slot_num) for n in range(slot_num))  # the first depth pushes never wait


@pytest.mark.parametrize("slot_num", DEPTHS)
def test_the_consumer_signals_free_once_per_period(slot_num):
    period = sync_period(slot_num)
    signalled = [n for n in range(40) if consumer_signals_free(n, slot_num)]
    assert signalled == [n for n in range(40) if (n + 1) % period == 0]
    assert len(signalled) == 40 // period


def test_the_rules_on_concrete_depths():
    assert [n for n in range(12) if producer_waits(n, 2)] == [2, 4, 6, 8, 10]
    assert [n for n in range(12) if producer_waits(n, 4)] == [4, 6, 8, 10]
    assert [n for n in range(12) if producer_waits(n, 3)] == list(range(3, 12))  # period 1: every push from 3
    assert [n for n in range(8) if consumer_signals_free(n, 2)] == [1, 3, 5, 7]
    assert [n for n in range(8) if consumer_signals_free(n, 8)] == [3, 7]
    assert [wait_number(n, 2) for n in (2, 4, 6)] == [0, 1, 2]


def test_where_the_slot_is_released():
    # a2a3: the tile tpop copies out of the GM ring and signals; TFREE_IMPL of a tile returns at once.
    # a5: the pop of an on-chip (UB / L1) ring copies nothing and does not signal; TFREE_IMPL signals.
    assert releases_at_pop("a2a3") and releases_at_pop(None)
    assert not releases_at_pop("a5")


def test_odd_depths_from_five_leave_slot_reuses_unguarded():
    # Depth 5, period 2, first wait at push 6: push 5 refills tile 0's slot with no free signal consumed.
    assert unguarded_reuses(5)[:3] == [5, 7, 9]
    assert [d for d in DEPTHS if depth_is_guarded(d)] == [1, 2, 3, 4, 6, 8]


def test_the_depth_interface_times_a_group_over_stated_scalar_values():
    from pathlib import Path

    from pypto_mlir.check_pipeline import apply_pipeline
    from pypto_mlir.ir import parse_module
    from pypto_mlir.interpreter.inputs import record_runs
    from pypto_mlir.timing.depth import depth_makespans, least_depth

    root = Path(__file__).resolve().parents[2]
    text = (root / "lit_tests/expand_mixed_kernel/ring_depth_chosen.mlir").read_text()
    module = parse_module(text)
    apply_pipeline(module, "lower-auto-vector-split,expand-mixed-kernel{ring-depth=fixed}")
    one = record_runs(module, "phase_incore_0")
    spans = depth_makespans(one, range(2, 9))
    assert spans[5] is None and spans[7] is None  # unguarded in pto-isa's flow control
    assert spans[3] < spans[2] and least_depth(spans) == 2
    assert depth_makespans(one + one, [3])[3] == 2 * spans[3]  # runs add up


def test_a_kernel_with_a_scalar_parameter_is_timed_over_the_stated_values():
    from pathlib import Path

    from pypto_mlir.check_pipeline import apply_pipeline
    from pypto_mlir.ir import parse_module
    from pypto_mlir.interpreter.inputs import record_runs
    from pypto_mlir.timing.depth import depth_makespans

    root = Path(__file__).resolve().parents[2]
    module = parse_module((root / "lit_tests/expand_mixed_kernel/reference_pr2830_if_param.mlir").read_text())
    apply_pipeline(module, "lower-auto-vector-split,expand-mixed-kernel")
    runs = record_runs(module, "pick_vec", [{"c": 0}, {"c": 1}])  # %c: i1 picks the branch
    per_run = [depth_makespans([r], [2])[2] for r in runs]
    assert all(per_run) and depth_makespans(runs, [2])[2] == sum(per_run)
