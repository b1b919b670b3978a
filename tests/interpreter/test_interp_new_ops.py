"""Unit tests of the interpreter semantics of the ops added beyond the contract (views, lane-addressed and
communication ops) against plain numpy, and of their runtime errors."""

from __future__ import annotations

import numpy as np
import pytest

from kernelgen.interp_util import kernel_module, run_kernel
from pypto_mlir import PtoError, parse_module, verify_module
from pypto_mlir.interpreter import Buffer, Machine
from pypto_mlir.interpreter.machine import RunError

RNG = np.random.default_rng(11)


def test_reinterpret_view_reads_the_same_bytes():
    a = RNG.uniform(-2, 2, size=(4, 8)).astype(np.float32)
    body = (
        "    %t = pto.load %a[0, 0] : !pto.tensor<4x8xf32> -> !pto.tile<4x8xf32, vec>\n"
        "    %b = pto.reinterpret_view %t : !pto.tile<4x8xf32, vec> -> !pto.tile<4x16xi16, vec>\n"
        "    %o2 = pto.store %b, %o[0, 0] : !pto.tile<4x16xi16, vec>, !pto.tensor<4x16xi16>"
    )
    m = kernel_module([("a", "!pto.tensor<4x8xf32>", False), ("o", "!pto.tensor<4x16xi16>", True)], body)
    _, out = run_kernel(m, [a, np.zeros((4, 16), np.int16)])
    np.testing.assert_array_equal(out, a.view(np.int16).reshape(4, 16))


def test_reinterpret_view_explicit_shape():
    a = RNG.uniform(-2, 2, size=(4, 8)).astype(np.float32)
    body = (
        "    %t = pto.load %a[0, 0] : !pto.tensor<4x8xf32> -> !pto.tile<4x8xf32, vec>\n"
        "    %b = pto.reinterpret_view %t : !pto.tile<4x8xf32, vec> -> !pto.tile<2x32xi16, vec>\n"
        "    %o2 = pto.store %b, %o[0, 0] : !pto.tile<2x32xi16, vec>, !pto.tensor<2x32xi16>"
    )
    m = kernel_module([("a", "!pto.tensor<4x8xf32>", False), ("o", "!pto.tensor<2x32xi16>", True)], body)
    _, out = run_kernel(m, [a, np.zeros((2, 32), np.int16)])
    np.testing.assert_array_equal(out, a.view(np.int16).reshape(2, 32))


# An odd row split gives lane 1 a runtime (`?`) valid row extent; a reinterpret_view round trip of that per-lane
# tile must keep the lane's runtime valid rows (the interpreter used to take the type's `?` as the extent, and the
# lanes stored nothing).  Found by the random-kernel campaign (tail:reinterpret + an odd up_down split).
ODD_SPLIT_REINTERPRET = """\
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%a: !pto.tensor<15x32xbf16>, %w: !pto.tensor<32x16xbf16>, %out: !pto.tensor<15x16xf32> {pto.out}) -> !pto.tensor<15x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %ld1 = pto.load %a[0, 0] : !pto.tensor<15x32xbf16> -> !pto.tile<15x32xbf16, mat>
    %mv2 = pto.move %ld1 : !pto.tile<15x32xbf16, mat> -> !pto.tile<15x32xbf16, left>
    %ld3 = pto.load %w[0, 0] : !pto.tensor<32x16xbf16> -> !pto.tile<32x16xbf16, mat>
    %mv4 = pto.move %ld3 : !pto.tile<32x16xbf16, mat> -> !pto.tile<32x16xbf16, right>
    %mm5 = pto.matmul %mv2, %mv4 : !pto.tile<15x32xbf16, left>, !pto.tile<32x16xbf16, right> -> !pto.tile<15x16xf32, acc>
    %mv6 = pto.move %mm5 : !pto.tile<15x16xf32, acc> -> !pto.tile<15x16xf32, vec>
    %bits = pto.reinterpret_view %mv6 : !pto.tile<15x16xf32, vec> -> !pto.tile<15x16xi32, vec>
    %v7 = pto.reinterpret_view %bits : !pto.tile<15x16xi32, vec> -> !pto.tile<15x16xf32, vec>
    %o = pto.store %v7, %out[0, 0] : !pto.tile<15x16xf32, vec>, !pto.tensor<15x16xf32>
    func.return %o : !pto.tensor<15x16xf32>
  }
}
"""


def test_reinterpret_view_keeps_a_runtime_valid_extent():
    from pypto_mlir.check_pipeline import check_pipeline_text

    res = check_pipeline_text(ODD_SPLIT_REINTERPRET, ["lower-auto-vector-split", "expand-mixed-kernel"], "odd.mlir")
    assert res.ok, res.report


@pytest.mark.parametrize("n, ok", [(4, True), (3, False)])
def test_reinterpret_view_scales_a_runtime_valid_extent_or_reports_a_partial_element(n, ok):
    """A `?` innermost valid extent of i16 elements viewed as f32: 4 valid i16 are 2 valid f32; 3 are not a whole
    number of f32 elements, which only the run can tell (the type says `?`)."""
    body = (
        f"    %n = arith.constant {n} : index\n"
        "    %t = pto.load %a[0, 0] valid [4, %n] : !pto.tensor<4x8xi16> -> !pto.tile<4x8xi16, vec, valid = [4, ?]>\n"
        "    %r = pto.reinterpret_view %t : !pto.tile<4x8xi16, vec, valid = [4, ?]> -> "
        "!pto.tile<4x4xf32, vec, valid = [4, ?]>\n"
        "    %o2 = pto.store %r, %o[0, 0] : !pto.tile<4x4xf32, vec, valid = [4, ?]>, !pto.tensor<4x4xf32>"
    )
    m = kernel_module([("a", "!pto.tensor<4x8xi16>", False), ("o", "!pto.tensor<4x4xf32>", True)], body)
    a = RNG.integers(0, 100, size=(4, 8)).astype(np.int16)
    if ok:
        _, out = run_kernel(m, [a, np.zeros((4, 4), np.float32)])
        np.testing.assert_array_equal(out[:, :2], a.view(np.float32)[:, :2])
        np.testing.assert_array_equal(out[:, 2:], 0)
    else:
        with pytest.raises(RunError, match=r"test.mlir:5:5: error: reinterpret_view .* not a whole number of f32 elements"):
            run_kernel(m, [a, np.zeros((4, 4), np.float32)])


def test_extract_copies_the_window():
    a = RNG.uniform(-1, 1, size=(8, 8)).astype(np.float32)
    body = (
        "    %t = pto.load %a[0, 0] : !pto.tensor<8x8xf32> -> !pto.tile<8x8xf32, vec>\n"
        "    %c2 = arith.constant 2 : index\n"
        "    %e = pto.extract %t[%c2, 4] : !pto.tile<8x8xf32, vec> -> !pto.tile<4x4xf32, vec>\n"
        "    %o2 = pto.store %e, %o[0, 0] : !pto.tile<4x4xf32, vec>, !pto.tensor<4x4xf32>"
    )
    m = kernel_module([("a", "!pto.tensor<8x8xf32>", False), ("o", "!pto.tensor<4x4xf32>", True)], body)
    _, out = run_kernel(m, [a, np.zeros((4, 4), np.float32)])
    np.testing.assert_array_equal(out, a[2:6, 4:8])


def _gather_module() -> str:
    body = (
        "    %t = pto.load %a[0, 0] : !pto.tensor<8x4xf32> -> !pto.tile<8x4xf32, vec>\n"
        "    %i = pto.load %idx[0, 0] : !pto.tensor<4x1xi32> -> !pto.tile<4x1xi32, vec>\n"
        "    %g = pto.gather_row %t, %i[1] : !pto.tile<8x4xf32, vec>, !pto.tile<4x1xi32, vec> -> !pto.tile<4x4xf32, vec>\n"
        "    %o2 = pto.store %g, %o[0, 0] : !pto.tile<4x4xf32, vec>, !pto.tensor<4x4xf32>"
    )
    return kernel_module(
        [("a", "!pto.tensor<8x4xf32>", False), ("idx", "!pto.tensor<4x1xi32>", False), ("o", "!pto.tensor<4x4xf32>", True)],
        body,
    )


def test_gather_row_reads_rows_by_index_plus_offset():
    a = RNG.uniform(-1, 1, size=(8, 4)).astype(np.float32)
    idx = np.array([[6], [0], [3], [3]], np.int32)
    _, _, out = run_kernel(_gather_module(), [a, idx, np.zeros((4, 4), np.float32)])
    np.testing.assert_array_equal(out, a[idx[:, 0] + 1])


def test_gather_row_out_of_range_is_a_located_runtime_error():
    a = np.zeros((8, 4), np.float32)
    idx = np.array([[7], [0], [0], [0]], np.int32)  # 7 + 1 is outside the 8 rows
    with pytest.raises(PtoError, match="result row 0 reads source row 8 .* outside the source's 8 valid rows") as e:
        run_kernel(_gather_module(), [a, idx, np.zeros((4, 4), np.float32)])
    assert e.value.op is not None and e.value.op.name == "pto.gather_row"


T = "!pto.tensor<4x8xf32>"
V = "!pto.tile<4x8xf32, vec>"


def test_put_get_on_a_single_device():
    """Peer 0 is this device: tile_put writes the window, tile_get reads it, tensor_put/get copy whole tensors."""
    a = RNG.uniform(-1, 1, size=(4, 8)).astype(np.float32)
    body = (
        "    %p = arith.constant 0 : index\n"
        f"    %t = pto.load %a[0, 0] : {T} -> {V}\n"
        "    %h = pto.extract %t[0, 0] : !pto.tile<4x8xf32, vec> -> !pto.tile<2x8xf32, vec>\n"
        f"    %b2 = pto.tile_put %h, %b[2, 0] to %p : !pto.tile<2x8xf32, vec>, {T}\n"
        f"    %g = pto.tile_get %b2[2, 0] from %p : {T} -> !pto.tile<2x8xf32, vec>\n"
        f"    %c2 = pto.tile_put %g, %c[0, 0] to %p : !pto.tile<2x8xf32, vec>, {T}\n"
        f"    %d2 = pto.tensor_put %a, %d to %p : {T}, {T}\n"
        f"    %e2 = pto.tensor_get %d2, %e from %p : {T}, {T}"
    )
    m = kernel_module([("a", T, False), ("b", T, True), ("c", T, True), ("d", T, True), ("e", T, True)], body)
    z = np.zeros((4, 8), np.float32)
    _, b, c, d, e = run_kernel(m, [a, z, z, z, z])
    want_b = z.copy()
    want_b[2:4] = a[0:2]
    np.testing.assert_array_equal(b, want_b)
    want_c = z.copy()
    want_c[0:2] = a[0:2]
    np.testing.assert_array_equal(c, want_c)
    np.testing.assert_array_equal(d, a)
    np.testing.assert_array_equal(e, a)


def test_a_peer_other_than_this_device_is_a_runtime_error():
    body = (
        "    %p = arith.constant 1 : index\n"
        f"    %t = pto.tile_get %a[0, 0] from %p : {T} -> {V}"
    )
    m = kernel_module([("a", T, False)], body)
    with pytest.raises(PtoError, match="tile_get addresses peer rank 1, but the interpreter runs a single device"):
        run_kernel(m, [np.zeros((4, 8), np.float32)])


S = "!pto.tensor<4xi32>"


def test_notify_adds_and_wait_passes_once_reached():
    body = (
        "    %p = arith.constant 0 : index\n"
        f"    pto.notify %s[1] to %p : {S}\n"
        f"    pto.notify %s[1] to %p {{value = 2 : i64}} : {S}\n"
        f"    pto.wait %s[1] {{value = 3 : i64}} : {S}\n"
        f"    pto.defer_wait %s[1] {{value = 3 : i64}} : {S}"
    )
    m = kernel_module([("s", S, True)], body)
    (s,) = run_kernel(m, [np.zeros(4, np.int32)])
    np.testing.assert_array_equal(s, [0, 3, 0, 0])


def test_a_wait_that_is_never_satisfied_is_reported():
    body = f"    pto.wait %s[0] {{value = 1 : i64}} : {S}"
    m = kernel_module([("s", S, True)], body)
    with pytest.raises(PtoError, match="pto.wait.* blocks outside a Group: waits for signal \\[0\\] to reach 1 \\(it is 0\\)"):
        run_kernel(m, [np.zeros(4, np.int32)])


def _two_lane_notify(second: str) -> str:
    return f"""builtin.module attributes {{pto.target = #pto.target<a2a3>}} {{
  func.func @k(%s: {S} {{pto.out}}, %o: !pto.tensor<2x8xf32> {{pto.out}}) attributes {{pto.kind = #pto.kind<aiv>, pto.split_aiv}} {{
    %p = arith.constant 0 : index
    %lane = pto.get_subblock_idx : index
    %li = arith.index_cast %lane : index to i32
    %one = arith.constant 1 : i32
    %l1 = arith.addi %li, %one : i32
    %lf = arith.sitofp %l1 : i32 to f32
    %t = pto.full %lf : f32 -> !pto.tile<1x8xf32, vec>
    %o2 = pto.store %t, %o[%lane, 0] : !pto.tile<1x8xf32, vec>, !pto.tensor<2x8xf32>
    pto.notify %s[%lane] to %p : {S}
{second}
    func.return
  }}
  func.func @g(%s: {S} {{pto.out}}, %o: !pto.tensor<2x8xf32> {{pto.out}}) attributes {{pto.kind = #pto.kind<group>}} {{
    func.call @k(%s, %o) : ({S}, !pto.tensor<2x8xf32>) -> ()
    func.return
  }}
}}
"""


def test_notify_of_both_aiv_lanes_signals_per_lane_and_a_guarded_one_once():
    """A split kernel runs on both AIV lanes and every real lane's notify signals: one addressed by the lane id
    signals each lane's element; one under `scf.if` lane 0 (LowerAutoVectorSplit's guard of a whole notify)
    signals once."""
    guarded = """    %c0 = arith.constant 0 : index
    %is_lane0 = arith.cmpi eq, %lane, %c0 : index
    scf.if %is_lane0 {
      pto.notify %s[2] to %p : """ + S + """
    }"""
    module = parse_module(_two_lane_notify(guarded), "t.mlir")
    verify_module(module)
    buf, out = Buffer(np.zeros(4, np.int32)), Buffer(np.zeros((2, 8), np.float32))
    Machine(module).run("g", [buf, out])
    np.testing.assert_array_equal(out.data, [[1] * 8, [2] * 8])  # both lanes ran
    np.testing.assert_array_equal(buf.data, [1, 1, 1, 0])  # each lane its element, the guarded one once


def test_notify_both_aiv_lanes_run_on_one_element_is_a_duplicated_gm_effect():
    """The same notify run by both lanes on the same element signals the peer twice (OncePerKernel): reported,
    located at the notify, whatever the values."""
    module = parse_module(_two_lane_notify(f"    pto.notify %s[2] to %p : {S}"), "t.mlir")
    verify_module(module)
    with pytest.raises(RunError, match=r"t.mlir:12:5: error: duplicated GM effect on %tensor\[2:3\] in Group @g: "
                       r"this pto.notify signals the peer and runs on @k lane 0 \(AIV\) and on @k lane 1"):
        Machine(module).run("g", [Buffer(np.zeros(4, np.int32)), Buffer(np.zeros((2, 8), np.float32))])


def _mx_module(kind: str) -> str:
    L, LS = "!pto.tile<4x64xf8E4M3FN, left>", "!pto.tile<4x2xf8E8M0FNU, left_scale>"
    R, RS = "!pto.tile<64x8xf8E4M3FN, right>", "!pto.tile<2x8xf8E8M0FNU, right_scale>"
    A = "!pto.tile<4x8xf32, acc>"
    body = (
        "    %l = pto.load %a[0, 0] : !pto.tensor<4x64xf8E4M3FN> -> " + L + "\n"
        "    %ls = pto.load %as[0, 0] : !pto.tensor<4x2xf8E8M0FNU> -> " + LS + "\n"
        "    %r = pto.load %b[0, 0] : !pto.tensor<64x8xf8E4M3FN> -> " + R + "\n"
        "    %rs = pto.load %bs[0, 0] : !pto.tensor<2x8xf8E8M0FNU> -> " + RS + "\n"
    )
    if kind == "plain":
        body += f"    %c = pto.matmul_mx %l, %ls, %r, %rs : {L}, {LS}, {R}, {RS} -> {A}\n"
    elif kind == "acc":
        body += f"    %c0 = pto.matmul_mx %l, %ls, %r, %rs : {L}, {LS}, {R}, {RS} -> {A}\n"
        body += f"    %c = pto.matmul_mx_acc %c0, %l, %ls, %r, %rs : {A}, {L}, {LS}, {R}, {RS} -> {A}\n"
    else:
        body += "    %bt = pto.load %bias[0, 0] : !pto.tensor<1x8xf32> -> !pto.tile<1x8xf32, bias>\n"
        body += f"    %c = pto.matmul_mx_bias %l, %ls, %r, %rs, %bt : {L}, {LS}, {R}, {RS}, !pto.tile<1x8xf32, bias> -> {A}\n"
    body += f"    %o2 = pto.store %c, %o[0, 0] : {A}, !pto.tensor<4x8xf32>"
    params = [("a", "!pto.tensor<4x64xf8E4M3FN>", False), ("as", "!pto.tensor<4x2xf8E8M0FNU>", False),
              ("b", "!pto.tensor<64x8xf8E4M3FN>", False), ("bs", "!pto.tensor<2x8xf8E8M0FNU>", False),
              ("bias", "!pto.tensor<1x8xf32>", False), ("o", "!pto.tensor<4x8xf32>", True)]
    return kernel_module(params, body)


@pytest.mark.parametrize("kind", ["plain", "acc", "bias"])
def test_matmul_mx_scales_each_group_of_32_along_k(kind):
    import ml_dtypes

    a = RNG.uniform(-2, 2, size=(4, 64)).astype(ml_dtypes.float8_e4m3fn)
    b = RNG.uniform(-2, 2, size=(64, 8)).astype(ml_dtypes.float8_e4m3fn)
    a_exp = RNG.integers(124, 130, size=(4, 2)).astype(np.uint8)  # E8M0: 2^(e - 127)
    b_exp = RNG.integers(124, 130, size=(2, 8)).astype(np.uint8)
    a_s, b_s = a_exp.view(ml_dtypes.float8_e8m0fnu), b_exp.view(ml_dtypes.float8_e8m0fnu)
    bias = RNG.uniform(-1, 1, size=(1, 8)).astype(np.float32)
    outs = run_kernel(_mx_module(kind), [a, a_s, b, b_s, bias, np.zeros((4, 8), np.float32)])
    sa = np.repeat(2.0 ** (a_exp.astype(np.float64) - 127), 32, axis=1)
    sb = np.repeat(2.0 ** (b_exp.astype(np.float64) - 127), 32, axis=0)
    want = (a.astype(np.float64) * sa) @ (b.astype(np.float64) * sb)
    if kind == "acc":
        want = 2 * want
    if kind == "bias":
        want = want + bias
    np.testing.assert_allclose(outs[-1], want, rtol=1e-5, atol=1e-5)
