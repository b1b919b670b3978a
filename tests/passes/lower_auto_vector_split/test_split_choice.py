"""The choices LowerAutoVectorSplit makes by the timing model (issue 43, parts 3 and 4;
passes/lower_auto_vector_split/auto/choice.py): the axis of a `#pto.split<auto>` kernel, and whether a split with
extra cross-lane work pays.  The rules on figures, then the pass with a fake cost model (which answers by the form
of the kernel it is shown), then the default model on a real kernel."""

from __future__ import annotations

import pytest
from xdsl.dialects import func

import pypto_mlir.passes.lower_auto_vector_split.pass_ as lavs
from pypto_mlir.dialects.pto_types import FuncFlag, has_flag, split_mode_of
from pypto_mlir.ir import make_context, parse_module
from pypto_mlir.passes.decisions import capture_decisions
from pypto_mlir.passes.lower_auto_vector_split.auto.choice import (
    MissingSplitCostModel,
    choose_axis,
    split_pays,
)
from pypto_mlir.passes.lower_auto_vector_split.pass_ import LowerAutoVectorSplitPass
from pypto_mlir.pipeline import DefaultSplitCostModel, run_pipeline
from pypto_mlir.verify import verify_module


def kernel(body: str, split: str = "auto", params: str = "") -> str:
    return f"""builtin.module attributes {{pto.target = #pto.target<a2a3>}} {{
  func.func @k(%qk: !pto.tile<16x32xf32, acc>{params}, %out: !pto.tensor<16x32xf32> {{pto.out}})
      attributes {{pto.kind = #pto.kind<incore>, pto.split = #pto.split<{split}>}} {{
    %v = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
{body}
    func.return
  }}
}}
"""


EVEN = kernel("""    %e = pto.exp %v : !pto.tile<16x32xf32, vec>
    %o = pto.store %e, %out[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>""")
ROWS = kernel("""    %c0 = arith.constant 0 : i32
    %g = pto.random %c0 : i32 -> !pto.tile<1x32xf32, vec>
    %s = pto.col_expand_add %v, %g : !pto.tile<16x32xf32, vec>, !pto.tile<1x32xf32, vec>
    %o = pto.store %s, %out[0, 0] : !pto.tile<16x32xf32, vec>, !pto.tensor<16x32xf32>""")
"""A random row spanning left_right's split axis (E-GEN): only up_down splits."""
SUM_COLS = kernel("""    %s = pto.col_sum %v : !pto.tile<16x32xf32, vec> -> !pto.tile<1x32xf32, vec>
    %o = pto.store %s, %out[0, 0] : !pto.tile<1x32xf32, vec>, !pto.tensor<16x32xf32>""", split="up_down")
"""A column sum over up_down's split axis: split with one cross-lane combine (issue 43 part 1)."""


class FakeModel:
    """Answers by the form of `@k` in the module it is shown: split up_down / left_right, or unsplit."""

    def __init__(self, spans: dict[str, int | str]):
        self.spans = spans
        self.asked: list[str] = []

    def kernel_makespan(self, module, name):
        f = next(op for op in module.body.block.ops if isinstance(op, func.FuncOp) and op.sym_name.data == name)
        form = split_mode_of(f) if has_flag(f, FuncFlag.SPLIT_AIV) else "unsplit"
        self.asked.append(form)
        return self.spans[form]


def run(text: str, model=None, **options):
    m = parse_module(text, "k.mlir")
    p = LowerAutoVectorSplitPass(remarks=False, **options).with_split_model(model)
    with capture_decisions() as log:
        p.apply(make_context(), m)
    verify_module(m)
    (f,) = [op for op in m.walk() if isinstance(op, func.FuncOp)]
    return f, log[-1]


# -- the rules on figures ------------------------------------------------------------------------------------


def test_the_only_axis_that_splits_is_chosen_untimed():
    c = choose_axis({"left_right": 0}, {})
    assert (c.axis, c.makespans) == ("left_right", {})
    assert c.why == "the only axis that splits (up_down does not)"


def test_both_axes_the_smaller_makespan_and_up_down_on_a_tie():
    assert choose_axis({"up_down": 0, "left_right": 0}, {"up_down": 120, "left_right": 100}).axis == "left_right"
    assert choose_axis({"up_down": 0, "left_right": 0}, {"up_down": 90, "left_right": 100}).axis == "up_down"
    tie = choose_axis({"up_down": 0, "left_right": 0}, {"up_down": 100, "left_right": 100})
    assert tie.axis == "up_down" and "tie" in tie.why and tie.makespans == {"up_down": 100, "left_right": 100}


def test_untimed_the_axis_with_fewer_combines_then_up_down():
    untimed = {"up_down": "the kernel takes a scalar parameter", "left_right": "the kernel takes a scalar parameter"}
    assert choose_axis({"up_down": 2, "left_right": 1}, untimed).axis == "left_right"
    c = choose_axis({"up_down": 1, "left_right": 1}, untimed)
    assert c.axis == "up_down" and "cannot time the kernel (the kernel takes a scalar parameter)" in c.why


def test_a_split_with_combines_is_kept_unless_the_unsplit_form_is_faster():
    assert not split_pays(500, 300, 2).keep_split
    assert split_pays(300, 300, 1).keep_split  # a tie keeps the split
    kept = split_pays("its run in the interpreter fails (X)", 300, 1)
    assert kept.keep_split and "cannot time the kernel (its run in the interpreter fails (X))" in kept.why
    assert split_pays(500, 300, 2).why == "the split needs 2 cross-lane combines and is slower: modelled 500 cycles split, 300 unsplit"
    assert split_pays(500, 300, 0, 1).why == "the split needs 1 lane part through GM and is slower: modelled 500 cycles split, 300 unsplit"
    assert split_pays(200, 300, 1, 2).why.startswith("the split needs 1 cross-lane combine and 2 lane parts through GM and still pays")


# -- the pass, with a fake model -------------------------------------------------------------------------------


def test_auto_takes_the_faster_axis_of_the_model():
    model = FakeModel({"up_down": 200, "left_right": 100})
    f, d = run(EVEN, model)
    assert split_mode_of(f) == "left_right" and has_flag(f, FuncFlag.SPLIT_AIV)
    assert model.asked == ["up_down", "left_right"]
    assert d.kind == "lane-split" and d.facts["mode"] == "left_right"
    assert d.facts["axis"]["makespans"] == {"up_down": 200, "left_right": 100} and d.facts["axis"]["refused"] == {}


def test_auto_untimed_takes_up_down():
    f, d = run(EVEN, FakeModel({"up_down": "no", "left_right": "no"}))
    assert split_mode_of(f) == "up_down"
    assert "cannot time the kernel (no)" in d.facts["axis"]["why"]


def test_one_axis_needs_no_model_and_the_other_axis_reason_is_reported():
    f, d = run(ROWS, None)  # no model handed: none is asked
    assert split_mode_of(f) == "up_down"
    assert "automatic split-axis halving of 'pto.random'" in d.facts["axis"]["refused"]["left_right"]


def test_auto_with_both_axes_and_no_model_is_the_callers_mistake():
    with pytest.raises(MissingSplitCostModel, match="the split axis of @k is chosen by the timing model"):
        run(EVEN, None)


def test_up_down_request_is_not_timed():
    model = FakeModel({})
    f, d = run(EVEN.replace("<auto>", "<up_down>"), model)
    assert split_mode_of(f) == "up_down" and model.asked == [] and "axis" not in d.facts


# -- part 4: a split with extra cross-lane work (the hook: SplitLowering.cross_lane_combines) -----------------


@pytest.fixture
def two_combines(monkeypatch):
    """Every lowering reports two cross-lane combines (what a split reduction's workspace round trips count)."""
    real = lavs.lower_auto_function

    def lower(f, mode, *whole_roots):
        lw = real(f, mode, *whole_roots)
        lw.cross_lane_combines = [{}, {}]  # the entries are the report's; the choice counts them
        return lw

    monkeypatch.setattr(lavs, "lower_auto_function", lower)


SPLIT_UD = EVEN.replace("<auto>", "<up_down>")


def test_a_split_with_combines_that_is_slower_stays_unsplit(two_combines):
    model = FakeModel({"up_down": 500, "unsplit": 300})
    f, d = run(SPLIT_UD, model)
    assert split_mode_of(f) == "none" and not has_flag(f, FuncFlag.SPLIT_AIV)
    assert d.kind == "kept-unsplit" and d.facts["cross_lane_combines"] == 2
    assert {k: d.facts["pays"][k] for k in ("split", "unsplit", "keep_split")} == {"split": 500, "unsplit": 300, "keep_split": False}
    assert "exp" in str(f)  # the body as written


@pytest.mark.parametrize("spans", [{"up_down": 300, "unsplit": 300}, {"up_down": "no", "unsplit": 300}])
def test_a_split_with_combines_that_pays_or_is_untimed_is_kept(two_combines, spans):
    f, d = run(SPLIT_UD, FakeModel(spans))
    assert split_mode_of(f) == "up_down" and has_flag(f, FuncFlag.SPLIT_AIV)
    assert d.kind == "lane-split" and d.facts["pays"]["keep_split"] is True


@pytest.mark.parametrize("options", [{"fallback": "error"}, {"split_policy": "always"}])
def test_the_contract_and_split_always_split_without_asking(two_combines, options):
    model = FakeModel({})
    f, d = run(SPLIT_UD, model, **options)
    assert split_mode_of(f) == "up_down" and model.asked == [] and "pays" not in d.facts
    assert d.facts["cross_lane_combines"] == 2


def test_auto_reuses_the_chosen_axis_time_for_the_pays_question(two_combines):
    model = FakeModel({"up_down": 400, "left_right": 450, "unsplit": 350})
    f, d = run(EVEN, model)
    assert split_mode_of(f) == "none" and model.asked == ["up_down", "left_right", "unsplit"]
    assert d.kind == "kept-unsplit" and d.facts["axis"]["chosen"] == "up_down" and d.facts["pays"]["split"] == 400


@pytest.mark.parametrize("spans,kept", [({"up_down": 900, "unsplit": 700}, "none"), ({"up_down": 600, "unsplit": 700}, "up_down")])
def test_a_real_cross_lane_reduction_is_weighed(spans, kept):
    """A column sum over the split axis counts one combine (the reductions of issue 43 part 1): the model is asked."""
    model = FakeModel(spans)
    f, d = run(SUM_COLS, model)
    assert split_mode_of(f) == kept and model.asked == ["up_down", "unsplit"]
    assert d.facts["cross_lane_combines"] == 1 and d.facts["combines"][0]["op"] == "pto.col_sum"


ODD_TILE_GET = """builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%qk: !pto.tile<15x32xf32, acc>, %x: !pto.tensor<15x32xf32>, %out: !pto.tensor<15x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<15x32xf32, acc> -> !pto.tile<15x32xf32, vec>
    %c0 = arith.constant 0 : index
    %g = pto.tile_get %x[0, 0] from %c0 : !pto.tensor<15x32xf32> -> !pto.tile<15x32xf32, vec>
    %a = pto.add %v, %g : !pto.tile<15x32xf32, vec>
    %o = pto.store %a, %out[0, 0] : !pto.tile<15x32xf32, vec>, !pto.tensor<15x32xf32>
    func.return
  }
}
"""
"""An odd tile_get meeting per-lane rows: its lane part goes through a GM workspace (gm_lane_part.py)."""


@pytest.mark.parametrize("spans,kept", [({"up_down": 900, "unsplit": 700}, "none"), ({"up_down": 600, "unsplit": 700}, "up_down")])
def test_a_lane_part_through_gm_is_weighed(spans, kept):
    """A whole value's lane part through a GM workspace is extra work as a combine is: the model is asked, and
    the report lists it."""
    model = FakeModel(spans)
    f, d = run(ODD_TILE_GET, model)
    assert split_mode_of(f) == kept and model.asked == ["up_down", "unsplit"]
    assert "cross_lane_combines" not in d.facts
    assert d.facts["gm_lane_parts"] == [{"value": "%g", "split_dim": 0, "workspace": "[2, 16, 32]", "in_loop": False}]
    assert "1 lane part through GM" in d.facts["pays"]["why"]


WHOLE_STORED_TWICE = """builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%qk: !pto.tile<16x6xf32, acc>, %out: !pto.tensor<3x32xf32> {pto.out}) -> !pto.tensor<3x32xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x6xf32, acc> -> !pto.tile<16x6xf32, vec>
    %r = pto.reshape %s : !pto.tile<16x6xf32, vec> -> !pto.tile<3x32xf32, vec>
    %o = pto.store %r, %out[0, 0] : !pto.tile<3x32xf32, vec>, !pto.tensor<3x32xf32>
    %o2 = pto.store %r, %o[0, 0] : !pto.tile<3x32xf32, vec>, !pto.tensor<3x32xf32>
    func.return %o2 : !pto.tensor<3x32xf32>
  }
}
"""
"""A whole 3-row value stored twice to one tensor: lane 0 stores it, between lane barriers (lowering.py)."""


@pytest.mark.parametrize("spans,kept", [({"up_down": 900, "unsplit": 700}, "none"), ({"up_down": 600, "unsplit": 700}, "up_down")])
def test_stores_by_one_writer_are_weighed(spans, kept):
    """Stores made by lane 0 alone between lane barriers are extra work (lane 1 idles, both lanes wait): the
    model is asked, and the report counts them."""
    model = FakeModel(spans)
    f, d = run(WHOLE_STORED_TWICE, model)
    assert split_mode_of(f) == kept and model.asked == ["up_down", "unsplit"]
    assert d.facts["one_writer_stores"] == 2
    assert "2 stores by one lane between lane barriers" in d.facts["pays"]["why"]


def test_split_pays_names_every_kind_of_extra_work():
    v = split_pays(600, 700, 1, 2, kept_whole=1, one_writer=3)
    assert v.keep_split and v.why.startswith(
        "the split needs 1 cross-lane combine and 2 lane parts through GM and 1 value computed whole on both lanes "
        "and 3 stores by one lane between lane barriers and still pays"
    )
    assert not split_pays(800, 700, 0, kept_whole=2).keep_split
    assert split_pays(800, 700, 0, kept_whole=2).why.startswith("the split needs 2 values computed whole on both lanes")


def test_the_default_model_keeps_a_small_column_sum_unsplit():
    """The default model on the column sum: the workspace round trip costs more than the halved vector work
    saves, so the kernel stays unsplit; under fallback=error it is split (a contract)."""
    m = parse_module(SUM_COLS, "k.mlir")
    run_pipeline(m, "lower-auto-vector-split{remarks=false}")
    (f,) = [op for op in m.walk() if isinstance(op, func.FuncOp)]
    assert split_mode_of(f) == "none"
    m = parse_module(SUM_COLS, "k.mlir")
    run_pipeline(m, "lower-auto-vector-split{fallback=error}")
    (f,) = [op for op in m.walk() if isinstance(op, func.FuncOp)]
    assert split_mode_of(f) == "up_down" and has_flag(f, FuncFlag.SPLIT_AIV)


def test_an_unknown_split_policy_is_refused():
    with pytest.raises(ValueError, match="unknown split-policy 'maybe'; expected one of pays, always"):
        LowerAutoVectorSplitPass(split_policy="maybe")


# -- the default model ---------------------------------------------------------------------------------------


def test_the_default_model_times_each_form_through_expand_mixed_kernel():
    m = parse_module(EVEN.replace("<auto>", "<up_down>"), "k.mlir")
    run_pipeline(m, "lower-auto-vector-split")
    split = DefaultSplitCostModel().kernel_makespan(m, "k")
    unsplit = DefaultSplitCostModel().kernel_makespan(parse_module(EVEN.replace("<auto>", "<none>"), "k.mlir"), "k")
    assert isinstance(split, int) and isinstance(unsplit, int) and split < unsplit  # the vector work on two lanes
    assert "pto.aiv_shard" in str(m)  # the module handed is not changed: the model expands a copy


def test_the_default_model_does_not_time_a_scalar_parameter():
    text = EVEN.replace("<auto>", "<none>").replace("acc>, %out", "acc>, %n: index, %out")
    assert DefaultSplitCostModel().kernel_makespan(parse_module(text, "k.mlir"), "k") == (
        "the kernel takes a scalar parameter, whose value sets its schedule"
    )
