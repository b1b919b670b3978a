"""A region kernel and its AUTO twin mean the same thing, so they must expand to the same AIC/AIV pair.

Each pair is run through `--lower-auto-vector-split --expand-mixed-kernel`; the AIC, AIV and Group functions
must be structurally equal (SSA names aside) once the region path's extra `pto.split_aiv_region_validated`
marker is set aside.  The marker itself is checked: the region kernel has it, the AUTO twin does not.
"""

from __future__ import annotations

import pytest
from xdsl.dialects import func

from pypto_mlir.ir import make_context, parse_module, print_module
from pypto_mlir.passes import get_pass
from pypto_mlir.pipeline import with_default_models
from pypto_mlir.verify import verify_module

CUBE = """
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
"""
SIG = (
    "(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) "
    "-> !pto.tensor<16x128xf32>"
)


def module(target: str, attrs: str, body: str) -> str:
    return f"""builtin.module attributes {{pto.target = #pto.target<{target}>}} {{
  func.func @k{SIG}
      attributes {{pto.kind = #pto.kind<incore>{attrs}}} {{{CUBE}{body}
  }}
}}
"""


# C->V, softmax-like rows, store: AUTO up_down vs a full-width data-parallel region.
AUTO_C2V = """
    %s = pto.move %acc : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %m = pto.row_max %s : !pto.tile<16x128xf32, vec> -> !pto.tile<16x1xf32, vec>
    %d = pto.row_expand_sub %s, %m : !pto.tile<16x128xf32, vec>, !pto.tile<16x1xf32, vec>
    %e = pto.exp %d : !pto.tile<16x128xf32, vec>
    %o2 = pto.store %e, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %o2 : !pto.tensor<16x128xf32>"""
REGION_C2V = """
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %s = pto.move %acc : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
      %m = pto.row_max %s : !pto.tile<16x128xf32, vec> -> !pto.tile<16x1xf32, vec>
      %d = pto.row_expand_sub %s, %m : !pto.tile<16x128xf32, vec>, !pto.tile<16x1xf32, vec>
      %e = pto.exp %d : !pto.tile<16x128xf32, vec>
      %o2 = pto.store %e, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>"""

# The same kernel written per lane by hand: an explicit-boundary region with the lane offsets the AUTO path
# would compute (in the order it emits them).
EXPLICIT_C2V = """
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %c8 = arith.constant 8 : index
      %row = arith.muli %aiv_id, %c8 : index
      %s = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
      %m = pto.row_max %s : !pto.tile<8x128xf32, vec> -> !pto.tile<8x1xf32, vec>
      %d = pto.row_expand_sub %s, %m : !pto.tile<8x128xf32, vec>, !pto.tile<8x1xf32, vec>
      %e = pto.exp %d : !pto.tile<8x128xf32, vec>
      %o2 = pto.store %e, %o[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>"""

# V->C: a per-lane vector prologue gathered into the cube (left_right), then a cube store.
AUTO_V2C = """
    %x = pto.load %o[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %y = pto.exp %x : !pto.tile<16x128xf32, vec>
    %y_m = pto.move %y : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xf32, mat>
    %o2 = pto.store %y_m, %o[0, 0] : !pto.tile<16x128xf32, mat>, !pto.tensor<16x128xf32>
    %o3 = pto.store %acc, %o2[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    func.return %o3 : !pto.tensor<16x128xf32>"""
REGION_V2C = """
    %y_full = pto.split_aiv_scope left_right (%aiv_id) -> (!pto.tile<16x128xf32, mat>) {
      %x = pto.load %o[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
      %y = pto.exp %x : !pto.tile<16x128xf32, vec>
      %y_m = pto.move %y : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xf32, mat>
      pto.yield %y_m : !pto.tile<16x128xf32, mat>
    }
    %o2 = pto.store %y_full, %o[0, 0] : !pto.tile<16x128xf32, mat>, !pto.tensor<16x128xf32>
    %o3 = pto.store %acc, %o2[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    func.return %o3 : !pto.tensor<16x128xf32>"""

PAIRS = {
    "c2v_full_width": ((", pto.split = #pto.split<up_down>", AUTO_C2V), (", pto.split = #pto.split<up_down>, pto.split_aiv", REGION_C2V)),
    "c2v_explicit": ((", pto.split = #pto.split<up_down>", AUTO_C2V), (", pto.split = #pto.split<up_down>, pto.split_aiv", EXPLICIT_C2V)),
    "v2c_full_width": ((", pto.split = #pto.split<left_right>", AUTO_V2C), (", pto.split = #pto.split<left_right>, pto.split_aiv", REGION_V2C)),
}


def expand(text: str) -> dict[str, func.FuncOp]:
    ctx = make_context()
    m = parse_module(text, "twin.mlir", ctx)
    verify_module(m)
    for name in ("lower-auto-vector-split", "expand-mixed-kernel"):
        with_default_models(get_pass(name)()).apply(ctx, m)
        verify_module(m)
    return {f.sym_name.data: f for f in m.ops if isinstance(f, func.FuncOp)}


def same_function(f: func.FuncOp, g: func.FuncOp) -> bool:
    """Same signature, attributes and body up to SSA names (the functions themselves sit in different modules)."""
    return (
        f.attributes == g.attributes
        and f.properties == g.properties
        and f.body.is_structurally_equivalent(g.body)
    )


@pytest.mark.parametrize("target", ["a2a3", "a5"])
@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_region_kernel_matches_auto_twin(pair: str, target: str) -> None:
    (auto_attrs, auto_body), (region_attrs, region_body) = PAIRS[pair]
    auto = expand(module(target, auto_attrs, auto_body))
    region = expand(module(target, region_attrs, region_body))
    assert sorted(auto) == sorted(region) == ["k", "k_aic", "k_aiv"]
    for name in auto:
        assert "pto.split_aiv_region_validated" not in auto[name].attributes
        assert "pto.split_aiv_region_validated" in region[name].attributes
        del region[name].attributes["pto.split_aiv_region_validated"]
        same = same_function(region[name], auto[name])
        assert same, f"@{name} differs:\nAUTO:\n{print_module(auto[name])}\nREGION:\n{print_module(region[name])}"


def test_twins_differ_when_the_meaning_differs() -> None:
    """The comparison can fail: a region kernel that stores at the wrong lane offset is not the AUTO twin."""
    wrong = EXPLICIT_C2V.replace("%o[%row, 0]", "%o[0, 0]")
    auto = expand(module("a2a3", ", pto.split = #pto.split<up_down>", AUTO_C2V))
    region = expand(module("a2a3", ", pto.split = #pto.split<up_down>, pto.split_aiv", wrong))
    for name in ("k_aic", "k_aiv"):
        del region[name].attributes["pto.split_aiv_region_validated"]
    assert not same_function(region["k_aiv"], auto["k_aiv"])
    assert same_function(region["k_aic"], auto["k_aic"])
