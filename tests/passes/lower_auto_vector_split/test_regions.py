"""Unit tests of the split_aiv_scope region path (regions/lower.py, regions/rules.py, regions/valid_extents.py)."""

from __future__ import annotations

import pytest
from xdsl.dialects import func, scf

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import AivShardOp, GetSubblockIdxOp, SplitAivScopeOp, StoreOp
from pypto_mlir.dialects.pto_types import DYNAMIC, TileType
from pypto_mlir.ir import parse_module, print_module
from pypto_mlir.passes.lower_auto_vector_split.regions.rules import check_mixed_explicit_region, region_form
from pypto_mlir.passes.lower_auto_vector_split.regions.lower import lower_region_function
from pypto_mlir.verify import verify_module


def kernel(body: str, acc_rows: int = 16, valid: int | None = None, attrs: str = ", pto.split_aiv", extra_args: str = "") -> str:
    """An incore kernel with a 16x64 @ 64x128 matmul (`%acc`, `acc_rows` rows) followed by `body`."""
    av = f", valid = [{valid}, 64]" if valid is not None else ""
    cv = f", valid = [{valid}, 128]" if valid is not None else ""
    m = acc_rows
    return f"""builtin.module attributes {{pto.target = #pto.target<a2a3>}} {{
  func.func @k(%a: !pto.tensor<{m}x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<{m}x128xf32> {{pto.out}}{extra_args}) -> !pto.tensor<{m}x128xf32>
      attributes {{pto.kind = #pto.kind<incore>{attrs}}} {{
    %a_mat = pto.load %a[0, 0] : !pto.tensor<{m}x64xbf16> -> !pto.tile<{m}x64xbf16, mat{av}>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<{m}x64xbf16, mat{av}> -> !pto.tile<{m}x64xbf16, left{av}>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<{m}x64xbf16, left{av}>, !pto.tile<64x128xbf16, right> -> !pto.tile<{m}x128xf32, acc{cv}>
{body}
  }}
}}
"""


def lower(text: str) -> tuple[func.FuncOp, str]:
    m = parse_module(text, "t.mlir")
    verify_module(m)
    f = next(op for op in m.ops if isinstance(op, func.FuncOp))
    lower_region_function(f)
    verify_module(m)
    return f, print_module(m)


def region_of(text: str) -> SplitAivScopeOp:
    m = parse_module(text, "t.mlir")
    return next(op for op in m.walk() if isinstance(op, SplitAivScopeOp))


SHARD_STORE = """    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<{m}x128xf32>) {{
      %h = pto.aiv_shard %acc {{split = 1 : i64{stride}}} : !pto.tile<{m}x128xf32, acc{cv}> -> !pto.tile<{h}x128xf32, vec>
      %c8 = arith.constant 8 : index
      %row = arith.muli %aiv_id, %c8 : index
      %o2 = pto.store %h, %o[%row, 0] : !pto.tile<{h}x128xf32, vec>, !pto.tensor<{m}x128xf32>
      pto.yield %o2 : !pto.tensor<{m}x128xf32>
    }}
    func.return %r : !pto.tensor<{m}x128xf32>"""


def shard_kernel(m: int, valid: int | None, stride: int | None = None) -> str:
    cv = f", valid = [{valid}, 128]" if valid is not None else ""
    st = f", lane_stride = {stride} : i64" if stride else ""
    body = SHARD_STORE.format(m=m, cv=cv, h=(m + 1) // 2, stride=st)
    return kernel(body, acc_rows=m, valid=valid)


# -- forms ---------------------------------------------------------------------------------------------------


def test_region_forms() -> None:
    assert region_form(region_of(shard_kernel(16, None))) == "explicit"
    task = kernel("""    %r = pto.split_aiv_scope none (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      pto.yield %o : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>""")
    assert region_form(region_of(task)) == "task"
    full = task.replace("none (%aiv_id)", "up_down (%aiv_id)")
    assert region_form(region_of(full)) == "full"
    # a boundary op nested in an scf.if still makes the body explicit-boundary
    nested = kernel("""    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %t = arith.constant true
      scf.if %t {
        %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
        %o2 = pto.store %h, %o[0, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
      }
      pto.yield %o : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>""")
    assert region_form(region_of(nested)) == "explicit"


# -- E-MIXED acceptance ----------------------------------------------------------------------------------------


def explicit_body(ops: str) -> str:
    return kernel(f"""    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {{
      %h = pto.aiv_shard %acc {{split = 1 : i64}} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
{ops}
      pto.yield %o : !pto.tensor<16x128xf32>
    }}
    func.return %r : !pto.tensor<16x128xf32>""")


def test_mixed_accepts_lane_addressed_slice_through_scalar_chain() -> None:
    text = explicit_body("""      %c8 = arith.constant 8 : index
      %c1 = arith.constant 1 : index
      %base = arith.muli %aiv_id, %c8 : index
      %row = arith.addi %base, %c1 : index
      %full = pto.load %o[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>""")
    # the full-width load is not lane-addressed: rejected
    with pytest.raises(PtoError, match=r"\[pto.load\]"):
        check_mixed_explicit_region(region_of(text))
    text = explicit_body("""      %c8 = arith.constant 8 : index
      %c1 = arith.constant 1 : index
      %base = arith.muli %aiv_id, %c8 : index
      %row = arith.addi %base, %c1 : index
      %w = pto.load %o[%row, 0] : !pto.tensor<16x128xf32> -> !pto.tile<7x128xf32, vec>
      %e = pto.exp %w : !pto.tile<7x128xf32, vec>""")
    check_mixed_explicit_region(region_of(text))  # lane id reaches the offset through two scalar ops


def test_mixed_accepts_loop_carried_half() -> None:
    text = explicit_body("""      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %x = scf.for %i = %c0 to %c4 step %c1 iter_args(%it = %h) -> (!pto.tile<8x128xf32, vec>) {
        %e = pto.exp %it : !pto.tile<8x128xf32, vec>
        scf.yield %e : !pto.tensor<8x128xf32>
      }""".replace("scf.yield %e : !pto.tensor<8x128xf32>", "scf.yield %e : !pto.tile<8x128xf32, vec>"))
    check_mixed_explicit_region(region_of(text))


def test_mixed_lists_every_offender_at_the_first() -> None:
    text = explicit_body("""      %f = arith.constant 0.0 : f32
      %z = pto.full %f : f32 -> !pto.tile<8x128xf32, vec>
      %y = pto.exp %z : !pto.tile<8x128xf32, vec>
      %w = pto.relu %y : !pto.tile<8x128xf32, vec>""")
    with pytest.raises(PtoError, match=r"\[pto.exp, pto.relu\]") as e:
        check_mixed_explicit_region(region_of(text))
    assert e.value.loc is not None and e.value.loc.line == text.splitlines().index(
        next(line for line in text.splitlines() if "pto.exp %z" in line)
    ) + 1


# -- valid-extent repair -----------------------------------------------------------------------------------------


def shard_of(f: func.FuncOp) -> AivShardOp:
    return next(op for op in f.walk() if isinstance(op, AivShardOp))


@pytest.mark.parametrize(
    ("rows", "valid", "stride", "lane_valid", "guarded"),
    [
        (16, None, None, 8, False),  # even, fully valid: untouched
        (16, 13, None, DYNAMIC, False),  # 8 and 5
        (16, 13, 7, DYNAMIC, False),  # 7 and 6
        (16, 12, 6, 6, False),  # 6 and 6: a constant extent
        (16, 8, None, DYNAMIC, True),  # 8 and 0: lane 1 empty
        (15, None, None, DYNAMIC, False),  # odd box: 8 and 7
        (16, 0, None, 0, True),  # nothing valid: both lanes empty, the store never runs
    ],
)
def test_shard_lane_extents(rows: int, valid: int | None, stride: int | None, lane_valid: int, guarded: bool) -> None:
    f, text = lower(shard_kernel(rows, valid, stride))
    t = shard_of(f).result.type
    assert isinstance(t, TileType)
    assert t.get_valid()[0] == lane_valid
    stores = [op for op in f.walk() if isinstance(op, StoreOp)]
    assert len(stores) == 1
    assert isinstance(stores[0].parent_op(), scf.IfOp) == guarded, text


def test_lane_extent_arithmetic_uses_the_stride() -> None:
    _, text = lower(shard_kernel(16, 13, 7))
    assert "%c7 = arith.constant 7 : index" in text
    assert "%h_lane_start = arith.muli %aiv_id, %c7 : index" in text
    assert "%h_lane_valid = arith.minsi %h_lane_rest, %c7 : index" in text


def test_untraceable_runtime_valid_is_rejected() -> None:
    body = """    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %h = pto.aiv_shard %acc_p {split = 1 : i64} : !pto.tile<16x128xf32, acc, valid = [?, 128]> -> !pto.tile<8x128xf32, vec>
      %o2 = pto.store %h, %o[0, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>"""
    text = kernel(body, extra_args=", %acc_p: !pto.tile<16x128xf32, acc, valid = [?, 128]>")
    with pytest.raises(PtoError, match="runtime value this pass cannot trace"):
        lower(text)


@pytest.mark.parametrize(
    ("tail", "message"),
    [
        ("      pto.yield %h : !pto.tile<8x128xf32, vec>", r"cannot leave the region \(pto.yield\)"),
        (
            """      %t = arith.constant true
      %x = scf.if %t -> (!pto.tile<8x128xf32, vec>) {
        scf.yield %h : !pto.tile<8x128xf32, vec>
      } else {
        scf.yield %h : !pto.tile<8x128xf32, vec>
      }
      pto.yield %x : !pto.tile<8x128xf32, vec>""",
            "cannot leave an scf.if",
        ),
    ],
)
def test_repaired_value_cannot_escape(tail: str, message: str) -> None:
    body = f"""    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tile<8x128xf32, vec>) {{
      %h = pto.aiv_shard %acc {{split = 1 : i64}} : !pto.tile<16x128xf32, acc, valid = [13, 128]> -> !pto.tile<8x128xf32, vec>
{tail}
    }}
    %o2 = pto.store %r, %o[0, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %o2 : !pto.tensor<16x128xf32>"""
    with pytest.raises(PtoError, match=message):
        lower(kernel(body, valid=13))


# -- driver --------------------------------------------------------------------------------------------------------


def test_rejected_function_is_left_unchanged() -> None:
    text = shard_kernel(16, None).replace(", pto.split_aiv}", "}")
    m = parse_module(text, "t.mlir")
    before = print_module(m)
    f = next(op for op in m.ops if isinstance(op, func.FuncOp))
    with pytest.raises(PtoError, match=r"AivSplitValid: .* add the unit attribute `pto.split_aiv`"):
        lower_region_function(f)
    assert print_module(m) == before


def test_fresh_subblock_idx_names() -> None:
    """A user value already called %subblock_idx pushes the regions to __ssa_v0, __ssa_v1."""
    body = """    %subblock_idx = arith.constant 3 : index
    %r1 = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %x = pto.load %o[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
      %o2 = pto.store %x, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    %r2 = pto.split_aiv_scope left_right (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %y = pto.load %r1[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
      %o3 = pto.store %y, %r1[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o3 : !pto.tensor<16x128xf32>
    }
    func.return %r2 : !pto.tensor<16x128xf32>"""
    f, _ = lower(kernel(body))
    names = [op.result.name_hint for op in f.walk() if isinstance(op, GetSubblockIdxOp)]
    assert names == ["subblock_idx__ssa_v0", "aiv_id", "subblock_idx__ssa_v1", "aiv_id"]
    assert "pto.split_aiv_region_validated" in f.attributes
    assert not any(isinstance(op, SplitAivScopeOp) for op in f.walk())


def test_empty_regions() -> None:
    """An empty region emits nothing, except the lane binding when it yields its own %aiv_id."""
    body = """    %r = pto.split_aiv_scope none (%aiv_id) -> (index) {
      pto.yield %aiv_id : index
    }
    pto.split_aiv_scope up_down (%lane) {
      pto.yield
    }
    func.return %o : !pto.tensor<16x128xf32>"""
    f, text = lower(kernel(body).replace("%r = pto.split", "%lane_of = pto.split"))
    idx = [op for op in f.walk() if isinstance(op, GetSubblockIdxOp)]
    assert [op.result.name_hint for op in idx] == ["aiv_id"]
    assert not idx[0].result.uses  # the yielded lane id is unused here, but bound, not dangling
