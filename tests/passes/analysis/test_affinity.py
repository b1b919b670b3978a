"""Unit tests of the shared affinity analysis (passes/analysis/affinity.py), one op at a time, plus roll-ups."""

from __future__ import annotations

import pytest
from xdsl.dialects import func

from pypto_mlir.ir import parse_module
from pypto_mlir.passes.analysis.affinity import (
    Affinity,
    AffinityAnalysis,
    combine,
    function_affinity,
    intrinsic_affinity,
    is_boundary_move,
    is_mixed,
    move_direction,
)

C, V, S, M = Affinity.CUBE, Affinity.VECTOR, Affinity.SHARED, Affinity.MIXED

ARGS = (
    "%t: !pto.tensor<16x16xf32>, %acc: !pto.tile<16x16xf32, acc>, %vec: !pto.tile<16x16xf32, vec>, "
    "%mat: !pto.tile<16x16xf32, mat>, %left: !pto.tile<16x16xf32, left>, %right: !pto.tile<16x16xf32, right>, "
    "%f: f32, %i: index, %seed: i32, %cond: i1"
)


def _ops(body: str) -> list:
    text = (
        "builtin.module attributes {pto.target = #pto.target<a2a3>} {\n"
        f"  func.func @f({ARGS}) attributes {{pto.kind = #pto.kind<incore>}} {{\n{body}\n    func.return\n  }}\n}}"
    )
    m = parse_module(text)
    f = next(op for op in m.walk() if isinstance(op, func.FuncOp))
    return [op for op in f.body.block.ops if not isinstance(op, func.ReturnOp)]


def _one(line: str):
    return _ops(line)[-1]


@pytest.mark.parametrize(
    "line,expect",
    [
        ("%x = pto.load %t[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>", V),
        ("%x = pto.load %t[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>", C),
        ("%x = pto.store %vec, %t[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>", V),
        ("%x = pto.store %acc, %t[0, 0] : !pto.tile<16x16xf32, acc>, !pto.tensor<16x16xf32>", C),
        ("%x = pto.move %acc : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>", M),
        ("%x = pto.move %vec : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, left>", M),
        ("%x = pto.move %mat : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>", C),
        ("%x = pto.move %vec : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec, pad = zero>", V),
        ("%x = pto.matmul %left, %right : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>", C),
        ("%x = pto.add %vec, %vec : !pto.tile<16x16xf32, vec>", V),
        ("%x = pto.muls %vec, %f : !pto.tile<16x16xf32, vec>, f32", V),
        ("%x = pto.exp %vec : !pto.tile<16x16xf32, vec>", V),
        ("%x = pto.row_sum %vec : !pto.tile<16x16xf32, vec> -> !pto.tile<16x1xf32, vec>", V),
        ("%x = pto.reshape %mat : !pto.tile<16x16xf32, mat> -> !pto.tile<256x1xf32, mat>", C),
        ("%x = pto.reshape %vec : !pto.tile<16x16xf32, vec> -> !pto.tile<256x1xf32, vec>", V),
        ("%x = pto.slice %vec[0, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>", V),
        ("%x = pto.full %f : f32 -> !pto.tile<16x16xf32, vec>", V),
        ("%x = pto.create : !pto.tile<16x16xf32, vec>", S),
        ("%x = pto.ci %seed : i32 -> !pto.tile<16x16xi32, vec>", V),
        ("%x = pto.get_subblock_idx : index", V),
        ("%x = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x16xf32, acc> -> !pto.tile<8x16xf32, vec>", M),
        ("%x = pto.aic_gather %vec {split = 1 : i64} : !pto.tile<16x16xf32, vec> -> !pto.tile<32x16xf32, mat>", M),
        ("%x = arith.addi %i, %i : index", S),
        ("pto.tpush_to_aiv %acc {split = 0 : i64} : !pto.tile<16x16xf32, acc>", C),
        ("%x = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x16xf32, vec>", V),
    ],
)
def test_intrinsic_affinity_per_op(line, expect):
    assert intrinsic_affinity(_one(line)) == expect


def test_move_direction_and_boundary():
    c2v, v2c, same = _ops(
        "%a = pto.move %acc : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>\n"
        "%b = pto.move %vec : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, mat>\n"
        "%c = pto.move %mat : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>"
    )
    assert move_direction(c2v) == "c2v" and is_boundary_move(c2v)
    assert move_direction(v2c) == "v2c" and is_boundary_move(v2c)
    assert move_direction(same) is None and not is_boundary_move(same)


def test_placement_move_after_a_transfer_is_not_a_boundary():
    """A crossing move whose source is an aic_gather (or tpop / aiv_shard) is a placement on the destination side."""
    ops = _ops(
        "%g = pto.aic_gather %vec {split = 1 : i64} : !pto.tile<16x16xf32, vec> -> !pto.tile<32x16xf32, mat>\n"
        "%l = pto.move %g : !pto.tile<32x16xf32, mat> -> !pto.tile<32x16xf32, left>\n"
        "%p = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x16xf32, mat>\n"
        "%pv = pto.move %p : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, vec>"
    )
    assert intrinsic_affinity(ops[1]) == C and not is_boundary_move(ops[1])
    assert intrinsic_affinity(ops[3]) == V and not is_boundary_move(ops[3])


@pytest.mark.parametrize(
    "a,b,r",
    [(C, C, C), (V, V, V), (S, C, C), (V, S, V), (S, S, S), (C, V, M), (M, S, M), (V, M, M), (M, M, M)],
)
def test_combine(a, b, r):
    assert combine(a, b) == r
    assert combine(b, a) == r


def _func(body: str) -> func.FuncOp:
    text = (
        "builtin.module attributes {pto.target = #pto.target<a2a3>} {\n"
        f"  func.func @f({ARGS}) attributes {{pto.kind = #pto.kind<incore>}} {{\n{body}\n    func.return\n  }}\n}}"
    )
    m = parse_module(text)
    return next(op for op in m.walk() if isinstance(op, func.FuncOp))


def test_function_rollup():
    assert function_affinity(_func("")) == S
    assert function_affinity(_func("%x = pto.exp %vec : !pto.tile<16x16xf32, vec>")) == V
    # a lone crossing move is enough to make a function mixed
    lone = _func("%x = pto.move %acc : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>")
    assert is_mixed(lone)
    both = _func(
        "%x = pto.exp %vec : !pto.tile<16x16xf32, vec>\n"
        "%y = pto.matmul %left, %right : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>"
    )
    assert is_mixed(both)


def test_rollup_recurses_into_scf():
    f = _func(
        "%c0 = arith.constant 0 : index\n%c1 = arith.constant 1 : index\n"
        "scf.for %k = %c0 to %i step %c1 {\n"
        "  %x = pto.move %acc : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>\n"
        "}\n"
        "scf.if %cond {\n  %y = pto.exp %vec : !pto.tile<16x16xf32, vec>\n}"
    )
    analysis = AffinityAnalysis(f)
    ops = list(f.body.block.ops)
    assert analysis[ops[2]] == M  # scf.for rolls up its crossing move
    assert analysis[ops[3]] == V  # scf.if rolls up to its vector body
    assert is_mixed(f)
    g = _func("scf.if %cond {\n  %y = pto.exp %vec : !pto.tile<16x16xf32, vec>\n}")
    assert not is_mixed(g) and function_affinity(g) == V
