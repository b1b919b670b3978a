"""Tests of `pypto_mlir.mlir_bridge` against upstream MLIR 22's Python bindings (the optional `mlir` extra).

Without the extra the whole module is skipped, with the reason saying how to install it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pypto_mlir.mlir_tools import MLIR_EXTRA_HINT, have_mlir_bindings, outline_difference, pto_outline

if not have_mlir_bindings():
    if os.environ.get("PYPTO_REQUIRE_MLIR", "0") not in ("", "0"):  # cmake -DPYPTO_ENABLE_MLIR_TESTS=ON
        raise RuntimeError(f"PYPTO_REQUIRE_MLIR is set but the upstream MLIR Python bindings are missing; {MLIR_EXTRA_HINT}")
    pytest.skip(f"upstream MLIR Python bindings not installed; {MLIR_EXTRA_HINT}", allow_module_level=True)

from mlir import ir as mlir_ir  # noqa: E402
from mlir.passmanager import PassManager  # noqa: E402

from pypto_mlir import PtoError, mlir_bridge, parse_module, print_module, verify_module  # noqa: E402
from pypto_mlir.ir import make_context  # noqa: E402
from pypto_mlir.passes import get_pass  # noqa: E402
from pypto_mlir.pipeline import with_default_models  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.mlir"), key=lambda p: p.name)
PIPELINE = ("lower-auto-vector-split", "expand-mixed-kernel")


def load(path: Path):
    return parse_module(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))


def run_ours(module):
    ctx = make_context()
    for name in PIPELINE:
        with_default_models(get_pass(name)()).apply(ctx, module)
        verify_module(module)
    return module


def assert_same_module(a, b):
    """Same ops, attributes, types and regions (names aside), and every op at the same location."""
    assert a.is_structurally_equivalent(b), f"not equivalent:\n{print_module(a)}\nvs\n{print_module(b)}"
    ops_a, ops_b = list(a.walk()), list(b.walk())
    assert len(ops_a) == len(ops_b)
    for x, y in zip(ops_a, ops_b):
        assert x.location == y.location, f"{x.name}: {x.location} became {y.location}"


def pto_names(module) -> list[str]:
    return [op.name for op in module.walk() if op.name.startswith("pto.")]


# -- to_mlir / from_mlir ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_round_trip_every_example(path):
    x = load(path)
    up = mlir_bridge.to_mlir(x)
    assert up.operation.verify()
    back = mlir_bridge.from_mlir(up)
    assert_same_module(x, back)
    # and upstream's view is stable: bridging back again prints the same upstream text
    assert str(mlir_bridge.to_mlir(back, up.context)) == str(up)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_round_trip_of_the_pipeline_output(path):
    x = run_ours(load(path))
    back = mlir_bridge.from_mlir(mlir_bridge.to_mlir(x))
    assert_same_module(x, back)


def test_pto_types_and_attributes_are_opaque_upstream():
    x = load(ROOT / "examples" / "matmul_softmax.a5.mlir")
    up = mlir_bridge.to_mlir(x)
    module = up.operation
    assert str(module.attributes["pto.target"]) == "#pto.target<a5>"
    func = module.regions[0].blocks[0].operations[0]
    assert str(func.attributes["pto.split"]) == "#pto.split<up_down>"
    load_op = func.regions[0].blocks[0].operations[0]
    assert load_op.name == "pto.load"
    assert str(load_op.results[0].type) == "!pto.tile<64x128xbf16, mat>"
    assert str(load_op.attributes["static_offsets"]) == "array<i64: 0, 0>"
    assert str(load_op.location) == 'loc("examples/matmul_softmax.a5.mlir":7:5)'
    assert not up.context.is_registered_operation("pto.load")


def test_to_mlir_uses_the_current_context_and_allows_unregistered_dialects():
    ctx = mlir_ir.Context()
    assert not ctx.allow_unregistered_dialects
    with ctx:
        up = mlir_bridge.to_mlir(load(EXAMPLES[0]))
    assert up.context is ctx
    assert ctx.allow_unregistered_dialects


def test_from_mlir_keeps_upstream_locations_and_reads_upstream_names():
    ctx = mlir_bridge.new_context()
    up = mlir_ir.Module.parse(
        """
module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%arg0: !pto.tile<16x128xf32, vec>) -> !pto.tile<16x128xf32, vec> attributes {pto.kind = #pto.kind<aiv>} {
    %0 = "pto.exp"(%arg0) : (!pto.tile<16x128xf32, vec>) -> !pto.tile<16x128xf32, vec> loc(callsite("k.py":4:9 at "main.py":2:1))
    return %0 : !pto.tile<16x128xf32, vec> loc("k.py":5:5)
  } loc("k.py":1:1)
}
""",
        ctx,
    )
    x = mlir_bridge.from_mlir(up)
    exp = next(op for op in x.walk() if op.name == "pto.exp")
    assert "callsite" in str(exp.location) and '"k.py":4:9' in str(exp.location)
    assert "%0 = pto.exp %arg0 : !pto.tile<16x128xf32, vec>" in print_module(x)


def test_from_mlir_verifies_and_reports_at_the_upstream_location():
    ctx = mlir_bridge.new_context()
    up = mlir_ir.Module.parse(
        """
module {
  func.func @k(%arg0: !pto.tile<16x128xf32, vec>) attributes {pto.kind = #pto.kind<aiv>} {
    %0 = "pto.exp"(%arg0) : (!pto.tile<16x128xf32, vec>) -> !pto.tile<16x64xf32, vec> loc("k.py":7:5)
    return
  }
}
""",
        ctx,
    )
    with pytest.raises(PtoError) as e:
        mlir_bridge.from_mlir(up)
    assert str(e.value.loc) == "k.py:7:5" and "pto.exp" in e.value.message
    x = mlir_bridge.from_mlir(up, verify=False)  # still readable when asked not to verify
    assert pto_names(x) == ["pto.exp"]


def test_from_mlir_rejects_dialects_it_does_not_know_unless_asked():
    ctx = mlir_bridge.new_context()
    up = mlir_ir.Module.parse(
        'module {\n  func.func @f() {\n    %0 = "foo.bar"() : () -> i32 loc("f.mlir":3:5)\n    return\n  }\n} loc("f.mlir":1:1)\n',
        ctx,
    )
    with pytest.raises(mlir_bridge.BridgeError) as e:
        mlir_bridge.from_mlir(up)
    assert "foo.bar" in e.value.message and "allow_unregistered=True" in e.value.message
    assert str(e.value.loc) == "f.mlir:1:1"
    x = mlir_bridge.from_mlir(up, allow_unregistered=True)
    assert '"foo.bar"() : () -> i32' in print_module(x)
    assert '"foo.bar"() : () -> i32 loc("f.mlir":3:5)' in str(mlir_bridge.to_mlir(x, ctx).operation.get_asm(enable_debug_info=True, use_local_scope=True))


def test_from_mlir_wants_a_module():
    ctx = mlir_bridge.new_context()
    up = mlir_ir.Module.parse("func.func @f() {\n  return\n}\n", ctx)
    func = up.body.operations[0]
    with pytest.raises(mlir_bridge.BridgeError, match="expected a builtin.module"):
        mlir_bridge.from_mlir(func)


# -- pass hooks in upstream PassManagers ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_pass_manager_mixing_upstream_and_our_passes(path):
    """canonicalize, our two passes, cse, our verifier: the result is what pypto-opt's pipeline gives, up to
    what canonicalize/cse may do to non-pto ops."""
    ctx = mlir_bridge.new_context()
    up = mlir_bridge.to_mlir(load(path), ctx)
    pm = PassManager.parse("builtin.module(canonicalize)", ctx)
    pm.add(mlir_bridge.lower_auto_vector_split, name="LowerAutoVectorSplit")
    pm.add(mlir_bridge.expand_mixed_kernel, name="ExpandMixedKernel")
    pm.add("cse")
    pm.add(mlir_bridge.verify_mixed_kernel_expanded, name="VerifyMixedKernelExpanded")
    pm.run(up.operation)
    assert up.operation.verify()
    result = mlir_bridge.from_mlir(up)
    expected = run_ours(load(path))
    assert outline_difference(pto_outline(expected), pto_outline(result)) is None
    kinds = {str(op.attributes["pto.kind"]) for op in up.body.operations if "pto.kind" in op.attributes}
    assert "#pto.kind<group>" in kinds or "#pto.kind<aic>" in kinds or "#pto.kind<aiv>" in kinds
    # the pass kept the source locations of the example
    load_ops = [op for op in result.walk() if op.name == "pto.load"]
    assert load_ops and all(path.name in str(op.location) for op in load_ops)


def test_add_passes_by_name_and_pipeline_string():
    ctx = mlir_bridge.new_context()
    up = mlir_bridge.to_mlir(load(ROOT / "examples" / "seed_example1.a2a3.mlir"), ctx)
    pm = PassManager("builtin.module", ctx)
    mlir_bridge.add_passes(pm, "lower-auto-vector-split, expand-mixed-kernel")
    mlir_bridge.add_passes(pm, ["verify-mixed-kernel-expanded"])
    pm.add("canonicalize")
    pm.run(up.operation)
    names = [str(op.attributes["sym_name"]).strip('"') for op in up.body.operations]
    assert names == ["compute_incore_0_aic", "compute_incore_0_aiv", "compute_incore_0", "main"]
    with pytest.raises(ValueError, match="unknown pypto-mlir pass 'no-such-pass'"):
        mlir_bridge.add_passes(pm, "no-such-pass")


def test_a_rejected_input_is_an_upstream_diagnostic_and_leaves_the_module_alone():
    ctx = mlir_bridge.new_context()
    x = load(ROOT / "examples" / "seed_example1.a5.mlir")
    del x.attributes["pto.target"]
    up = mlir_bridge.to_mlir(x, ctx)
    before = str(up)
    pm = PassManager("builtin.module", ctx)
    pm.add(mlir_bridge.expand_mixed_kernel, name="ExpandMixedKernel")
    with pytest.raises(mlir_ir.MLIRError) as e:
        pm.run(up.operation)
    (diag,) = e.value.error_diagnostics
    assert str(diag.location) == 'loc("examples/seed_example1.a5.mlir":3:1)'
    assert "no 'pto.target' attribute" in diag.message
    assert str(up) == before


def test_invalid_ir_from_an_upstream_pass_is_reported_at_the_op():
    """The verifier-side error of our pass: MixedKernelExpanded does not hold on an unexpanded kernel."""
    ctx = mlir_bridge.new_context()
    up = mlir_bridge.to_mlir(load(ROOT / "examples" / "seed_example1.a2a3.mlir"), ctx)
    pm = PassManager("any", ctx)
    pm.add(mlir_bridge.verify_mixed_kernel_expanded)
    with pytest.raises(mlir_ir.MLIRError) as e:
        pm.run(up.operation)
    (diag,) = e.value.error_diagnostics
    assert '"examples/seed_example1.a2a3.mlir"' in str(diag.location)
    assert "compute_incore_0" in diag.message and "expand-mixed-kernel" in diag.message


def test_an_internal_error_is_a_diagnostic_not_a_traceback(monkeypatch):
    from pypto_mlir.passes.expand_mixed_kernel import pass_ as emk

    def boom(self, ctx, op):
        raise KeyError("simulated bug")

    monkeypatch.setattr(emk.ExpandMixedKernelPass, "apply", boom)
    ctx = mlir_bridge.new_context()
    up = mlir_bridge.to_mlir(load(ROOT / "examples" / "seed_example1.a2a3.mlir"), ctx)
    pm = PassManager("builtin.module", ctx)
    pm.add(mlir_bridge.expand_mixed_kernel)
    with pytest.raises(mlir_ir.MLIRError) as e:
        pm.run(up.operation)
    (diag,) = e.value.error_diagnostics
    assert "internal compiler error in expand-mixed-kernel: KeyError" in diag.message


def test_a_hook_on_something_else_than_a_module_says_so():
    ctx = mlir_bridge.new_context()
    up = mlir_bridge.to_mlir(load(ROOT / "examples" / "seed_example1.a2a3.mlir"), ctx)
    func = up.body.operations[0]
    pm = PassManager("func.func", ctx)
    pm.add(mlir_bridge.expand_mixed_kernel)
    with pytest.raises(mlir_ir.MLIRError) as e:
        pm.run(func)
    (diag,) = e.value.error_diagnostics
    assert "run on a builtin.module, not on 'func.func'" in diag.message
    assert '"examples/seed_example1.a2a3.mlir":4:3' in str(diag.location)


def test_pass_hook_rejects_unknown_names():
    with pytest.raises(ValueError, match="available: "):
        mlir_bridge.pass_hook("canonicalize")
    hook = mlir_bridge.pass_hook("lower-auto-vector-split", "expand-mixed-kernel")
    assert hook.__name__ == "lower_auto_vector_split_expand_mixed_kernel"
