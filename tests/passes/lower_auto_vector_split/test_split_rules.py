"""The split rule is opt-in (`LaneHalving`, dialects/pto_traits.py): every op that can run on the vector cores
declares how LowerAutoVectorSplit lane-splits it, a pattern halves only the ops that declare its rule, and a
vector op on tiles that declares none is a located error in a split kernel instead of being halved as if it were
elementwise."""

from __future__ import annotations

import pytest
from xdsl.context import Context
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.rewriter import Rewriter
from xdsl.traits import Pure

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects import pto
from pypto_mlir.dialects.pto_traits import (
    BoundaryAffinity,
    FirstTileAffinity,
    HalvingRule,
    LaneHalving,
    MoveAffinity,
    ResultMemoryAffinity,
    TileGenerator,
    VectorAffinity,
    halving_rule_of,
)
from pypto_mlir.dialects.pto_types import TileType
from pypto_mlir.ir import parse_module
from pypto_mlir.passes.lower_auto_vector_split.pass_ import LowerAutoVectorSplitPass
from pypto_mlir.passes.lower_auto_vector_split.patterns.compute import ElementwiseHalving

# the traits of an op that can run on the vector cores: a fixed vector affinity, an affinity that follows a tile's
# memory (vec for the vector side), a boundary, or a tile generator (pto.create is shared but makes vec tiles)
VECTOR_CAPABLE = (VectorAffinity, FirstTileAffinity, ResultMemoryAffinity, MoveAffinity, BoundaryAffinity, TileGenerator)


def ops_without_split_rule(op_classes) -> list[str]:
    """The names of the op classes that can run on the vector cores but declare no `LaneHalving` rule."""
    missing = []
    for cls in op_classes:
        traits = cls.get_irdl_definition().traits
        vector = any(isinstance(t, VECTOR_CAPABLE) for t in traits)
        if vector and not any(isinstance(t, LaneHalving) for t in traits):
            missing.append(cls.name)
    return missing


@irdl_op_definition
class ScanOp(IRDLOperation):
    """A vector op nobody wrote a lane rule for (a prefix scan: halving it as if elementwise would be wrong)."""

    name = "test.scan"
    src = operand_def(TileType)
    result = result_def(TileType)
    traits = traits_def(VectorAffinity(), Pure())


def test_every_vector_op_declares_a_split_rule():
    assert ops_without_split_rule(pto.PTO.operations) == []


def test_the_rule_check_can_fail():
    assert ops_without_split_rule([ScanOp]) == ["test.scan"]


def test_elementwise_halving_takes_only_its_rules():
    """The former catch-all matches by declared rule: elementwise, reduction, broadcast, move — not a window,
    a view, a generator, nor an op without a rule."""
    assert ElementwiseHalving.RULES == {HalvingRule.ELEMENTWISE, HalvingRule.REDUCTION, HalvingRule.BROADCAST,
                                        HalvingRule.MOVE}
    rules = {cls.name: cls.get_irdl_definition().traits for cls in pto.PTO.operations}
    by_name = {n: next((t.rule for t in ts if isinstance(t, LaneHalving)), None) for n, ts in rules.items()}
    assert by_name["pto.exp"] is HalvingRule.ELEMENTWISE and by_name["pto.cast"] is HalvingRule.ELEMENTWISE
    assert by_name["pto.row_sum"] is HalvingRule.REDUCTION and by_name["pto.col_expand_mul"] is HalvingRule.BROADCAST
    assert by_name["pto.load"] is HalvingRule.WINDOW and by_name["pto.reshape"] is HalvingRule.VIEW
    assert by_name["pto.ci"] is HalvingRule.GENERATOR and by_name["pto.tpop_from_aic"] is HalvingRule.TRANSFER
    assert by_name["pto.matmul"] is None  # cube ops are never on a lane


KERNEL = """builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%qk: !pto.tile<64x128xf32, acc>, %out: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
    %e = pto.exp %v : !pto.tile<64x128xf32, vec>
    %o = pto.store %e, %out[0, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<64x128xf32>
    func.return %o : !pto.tensor<64x128xf32>
  }
}
"""


def test_a_vector_op_without_a_rule_is_a_located_error():
    module = parse_module(KERNEL, "k.mlir")
    exp = next(op for op in module.walk() if op.name == "pto.exp")
    scan = ScanOp.create(operands=[exp.operands[0]], result_types=[exp.results[0].type])
    scan.location = exp.location
    Rewriter.replace_op(exp, scan)
    assert halving_rule_of(scan) is None
    with pytest.raises(PtoError) as err:
        LowerAutoVectorSplitPass(fallback="error").apply(Context(), module)
    assert str(err.value.loc) == "k.mlir:5:5"
    assert err.value.message.startswith(
        "LowerAutoVectorSplit: 'test.scan' is a vector op on tiles that declares no lane-split rule (no LaneHalving "
        "trait)"
    )


def test_the_same_kernel_with_a_declared_op_is_split():
    module = parse_module(KERNEL, "k.mlir")
    LowerAutoVectorSplitPass().apply(Context(), module)
    exp = next(op for op in module.walk() if op.name == "pto.exp")
    assert exp.results[0].type.get_shape() == (32, 128)
