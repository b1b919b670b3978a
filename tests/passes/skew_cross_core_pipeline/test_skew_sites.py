"""The site analysis of `skew-cross-core-pipeline` (which loops, which side runs ahead, where each body is cut,
why not), its distance rule, the depth its skeleton run finds, the decision log, and `apply_skew`'s result.

The kernels are the lit tests' (lit_tests/skew_cross_core_pipeline/), compiled here through the default
expansion; the lit tests show the rewritten IR and check it by execution."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects import scf

from pypto_mlir import parse_module
from pypto_mlir.dialects.pto_traits import CoreSide, PipeDirection
from pypto_mlir.passes.decisions import capture_decisions
from pypto_mlir.passes.skew_cross_core_pipeline import (
    SkewCrossCorePipelinePass,
    SkewRefused,
    apply_skew,
    auto_distance,
    skew_candidates,
)
from pypto_mlir.passes.skew_cross_core_pipeline.parts import body_ops
from pypto_mlir.passes.skew_cross_core_pipeline.rings import POP, PUSH, Event, least_depth, runs_to_end
from pypto_mlir.passes.skew_cross_core_pipeline.sites import needed_depth
from pypto_mlir.pipeline import run_pipeline

LIT = Path(__file__).parents[3] / "lit_tests" / "skew_cross_core_pipeline"


def _source(name: str, target: str = "a2a3") -> str:
    text = (LIT / name).read_text()
    return text[text.index("builtin.module"):].replace("a2a3", target)


def _expanded(text: str):
    m = parse_module(text)
    run_pipeline(m, "lower-auto-vector-split,expand-mixed-kernel{skew=off}")
    return m


@pytest.fixture(scope="module")
def attention():
    return _expanded(_source("attention.mlir"))


def _names(loop: scf.ForOp) -> list[str]:
    return [op.name for op in body_ops(loop)]


def test_attention_site_cube_ahead_lanes_cut_after_their_push(attention):
    (site,) = skew_candidates(attention)
    assert site.skewable and site.why_not is None
    assert (site.kernel, site.aic, site.aiv) == ("att_incore_0", "att_incore_0_aic", "att_incore_0_aiv")
    assert site.ahead is CoreSide.AIC and site.trip == 8 and site.depth == 2
    cube, lanes = site.cuts
    # the cube is cut before its first pop: load, move, matmul, push S
    assert _names(cube.loop)[: cube.cut] == ["pto.load", "pto.move", "pto.matmul", "pto.tpush_to_aiv"]
    assert _names(cube.loop)[cube.cut] == "pto.tpop_from_aiv"
    # the C->V ring carries S (produce part) and P V (consume part): the lanes' body is cut at the same point
    # of that ring, after their push of P (the latest cut with no tile crossing it)
    assert _names(lanes.loop)[lanes.cut - 1] == "pto.tpush_to_aic"
    assert _names(lanes.loop)[lanes.cut] == "pto.tpop_from_aic"
    assert not cube.whole and not lanes.whole
    c2v, v2c = (0, PipeDirection.C2V), (0, PipeDirection.V2C)
    assert [e.ring for e in cube.produce_events] == [c2v]
    assert [(e.kind, e.ring) for e in lanes.produce_events if e.kind != "free"] == [(POP, c2v), (PUSH, v2c)]
    assert lanes.produce_args == () and cube.produce_args == ()


def test_round_trip_lanes_ahead_cube_loop_stays():
    m = _expanded(_source("vector_ahead.mlir"))
    (site,) = skew_candidates(m)
    assert site.skewable and site.ahead is CoreSide.AIV
    lanes, cube = site.cuts
    assert not lanes.whole and cube.whole


@pytest.fixture(scope="module")
def auto_module():
    return _expanded(_source("auto.mlir"))


def _site(module, kernel: str):
    return next(s for s in skew_candidates(module) if s.kernel == kernel)


def test_why_not_of_the_auto_kernels(auto_module):
    assert _site(auto_module, "att_incore_0").skewable
    assert _site(auto_module, "one_trip").skewable and _site(auto_module, "one_trip").trip == 1
    stream = _site(auto_module, "stream_incore_0")
    assert not stream.skewable and stream.why_not.startswith("not a round trip")
    back = _site(auto_module, "carried_back")
    assert back.why_not.startswith("the produce part depends on the consume part of an earlier iteration")
    assert back.where.name == "pto.matmul_acc"  # located at the op that reads the carried value


def test_why_not_bounds_differ(attention):
    text = str(attention)
    m = parse_module(text)
    (site,) = skew_candidates(m)
    aiv_loop = site.cuts[1].loop
    aiv_loop.operands[1] = aiv_loop.lb  # the lanes' loop now ends where it starts
    (site,) = skew_candidates(m)
    assert site.why_not == "the AIC and AIV loops do not have the same bounds"


@pytest.mark.parametrize("depth,trip,expected", [
    (2, 8, 2), (4, 8, 3), (8, 8, 4), (2, 5, 2), (2, 3, 1), (2, 2, 1), (2, 1, None), (2, 0, None),
    (2, None, 2), (5, None, 4),
])
def test_auto_distance(attention, depth, trip, expected):
    (site,) = skew_candidates(attention)
    site.depth, site.trip = depth, trip
    assert auto_distance(site) == expected


def test_needed_depth_per_distance_and_target():
    for target in ("a2a3", "a5"):
        m = _expanded(_source("attention.mlir", target))
        (site,) = skew_candidates(m)
        # distance 1 runs even at depth 1; from 2 on, depth 2 deadlocks under pto-isa's batching (the third
        # push on a ring of 2 slots waits for the free of both earlier tiles) and 3 slots suffice
        assert [needed_depth(site.cuts, d, site.trip, target) for d in (1, 2, 3, 4)] == [1, 3, 3, 3]
        assert needed_depth(site.cuts, 2, 1, target) == 1  # one trip: distance 1
        assert needed_depth(site.cuts, 2, None, target) == 3  # every trip count up to 2D + 2


def test_skeleton_flow_control():
    c2v = (0, PipeDirection.C2V)
    push, pop, free = Event(PUSH, c2v), Event(POP, c2v), Event("free", c2v)
    streams = {CoreSide.AIC: [push] * 4, CoreSide.AIV: [pop, free] * 4}
    assert runs_to_end(streams, 2, releases_at_pop=True)
    # the consumer needs all four tiles before it frees any: depth 4 at least
    held = {CoreSide.AIC: [push] * 4, CoreSide.AIV: [pop] * 4 + [free] * 4}
    assert not runs_to_end(held, 2, releases_at_pop=False)
    assert not runs_to_end(held, 3, releases_at_pop=False)
    assert runs_to_end(held, 4, releases_at_pop=False)
    assert least_depth([held], releases_at_pop=False, limit=8) == 4
    # on a2a3 the pop releases the slot: depth 1 suffices there
    assert least_depth([held], releases_at_pop=True, limit=8) == 1
    # pto-isa's batching: at depth 2 the third push waits for the free of the first two tiles
    v2c = (0, PipeDirection.V2C)
    cross = {
        CoreSide.AIC: [push, push, push, Event(POP, v2c)],
        CoreSide.AIV: [pop, Event(PUSH, v2c), pop, pop],
    }
    assert runs_to_end(cross, 2, releases_at_pop=True)


def test_decision_log_auto():
    m = _expanded(_source("auto.mlir"))
    with capture_decisions() as log:
        run_pipeline(m, [SkewCrossCorePipelinePass()])
    skew = {d.kernel: d.facts for d in log if d.kind == "skew"}
    assert set(skew) == {"att_incore_0", "one_trip", "stream_incore_0", "carried_back"}
    assert skew["att_incore_0"]["skewed"] is True and skew["att_incore_0"]["distance"] == 2
    assert skew["att_incore_0"]["depth_before"] == 2 and skew["att_incore_0"]["depth_after"] == 3
    assert skew["att_incore_0"]["rewritten"] == ["att_incore_0_aic", "att_incore_0_aiv"]
    assert skew["att_incore_0"]["ahead"] == CoreSide.AIC.label
    assert skew["one_trip"] == {**skew["one_trip"], "skewed": False, "reason": "the loop runs 1 time: nothing to overlap"}
    assert skew["stream_incore_0"]["reason"].startswith("not a round trip")
    assert "the produce part depends on the consume part" in skew["carried_back"]["reason"]
    assert all(d.pass_name == "skew-cross-core-pipeline" for d in log if d.kind == "skew")


def test_apply_skew_result(attention):
    m = parse_module(str(attention))
    (site,) = skew_candidates(m)
    result = apply_skew(m, site, 3)
    assert result.distance == 3 and result.remainder == "none-needed"
    assert result.depth_before == 2 and result.depth_after == 3
    assert result.min_depths == {"C2V#0": 3, "V2C#0": 3}
    assert result.rewritten == ("att_incore_0_aic", "att_incore_0_aiv")
    # the rewritten kernels have three loops each now, paired in order; the steady pair is a round trip again
    assert len(skew_candidates(m)) == 3


def test_apply_skew_refuses_unskewable(auto_module):
    m = auto_module
    site = _site(m, "stream_incore_0")
    with pytest.raises(SkewRefused, match="not a round trip"):
        apply_skew(m, site, 2)
    with pytest.raises(SkewRefused, match="at least 1"):
        apply_skew(m, site, 0)


def test_distance_option_is_checked():
    with pytest.raises(ValueError, match="distance must be 'auto' or an integer"):
        SkewCrossCorePipelinePass(distance="two")
    with pytest.raises(ValueError):
        SkewCrossCorePipelinePass(distance=0)
