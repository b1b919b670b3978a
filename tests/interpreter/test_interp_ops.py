"""Unit tests of the interpreter's op semantics against plain numpy."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from kernelgen.interp_util import kernel_module, run_kernel

RNG = np.random.default_rng(7)
T48 = "!pto.tensor<4x8xf32>"
V48 = "!pto.tile<4x8xf32, vec>"


def _rand(shape, lo=-1.0, hi=1.0):
    return RNG.uniform(lo, hi, size=shape).astype(np.float32)


def _binary_module(op: str) -> str:
    body = (
        f"    %ta = pto.load %a[0, 0] : {T48} -> {V48}\n"
        f"    %tb = pto.load %b[0, 0] : {T48} -> {V48}\n"
        f"    %r = pto.{op} %ta, %tb : {V48}\n"
        f"    %o2 = pto.store %r, %o[0, 0] : {V48}, {T48}"
    )
    return kernel_module([("a", T48, False), ("b", T48, False), ("o", T48, True)], body)


@pytest.mark.parametrize(
    "op,ref",
    [
        ("add", np.add),
        ("sub", np.subtract),
        ("mul", np.multiply),
        ("div", np.divide),
        ("max", np.maximum),
        ("min", np.minimum),
    ],
)
def test_binary(op, ref):
    a, b = _rand((4, 8)), _rand((4, 8), 0.5, 2.0)
    _, _, out = run_kernel(_binary_module(op), [a, b, np.zeros((4, 8), np.float32)])
    np.testing.assert_array_equal(out, ref(a, b).astype(np.float32))


@pytest.mark.parametrize(
    "op,ref",
    [
        ("adds", lambda x, s: x + s),
        ("subs", lambda x, s: x - s),
        ("muls", lambda x, s: x * s),
        ("divs", lambda x, s: x / s),
        ("maxs", np.maximum),
        ("mins", np.minimum),
    ],
)
def test_scalar(op, ref):
    a = _rand((4, 8))
    body = (
        "    %s = arith.constant 0.375 : f32\n"
        f"    %ta = pto.load %a[0, 0] : {T48} -> {V48}\n"
        f"    %r = pto.{op} %ta, %s : {V48}, f32\n"
        f"    %o2 = pto.store %r, %o[0, 0] : {V48}, {T48}"
    )
    _, out = run_kernel(kernel_module([("a", T48, False), ("o", T48, True)], body), [a, np.zeros((4, 8), np.float32)])
    np.testing.assert_allclose(out, ref(a, np.float32(0.375)).astype(np.float32), rtol=1e-7)


@pytest.mark.parametrize(
    "op,ref",
    [
        ("exp", np.exp),
        ("log", np.log),
        ("sqrt", np.sqrt),
        ("rsqrt", lambda x: 1 / np.sqrt(x)),
        ("recip", lambda x: 1 / x),
        ("neg", np.negative),
        ("abs", np.abs),
        ("relu", lambda x: np.maximum(x, 0)),
    ],
)
def test_unary(op, ref):
    a = _rand((4, 8), 0.25, 3.0) if op in ("log", "sqrt", "rsqrt", "recip") else _rand((4, 8))
    body = (
        f"    %ta = pto.load %a[0, 0] : {T48} -> {V48}\n"
        f"    %r = pto.{op} %ta : {V48}\n"
        f"    %o2 = pto.store %r, %o[0, 0] : {V48}, {T48}"
    )
    _, out = run_kernel(kernel_module([("a", T48, False), ("o", T48, True)], body), [a, np.zeros((4, 8), np.float32)])
    np.testing.assert_allclose(out, ref(a).astype(np.float32), rtol=1e-6)


@pytest.mark.parametrize("kind", ["sum", "max", "min"])
@pytest.mark.parametrize("axis", ["row", "col"])
def test_reductions(kind, axis):
    a = _rand((4, 8))
    rshape = "4x1" if axis == "row" else "1x8"
    rt, tt = f"!pto.tile<{rshape}xf32, vec>", f"!pto.tensor<{rshape}xf32>"
    body = (
        f"    %ta = pto.load %a[0, 0] : {T48} -> {V48}\n"
        f"    %r = pto.{axis}_{kind} %ta : {V48} -> {rt}\n"
        f"    %o2 = pto.store %r, %o[0, 0] : {rt}, {tt}"
    )
    out_shape = (4, 1) if axis == "row" else (1, 8)
    _, out = run_kernel(kernel_module([("a", T48, False), ("o", tt, True)], body), [a, np.zeros(out_shape, np.float32)])
    ref = getattr(np, kind)(a, axis=1 if axis == "row" else 0, keepdims=True)
    np.testing.assert_allclose(out, ref, rtol=1e-6)


def test_row_max_ignores_cells_outside_the_valid_region():
    # 3 valid rows of 8 and 5 valid columns: a reduction sees only the valid cells even though the pad is `max`.
    a = _rand((4, 8))
    vt = "!pto.tile<4x8xf32, vec, pad = max, valid = [3, 5]>"
    rt = "!pto.tile<4x1xf32, vec, pad = max, valid = [3, 1]>"
    body = (
        f"    %ta = pto.load %a[0, 0] valid [3, 5] : {T48} -> {vt}\n"
        f"    %r = pto.row_max %ta : {vt} -> {rt}\n"
        f"    %o2 = pto.store %r, %o[0, 0] : {rt}, !pto.tensor<4x1xf32>"
    )
    out0 = np.full((4, 1), -7.0, np.float32)
    _, out = run_kernel(kernel_module([("a", T48, False), ("o", "!pto.tensor<4x1xf32>", True)], body), [a, out0])
    np.testing.assert_array_equal(out[:3], a[:3, :5].max(axis=1, keepdims=True))
    assert out[3, 0] == -7.0  # the invalid row is not stored


def test_reads_outside_the_valid_region_see_the_pad_value():
    a = _rand((4, 8))
    part = "!pto.tile<4x8xf32, vec, pad = min, valid = [2, 8]>"
    full = "!pto.tile<4x8xf32, vec, pad = min>"
    body = (
        f"    %ta = pto.load %a[0, 0] valid [2, 8] : {T48} -> {part}\n"
        f"    %w = pto.set_validshape %ta valid [4, 8] : {part} -> {full}\n"
        f"    %o2 = pto.store %w, %o[0, 0] : {full}, {T48}"
    )
    _, out = run_kernel(kernel_module([("a", T48, False), ("o", T48, True)], body), [a, np.zeros((4, 8), np.float32)])
    np.testing.assert_array_equal(out[:2], a[:2])
    assert np.all(out[2:] == np.finfo(np.float32).min)


def test_store_writes_only_the_valid_region():
    a = _rand((4, 8))
    part = "!pto.tile<4x8xf32, vec, valid = [3, 6]>"
    body = (
        f"    %ta = pto.load %a[0, 0] valid [3, 6] : {T48} -> {part}\n"
        f"    %o2 = pto.store %ta, %o[0, 0] : {part}, {T48}"
    )
    out0 = np.full((4, 8), 9.0, np.float32)
    _, out = run_kernel(kernel_module([("a", T48, False), ("o", T48, True)], body), [a, out0])
    np.testing.assert_array_equal(out[:3, :6], a[:3, :6])
    assert np.all(out[3:] == 9.0) and np.all(out[:, 6:] == 9.0)


def test_dynamic_valid_and_offsets():
    a = _rand((8, 8))
    part = "!pto.tile<4x8xf32, vec, valid = [?, 8]>"
    body = (
        "    %c2 = arith.constant 2 : index\n"
        "    %c3 = arith.constant 3 : index\n"
        f"    %ta = pto.load %a[%c2, 0] valid [%c3, 8] : !pto.tensor<8x8xf32> -> {part}\n"
        f"    %o2 = pto.store %ta, %o[%c3, 0] : {part}, !pto.tensor<8x8xf32>"
    )
    t = "!pto.tensor<8x8xf32>"
    _, out = run_kernel(kernel_module([("a", t, False), ("o", t, True)], body), [a, np.zeros((8, 8), np.float32)])
    ref = np.zeros((8, 8), np.float32)
    ref[3:6] = a[2:5]
    np.testing.assert_array_equal(out, ref)


@pytest.mark.parametrize("expand", ["add", "sub", "mul", "div"])
@pytest.mark.parametrize("axis", ["row", "col"])
def test_expand(expand, axis):
    a = _rand((4, 8))
    bshape = (4, 1) if axis == "row" else (1, 8)
    b = _rand(bshape, 0.5, 2.0)
    bs = "x".join(map(str, bshape))
    bt, btt = f"!pto.tile<{bs}xf32, vec>", f"!pto.tensor<{bs}xf32>"
    body = (
        f"    %ta = pto.load %a[0, 0] : {T48} -> {V48}\n"
        f"    %tb = pto.load %b[0, 0] : {btt} -> {bt}\n"
        f"    %r = pto.{axis}_expand_{expand} %ta, %tb : {V48}, {bt}\n"
        f"    %o2 = pto.store %r, %o[0, 0] : {V48}, {T48}"
    )
    _, _, out = run_kernel(
        kernel_module([("a", T48, False), ("b", btt, False), ("o", T48, True)], body), [a, b, np.zeros((4, 8), np.float32)]
    )
    ref = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide}[expand](a, b)
    np.testing.assert_allclose(out, ref, rtol=1e-7)


def test_cast_rounds_to_bf16_and_to_nearest_int():
    a = _rand((4, 8), -20, 20)
    tb = "!pto.tile<4x8xbf16, vec>"
    ti = "!pto.tile<4x8xi32, vec>"
    body = (
        f"    %ta = pto.load %a[0, 0] : {T48} -> {V48}\n"
        f"    %b = pto.cast %ta : {V48} -> {tb}\n"
        f"    %i = pto.cast %ta : {V48} -> {ti}\n"
        f"    %o1 = pto.store %b, %ob[0, 0] : {tb}, !pto.tensor<4x8xbf16>\n"
        f"    %o2 = pto.store %i, %oi[0, 0] : {ti}, !pto.tensor<4x8xi32>"
    )
    params = [("a", T48, False), ("ob", "!pto.tensor<4x8xbf16>", True), ("oi", "!pto.tensor<4x8xi32>", True)]
    _, ob, oi = run_kernel(
        kernel_module(params, body), [a, np.zeros((4, 8), ml_dtypes.bfloat16), np.zeros((4, 8), np.int32)]
    )
    np.testing.assert_array_equal(ob, a.astype(ml_dtypes.bfloat16))
    np.testing.assert_array_equal(oi, np.rint(a).astype(np.int32))


def _mm_module(kind: str) -> str:
    lt, rt, at = "!pto.tile<4x16xbf16, left>", "!pto.tile<16x8xbf16, right>", "!pto.tile<4x8xf32, acc>"
    mt_l, mt_r = "!pto.tile<4x16xbf16, mat>", "!pto.tile<16x8xbf16, mat>"
    tl, tr = "!pto.tensor<4x16xbf16>", "!pto.tensor<16x8xbf16>"
    body = (
        f"    %lm = pto.load %l[0, 0] : {tl} -> {mt_l}\n"
        f"    %rm = pto.load %r[0, 0] : {tr} -> {mt_r}\n"
        f"    %lt = pto.move %lm : {mt_l} -> {lt}\n"
        f"    %rt = pto.move %rm : {mt_r} -> {rt}\n"
        f"    %c = pto.matmul %lt, %rt : {lt}, {rt} -> {at}\n"
    )
    if kind == "acc":
        body += f"    %c2 = pto.matmul_acc %c, %lt, %rt : {at}, {lt}, {rt} -> {at}\n"
    else:
        body += "    %c2 = pto.move %c : !pto.tile<4x8xf32, acc> -> !pto.tile<4x8xf32, acc>\n"
    body += f"    %o2 = pto.store %c2, %o[0, 0] : {at}, {T48}"
    return kernel_module([("l", tl, False), ("r", tr, False), ("o", T48, True)], body)


@pytest.mark.parametrize("kind", ["plain", "acc"])
def test_matmul_accumulates_in_f32(kind):
    l = _rand((4, 16)).astype(ml_dtypes.bfloat16)
    r = _rand((16, 8)).astype(ml_dtypes.bfloat16)
    _, _, out = run_kernel(_mm_module(kind), [l, r, np.zeros((4, 8), np.float32)])
    ref = l.astype(np.float32) @ r.astype(np.float32)
    if kind == "acc":
        ref = ref + ref
    np.testing.assert_allclose(out, ref, rtol=1e-6, atol=1e-6)


def test_views_transpose_reshape_slice_full_ci():
    a = _rand((4, 8))
    body = (
        f"    %ta = pto.load %a[0, 0] : {T48} -> {V48}\n"
        f"    %tt = pto.transpose %ta : {V48} -> !pto.tile<8x4xf32, vec>\n"
        "    %o1 = pto.store %tt, %ot[0, 0] : !pto.tile<8x4xf32, vec>, !pto.tensor<8x4xf32>\n"
        f"    %rs = pto.reshape %ta : {V48} -> !pto.tile<2x16xf32, vec>\n"
        "    %o2 = pto.store %rs, %orr[0, 0] : !pto.tile<2x16xf32, vec>, !pto.tensor<2x16xf32>\n"
        "    %c1 = arith.constant 1 : index\n"
        f"    %sl = pto.slice %ta[%c1, 4] : {V48} -> !pto.tile<2x4xf32, vec>\n"
        "    %o3 = pto.store %sl, %os[0, 0] : !pto.tile<2x4xf32, vec>, !pto.tensor<2x4xf32>\n"
        "    %f = arith.constant 2.5 : f32\n"
        f"    %fu = pto.full %f : f32 -> {V48}\n"
        "    %s5 = arith.constant 5 : i32\n"
        "    %ci = pto.ci %s5 : i32 -> !pto.tile<4x8xi32, vec>\n"
        f"    %o4 = pto.store %fu, %of[0, 0] : {V48}, {T48}\n"
        "    %o5 = pto.store %ci, %oc[0, 0] : !pto.tile<4x8xi32, vec>, !pto.tensor<4x8xi32>"
    )
    params = [
        ("a", T48, False),
        ("ot", "!pto.tensor<8x4xf32>", True),
        ("orr", "!pto.tensor<2x16xf32>", True),
        ("os", "!pto.tensor<2x4xf32>", True),
        ("of", T48, True),
        ("oc", "!pto.tensor<4x8xi32>", True),
    ]
    outs = run_kernel(
        kernel_module(params, body),
        [a, np.zeros((8, 4), np.float32), np.zeros((2, 16), np.float32), np.zeros((2, 4), np.float32),
         np.zeros((4, 8), np.float32), np.zeros((4, 8), np.int32)],
    )
    np.testing.assert_array_equal(outs[1], a.T)
    np.testing.assert_array_equal(outs[2], a.reshape(2, 16))
    np.testing.assert_array_equal(outs[3], a[1:3, 4:8])
    assert np.all(outs[4] == 2.5)
    np.testing.assert_array_equal(outs[5], np.arange(5, 37).reshape(4, 8))


def test_control_flow_for_if_while():
    # for i in 0..4 step 1: acc += (i odd ? a : 2a); then a while loop doubles the result until n reaches 3.
    a = _rand((4, 8))
    body = (
        "    %c0 = arith.constant 0 : index\n"
        "    %c1 = arith.constant 1 : index\n"
        "    %c4 = arith.constant 4 : index\n"
        "    %two = arith.constant 2.0 : f32\n"
        "    %zero = arith.constant 0.0 : f32\n"
        f"    %ta = pto.load %a[0, 0] : {T48} -> {V48}\n"
        f"    %init = pto.full %zero : f32 -> {V48}\n"
        f"    %acc = scf.for %i = %c0 to %c4 step %c1 iter_args(%s = %init) -> ({V48}) {{\n"
        "      %r = arith.remsi %i, %c1 : index\n"
        "      %ii = arith.index_cast %i : index to i32\n"
        "      %one_i = arith.constant 1 : i32\n"
        "      %bit = arith.andi %ii, %one_i : i32\n"
        "      %odd = arith.cmpi ne, %bit, %one_i : i32\n"
        f"      %add = scf.if %odd -> ({V48}) {{\n"
        f"        %d = pto.muls %ta, %two : {V48}, f32\n"
        f"        scf.yield %d : {V48}\n"
        "      } else {\n"
        f"        scf.yield %ta : {V48}\n"
        "      }\n"
        f"      %n = pto.add %s, %add : {V48}\n"
        f"      scf.yield %n : {V48}\n"
        "    }\n"
        "    %c3 = arith.constant 3 : index\n"
        f"    %res:2 = scf.while (%k = %c0, %t = %acc) : (index, {V48}) -> (index, {V48}) {{\n"
        "      %go = arith.cmpi slt, %k, %c3 : index\n"
        f"      scf.condition(%go) %k, %t : index, {V48}\n"
        "    } do {\n"
        f"    ^bb0(%k2: index, %t2: {V48}):\n"
        "      %k3 = arith.addi %k2, %c1 : index\n"
        f"      %t3 = pto.muls %t2, %two : {V48}, f32\n"
        f"      scf.yield %k3, %t3 : index, {V48}\n"
        "    }\n"
        f"    %o2 = pto.store %res#1, %o[0, 0] : {V48}, {T48}"
    )
    _, out = run_kernel(kernel_module([("a", T48, False), ("o", T48, True)], body), [a, np.zeros((4, 8), np.float32)])
    ref = (2 * a + a + 2 * a + a) * 8
    np.testing.assert_allclose(out, ref, rtol=1e-6)


def test_every_pto_op_class_has_an_interpreter_implementation():
    # The interpreter is keyed by op class (registry.py); an op class added to the dialect without semantics is
    # caught here, not by a program that happens to use it.
    from pypto_mlir.dialects import pto
    from pypto_mlir.interpreter.registry import REGISTRY
    from xdsl.traits import IsTerminator

    ops = list(pto.PTO.operations)
    assert len(ops) > 40
    missing = [
        op.name
        for op in ops
        if not op.has_trait(IsTerminator) and REGISTRY.lookup(op) is None
    ]
    assert missing == []


def test_execute_region_runs_its_block_once_and_yields_its_results():
    # Nested scf.execute_region ops: the outer one yields two values (one from the inner one), a result-less one
    # stores; each body runs exactly once per execution of its parent (inside a 3-trip loop: 3 accumulations).
    a = _rand((4, 8))
    body = (
        "    %c0 = arith.constant 0 : index\n"
        "    %c1 = arith.constant 1 : index\n"
        "    %c3 = arith.constant 3 : index\n"
        "    %two = arith.constant 2.0 : f32\n"
        "    %zero = arith.constant 0.0 : f32\n"
        f"    %ta = pto.load %a[0, 0] : {T48} -> {V48}\n"
        f"    %init = pto.full %zero : f32 -> {V48}\n"
        f"    %acc = scf.for %i = %c0 to %c3 step %c1 iter_args(%s = %init) -> ({V48}) {{\n"
        f"      %x, %y = scf.execute_region -> ({V48}, {V48}) {{\n"
        f"        %d = pto.muls %ta, %two : {V48}, f32\n"
        f"        %e = scf.execute_region -> ({V48}) {{\n"
        f"          %n = pto.add %s, %d : {V48}\n"
        f"          scf.yield %n : {V48}\n"
        "        }\n"
        f"        scf.yield %e, %d : {V48}, {V48}\n"
        "      }\n"
        f"      %z = pto.add %x, %y : {V48}\n"
        f"      scf.yield %z : {V48}\n"
        "    }\n"
        "    scf.execute_region {\n"
        f"      %o2 = pto.store %acc, %o[0, 0] : {V48}, {T48}\n"
        "      scf.yield\n"
        "    }"
    )
    _, out = run_kernel(kernel_module([("a", T48, False), ("o", T48, True)], body), [a, np.zeros((4, 8), np.float32)])
    np.testing.assert_allclose(out, 12 * a, rtol=1e-6)  # each trip adds 2a + 2a


def test_every_scf_op_with_regions_the_passes_keep_has_semantics():
    # scf.execute_region was accepted by the verifier and both passes but had no semantics, so no program holding
    # one was checked by execution (issue 40, point 4).
    from xdsl.dialects import scf
    from pypto_mlir.interpreter.registry import REGISTRY

    for op in (scf.ForOp, scf.IfOp, scf.WhileOp, scf.ExecuteRegionOp):
        assert REGISTRY.lookup(op) is not None, op.name
