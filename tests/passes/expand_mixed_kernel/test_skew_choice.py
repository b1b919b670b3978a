"""The skew choice of ExpandMixedKernel (passes/expand_mixed_kernel/skew_choice.py): D and the ring depth chosen
together by the cost model, the skew applied only where it beats the kernel unskewed, and each outcome in the
decision log.  The rewriter and the cost model are test doubles handed to the pass (as the drivers hand the real
ones): the rewriter marks the module it skews (`test.skew` = D) and changes nothing else, and the model times a
module by that mark and the depth, so each test states the makespans it wants the choice to see.  The real
rewrite is checked by execution in lit_tests/expand_mixed_kernel/skew_*.mlir and tests/timing/test_loop_kernels.py.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

import pytest
from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, i64

from pypto_mlir import parse_module
from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import pipe_init_of
from pypto_mlir.ir import make_context
from pypto_mlir.passes.decisions import capture_decisions
from pypto_mlir.passes.expand_mixed_kernel.pass_ import ExpandMixedKernelPass
from pypto_mlir.passes.expand_mixed_kernel.skew_choice import MissingSkewRewriter
from pypto_mlir.passes.lower_auto_vector_split.pass_ import LowerAutoVectorSplitPass

ROOT = Path(__file__).resolve().parents[3]
_spec = importlib.util.spec_from_file_location("_loop_kernels", ROOT / "benchmarks" / "loop_kernels.py")
assert _spec is not None and _spec.loader is not None
loop_kernels = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(loop_kernels)

KERNEL = "round_trip_incore"


@dataclass
class Site:
    kernel: str
    trip: int
    loop: object
    ahead: object = None
    why_not: str | None = None


@dataclass
class Outcome:
    distance: int
    min_depths: dict
    remainder: str = "none-needed"


class MarkingRewriter:
    """Finds the round trip's loop (8 iterations) and 'skews' it by marking the module with D."""

    def __init__(self, min_depth=lambda d: d, refuse=()):
        self.min_depth, self.refuse, self.applied = min_depth, set(refuse), []

    def candidates(self, module):
        aic = next(f for f in module.body.block.ops if getattr(f, "sym_name", None) and f.sym_name.data == f"{KERNEL}_aic")
        loop = next(op for op in aic.walk() if isinstance(op, scf.ForOp))
        return [Site(KERNEL, 8, loop)]

    def apply(self, module, site, distance):
        if distance in self.refuse:
            raise PtoError(f"cannot skew by {distance}", op=site.loop)
        module.attributes["test.skew"] = IntegerAttr(distance, i64)
        self.applied.append((module, distance))
        return Outcome(distance, {"C2V#0": self.min_depth(distance)})


class TableModel:
    """Makespans from a table (D, depth) -> cycles; D = 0 is the unskewed module; 1000 for a pair not listed."""

    def __init__(self, table):
        self.table, self.asked = table, []

    def makespans(self, module, group, depths, scalar_values=({},)):
        attr = module.attributes.get("test.skew")
        d = attr.value.data if attr is not None else 0
        self.asked.append((d, list(depths)))
        return {depth: self.table.get((d, depth), 1000) for depth in depths}


def _expanded(target="a2a3", model=None, rewriter=None, **options):
    m = parse_module(loop_kernels.round_trip(target))
    LowerAutoVectorSplitPass().apply(make_context(), m)
    p = ExpandMixedKernelPass(**options).with_cost_model(model).with_skew_rewriter(rewriter)
    with capture_decisions() as log:
        p.apply(make_context(), m)
    return m, [d.facts for d in log if d.kind == "skew"]


def _depth(m, half):
    f = next(f for f in m.body.block.ops if getattr(f, "sym_name", None) and f.sym_name.data == f"{KERNEL}_{half}")
    return pipe_init_of(f).depth


@pytest.mark.parametrize("target", ["a2a3", "a5"])
def test_the_best_distance_and_depth_are_chosen_together(target):
    """D = 3 at depth 4 is the fastest variant (D = 2 is best at depth 3, but slower): the module gets D = 3 and
    depth 4 on both halves; the log says before and after."""
    table = {(0, 2): 900, (2, 3): 700, (2, 4): 720, (3, 4): 650, (4, 4): 660}
    rw = MarkingRewriter(min_depth=lambda d: d)
    m, log = _expanded(target, TableModel(table), rw)
    assert m.attributes["test.skew"].value.data == 3
    assert rw.applied[-1] == (m, 3)
    assert _depth(m, "aic") == _depth(m, "aiv") == 4
    (entry,) = log
    assert entry["skewed"] and entry["distance"] == 3 and entry["depth_after"] == 4
    assert entry["makespan_before"] == 900 and entry["makespan_after"] == 650
    # every distance up to MAX_DISTANCE (trip 8 >= 2D) was tried, each from its minimum depth only
    assert [t["distance"] for t in entry["tried"]] == [1, 2, 3, 4]
    assert all(int(d) >= t["distance"] for t in entry["tried"] for d in t["makespans"])


def test_no_skew_where_the_model_shows_no_gain():
    """Every variant is as slow as the kernel unskewed: the module stays as it is, and the log says why."""
    m, log = _expanded("a5", TableModel({(0, 2): 500} | {(d, k): 500 for d in (1, 2, 3, 4) for k in (2, 3, 4)}),
                       MarkingRewriter())
    assert "test.skew" not in m.attributes
    (entry,) = log
    assert not entry["skewed"] and entry["reason"] == "no skew shortens the modelled makespan by more than 1%"
    assert entry["makespan_before"] == 500


def test_within_the_margin_the_least_distance_and_depth_win():
    """D = 3 at depth 4 is 5 cycles faster than D = 1 at depth 2 (under 1 %): D = 1 at depth 2 is kept."""
    table = {(0, 2): 900, (1, 2): 655, (3, 4): 650}
    m, log = _expanded("a2a3", TableModel(table), MarkingRewriter())
    assert m.attributes["test.skew"].value.data == 1 and _depth(m, "aic") == 2
    assert log[0]["makespan_after"] == 655


def test_a_gain_under_the_margin_is_no_gain():
    """The fastest skew is 0.5 % faster than the kernel unskewed: not applied."""
    m, log = _expanded("a2a3", TableModel({(d, k): 995 for d in (1, 2, 3, 4) for k in (2, 3, 4)}),
                       MarkingRewriter())
    assert "test.skew" not in m.attributes and not log[0]["skewed"]


def test_a_refused_distance_is_skipped_and_reported():
    table = {(0, 2): 900, (2, 2): 800, (3, 3): 600}
    m, log = _expanded("a2a3", TableModel(table), MarkingRewriter(min_depth=lambda d: 2, refuse={3}))
    assert m.attributes["test.skew"].value.data == 2
    (entry,) = log
    assert {"site": 0, "distance": 3, "refused": "cannot skew by 3"} in entry["tried"]


def test_a_skew_needing_a_deeper_ring_than_allowed_is_not_timed():
    """With ring-depth=fixed only depth 2 may be used: a skew whose minimum depth is 3 is not tried at all."""
    model = TableModel({(0, 2): 900, (2, 2): 800, (3, 3): 100})
    m, log = _expanded("a2a3", model, MarkingRewriter(min_depth=lambda d: 2 if d == 2 else 3), ring_depth="fixed")
    assert m.attributes["test.skew"].value.data == 2 and _depth(m, "aic") == 2
    assert all(depths == [2] for _, depths in model.asked)
    assert any("refused" in t and t["distance"] == 3 for t in log[0]["tried"])


def test_skew_off_asks_no_rewriter():
    m, log = _expanded("a2a3", TableModel({}), None, skew="off")
    assert "test.skew" not in m.attributes and log == []


def test_a_pass_without_a_rewriter_says_so_when_it_has_a_loop_to_consider():
    with pytest.raises(MissingSkewRewriter, match="no skew rewriter was handed to the pass"):
        _expanded("a2a3", TableModel({}), None)


def test_a_kernel_without_a_round_trip_loop_needs_no_rewriter():
    """The K-loop only pushes C->V in its loop: nothing to skew, no rewriter asked."""
    m = parse_module(loop_kernels.k_loop("a2a3"))
    LowerAutoVectorSplitPass().apply(make_context(), m)
    ExpandMixedKernelPass().with_cost_model(TableModel({})).apply(make_context(), m)


def test_the_skew_option_is_checked():
    with pytest.raises(ValueError, match="unknown skew 'on'; expected one of auto, off"):
        ExpandMixedKernelPass(skew="on")
