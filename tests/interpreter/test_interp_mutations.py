"""Mutation tests of the execution oracle: for each blind spot a correct program and a broken twin; execution must
pass the first and catch the second (issue 16)."""

from __future__ import annotations

import pytest

from kernelgen.interp_util import EXAMPLES, INPUTS, input_text, parsed
from pypto_mlir.diagnostics import PtoError
from pypto_mlir.interpreter import check_modules, run_program


def _line_of(text: str, needle: str) -> int:
    return next(i + 1 for i, line in enumerate(text.splitlines()) if needle in line)


def _error(text: str, entry: str | None = None) -> PtoError:
    with pytest.raises(PtoError) as info:
        run_program(parsed(text), entry)
    return info.value


# -- 1. a tile read after its tfree (popped tiles are views of their ring slot) ------------------------------------

SEED_A5 = "seed_example1.expanded.a5.mlir"
STORE = "    %out_1 = pto.store %z_vec, %out_0[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>\n"
FREE = "    pto.tfree_to_aic %z_vec : !pto.tile<16x128xf32, vec>\n"


def test_read_after_tfree_correct_twin_passes():
    text = input_text(SEED_A5)
    assert STORE + FREE in text
    res = check_modules(parsed((EXAMPLES / "seed_example1.a5.mlir").read_text()), parsed(text))
    assert res.ok, res.report


def test_read_after_tfree_is_reported_with_pop_free_and_read():
    text = input_text(SEED_A5).replace(STORE + FREE, FREE + STORE)
    err = _error(text)
    assert err.message.startswith("use of a tile after its slot was freed")
    assert err.loc.line == _line_of(text, "%out_1 = pto.store")
    notes = [(n[0].line, n[1]) for n in err.notes]
    assert notes == [
        (_line_of(text, "pto.tpop_from_aic"), "the tile was popped here"),
        (_line_of(text, "pto.tfree_to_aic"), "its slot was freed here"),
    ]


def test_read_of_a_view_after_tfree_is_reported_and_a_computed_copy_is_not():
    # A slice of the popped tile aliases the slot; an elementwise result computed before the free is fresh.
    view = (
        "    %v = pto.slice %z_vec[0, 0] : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xf32, vec>\n"
        + FREE
        + STORE.replace("%z_vec", "%v")
    )
    err = _error(input_text(SEED_A5).replace(STORE + FREE, view))
    assert "use of a tile after its slot was freed" in err.message
    fresh = (
        "    %v = pto.muls %z_vec, %one : !pto.tile<16x128xf32, vec>, f32\n" + FREE + STORE.replace("%z_vec", "%v")
    )
    text = input_text(SEED_A5).replace(STORE + FREE, "    %one = arith.constant 1.0 : f32\n" + fresh)
    res = check_modules(parsed((EXAMPLES / "seed_example1.a5.mlir").read_text()), parsed(text))
    assert res.ok, res.report


def test_tfree_through_a_view_releases_the_popped_slot():
    text = input_text(SEED_A5).replace(
        FREE,
        "    %v = pto.reshape %z_vec : !pto.tile<16x128xf32, vec> -> !pto.tile<128x16xf32, vec>\n"
        "    pto.tfree_to_aic %v : !pto.tile<128x16xf32, vec>\n",
    )
    res = check_modules(parsed((EXAMPLES / "seed_example1.a5.mlir").read_text()), parsed(text))
    assert res.ok, res.report


# -- 2. GM fences: a missing or misplaced fence is a race, whatever the schedule order ------------------------------

GM = "gm_exchange.a2a3.mlir"
FENCE_PUSH = "    pto.tpush_to_aiv %c {split = 0 : i64} : !pto.tile<16x16xf32, acc>\n"
CUBE_STORE = "    %s2 = pto.store %c, %scratch[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>\n"


def _expanded(name: str, target: str = "a2a3") -> str:
    from pypto_mlir.check_pipeline import apply_pipeline
    from pypto_mlir.ir import print_module

    m = parsed(input_text(name).replace("#pto.target<a2a3>", f"#pto.target<{target}>"))
    apply_pipeline(m, ["expand-mixed-kernel"])
    return print_module(m)


def _check(before: str, after: str, **kw):
    return check_modules(parsed(before), parsed(after, "after.mlir"), **kw)


def test_gm_fence_correct_twin_passes():
    out = _expanded(GM)
    assert CUBE_STORE + FENCE_PUSH in out and "%scratch_gm_sync = pto.tpop_from_aic" in out
    res = _check(input_text(GM), out)
    assert res.ok, res.report


def test_missing_gm_fence_is_a_race():
    out = _expanded(GM)
    broken = "\n".join(l for l in out.replace(FENCE_PUSH, "").splitlines() if "scratch_gm_sync" not in l)
    res = _check(input_text(GM), broken)
    assert not res.ok and res.stage == "after"
    assert "data race on GM tensor %scratch[0:16, 0:16]" in res.report
    assert "a load on @k_aiv lane 0 (AIV) and a store on @k_aic (AIC)" in res.report


def test_fence_pushed_before_the_store_is_a_race_both_schedule_orders_hide():
    # The token is pushed before the cube store: the AIV's load is not ordered after the store.  Both schedule
    # orders happen to run the store first (the AIC runs on after its push; the AIV waits at its pop), so the
    # outputs match; only the happens-before detector sees the race.
    broken = _expanded(GM).replace(CUBE_STORE + FENCE_PUSH, FENCE_PUSH + CUBE_STORE)
    hidden = check_modules(parsed(input_text(GM)), parsed(broken), detect_races=False)
    assert hidden.ok, hidden.report
    res = _check(input_text(GM), broken)
    assert not res.ok and "data race on GM tensor %scratch[0:16, 0:16]" in res.report


# -- 3. hardware launch: a missing pto.dual_aiv_dispatch / pto.split_aiv ------------------------------------------


def test_dual_dispatch_correct_twin_passes_on_a2a3_and_a5():
    for target in ("a2a3", "a5"):
        out = _expanded(GM, target)
        assert ("pto.dual_aiv_dispatch" in out) == (target == "a2a3")
        res = _check(input_text(GM).replace("a2a3", target), out)
        assert res.ok, res.report


def test_missing_dual_aiv_dispatch_on_a2a3_is_reported_at_the_launch():
    broken = _expanded(GM).replace(", pto.dual_aiv_dispatch}", "}")
    res = _check(input_text(GM), broken)
    assert not res.ok and res.stage == "after"
    assert "on a2a3 the hardware runs an AIV kernel of a Group on both AIV lanes, but @k_aiv has neither" in res.report
    assert "after.mlir:" in res.report  # located at the Group's call of the kernel


def test_missing_split_aiv_on_a5_runs_one_lane_and_loses_the_other_half():
    text = (INPUTS / "matmul_softmax.expanded.a2a3.mlir").read_text().replace("#pto.target<a2a3>", "#pto.target<a5>")
    res = check_modules(parsed((EXAMPLES / "matmul_softmax.a5.mlir").read_text()), parsed(text))
    assert res.ok, res.report
    broken = text.replace(
        "attributes {pto.kind = #pto.kind<aiv>, pto.split = #pto.split<up_down>, pto.split_aiv}",
        "attributes {pto.kind = #pto.kind<aiv>}",
    )
    err = _error(broken)
    assert "runs on one lane (it has neither pto.split_aiv nor pto.dual_aiv_dispatch)" in err.message


# -- 4. layouts: a V->C transfer whose producer and consumer disagree on the fractal layout -------------------------


def _pipeline(example: str) -> str:
    from pypto_mlir.check_pipeline import apply_pipeline
    from pypto_mlir.ir import print_module

    m = parsed((EXAMPLES / example).read_text())
    apply_pipeline(m, ["lower-auto-vector-split", "expand-mixed-kernel"])
    return print_module(m)


NZ_VEC = "!pto.tile<64x128xbf16, vec, blayout = col_major, slayout = row_major>"
ADAPTER = f"    %x_bf_nz = pto.move %x_bf : !pto.tile<64x128xbf16, vec> -> {NZ_VEC}\n"


def test_a5_nz_adapter_correct_twin_passes():
    out = _pipeline("vector_prep_matmul.a5.mlir")
    assert ADAPTER in out
    res = check_modules(parsed((EXAMPLES / "vector_prep_matmul.a5.mlir").read_text()), parsed(out))
    assert res.ok, res.report


def test_a5_missing_nz_adapter_scrambles_the_cube_operand():
    out = _pipeline("vector_prep_matmul.a5.mlir")
    broken = out.replace(ADAPTER, "").replace(
        f"pto.tpush_to_aic %x_bf_nz {{split = 0 : i64}} : {NZ_VEC}",
        "pto.tpush_to_aic %x_bf {split = 0 : i64} : !pto.tile<64x128xbf16, vec>",
    )
    assert "_nz" not in broken
    res = check_modules(parsed((EXAMPLES / "vector_prep_matmul.a5.mlir").read_text()), parsed(broken))
    assert not res.ok and res.stage == "compare" and "differs" in res.report


def test_a2a3_v2c_pop_without_the_nz_view_scrambles_the_cube_operand():
    out = _pipeline("vector_prep_matmul.a2a3.mlir")
    pop = "%x_left_mat = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<64x128xbf16, mat>"
    assert pop in out and "_nz" not in out  # a2a3 needs no adapter: the transfer lays the tile out in NZ
    res = check_modules(parsed((EXAMPLES / "vector_prep_matmul.a2a3.mlir").read_text()), parsed(out))
    assert res.ok, res.report
    nd = "!pto.tile<64x128xbf16, mat, blayout = row_major, slayout = none_box>"
    broken = "\n".join(
        line.replace("!pto.tile<64x128xbf16, mat>", nd) if "%x_left_mat" in line else line for line in out.splitlines()
    )
    res = check_modules(parsed((EXAMPLES / "vector_prep_matmul.a2a3.mlir").read_text()), parsed(broken))
    assert not res.ok and res.stage == "compare" and "differs" in res.report


# -- 5. cross-lane GM order after a split_aiv_scope region (LowerAutoVectorSplit rejects the source form) -----------

# The flattened form of a region in which each lane stores its 8 rows of %o, followed by full-width code on both
# lanes.  Correct twin: each lane reloads only the rows it stored.  Broken twin (what LowerAutoVectorSplit produced
# from `%full = pto.load %r1[0, 0]` after the region before it rejected it, region_errors.mlir): both lanes load
# all of %o, so lane 0 reads the rows lane 1 stores with nothing ordering them.
LANES_TWIN = """builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}, %p: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %aiv_id = pto.get_subblock_idx : index
    %rows = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
    %c8 = arith.constant 8 : index
    %row = arith.muli %aiv_id, %c8 : index
    %o2 = pto.store %rows, %o[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
LOAD_AND_STORE
  }
}
"""
OWN_ROWS = """    %mine = pto.load %o2[%row, 0] : !pto.tensor<16x128xf32> -> !pto.tile<8x128xf32, vec>
    %p2 = pto.store %mine, %p[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %p2 : !pto.tensor<16x128xf32>"""
ALL_ROWS = """    %full = pto.load %o2[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %p2 = pto.store %full, %p[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %p2 : !pto.tensor<16x128xf32>"""


def _expand(text: str) -> str:
    from pypto_mlir.check_pipeline import apply_pipeline
    from pypto_mlir.ir import print_module

    m = parsed(text)
    apply_pipeline(m, ["expand-mixed-kernel"])
    return print_module(m)


def test_lane_reloading_its_own_rows_after_a_region_passes():
    good = LANES_TWIN.replace("LOAD_AND_STORE", OWN_ROWS)
    res = _check(good, _expand(good))
    assert res.ok, res.report


def test_both_lanes_loading_all_rows_after_a_region_is_a_race():
    good = LANES_TWIN.replace("LOAD_AND_STORE", OWN_ROWS)
    broken = _expand(LANES_TWIN.replace("LOAD_AND_STORE", ALL_ROWS))
    res = _check(good, broken)
    assert not res.ok and res.stage == "after", res.report
    assert "data race on GM tensor %o[" in res.report
    assert "a store on @k_aiv lane 1 (AIV) and a load on @k_aiv lane 0 (AIV)" in res.report
