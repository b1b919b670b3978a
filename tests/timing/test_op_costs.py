"""Every op has semantics and a cost: the timing model's cost rules (`timing/op_costs.py`) are registered per op
class or trait, like the interpreter's semantics (`interpreter/registry.py`), with no default."""

from __future__ import annotations

import pytest
from xdsl.dialects import builtin
from xdsl.traits import IsTerminator

import pypto_mlir.interpreter.machine  # noqa: F401  (registers every op's semantics)
from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects import PTO
from pypto_mlir.interpreter.registry import REGISTRY
from pypto_mlir.ir import parse_module
from pypto_mlir.timing.costs import TARGET_COSTS
from pypto_mlir.timing.op_costs import cost_of, rule_for

OPS = sorted({*PTO.operations, *REGISTRY.op_types()}, key=lambda t: t.name)


@pytest.mark.parametrize("op_type", OPS, ids=lambda t: t.name)
def test_every_op_has_semantics_and_a_cost_rule(op_type):
    assert REGISTRY.lookup(op_type) is not None or op_type.has_trait(IsTerminator), f"{op_type.name}: no semantics"
    assert rule_for(op_type) is not None, f"{op_type.name}: no cost rule in timing/op_costs.py"


def test_an_op_without_a_rule_is_an_error_not_a_default():
    op = builtin.UnrealizedConversionCastOp.get([], [])
    with pytest.raises(PtoError, match="no cost rule for 'builtin.unrealized_conversion_cast'"):
        cost_of(op, "a2a3")


def _ops(body: str) -> list:
    mod = parse_module("builtin.module {\n" + body + "\n}")
    return [op for op in mod.walk() if op.name.startswith("pto.")]


def test_views_cost_nothing_and_gm_transfers_take_their_path():
    ops = _ops("""  func.func @f(%t: !pto.tensor<64x128xf32>, %x: !pto.tile<64x128xf32, vec>) {
    %s = pto.slice %x[0, 0] : !pto.tile<64x128xf32, vec> -> !pto.tile<32x128xf32, vec>
    %l = pto.load %t[0, 0] : !pto.tensor<64x128xf32> -> !pto.tile<64x128xf32, vec>
    %m = pto.load %t[0, 0] : !pto.tensor<64x128xf32> -> !pto.tile<64x128xf32, mat>
    %o = pto.store %x, %t[0, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<64x128xf32>
    func.return
  }""")
    c = TARGET_COSTS["a2a3"]
    nbytes = 64 * 128 * 4
    assert [(cost_of(op, "a2a3").cycles, cost_of(op, "a2a3").unit) for op in ops] == [
        (0, "view"),
        (c.gm_latency + c.transfer_cycles(nbytes, "gm_to_ub"), "mte"),
        (c.gm_latency + c.transfer_cycles(nbytes, "gm_to_l1"), "mte"),
        (c.gm_latency + c.transfer_cycles(nbytes, "ub_to_gm"), "mte"),
    ]


def test_pipe_ops_are_charged_where_pto_isa_copies():
    ops = _ops("""  func.func @f(%a: !pto.tile<64x64xf32, acc>) {
    pto.tpush_to_aiv %a {id = 0 : i64, split = 0 : i64} : !pto.tile<64x64xf32, acc>
    %v = pto.tpop_from_aic {id = 0 : i64, split = 0 : i64} : !pto.tile<64x64xf32, vec>
    pto.tfree_to_aic %v {id = 0 : i64, split = 0 : i64} : !pto.tile<64x64xf32, vec>
    func.return
  }""")
    nbytes = 64 * 64 * 4
    c = TARGET_COSTS["a2a3"]
    # a2a3: push = GM store from L0C + ready signal; pop = wait + GM -> UB copy + free signal; tfree: nothing.
    assert [cost_of(op, "a2a3").cycles for op in ops] == [
        c.gm_latency + c.transfer_cycles(nbytes, "l0c_to_gm") + 1,
        1 + c.gm_latency + c.transfer_cycles(nbytes, "gm_to_ub") + 1,
        0,
    ]
    # a5: push = L0C -> UB into the consumer's ring + ready signal; pop = the wait; tfree = the free signal.
    c5 = TARGET_COSTS["a5"]
    assert [cost_of(op, "a5").cycles for op in ops] == [c5.transfer_cycles(nbytes, "l0c_to_ub") + 1, 1, 1]
