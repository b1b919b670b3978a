"""`auto/generator_axes.py`: which free values (tile generators and values computed from them only) are split on
another axis than the function's, because they meet a value a transpose moved (issue 43, part 2)."""

from __future__ import annotations

from xdsl.dialects import func

from pypto_mlir.ir import parse_module
from pypto_mlir.passes.lower_auto_vector_split.auto.generator_axes import generator_axes

KERNEL = """
builtin.module attributes {{pto.target = #pto.target<a2a3>}} {{
  func.func @k(%qk: !pto.tile<16x16xf32, acc>, %out: !pto.tensor<16x16xf32> {{pto.out}})
      -> !pto.tensor<16x16xf32> attributes {{pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>}} {{
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %t = {data}
    %c3 = arith.constant 3 : i32
    %ci = pto.ci %c3 : i32 -> !pto.tile<16x16xi32, vec>
    %cf = pto.cast %ci : !pto.tile<16x16xi32, vec> -> !pto.tile<16x16xf32, vec>
    %g = {gen}
    %y = pto.add %t, %g : !pto.tile<16x16xf32, vec>
    %o = pto.store %y, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }}
}}
"""
TRANSPOSED = "pto.transpose %s : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>"
PLAIN = "pto.relu %s : !pto.tile<16x16xf32, vec>"
GEN = "pto.muls %cf, %one : !pto.tile<16x16xf32, vec>, f32"
GEN_T = "pto.transpose %cf : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec>"


def _axes(data: str, gen: str) -> dict[str, int]:
    text = KERNEL.format(data=data, gen=gen).replace("%g = pto.muls", "%one = arith.constant 2.0 : f32\n    %g = pto.muls")
    f = next(op for op in parse_module(text).walk() if isinstance(op, func.FuncOp))
    return {v.name_hint: a for v, a in generator_axes(f, 0).items()}


def test_a_generator_chain_meeting_a_transposed_value_takes_its_axis():
    assert _axes(TRANSPOSED, GEN) == {"g": 1, "cf": 1, "ci": 1}


def test_nothing_moves_without_a_transpose():
    assert _axes(PLAIN, GEN) == {}


def test_a_transposed_generator_is_asked_for_the_permuted_axis():
    # %g = transpose(%cf) must be split on dim 1 to meet %t; so %cf (and %ci) on dim 0, the function's axis.
    assert _axes(TRANSPOSED, GEN_T) == {"g": 1}
