"""Invariants of ExpandMixedKernel's structural half over every example and every lit input, both targets.

- no `incore` function is left; no AIC holds a vector op and no AIV a cube op (tpush/tpop/setup included);
- no placeholder (`builtin.unrealized_conversion_cast`) or boundary op (`aiv_shard`, `aic_gather`, crossing
  `pto.move`) survives; the result verifies;
- the pass is idempotent on its own output;
- the aic/aiv halves keep every parameter (names and direction attributes) of the mixed kernel.
"""

from __future__ import annotations

import pathlib
import re

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, UnrealizedConversionCastOp

from pypto_mlir import PtoError, parse_module, print_module, verify_module
from pypto_mlir.dialects.pto_ops import AicGatherOp, AivShardOp
from pypto_mlir.ir import make_context
from pypto_mlir.passes.analysis.affinity import Affinity, intrinsic_affinity, is_boundary_move
from pypto_mlir.passes.common import kind_of
from pypto_mlir.passes.expand_mixed_kernel.pass_ import ExpandMixedKernelPass
from pypto_mlir.pipeline import with_default_models
from pypto_mlir.passes.lower_auto_vector_split.pass_ import LowerAutoVectorSplitPass

ROOT = pathlib.Path(__file__).resolve().parents[3]
SPLIT = re.compile(r"^// -----\s*$", re.M)


def inputs() -> list[tuple[str, str]]:
    out = []
    files = sorted((ROOT / "examples").glob("*.mlir")) + sorted((ROOT / "lit_tests" / "expand_mixed_kernel").glob("*.mlir"))
    for path in files:
        if path.name.startswith(("protocol_", "verifier_", "reject_")):
            continue
        text = path.read_text()
        for i, chunk in enumerate(SPLIT.split(text)):
            if "pto.kind<incore>" in chunk and "expected-error" not in chunk:
                for target in ("a2a3", "a5"):
                    out.append((f"{path.name}#{i}@{target}", re.sub(r"#pto\.target<a2a3>", f"#pto.target<{target}>", chunk)))
    return out


CASES = inputs()


def run(text: str) -> ModuleOp:
    m = parse_module(text)
    verify_module(m)
    # The usual pipeline: ExpandMixedKernel requires a split kernel lowered by LowerAutoVectorSplit (which passes
    # the other kernels, and those already in the per-lane form, through unchanged).
    with_default_models(LowerAutoVectorSplitPass()).apply(make_context(), m)
    with_default_models(ExpandMixedKernelPass()).apply(make_context(), m)
    verify_module(m)
    return m


def test_there_are_cases():
    assert len(CASES) >= 30


@pytest.mark.parametrize("name, text", CASES, ids=[c[0] for c in CASES])
def test_split_is_clean_and_idempotent(name: str, text: str):
    try:
        m = run(text)
    except PtoError as e:  # pragma: no cover - a lit input that the pass rejects would be a test bug
        pytest.fail(f"{name}: {e.message}")
    for f in m.ops:
        if not isinstance(f, func.FuncOp):
            continue
        kind = kind_of(f)
        assert kind != "incore", f"{name}: @{f.sym_name.data} is still incore"
        for op in f.walk():
            assert not isinstance(op, (UnrealizedConversionCastOp, AivShardOp, AicGatherOp)), f"{name}: {op.name} left"
            assert not is_boundary_move(op), f"{name}: a crossing pto.move is left in @{f.sym_name.data}"
            a = intrinsic_affinity(op)
            if kind == "aic" and not _pulled_back(op):
                assert a != Affinity.VECTOR, f"{name}: vector op {op.name} in AIC @{f.sym_name.data}"
            if kind == "aiv":
                assert a != Affinity.CUBE, f"{name}: cube op {op.name} in AIV @{f.sym_name.data}"
    once = print_module(m)
    again = parse_module(once)
    with_default_models(ExpandMixedKernelPass()).apply(make_context(), again)
    assert print_module(again) == once, f"{name}: not idempotent"


def _pulled_back(op) -> bool:
    """Vector ops the reference pulls back onto the AIC as init values of a carry the AIC keeps (§6 step 2)."""
    parent = op.parent_op()
    return op.name in ("pto.full", "pto.muls", "pto.create") and isinstance(parent, func.FuncOp)


def test_halves_keep_every_parameter_and_direction():
    text = (ROOT / "examples" / "seed_example1.a5.mlir").read_text().replace("{pto.out}", "{pto.inout}")
    m = run(text)
    fs = {f.sym_name.data: f for f in m.ops if isinstance(f, func.FuncOp)}
    for name in ("compute_incore_0_aic", "compute_incore_0_aiv", "compute_incore_0"):
        f = fs[name]
        assert [a.name_hint for a in f.args] == ["x", "y", "out"]
        assert f.arg_attrs is not None and "pto.inout" in f.arg_attrs.data[2].data
    assert len(fs["compute_incore_0_aic"].function_type.outputs.data) == 0
    assert len(fs["compute_incore_0_aiv"].function_type.outputs.data) == 1


def test_op_maps_given_to_the_gm_sync_hook():
    """`aic_map`/`aiv_map` send each original op to its clone on the side that kept it (absent where dropped)."""
    from pypto_mlir.dialects.pto_ops import LoadOp, MatmulOp, StoreOp
    from pypto_mlir.passes.analysis.affinity import AffinityAnalysis
    from pypto_mlir.dialects.pto_traits import CoreSide
    from pypto_mlir.passes.expand_mixed_kernel.split_mixed_kernel import build_side

    m = parse_module((ROOT / "examples" / "vector_prep_matmul.a2a3.mlir").read_text())
    f = next(g for g in m.ops if isinstance(g, func.FuncOp) and kind_of(g) == "incore")
    affinity = AffinityAnalysis(f)
    aic = build_side(f, CoreSide.AIC, "a2a3", affinity, "prep_incore_0_aic")
    aiv = build_side(f, CoreSide.AIV, "a2a3", affinity, "prep_incore_0_aiv")
    aic_map, aiv_map = aic.op_map(), aiv.op_map()
    ops = list(f.walk())
    vec_load = next(o for o in ops if isinstance(o, LoadOp) and o.result.type.space == "vec")
    mat_load = next(o for o in ops if isinstance(o, LoadOp) and o.result.type.space == "mat")
    matmul = next(o for o in ops if isinstance(o, MatmulOp))
    store = next(o for o in ops if isinstance(o, StoreOp))
    assert vec_load in aiv_map and vec_load not in aic_map
    assert mat_load in aic_map and mat_load not in aiv_map
    assert matmul in aic_map and matmul not in aiv_map
    assert store in aic_map  # an acc store runs on the cube
    for orig, clone in (*aic_map.items(), *aiv_map.items()):
        assert clone.name == orig.name and clone is not orig
    assert aic_map[matmul].parent_op() is aic.func and aiv_map[vec_load].parent_op() is aiv.func
