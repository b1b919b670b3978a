"""Unit tests of the memory budget analysis (passes/analysis/budget.py): liveness of tiles per memory space.

Each case is a hand-written AIV function (kind aiv) of 32x32 f32 vec tiles (4096 bytes each); the peak of `vec`
counts how many buffers are live at once."""

from __future__ import annotations

from xdsl.dialects import func

from pypto_mlir.ir import parse_module
from pypto_mlir.passes.analysis.budget import MemoryBudget
from pypto_mlir.passes.budget.verify_budget import budget_errors

T = "!pto.tile<32x32xf32, vec>"
TILE = 32 * 32 * 4


def _budget(body: str, args: str = "") -> MemoryBudget:
    text = (
        "builtin.module attributes {pto.target = #pto.target<a2a3>} {\n"
        f"  func.func @k_aiv(%in: !pto.tensor<32x32xf32>, %out: !pto.tensor<32x32xf32>, %f: f32, %cond: i1{args})\n"
        "      attributes {pto.kind = #pto.kind<aiv>} {\n"
        f"{body}\n"
        "    func.return\n"
        "  }\n"
        "}\n"
    )
    module = parse_module(text, "budget.mlir")
    f = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    return MemoryBudget(f)


def _vec(body: str) -> tuple[int, list[str]]:
    peak = _budget(body).peaks["vec"]
    return peak.bytes, sorted(b.name for b in peak.live)


def test_straight_line_interval_ends_at_last_use():
    # A value dies at its last use; an op's operands and its result are live together: two tiles at a time.
    body = f"""
    %a = pto.load %in[0, 0] : !pto.tensor<32x32xf32> -> {T}
    %b = pto.exp %a : {T}
    %c = pto.exp %b : {T}
    %d = pto.exp %c : {T}
    %o = pto.store %d, %out[0, 0] : {T}, !pto.tensor<32x32xf32>"""
    assert _vec(body)[0] == 2 * TILE


def test_view_is_not_double_counted():
    body = f"""
    %a = pto.load %in[0, 0] : !pto.tensor<32x32xf32> -> {T}
    %s = pto.slice %a[0, 0] : {T} -> !pto.tile<16x32xf32, vec>
    %r = pto.reshape %s : !pto.tile<16x32xf32, vec> -> !pto.tile<32x16xf32, vec>
    %o = pto.store %r, %out[0, 0] : !pto.tile<32x16xf32, vec>, !pto.tensor<32x32xf32>"""
    assert _vec(body) == (TILE, ["%a"])


def test_view_keeps_its_source_alive():
    # %a's view %s is used after %b is made: %a (through %s) and %b are live together.
    body = f"""
    %a = pto.load %in[0, 0] : !pto.tensor<32x32xf32> -> {T}
    %s = pto.slice %a[0, 0] : {T} -> {T}
    %b = pto.full %f : f32 -> {T}
    %c = pto.add %s, %b : {T}
    %o = pto.store %c, %out[0, 0] : {T}, !pto.tensor<32x32xf32>"""
    assert _vec(body) == (3 * TILE, ["%a", "%b", "%c"])


def test_if_counts_the_larger_branch():
    # then: two temporaries live together (%t1, %t2) on top of %a; else: one. The if is max(then, else).
    body = f"""
    %a = pto.load %in[0, 0] : !pto.tensor<32x32xf32> -> {T}
    %r = scf.if %cond -> ({T}) {{
      %t1 = pto.exp %a : {T}
      %t2 = pto.exp %t1 : {T}
      %t3 = pto.add %t1, %t2 : {T}
      scf.yield %t3 : {T}
    }} else {{
      %e1 = pto.exp %a : {T}
      scf.yield %e1 : {T}
    }}
    %o = pto.store %r, %out[0, 0] : {T}, !pto.tensor<32x32xf32>"""
    # at %t3: %t1, %t2, %t3 (the if result's buffer; %a died at %t1) -> 3 tiles; the else branch peaks at 2.
    assert _vec(body) == (3 * TILE, ["%t1", "%t2", "%t3"])


def test_if_branches_are_not_added():
    # Each branch holds %a and two temporaries at its peak (3 tiles); adding the branches would give 5.
    body = f"""
    %a = pto.load %in[0, 0] : !pto.tensor<32x32xf32> -> {T}
    scf.if %cond {{
      %t1 = pto.exp %a : {T}
      %t2 = pto.add %t1, %a : {T}
      %o1 = pto.store %t2, %out[0, 0] : {T}, !pto.tensor<32x32xf32>
    }} else {{
      %e1 = pto.exp %a : {T}
      %e2 = pto.add %e1, %a : {T}
      %o2 = pto.store %e2, %out[0, 0] : {T}, !pto.tensor<32x32xf32>
    }}"""
    assert _vec(body)[0] == 3 * TILE


def test_value_used_in_a_loop_is_live_across_the_whole_loop():
    # %a is last used at the loop's first op, but the loop runs again: %a stays live while %t2 is made.
    body = f"""
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %a = pto.load %in[0, 0] : !pto.tensor<32x32xf32> -> {T}
    scf.for %i = %c0 to %c4 step %c1 {{
      %t1 = pto.exp %a : {T}
      %o1 = pto.store %t1, %out[0, 0] : {T}, !pto.tensor<32x32xf32>
      %t2 = pto.full %f : f32 -> {T}
      %t3 = pto.exp %t2 : {T}
      %o2 = pto.store %t3, %out[0, 0] : {T}, !pto.tensor<32x32xf32>
    }}"""
    assert _vec(body) == (3 * TILE, ["%a", "%t2", "%t3"])


def test_same_code_outside_a_loop_frees_the_value():
    body = f"""
    %a = pto.load %in[0, 0] : !pto.tensor<32x32xf32> -> {T}
    %t1 = pto.exp %a : {T}
    %o1 = pto.store %t1, %out[0, 0] : {T}, !pto.tensor<32x32xf32>
    %t2 = pto.full %f : f32 -> {T}
    %t3 = pto.exp %t2 : {T}
    %o2 = pto.store %t3, %out[0, 0] : {T}, !pto.tensor<32x32xf32>"""
    assert _vec(body)[0] == 2 * TILE


def test_loop_carried_value_is_one_buffer():
    # init, iter_arg, the yielded sum and the result are one buffer; the body adds one temporary.
    body = f"""
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %init = pto.full %f : f32 -> {T}
    %acc = scf.for %i = %c0 to %c4 step %c1 iter_args(%sum = %init) -> ({T}) {{
      %x = pto.load %in[0, 0] : !pto.tensor<32x32xf32> -> {T}
      %next = pto.add %sum, %x : {T}
      scf.yield %next : {T}
    }}
    %o = pto.store %acc, %out[0, 0] : {T}, !pto.tensor<32x32xf32>"""
    assert _vec(body) == (2 * TILE, ["%init", "%x"])


def test_popped_slot_is_the_ring_not_a_tile():
    body = f"""
    %rb = pto.reserve_buffer {{name = "k_c2v_slot_buffer", size = 8192 : i64, base = -1 : i64}} : i32
    %z = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %z {{dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64}} : i32, i32
    %p = pto.tpop_from_aic {{split = 0 : i64}} : {T}
    %v = pto.slice %p[0, 0] : {T} -> {T}
    %e = pto.exp %v : {T}
    pto.tfree_to_aic %p : {T}
    %o = pto.store %e, %out[0, 0] : {T}, !pto.tensor<32x32xf32>"""
    assert _vec(body) == (8192 + TILE, ['%e', 'ring "k_c2v_slot_buffer"'])


def test_over_budget_error_is_located_with_notes_largest_first():
    # 13 live 16 KiB tiles (208 KiB) on a2a3's 192 KiB UB.
    big = "!pto.tile<64x64xf32, vec>"
    loads = "\n".join(f"    %t{i} = pto.full %f : f32 -> {big}" for i in range(13))
    stores = "\n".join(f"    %o{i} = pto.store %t{i}, %out[0, 0] : {big}, !pto.tensor<32x32xf32>" for i in range(13))
    b = _budget(loads + "\n" + stores)
    errors = budget_errors(b.function, "a2a3", b)
    assert len(errors) == 1
    e = errors[0]
    assert "vec (UB) of the AIV core needs 212992 bytes (208 KiB)" in e.message
    assert "196608 bytes (192 KiB) it has on a2a3" in e.message
    assert e.loc is not None and e.loc.line > 0
    assert len(e.notes) == 9 and "and 5 more buffers" in e.notes[-1][1]
    assert budget_errors(b.function, "a5", b) == []  # 256 KiB of UB on a5
