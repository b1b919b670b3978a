"""Cross-core execution: hand-written AIC/AIV pairs run correctly, and broken ones are reported with the op's
location on every core (deadlock, tfree without tpop, pop with no pipe, oversize tiles, leftovers, bad split codes)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from kernelgen.interp_util import EXAMPLES, input_text, parsed
from pypto_mlir.diagnostics import PtoError
from pypto_mlir.interpreter import check_modules, run_program


def _run_error(text: str, entry: str | None = None) -> PtoError:
    with pytest.raises(PtoError) as info:
        run_program(parsed(text), entry)
    return info.value


def _line_of(text: str, needle: str, nth: int = 0) -> int:
    lines = [i + 1 for i, l in enumerate(text.splitlines()) if needle in l]
    return lines[nth]


@pytest.mark.parametrize(
    "example,expanded",
    [
        ("seed_example1.a5.mlir", "seed_example1.expanded.a5.mlir"),
        ("matmul_softmax.a2a3.mlir", "matmul_softmax.expanded.a2a3.mlir"),
        ("loop_accumulate.a2a3.mlir", "loop_accumulate.expanded.a2a3.mlir"),
        ("vector_prep_matmul.a2a3.mlir", "vector_prep_matmul.expanded.a2a3.mlir"),
    ],
)
def test_hand_expanded_kernels_compute_what_the_mixed_kernel_computes(example, expanded):
    res = check_modules(parsed((EXAMPLES / example).read_text()), parsed(input_text(expanded)))
    assert res.ok, res.report


def test_ragged_odd_split_with_lane_stride():
    m = parsed(input_text("ragged_split.a2a3.mlir"))
    a, b = run_program(m, "rag"), run_program(m, "ref")
    for k in b.values:
        np.testing.assert_array_equal(a.values[k], b.values[k])


def test_ragged_split_with_the_even_code_is_reported():
    text = input_text("ragged_split.a2a3.mlir").replace("split = 3 : i64", "split = 1 : i64")
    err = _run_error(text, "rag")
    assert "split = 1 (up_down) does not fit the lanes' extents" in err.message
    assert "lane 0 holds 7 and lane 1 holds 6; expected split = 3" in err.message


def test_missing_tfree_with_more_pushes_than_slots_deadlocks_and_names_every_core():
    text = "\n".join(l for l in input_text("loop_accumulate.expanded.a2a3.mlir").splitlines() if "tfree_to_aic" not in l)
    err = _run_error(text)
    assert err.message.startswith("deadlock in Group @kloop_incore_0")
    push_line, pop_line = _line_of(text, "pto.tpush_to_aiv"), _line_of(text, "pto.tpop_from_aic")
    assert err.loc.line == push_line
    notes = [(n[0].line, n[1]) for n in err.notes]
    assert (push_line, notes[0][1]) == notes[0] and "AIC" in notes[0][1] and "full (2 of 2 slots" in notes[0][1]
    assert [l for l, _ in notes[1:]] == [pop_line, pop_line]
    assert "lane 0" in notes[1][1] and "lane 1" in notes[2][1] and "empty" in notes[1][1]


def test_missing_tfree_within_the_ring_depth_is_a_leftover_at_exit():
    text = "\n".join(l for l in input_text("seed_example1.expanded.a5.mlir").splitlines() if "tfree_to_aic" not in l)
    err = _run_error(text)
    assert "item(s) left in a ring at kernel exit" in err.message and "never freed" in err.message
    assert err.loc.line == _line_of(text, "pto.tpop_from_aic")


def test_push_never_popped_is_a_leftover_at_exit():
    text = input_text("seed_example1.expanded.a5.mlir")
    text = re.sub(r"    %z_vec = pto.tpop_from_aic.*\n", "    %z_vec = pto.create : !pto.tile<16x128xf32, vec>\n", text)
    text = "\n".join(l for l in text.splitlines() if "tfree_to_aic" not in l)
    err = _run_error(text)
    assert "still in the c2v ring of pipe 0 at kernel exit (never popped by AIV lane 0)" in err.message
    assert err.loc.line == _line_of(text, "pto.tpush_to_aiv")


def test_tfree_without_tpop():
    text = input_text("seed_example1.expanded.a5.mlir").replace(
        "pto.tfree_to_aic %z_vec", "%fake = pto.create : !pto.tile<16x128xf32, vec>\n    pto.tfree_to_aic %fake"
    )
    err = _run_error(text)
    assert "tfree without a tpop" in err.message and "@compute_incore_0_aiv (AIV)" in err.message


def test_double_tfree():
    text = input_text("seed_example1.expanded.a5.mlir").replace(
        "pto.tfree_to_aic %z_vec : !pto.tile<16x128xf32, vec>",
        "pto.tfree_to_aic %z_vec : !pto.tile<16x128xf32, vec>\n    pto.tfree_to_aic %z_vec : !pto.tile<16x128xf32, vec>",
    )
    assert "freed twice" in _run_error(text).message


def test_pop_with_no_initialized_pipe():
    text = "\n".join(l for l in input_text("seed_example1.expanded.a5.mlir").splitlines() if "aiv_initialize_pipe" not in l)
    err = _run_error(text)
    assert "pipe 0 was not initialized on this core" in err.message
    assert err.loc.line == _line_of(text, "pto.tpop_from_aic")


def test_buffers_swapped_between_directions():
    text = input_text("seed_example1.expanded.a5.mlir").replace("%imp, %c0_i32 {dir_mask = 1", "%c0_i32, %imp {dir_mask = 2")
    text = text.replace("%buf, %c0_i32 {dir_mask = 1", "%c0_i32, %buf {dir_mask = 2")
    err = _run_error(text)
    assert "the v2c buffer of the AIC side must come from reserve_buffer" in err.message


def test_pop_on_a_pipe_id_that_was_never_initialized():
    text = input_text("seed_example1.expanded.a5.mlir").replace(
        "pto.tpop_from_aic {split = 0 : i64}", "pto.tpop_from_aic {split = 0 : i64, id = 1 : i64}"
    )
    assert "pipe 1 was not initialized on this core" in _run_error(text).message


def test_tile_larger_than_slot_size():
    text = input_text("seed_example1.expanded.a5.mlir").replace("slot_size = 8192", "slot_size = 4096")
    err = _run_error(text)
    assert "takes 8192 bytes, more than the slot_size of 4096 bytes" in err.message
    assert err.loc.line == _line_of(text, "pto.tpush_to_aiv")


def test_mismatched_slot_num_between_the_two_sides():
    text = input_text("seed_example1.expanded.a5.mlir").replace(
        "slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32\n    %z_vec",
        "slot_size = 8192 : i64, slot_num = 4 : i64} : i32, i32\n    %z_vec",
    )
    text = text.replace("size = 16384", "size = 32768")
    assert "slot_num" in _run_error(text).message


def test_reserved_buffer_too_small():
    text = input_text("seed_example1.expanded.a5.mlir").replace("size = 16384", "size = 8192")
    assert "reserves 8192 bytes, less than slot_size x slot_num" in _run_error(text).message


def test_split_code_mismatch_between_push_and_pop():
    text = input_text("matmul_softmax.expanded.a2a3.mlir").replace(
        "pto.tpop_from_aic {split = 1 : i64}", "pto.tpop_from_aic {split = 2 : i64}"
    )
    err = _run_error(text)
    assert "split code mismatch" in err.message and "lane 0" in err.message


def test_split_push_to_a_single_lane_aiv_is_reported():
    # On a5 an AIV kernel without pto.split_aiv (or a dual dispatch) is launched on one lane.
    text = input_text("matmul_softmax.expanded.a2a3.mlir").replace(
        "attributes {pto.kind = #pto.kind<aiv>, pto.split = #pto.split<up_down>, pto.split_aiv}",
        "attributes {pto.kind = #pto.kind<aiv>}",
    )
    assert "runs on one lane" in _run_error(text.replace("#pto.target<a2a3>", "#pto.target<a5>")).message


def test_more_pops_than_pushes_deadlocks():
    text = input_text("seed_example1.expanded.a5.mlir").replace(
        "pto.tfree_to_aic %z_vec : !pto.tile<16x128xf32, vec>",
        "pto.tfree_to_aic %z_vec : !pto.tile<16x128xf32, vec>\n"
        "    %again = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>",
    )
    err = _run_error(text)
    assert "deadlock" in err.message
    assert len(err.notes) == 1 and "empty" in err.notes[0][1]


def test_dual_dispatch_lane_one_replays_handshakes_without_stores():
    # Only lane 1 writes zeros into the input %x; a dual dispatch's lane 1 must not make that visible.
    text = input_text("vector_prep_matmul.expanded.a2a3.mlir").replace(
        "    pto.tpush_to_aic %x_bf {split = 0 : i64} : !pto.tile<64x128xbf16, vec>\n    func.return %out_0",
        "    pto.tpush_to_aic %x_bf {split = 0 : i64} : !pto.tile<64x128xbf16, vec>\n"
        "    %i = pto.get_subblock_idx : index\n"
        "    %c1 = arith.constant 1 : index\n"
        "    %is1 = arith.cmpi eq, %i, %c1 : index\n"
        "    scf.if %is1 {\n"
        "      %z = arith.constant 0.0 : f32\n"
        "      %zt = pto.full %z : f32 -> !pto.tile<64x128xf32, vec>\n"
        "      %x2 = pto.store %zt, %x[0, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<64x128xf32>\n"
        "    }\n"
        "    func.return %out_0",
    )
    before = parsed((EXAMPLES / "vector_prep_matmul.a2a3.mlir").read_text())
    res = check_modules(before, parsed(text))
    assert res.ok, res.report
    # The same kernel split for two real lanes (pto.split_aiv) makes lane 1's store visible: it races with lane
    # 0's load of %x (and changes the output).
    split = text.replace("pto.dual_aiv_dispatch", "pto.split_aiv")
    res = check_modules(before, parsed(split))
    assert not res.ok and "data race on GM tensor %x[0:64, 0:128]" in res.report


def test_wrong_store_offset_is_a_race_of_the_two_lanes():
    text = input_text("matmul_softmax.expanded.a2a3.mlir").replace("%out_0[%row, 0]", "%out_0[0, 0]")
    res = check_modules(parsed((EXAMPLES / "matmul_softmax.a2a3.mlir").read_text()), parsed(text))
    assert not res.ok and res.stage == "after"
    assert "data race on GM tensor %out[0:32, 0:128]" in res.report


def test_cross_core_op_outside_a_group_is_reported():
    text = (EXAMPLES / "seed_example1.a2a3.mlir").read_text().replace(
        "%out_1 = pto.store %z_vec",
        "pto.tpush_to_aiv %z_tile {split = 0 : i64} : !pto.tile<16x128xf32, acc>\n    %out_1 = pto.store %z_vec",
    )
    assert "must run in an AIC kernel of a Group" in _run_error(text).message


RACY = """builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%a: !pto.tensor<16x8xf32>, %o: !pto.tensor<16x8xf32> {pto.out}) -> !pto.tensor<16x8xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %q = pto.load %a[0, 0] : !pto.tensor<16x8xf32> -> !pto.tile<16x8xf32, mat>
    %h = pto.aiv_shard %q {split = 1 : i64} : !pto.tile<16x8xf32, mat> -> !pto.tile<8x8xf32, vec>
    %o2 = pto.store %h, %o[0, 0] : !pto.tile<8x8xf32, vec>, !pto.tensor<16x8xf32>
    func.return %o2 : !pto.tensor<16x8xf32>
  }
}
"""


def test_an_input_whose_lanes_race_is_not_compared():
    # Both lanes store their half at row 0: the race detector reports the pair in the input itself.
    m = parsed(RACY)
    res = check_modules(m, parsed(RACY), "k")
    assert not res.ok and res.stage == "before"
    assert "data race on GM tensor %o[0:8, 0:8] in @k: a store on @k lane" in res.report


def test_a_race_the_output_program_introduces_is_caught_in_either_schedule_order():
    # The lanes' stores go to their own rows (no race) before; "after" stores both halves at row 0.
    fixed = RACY.replace("%o[0, 0]", "%o[%row, 0]").replace(
        "    %o2 = pto.store",
        "    %i = pto.get_subblock_idx : index\n    %c8 = arith.constant 8 : index\n"
        "    %row = arith.muli %i, %c8 : index\n    %o2 = pto.store",
    )
    res = check_modules(parsed(fixed), parsed(RACY), "k")
    assert not res.ok and res.stage == "after" and "data race on GM tensor %o[0:8, 0:8]" in res.report
