"""Unit tests of the pipe-protocol half of ExpandMixedKernel (issue 5), on hand-written AIC/AIV pairs.

Each test parses a module holding `@f_aic` / `@f_aiv` (and, where the hook needs it, the mixed `@f` they came
from), runs the protocol phases in the order `expand_mixed_kernel/pass_.py` documents, and checks the printed result.
"""

from __future__ import annotations

import re

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from pypto_mlir import PtoError, make_context, parse_module, print_module, verify_module
from pypto_mlir.dialects.pto_traits import CoreSide
from pypto_mlir.passes.analysis.affinity import AffinityAnalysis
from pypto_mlir.passes.analysis.hazards import Dependence
from pypto_mlir.passes.expand_mixed_kernel.gm_sync import gm_dependences
from pypto_mlir.passes.expand_mixed_kernel.manual_push import adapt_manual_v2c_pushes
from pypto_mlir.passes.expand_mixed_kernel.pass_ import ExpandMixedKernelPass
from pypto_mlir.pipeline import with_default_models
from pypto_mlir.passes.expand_mixed_kernel.pipe_setup import build_pipe_setup, stamp_dual_aiv_dispatch
from pypto_mlir.passes.expand_mixed_kernel.tfree import finalize_tfrees
from pypto_mlir.passes.expand_mixed_kernel.verifier import verify_mixed_kernel_expanded


def funcs(m: ModuleOp) -> dict[str, func.FuncOp]:
    return {f.sym_name.data: f for f in m.ops if isinstance(f, func.FuncOp)}


def module(body: str, target: str = "a2a3") -> ModuleOp:
    return parse_module(f"builtin.module attributes {{pto.target = #pto.target<{target}>}} {{\n{body}\n}}")


def finish(text: str, target: str = "a2a3", name: str = "f") -> str:
    """tfree + setup + dual dispatch + manual pushes + both verifiers; the printed module."""
    m = module(text, target)
    fs = funcs(m)
    aic, aiv = fs[f"{name}_aic"], fs[f"{name}_aiv"]
    original = fs.get(name, aic)
    finalize_tfrees(aic, CoreSide.AIC)
    finalize_tfrees(aiv, CoreSide.AIV)
    build_pipe_setup(aic, aiv, name, original, target)
    stamp_dual_aiv_dispatch(aiv, original, target)
    adapt_manual_v2c_pushes(m, target)
    verify_module(m)
    verify_mixed_kernel_expanded(m)
    return print_module(m)


def body_of(text: str, fname: str) -> list[str]:
    """The stripped op lines of one printed function (without its header and closing brace)."""
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if re.search(rf"func\.func @{fname}\(", ln))
    out = []
    for ln in lines[start + 1 :]:
        if ln.strip().startswith("func.func") or ln == "}":
            break
        out.append(ln.strip())
    while out and out[-1] == "}":
        out.pop()
    return out


def ops_of(text: str, fname: str) -> list[str]:
    """Just the op names (and assigned value names) of a function, for order checks."""
    res = []
    for ln in body_of(text, fname):
        m = re.match(r"(?:(%[\w.]+) = )?([a-z_]+\.[a-z_]+)", ln)
        if m:
            res.append(f"{m.group(1)} = {m.group(2)}" if m.group(1) else m.group(2))
        elif ln.startswith("}"):
            res.append("}")
    return res


AIC_HDR = 'func.func @f_aic(%x: !pto.tensor<16x128xf32>) attributes {pto.kind = #pto.kind<aic>}'
AIV_HDR = (
    'func.func @f_aiv(%o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> '
    'attributes {pto.kind = #pto.kind<aiv>}'
)
ACC = "!pto.tile<16x128xf32, acc>"
VEC = "!pto.tile<16x128xf32, vec>"

C2V_PAIR = f"""
  {AIC_HDR} {{
    %t = pto.create : {ACC}
    pto.tpush_to_aiv %t {{split = 0 : i64}} : {ACC}
    func.return
  }}
  {AIV_HDR} {{
    %z = pto.tpop_from_aic {{split = 0 : i64}} : {VEC}
    %o1 = pto.store %z, %o[0, 0] : {VEC}, !pto.tensor<16x128xf32>
    func.return %o1 : !pto.tensor<16x128xf32>
  }}
"""


# ---------------------------------------------------------------------------------------------------------------
# pipe setup
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("target", ["a2a3", "a5"])
def test_c2v_setup_prefixes(target: str) -> None:
    out = finish(C2V_PAIR, target)
    aic = body_of(out, "f_aic")
    assert aic[0] == (
        '%f_c2v_slot_buffer_import = pto.import_peer_buffer {name = "f_c2v_slot_buffer", peer_func = @f_aiv} : i32'
    )
    assert aic[1] == "%c0_i32 = arith.constant 0 : i32"
    assert aic[2] == (
        "pto.aic_initialize_pipe %f_c2v_slot_buffer_import, %c0_i32 "
        "{dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32"
    )
    aiv = body_of(out, "f_aiv")
    assert aiv[0] == (
        '%f_c2v_slot_buffer = pto.reserve_buffer {name = "f_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32'
    )
    assert aiv[2].startswith("pto.aiv_initialize_pipe %f_c2v_slot_buffer, %c0_i32 {dir_mask = 1 : i64")


def test_v2c_setup_prefixes_and_max_slot() -> None:
    text = """
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %a = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<64x128xbf16, mat>
    %b = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x16xbf16, mat>
    func.return
  }
  func.func @f_aiv() attributes {pto.kind = #pto.kind<aiv>} {
    %a = pto.create : !pto.tile<64x128xbf16, vec, blayout = col_major, slayout = row_major>
    pto.tpush_to_aic %a {split = 0 : i64} : !pto.tile<64x128xbf16, vec, blayout = col_major, slayout = row_major>
    %b = pto.create : !pto.tile<16x16xbf16, vec, blayout = col_major, slayout = row_major>
    pto.tpush_to_aic %b {split = 0 : i64} : !pto.tile<16x16xbf16, vec, blayout = col_major, slayout = row_major>
    func.return
  }
"""
    out = finish(text)
    aic = body_of(out, "f_aic")
    assert aic[0].startswith('%f_v2c_slot_buffer = pto.reserve_buffer {name = "f_v2c_slot_buffer", size = 32768 : i64')
    assert aic[2] == (
        "pto.aic_initialize_pipe %c0_i32, %f_v2c_slot_buffer {dir_mask = 2 : i64, slot_size = 16384 : i64, "
        "slot_num = 2 : i64} : i32, i32"
    )
    aiv = body_of(out, "f_aiv")
    assert aiv[0] == (
        '%f_v2c_slot_buffer_import = pto.import_peer_buffer {name = "f_v2c_slot_buffer", peer_func = @f_aic} : i32'
    )
    assert aiv[2].startswith("pto.aiv_initialize_pipe %c0_i32, %f_v2c_slot_buffer_import {dir_mask = 2 : i64")


BIDIR = f"""
  func.func @f(%x: !pto.tensor<16x128xf32>) attributes {{pto.kind = #pto.kind<incore>{{extra}}}} {{
    func.return
  }}
  func.func @f_aic() attributes {{pto.kind = #pto.kind<aic>}} {{
    %t = pto.create : {ACC}
    pto.tpush_to_aiv %t {{split = 0 : i64}} : {ACC}
    %w = pto.tpop_from_aiv {{split = 0 : i64}} : !pto.tile<32x128xf32, mat>
    func.return
  }}
  func.func @f_aiv() attributes {{pto.kind = #pto.kind<aiv>}} {{
    %i = pto.get_subblock_idx : index
    %z = pto.tpop_from_aic {{split = 0 : i64}} : {VEC}
    %w = pto.create : !pto.tile<32x128xf32, vec, blayout = col_major, slayout = row_major>
    pto.tpush_to_aic %w {{split = 0 : i64}} : !pto.tile<32x128xf32, vec, blayout = col_major, slayout = row_major>
    func.return
  }}
"""


def bidir(extra: str = "") -> str:
    return BIDIR.replace("{extra}", extra)


def test_bidirectional_order_and_subblock_idx() -> None:
    out = finish(bidir())
    assert ops_of(out, "f_aic")[:3] == [
        "%f_v2c_slot_buffer = pto.reserve_buffer",
        "%f_c2v_slot_buffer_import = pto.import_peer_buffer",
        "pto.aic_initialize_pipe",
    ]
    assert "dir_mask = 3 : i64, slot_size = 16384 : i64, slot_num = 2 : i64" in body_of(out, "f_aic")[2]
    assert ops_of(out, "f_aiv")[:4] == [
        "%i = pto.get_subblock_idx",
        "%f_v2c_slot_buffer_import = pto.import_peer_buffer",
        "%f_c2v_slot_buffer = pto.reserve_buffer",
        "pto.aiv_initialize_pipe",
    ]
    assert "arith.constant" not in out  # both directions active: no placeholder
    assert "size = 32768 : i64" in body_of(out, "f_aiv")[2]


def test_slot_num_override() -> None:
    out = finish(bidir(", pto.slot_num = 4 : i64"))
    init = body_of(out, "f_aic")[2]
    assert "slot_num = 4 : i64" in init
    assert "size = 65536 : i64" in body_of(out, "f_aic")[0]


def test_local_slot_num_a2a3() -> None:
    out = finish(bidir(", pto.slot_num = 4 : i64, pto.local_slot_num = 1 : i64"))
    for fn in ("f_aic", "f_aiv"):
        inits = [ln for ln in body_of(out, fn) if "initialize_pipe" in ln]
        assert "slot_num = 4 : i64, local_slot_num = 1 : i64" in inits[0]
    assert "size = 16384 : i64" in body_of(out, "f_aic")[0]  # slot_size x local_slot_num


def test_local_slot_num_rejected_on_a5() -> None:
    with pytest.raises(PtoError, match="not supported on a5"):
        finish(bidir(", pto.local_slot_num = 1 : i64"), "a5")


def test_local_slot_num_above_slot_num() -> None:
    with pytest.raises(PtoError, match="more than its slot_num 2"):
        finish(bidir(", pto.local_slot_num = 3 : i64"))


def test_local_depth_schedule_rejected() -> None:
    text = f"""
  func.func @f() attributes {{pto.kind = #pto.kind<incore>, pto.local_slot_num = 1 : i64}} {{
    func.return
  }}
  func.func @f_aic() attributes {{pto.kind = #pto.kind<aic>}} {{
    %t = pto.create : {ACC}
    pto.tpush_to_aiv %t {{split = 0 : i64}} : {ACC}
    pto.tpush_to_aiv %t {{split = 0 : i64}} : {ACC}
    func.return
  }}
  func.func @f_aiv(%o: !pto.tensor<16x128xf32>) attributes {{pto.kind = #pto.kind<aiv>}} {{
    %a = pto.tpop_from_aic {{split = 0 : i64}} : {VEC}
    %b = pto.tpop_from_aic {{split = 0 : i64}} : {VEC}
    %s = pto.add %a, %b : {VEC}
    %o1 = pto.store %s, %o[0, 0] : {VEC}, !pto.tensor<16x128xf32>
    func.return
  }}
"""
    with pytest.raises(PtoError, match="holds 2 popped C2V slots at once") as e:
        finish(text)
    assert e.value.loc is not None and e.value.loc.line == 14  # the second tpop
    # the same schedule fits a depth of 2
    finish(text.replace("pto.local_slot_num = 1 : i64", "pto.local_slot_num = 2 : i64"))


def test_no_setup_when_one_side_has_setup() -> None:
    text = C2V_PAIR.replace(
        f"    %t = pto.create : {ACC}",
        '    %ib = pto.import_peer_buffer {name = "f_c2v_slot_buffer", peer_func = @f_aiv} : i32\n'
        "    %c0 = arith.constant 0 : i32\n"
        "    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 8192 : i64} : i32, i32\n"
        f"    %t = pto.create : {ACC}",
    )
    m = module(text)
    fs = funcs(m)
    build_pipe_setup(fs["f_aic"], fs["f_aiv"], "f", fs["f_aic"], "a2a3")
    out = print_module(m)
    assert out.count("initialize_pipe") == 1
    assert "reserve_buffer" not in out


def test_no_setup_without_cross_core_ops() -> None:
    m = module(f"{AIC_HDR} {{\n func.return\n }}\n {AIV_HDR} {{\n func.return %o : !pto.tensor<16x128xf32>\n }}")
    fs = funcs(m)
    build_pipe_setup(fs["f_aic"], fs["f_aiv"], "f", fs["f_aic"], "a2a3")
    assert "initialize_pipe" not in print_module(m)


def test_no_setup_for_dynamic_tile_and_verifier_reports_it() -> None:
    text = C2V_PAIR.replace(ACC, "!pto.tile<?x128xf32, acc>")
    m = module(text)
    fs = funcs(m)
    finalize_tfrees(fs["f_aiv"], CoreSide.AIV)
    build_pipe_setup(fs["f_aic"], fs["f_aiv"], "f", fs["f_aic"], "a2a3")
    assert "initialize_pipe" not in print_module(m)
    with pytest.raises(PtoError, match="non-static tile size"):
        verify_mixed_kernel_expanded(m)


# ---------------------------------------------------------------------------------------------------------------
# dual dispatch
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "target,split,stamped",
    [("a2a3", "", True), ("a2a3", ", pto.split = #pto.split<none>", True),
     ("a2a3", ", pto.split = #pto.split<up_down>", False), ("a5", "", False)],
)
def test_dual_aiv_dispatch(target: str, split: str, stamped: bool) -> None:
    out = finish(bidir(split), target)
    header = next(ln for ln in out.splitlines() if "@f_aiv(" in ln)
    assert ("pto.dual_aiv_dispatch" in header) == stamped
    assert "pto.dual_aiv_dispatch" not in next(ln for ln in out.splitlines() if "@f_aic(" in ln)


# ---------------------------------------------------------------------------------------------------------------
# tfree
# ---------------------------------------------------------------------------------------------------------------


def aiv_only(body: str, extra_args: str = "") -> str:
    """An AIV function `@f_aiv` with the given body, plus an AIC peer pushing enough tiles."""
    n = body.count("tpop_from_aic")
    pushes = "\n".join(f"    pto.tpush_to_aiv %t {{split = 0 : i64}} : {ACC}" for _ in range(n))
    return f"""
  func.func @f_aic() attributes {{pto.kind = #pto.kind<aic>}} {{
    %t = pto.create : {ACC}
{pushes}
    func.return
  }}
  func.func @f_aiv(%o: !pto.tensor<16x128xf32>{extra_args}) attributes {{pto.kind = #pto.kind<aiv>}} {{
{body}
  }}
"""


def test_tfree_after_last_use_with_id() -> None:
    out = finish(aiv_only(f"""
    %z = pto.tpop_from_aic {{split = 0 : i64, id = 0 : i64}} : {VEC}
    %e = pto.exp %z : {VEC}
    %e2 = pto.exp %e : {VEC}
    %o1 = pto.store %e2, %o[0, 0] : {VEC}, !pto.tensor<16x128xf32>
    func.return"""))
    ops = ops_of(out, "f_aiv")
    assert ops[ops.index("%e = pto.exp") + 1] == "pto.tfree_to_aic"
    free = next(ln for ln in body_of(out, "f_aiv") if ln.startswith("pto.tfree_to_aic"))
    assert free == f"pto.tfree_to_aic %z {{id = 0 : i64}} : {VEC}"


def test_unused_tpop_freed_right_after() -> None:
    out = finish(aiv_only(f"""
    %z = pto.tpop_from_aic {{split = 0 : i64}} : {VEC}
    %c = arith.constant 1 : index
    func.return"""))
    ops = ops_of(out, "f_aiv")
    assert ops[ops.index("%z = pto.tpop_from_aic") + 1] == "pto.tfree_to_aic"


def test_tfree_through_view_aliases() -> None:
    out = finish(aiv_only(f"""
    %z = pto.tpop_from_aic {{split = 0 : i64}} : {VEC}
    %s = pto.slice %z[0, 0] : {VEC} -> !pto.tile<16x64xf32, vec>
    %r = pto.reshape %s : !pto.tile<16x64xf32, vec> -> !pto.tile<64x16xf32, vec>
    %c = arith.constant 1 : index
    %e = pto.exp %r : !pto.tile<64x16xf32, vec>
    %c2 = arith.constant 2 : index
    func.return"""))
    ops = ops_of(out, "f_aiv")
    assert ops.index("pto.tfree_to_aic") == ops.index("%e = pto.exp") + 1


def test_tfree_after_loop_using_it() -> None:
    out = finish(aiv_only(f"""
    %z = pto.tpop_from_aic {{split = 0 : i64}} : {VEC}
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %o) -> (!pto.tensor<16x128xf32>) {{
      %o1 = pto.store %z, %acc[0, 0] : {VEC}, !pto.tensor<16x128xf32>
      scf.yield %o1 : !pto.tensor<16x128xf32>
    }}
    %c9 = arith.constant 9 : index
    func.return"""))
    ops = ops_of(out, "f_aiv")
    # the tfree follows the loop (the loop's closing brace), not inside it
    assert ops.index("pto.tfree_to_aic") == ops.index("}") + 1


def test_tfree_before_trailing_yield() -> None:
    # %z is yielded and the next iteration reads it as %acc: the slot cannot be freed before the yield while the
    # yield passes %z itself (the cube could refill it), so the yield passes a copy and the slot is freed after it
    out = finish(aiv_only(f"""
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %init = pto.create : {VEC}
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> ({VEC}) {{
      %z = pto.tpop_from_aic {{split = 0 : i64}} : {VEC}
      %n = pto.add %acc, %z : {VEC}
      scf.yield %z : {VEC}
    }}
    func.return"""))
    lines = body_of(out, "f_aiv")
    i = next(k for k, ln in enumerate(lines) if ln.startswith("pto.tfree_to_aic"))
    assert lines[i + 1].startswith("scf.yield %z_copy")
    assert lines[i - 1].startswith("%z_copy = pto.move %z :")
    assert lines[i - 2].startswith("%n = pto.add")


def test_tfree_through_if_results() -> None:
    out = finish(aiv_only(f"""
    %z = pto.tpop_from_aic {{split = 0 : i64}} : {VEC}
    %c = arith.constant true
    %v = scf.if %c -> ({VEC}) {{
      scf.yield %z : {VEC}
    }} else {{
      %s = pto.reshape %z : {VEC} -> {VEC}
      scf.yield %s : {VEC}
    }}
    %c1 = arith.constant 1 : index
    %e = pto.exp %v : {VEC}
    %c2 = arith.constant 2 : index
    func.return"""))
    ops = ops_of(out, "f_aiv")
    assert ops.index("pto.tfree_to_aic") == ops.index("%e = pto.exp") + 1


def test_too_early_tfree_is_moved_and_operand_canonicalised() -> None:
    out = finish(aiv_only(f"""
    %z = pto.tpop_from_aic {{split = 0 : i64}} : {VEC}
    %s = pto.reshape %z : {VEC} -> !pto.tile<128x16xf32, vec>
    pto.tfree_to_aic %s {{id = 0 : i64}} : !pto.tile<128x16xf32, vec>
    %e = pto.exp %s : !pto.tile<128x16xf32, vec>
    %c2 = arith.constant 2 : index
    func.return"""))
    lines = body_of(out, "f_aiv")
    frees = [ln for ln in lines if ln.startswith("pto.tfree_to_aic")]
    assert frees == [f"pto.tfree_to_aic %z {{id = 0 : i64}} : {VEC}"]
    ops = ops_of(out, "f_aiv")
    assert ops.index("pto.tfree_to_aic") == ops.index("%e = pto.exp") + 1


def test_late_tfree_kept_in_place() -> None:
    out = finish(aiv_only(f"""
    %z = pto.tpop_from_aic {{split = 0 : i64}} : {VEC}
    %e = pto.exp %z : {VEC}
    %c2 = arith.constant 2 : index
    pto.tfree_to_aic %z : {VEC}
    func.return"""))
    ops = ops_of(out, "f_aiv")
    assert ops.index("pto.tfree_to_aic") == ops.index("%c2 = arith.constant") + 1
    assert ops.count("pto.tfree_to_aic") == 1


def test_independent_chains_freed_after_own_last_use() -> None:
    out = finish(aiv_only(f"""
    %a = pto.tpop_from_aic {{split = 0 : i64}} : {VEC}
    %b = pto.tpop_from_aic {{split = 0 : i64}} : {VEC}
    %eb = pto.exp %b : {VEC}
    %ea = pto.exp %a : {VEC}
    func.return"""))
    lines = body_of(out, "f_aiv")
    assert [ln.split(" ")[0] for ln in lines[3:9]] == [
        "%a", "%b", "%eb", "pto.tfree_to_aic", "%ea", "pto.tfree_to_aic"
    ]
    frees = [ln.split()[1] for ln in lines if ln.startswith("pto.tfree_to_aic")]
    assert frees == ["%b", "%a"]


def test_aic_tfree_after_carrier_move() -> None:
    text = """
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %x_left_mat = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_left_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %c = arith.constant 1 : index
    func.return
  }
  func.func @f_aiv() attributes {pto.kind = #pto.kind<aiv>} {
    %w = pto.create : !pto.tile<16x128xbf16, vec, blayout = col_major, slayout = row_major>
    pto.tpush_to_aic %w {split = 0 : i64} : !pto.tile<16x128xbf16, vec, blayout = col_major, slayout = row_major>
    func.return
  }
"""
    out = finish(text)
    ops = ops_of(out, "f_aic")
    assert ops.index("pto.tfree_to_aiv") == ops.index("%x_left = pto.move") + 1


def test_tfree_is_idempotent() -> None:
    once = finish(aiv_only(f"""
    %z = pto.tpop_from_aic {{split = 0 : i64}} : {VEC}
    %e = pto.exp %z : {VEC}
    func.return"""))
    m = parse_module(once)
    fs = funcs(m)
    finalize_tfrees(fs["f_aic"], CoreSide.AIC)
    finalize_tfrees(fs["f_aiv"], CoreSide.AIV)
    build_pipe_setup(fs["f_aic"], fs["f_aiv"], "f", fs["f_aic"], "a2a3")
    adapt_manual_v2c_pushes(m, "a2a3")
    assert print_module(m) == once


# ---------------------------------------------------------------------------------------------------------------
# manual V->C pushes
# ---------------------------------------------------------------------------------------------------------------

MANUAL = """
  func.func @k_aic() attributes {pto.kind = #pto.kind<aic>} {
    %rb = pto.reserve_buffer {name = "k_v2c", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %c0, %rb {dir_mask = 2 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aiv {split = 0 : i64, id = 0 : i64} : !pto.tile<16x128xf16, mat>
    pto.tfree_to_aiv %p {id = 0 : i64} : !pto.tile<16x128xf16, mat>
    func.return
  }
  func.func @k_aiv() attributes {pto.kind = #pto.kind<aiv>} {
    %ib = pto.import_peer_buffer {name = "k_v2c", peer_func = @k_aic} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %c0, %ib {dir_mask = 2 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %t = pto.create : !pto.tile<16x128xf16, vec>
    pto.tpush_to_aic %t {split = 0 : i64, id = 0 : i64, note = "kept"} : !pto.tile<16x128xf16, vec>
    func.return
  }
"""


def test_manual_push_adapter_a5() -> None:
    m = module(MANUAL, "a5")
    adapt_manual_v2c_pushes(m, "a5")
    verify_module(m)
    verify_mixed_kernel_expanded(m)
    out = print_module(m)
    lines = body_of(out, "k_aiv")
    nz = "!pto.tile<16x128xf16, vec, blayout = col_major, slayout = row_major>"
    assert f"%t_nz = pto.move %t : !pto.tile<16x128xf16, vec> -> {nz}" in lines
    assert f'pto.tpush_to_aic %t_nz {{split = 0 : i64, id = 0 : i64, note = "kept"}} : {nz}' in lines
    # idempotent
    adapt_manual_v2c_pushes(m, "a5")
    assert print_module(m) == out


def test_manual_push_untouched_on_a2a3() -> None:
    m = module(MANUAL, "a2a3")
    before = print_module(m)
    adapt_manual_v2c_pushes(m, "a2a3")
    assert print_module(m) == before


# ---------------------------------------------------------------------------------------------------------------
# GM sync
# ---------------------------------------------------------------------------------------------------------------


def _mixed_only(text: str) -> str:
    """The mixed `@f` of a test module (the hand-split halves some texts carry are dropped)."""
    return text[: text.index("  func.func @f_aic")] if "  func.func @f_aic" in text else text


def gm(text: str, target: str = "a2a3") -> str:
    """Run ExpandMixedKernel on the mixed `@f` of `text` (its fences come from analysis/hazards.py)."""
    m = module(_mixed_only(text), target)
    with_default_models(ExpandMixedKernelPass()).apply(make_context(), m)
    verify_module(m)
    verify_mixed_kernel_expanded(m)
    return print_module(m)


def deps_of(text: str) -> list[Dependence]:
    m = module(_mixed_only(text))
    orig = funcs(m)["f"]
    return gm_dependences(orig, AffinityAnalysis(orig))


GM_STRAIGHT = """
  func.func @f(%a: !pto.tensor<16x128xf32> {pto.out}, %w: !pto.tensor<16x128xf32> {pto.inout}) attributes {pto.kind = #pto.kind<incore>} {
    %acc = pto.create : !pto.tile<16x128xf32, acc>
    %w1 = pto.store %acc, %w[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    %v = pto.load %w1[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %e = pto.exp %v : !pto.tile<16x128xf32, vec>
    %a1 = pto.store %e, %a[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return
  }
"""


def test_gm_sync_straight_line() -> None:
    out = gm(GM_STRAIGHT)
    assert ops_of(out, "f_aic")[-3:] == ["%w1 = pto.store", "pto.tpush_to_aiv", "func.return"]
    assert "pto.tpush_to_aiv %acc {split = 0 : i64} : !pto.tile<16x128xf32, acc>" in body_of(out, "f_aic")
    ops = ops_of(out, "f_aiv")
    i = ops.index("%w_gm_sync = pto.tpop_from_aic")
    assert ops[i + 1 : i + 3] == ["pto.tfree_to_aic", "%v = pto.load"]
    assert "%w_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>" in body_of(out, "f_aiv")
    [dep] = deps_of(GM_STRAIGHT)
    assert (dep.kind, dep.direction, dep.carried) == ("RAW", "c2v", False)


def test_gm_no_dependence_within_one_core_and_one_fence_for_two_stores() -> None:
    same_core = GM_STRAIGHT.replace("acc>", "vec>")
    assert deps_of(same_core) == []
    two = GM_STRAIGHT.replace(
        "    %v = pto.load %w1",
        "    %w2 = pto.store %acc, %w1[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>\n    %v = pto.load %w2",
        1,
    )
    assert sorted(d.kind for d in deps_of(two)) == ["RAW", "RAW"]
    out = gm(two)
    assert ops_of(out, "f_aic").count("pto.tpush_to_aiv") == 1  # after the second store, it orders both
    assert ops_of(out, "f_aic")[-3:] == ["%w2 = pto.store", "pto.tpush_to_aiv", "func.return"]


def test_gm_load_before_store_is_a_v2c_war() -> None:
    text = """
  func.func @f(%w: !pto.tensor<16x128xf32>, %o: !pto.tensor<16x128xf32>) attributes {pto.kind = #pto.kind<incore>} {
    %v = pto.load %w[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %o1 = pto.store %v, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    %acc = pto.create : !pto.tile<16x128xf32, acc>
    %w1 = pto.store %acc, %w[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    func.return
  }
"""
    [dep] = deps_of(text)
    assert (dep.kind, dep.direction, dep.carried) == ("WAR", "v2c", False)
    out = gm(text)
    aiv = ops_of(out, "f_aiv")
    assert aiv[aiv.index("%v = pto.load") + 1] == "pto.tpush_to_aic"
    aic = ops_of(out, "f_aic")
    i = aic.index("%w_gm_sync = pto.tpop_from_aiv")
    assert aic[i + 1] == "pto.tfree_to_aiv" and aic.index("%w1 = pto.store") > i  # the ack comes before the store


GM_LOOP = """
  func.func @f(%a: !pto.tensor<16x128xf32>, %w: !pto.tensor<16x128xf32>) attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %acc = pto.create : !pto.tile<16x128xf32, acc>
    %w1 = pto.store %acc, %w[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %a) -> (!pto.tensor<16x128xf32>) {
      %v = pto.load %w1[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
      %o1 = pto.store %v, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
      scf.yield %o1 : !pto.tensor<16x128xf32>
    }
    func.return
  }
"""


def test_gm_sync_hoisted_out_of_loop() -> None:
    out = gm(GM_LOOP)
    ops = ops_of(out, "f_aiv")
    i = ops.index("%w_gm_sync = pto.tpop_from_aic")
    assert ops[i + 1 : i + 3] == ["pto.tfree_to_aic", "%r = scf.for"]
    assert ops.count("pto.tpop_from_aic") + ops.count("%w_gm_sync = pto.tpop_from_aic") == 1


def test_gm_store_in_loop_load_after_is_fenced_after_the_loop() -> None:
    text = """
  func.func @f(%w: !pto.tensor<16x128xf32>, %o: !pto.tensor<16x128xf32>) attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %acc = pto.create : !pto.tile<16x128xf32, acc>
      %w1 = pto.store %acc, %w[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    }
    %v = pto.load %w[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %o1 = pto.store %v, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return
  }
"""
    [dep] = deps_of(text)
    assert (dep.kind, dep.carried, dep.after.name, dep.before.name) == ("RAW", False, "scf.for", "pto.load")
    out = gm(text)
    aic = ops_of(out, "f_aic")
    assert aic[-4:] == ["}", "%gm_token = pto.create", "pto.tpush_to_aiv", "func.return"]
    aiv = ops_of(out, "f_aiv")
    i = aiv.index("%w_gm_sync = pto.tpop_from_aic")
    assert aiv[i + 1 : i + 3] == ["pto.tfree_to_aic", "%v = pto.load"]


def test_gm_accesses_in_the_two_regions_of_a_while_are_rejected() -> None:
    text = """
  func.func @f(%w: !pto.tensor<16x128xf32>, %o: !pto.tensor<16x128xf32>, %n: index) attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.while (%i = %c0) : (index) -> index {
      %v = pto.load %w[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
      %o1 = pto.store %v, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
      %go = arith.cmpi slt, %i, %n : index
      scf.condition(%go) %i : index
    } do {
    ^bb0(%j: index):
      %acc = pto.create : !pto.tile<16x128xf32, acc>
      %w1 = pto.store %acc, %w[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
      %j1 = arith.addi %j, %c1 : index
      scf.yield %j1 : index
    }
    func.return
  }
"""
    with pytest.raises(PtoError, match="between the two regions of this scf.while"):
        gm(text)


def test_gm_sync_token_name_without_origin_name() -> None:
    text = GM_STRAIGHT.replace("%w", "%0").replace("%0_gm", "%w_gm")
    out = gm(text)
    assert "%gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>" in out


def test_setup_names_of_a_quoted_kernel_name_are_valid_ssa_names() -> None:
    text = C2V_PAIR.replace("@f_aic", '@"my f_aic"').replace("@f_aiv", '@"my f_aiv"')
    m = module(text)
    fs = funcs(m)
    build_pipe_setup(fs["my f_aic"], fs["my f_aiv"], "my f", fs["my f_aic"], "a2a3")
    out = print_module(m)
    assert '%my_f_c2v_slot_buffer_import = pto.import_peer_buffer {name = "my f_c2v_slot_buffer", peer_func = @"my f_aiv"}' in out
    assert "%my_f_c2v_slot_buffer = pto.reserve_buffer" in out
    assert print_module(parse_module(out)) == out

