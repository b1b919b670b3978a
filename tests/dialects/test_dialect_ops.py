"""Building every `pto` op family with its Python constructor, then verifying and printing the module; and a
check that every op of ALL_OPS is covered by this file and by the round-trip lit tests."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import BFloat16Type, IndexType, IntegerAttr, IntegerType, ModuleOp, f32, i32
from xdsl.ir import Block, Region

from pypto_mlir import PtoError, parse_module, print_module, verify_module
from pypto_mlir.dialects import pto
from pypto_mlir.dialects import ALL_PTO_OPS as ALL_OPS

ROOT = Path(__file__).resolve().parents[2]
bf16 = BFloat16Type()
VEC = pto.TileType.get([16, 128], f32, "vec")
COL = pto.TileType.get([16, 1], f32, "vec")
ROW = pto.TileType.get([1, 128], f32, "vec")
ACC = pto.TileType.get([16, 128], f32, "acc")
GM = pto.TensorType([64, 128], f32)

BUILT: set[str] = set()


def build(arg_types, make_ops, result_types=()):
    """A module holding `func.func @f(args)` whose body is `make_ops(*args)` (a list of ops; the last results
    are returned when `result_types` is given).  Verifies it and returns the printed text."""
    block = Block(arg_types=arg_types)
    ops = make_ops(*block.args)
    block.add_ops(ops)
    rets = list(ops[-1].results) if result_types else []
    block.add_op(func.ReturnOp(*rets))
    f = func.FuncOp("f", (list(arg_types), list(result_types)), Region(block))
    module = ModuleOp([f])
    verify_module(module)
    BUILT.update(op.name for op in module.walk())
    text = print_module(module)
    assert print_module(parse_module(text)) == text, "print -> parse -> print is not a fixed point"
    return text


def test_load_store_create_tensor():
    def body(src, i, v):
        gm = pto.CreateTensorOp(GM)
        a = pto.LoadOp(src, [0, i], VEC)
        b = pto.LoadOp(src, [16, 0], VEC.with_(valid=[pto.DYNAMIC, 128]), valid=[v, 128])
        s = pto.StoreOp(a.result, gm.result, [i, 0])
        return [gm, a, b, s]

    text = build([GM, IndexType(), IndexType()], body, [GM])
    assert "pto.create_tensor : !pto.tensor<64x128xf32>" in text
    assert "pto.load %0[0, %1] : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec>" in text
    assert "pto.load %0[16, 0] valid [%2, 128] : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec, valid = [?, 128]>" in text
    assert re.search(r"pto.store %\w+, %\w+\[%1, 0\] : !pto.tile<16x128xf32, vec>, !pto.tensor<64x128xf32>", text)


def test_mixed_offsets_accessors():
    block = Block(arg_types=[GM, IndexType()])
    src, i = block.args
    op = pto.LoadOp(src, [3, i], VEC)
    assert op.get_static_offsets() == (3, pto.DYNAMIC)
    assert op.get_mixed_offsets() == [3, i]
    assert op.get_mixed_valid() is None
    op2 = pto.LoadOp(src, [0, 0], VEC, valid=[i, 128])
    assert op2.get_mixed_valid() == [i, 128]


def test_views_and_moves():
    def body(a, j, v):
        return [
            pto.MoveOp(a, VEC.with_(memory_space="mat", reset_view=True)),
            pto.ReshapeOp(a, pto.TileType.get([32, 64], f32, "vec")),
            pto.TransposeOp(a, pto.TileType.get([128, 16], f32, "vec")),
            pto.TransposeViewOp(a, pto.TileType.get([128, 16], f32, "vec", blayout="col_major")),
            pto.SliceOp(a, [0, j], pto.TileType.get([16, 64], f32, "vec")),
            pto.SliceOp(a, [8, 0], pto.TileType.get([8, 64], f32, "vec", valid=[pto.DYNAMIC, 32]), valid=[v, 32]),
            pto.SetValidShapeOp(a, [v, 128], VEC.with_(valid=[pto.DYNAMIC, 128])),
        ]

    text = build([VEC, IndexType(), IndexType()], body)
    assert "pto.move %0 : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xf32, mat>" in text
    assert "pto.transpose_view %0" in text
    assert "pto.slice %0[8, 0] valid [%2, 32]" in text
    assert "pto.set_validshape %0 valid [%2, 128]" in text


def test_generators():
    def body(x, n):
        return [pto.CreateOp(VEC), pto.FullOp(x, VEC), pto.CiOp(n, pto.TileType.get([1, 128], i32, "vec")),
                pto.RandomOp(n, VEC)]

    text = build([f32, i32], body)
    assert "pto.create : !pto.tile<16x128xf32, vec>" in text
    assert "pto.full %0 : f32 -> !pto.tile<16x128xf32, vec>" in text
    assert "pto.ci %1 : i32 -> !pto.tile<1x128xi32, vec>" in text
    assert "pto.random %1 : i32 -> !pto.tile<16x128xf32, vec>" in text


def test_matmul_family():
    left = pto.TileType.get([16, 64], bf16, "left")
    right = pto.TileType.get([64, 128], bf16, "right")
    bias = pto.TileType.get([1, 128], f32, "bias")
    vl = pto.TileType.get([1, 64], bf16, "left")
    vacc = pto.TileType.get([1, 128], f32, "acc")
    bl = pto.TileType.get([2, 16, 64], bf16, "left")
    br = pto.TileType.get([2, 64, 32], bf16, "right")
    bacc = pto.TileType.get([2, 16, 32], f32, "acc")

    def body(l, r, b, v, x, y):
        c = pto.MatmulOp(l, r, ACC)
        g = pto.GemvOp(v, r, vacc)
        bm = pto.BatchMatmulOp(x, y, bacc)
        return [
            c, pto.MatmulAccOp(c.result, l, r, ACC), pto.MatmulBiasOp(l, r, b, ACC),
            g, pto.GemvAccOp(g.result, v, r, vacc), pto.GemvBiasOp(v, r, b, vacc),
            bm, pto.BatchMatmulAccOp(bm.result, x, y, bacc),
        ]

    text = build([left, right, bias, vl, bl, br], body)
    for name in ("matmul", "matmul_acc", "matmul_bias", "gemv", "gemv_acc", "gemv_bias", "batch_matmul",
                 "batch_matmul_acc"):
        assert f"pto.{name} " in text
    assert "pto.matmul %0, %1 : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>" in text


def test_vector_ops():
    def body(a, b, s, m, r):
        ops = [cls(a, b) for cls in pto.BINARY_OPS]
        ops += [cls(a, s) for cls in pto.SCALAR_OPS]
        ops += [cls(a) for cls in pto.UNARY_OPS]
        ops.append(pto.CastOp(a, VEC.with_(element_type=bf16)))
        ops += [cls(a, COL if cls.get_trait(pto.ReductionAxis).axis == 1 else ROW) for cls in pto.REDUCE_OPS]
        ops += [cls(a, m if cls.get_trait(pto.BroadcastAxis).axis == 1 else r) for cls in pto.EXPAND_OPS]
        ops.append(pto.GetSubblockIdxOp())
        return ops

    text = build([VEC, VEC, f32, COL, ROW], body)
    assert "pto.add %0, %1 : !pto.tile<16x128xf32, vec>" in text
    assert "pto.mins %0, %2 : !pto.tile<16x128xf32, vec>, f32" in text
    assert "pto.relu %0 : !pto.tile<16x128xf32, vec>" in text
    assert "pto.row_max %0 : !pto.tile<16x128xf32, vec> -> !pto.tile<16x1xf32, vec>" in text
    assert "pto.col_expand_div %0, %4 : !pto.tile<16x128xf32, vec>, !pto.tile<1x128xf32, vec>" in text
    assert "pto.get_subblock_idx : index" in text


def test_split_boundaries_and_scope():
    mat = pto.TileType.get([128, 128], f32, "mat")
    half = pto.TileType.get([64, 128], f32, "vec")

    def body(qk, t):
        shard = pto.AivShardOp(qk, 1, half)
        stride = pto.AivShardOp(qk, 2, pto.TileType.get([128, 64], f32, "vec"), lane_stride=32)
        gather = pto.AicGatherOp(shard.result, 1, mat)
        inner = Block(arg_types=[IndexType()])
        inner.add_op(pto.YieldOp(t))
        scope = pto.SplitAivScopeOp("up_down", [t.type], Region(inner))
        assert scope.aiv_id is inner.args[0]
        return [shard, stride, gather, scope]

    text = build([pto.TileType.get([128, 128], f32, "acc"), GM], body)
    assert "pto.aiv_shard %0 {split = 1 : i64} : !pto.tile<128x128xf32, acc> -> !pto.tile<64x128xf32, vec>" in text
    assert "{split = 2 : i64, lane_stride = 32 : i64}" in text
    assert "pto.aic_gather" in text
    assert re.search(r"pto.split_aiv_scope up_down \(%\w+\) -> \(!pto.tensor<64x128xf32>\) \{", text)
    assert "pto.yield %1 : !pto.tensor<64x128xf32>" in text


def test_transfers_and_setup():
    def body(acc, vec):
        c2v = pto.ReserveBufferOp("f_c2v_slot_buffer", 16384)
        imp = pto.ImportPeerBufferOp("f_c2v_slot_buffer", "f")
        zero = arith.ConstantOp(IntegerAttr(0, i32))
        pop = pto.TPopFromAicOp(VEC, split=1, id=2, lane_stride=4)
        popc = pto.TPopFromAivOp(pto.TileType.get([16, 128], f32, "mat"))
        return [
            c2v, imp, zero,
            pto.AicInitializePipeOp(imp.result, zero.result, 1, 8192, slot_num=2),
            pto.AivInitializePipeOp(c2v.result, zero.result, 3, 8192, slot_num=4, local_slot_num=2, id=1),
            pto.TPushToAivOp(acc, split=0), pto.TPushToAicOp(vec, split=4, id=1, lane_stride=2),
            pop, popc, pto.TFreeToAicOp(pop.result, id=2), pto.TFreeToAivOp(popc.result),
        ]

    text = build([ACC, VEC], body)
    assert 'pto.reserve_buffer {name = "f_c2v_slot_buffer", size = 16384 : i64, base = -1 : i64} : i32' in text
    assert 'pto.import_peer_buffer {name = "f_c2v_slot_buffer", peer_func = @f} : i32' in text
    assert "{dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 2 : i64} : i32, i32" in text
    assert "{dir_mask = 3 : i64, slot_size = 8192 : i64, slot_num = 4 : i64, local_slot_num = 2 : i64, id = 1 : i64}" in text
    assert "pto.tpush_to_aiv %0 {split = 0 : i64} : !pto.tile<16x128xf32, acc>" in text
    assert "pto.tpush_to_aic %1 {split = 4 : i64, id = 1 : i64, lane_stride = 2 : i64}" in text
    assert "pto.tpop_from_aic {split = 1 : i64, id = 2 : i64, lane_stride = 4 : i64} : !pto.tile<16x128xf32, vec>" in text
    assert "pto.tfree_to_aiv" in text and "pto.tfree_to_aic" in text


def test_views_and_lane_addressed_ops():
    """reinterpret_view, extract, gather_row (beyond the contract)."""
    i16 = IntegerType(16)
    idx_t = pto.TileType.get([8, 1], i32, "vec")
    mat = pto.TileType.get([64, 128], bf16, "mat")

    def body(a, m, idx, k):
        rv = pto.ReinterpretViewOp(a, pto.TileType.get([16, 256], i16, "vec"))
        ex = pto.ExtractOp(m, [0, k], pto.TileType.get([16, 128], bf16, "left"))
        g = pto.GatherRowOp(a, idx, k, pto.TileType.get([8, 128], f32, "vec"))
        g2 = pto.GatherRowOp(a, idx, 4, pto.TileType.get([8, 128], f32, "vec"))
        return [rv, ex, g, g2]

    text = build([VEC, mat, idx_t, IndexType()], body)
    assert "pto.reinterpret_view %0 : !pto.tile<16x128xf32, vec> -> !pto.tile<16x256xi16, vec>" in text
    assert "pto.extract %1[0, %3] : !pto.tile<64x128xbf16, mat> -> !pto.tile<16x128xbf16, left>" in text
    assert "pto.gather_row %0, %2[%3] : " in text and "pto.gather_row %0, %2[4] : " in text


def test_tensor_cast():
    """tensor_cast (beyond the contract): the same buffer under a compatible type; an incompatible one fails."""
    dyn = pto.TensorType([64, pto.DYNAMIC], f32)
    text = build([GM], lambda t: [pto.TensorCastOp(t, dyn)])
    assert "pto.tensor_cast %0 : !pto.tensor<64x128xf32> -> !pto.tensor<64x?xf32>" in text
    with pytest.raises(Exception, match="tensor_cast needs compatible types"):
        build([GM], lambda t: [pto.TensorCastOp(t, pto.TensorType([32, pto.DYNAMIC], f32))])


def test_communication_ops():
    """tile_put/get, tensor_put/get, notify, wait, defer_wait (beyond the contract)."""
    sig = pto.TensorType([4], i32)

    def body(t, gm, s, peer):
        put = pto.TilePutOp(t, gm, [0, peer], peer)
        get = pto.TileGetOp(gm, [16, 0], peer, VEC)
        tput = pto.TensorPutOp(gm, put.result, peer)
        tget = pto.TensorGetOp(gm, tput.result, peer)
        n = pto.NotifyOp(s, [1], 2, peer)
        w = pto.WaitOp(s, [peer], 3)
        d = pto.DeferWaitOp(s, [0])
        return [put, get, tput, tget, n, w, d]

    text = build([VEC, GM, sig, IndexType()], body)
    assert "pto.tile_put %0, %1[0, %3] to %3 : !pto.tile<16x128xf32, vec>, !pto.tensor<64x128xf32>" in text
    assert "pto.tile_get %1[16, 0] from %3 : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec>" in text
    assert "pto.notify %2[1] to %3 {value = 2 : i64} : !pto.tensor<4xi32>" in text
    assert "pto.wait %2[%3] {value = 3 : i64} : !pto.tensor<4xi32>" in text
    assert "pto.defer_wait %2[0] {value = 1 : i64} : !pto.tensor<4xi32>" in text
    from pypto_mlir.dialects.pto_traits import NoDuplicate

    assert pto.NotifyOp.has_trait(NoDuplicate) and not pto.WaitOp.has_trait(NoDuplicate)


def test_mx_matmuls():
    """matmul_mx, matmul_mx_acc, matmul_mx_bias (beyond the contract)."""
    from xdsl.dialects.builtin import Float8E4M3FNType, Float8E8M0FNUType

    f8, e8 = Float8E4M3FNType(), Float8E8M0FNUType()
    tl, tls = pto.TileType.get([16, 64], f8, "left"), pto.TileType.get([16, 2], e8, "left_scale")
    tr, trs = pto.TileType.get([64, 32], f8, "right"), pto.TileType.get([2, 32], e8, "right_scale")
    acc, bias = pto.TileType.get([16, 32], f32, "acc"), pto.TileType.get([1, 32], f32, "bias")

    def body(l, ls, r, rs, b):
        c = pto.MatmulMxOp(l, ls, r, rs, acc)
        c2 = pto.MatmulMxAccOp(c.result, l, ls, r, rs, acc)
        c3 = pto.MatmulMxBiasOp(l, ls, r, rs, b, acc)
        return [c, c2, c3]

    text = build([tl, tls, tr, trs, bias], body)
    assert "pto.matmul_mx %0, %1, %2, %3 : " in text and "pto.matmul_mx_acc " in text and "pto.matmul_mx_bias " in text


def test_lane_cooperation_ops():
    """lane_workspace, lane_barrier (beyond the contract, issue 43): the workspace only allocates (removable when
    unused), the barrier has unknown effects (never removed); both are vector ops that run on both lanes."""
    from xdsl.transforms.dead_code_elimination import is_trivially_dead

    from pypto_mlir.dialects.pto_traits import Affinity, AffinityTrait, OncePerKernel

    ws_type = pto.TensorType([2, 16, 1], f32)
    text = build([], lambda: [pto.LaneWorkspaceOp(ws_type), pto.LaneBarrierOp()])
    assert "%0 = pto.lane_workspace : !pto.tensor<2x16x1xf32>\n    pto.lane_barrier\n" in text
    ws, barrier = pto.LaneWorkspaceOp(ws_type), pto.LaneBarrierOp()
    assert is_trivially_dead(ws) and not is_trivially_dead(barrier)
    for op in (ws, barrier):
        assert op.get_trait(AffinityTrait).intrinsic(op) == Affinity.VECTOR
        assert not op.has_trait(OncePerKernel)


def test_invalid_construction_is_reported_by_verify_module_at_the_op():
    left = pto.TileType.get([16, 64], bf16, "vec")
    right = pto.TileType.get([64, 128], bf16, "right")
    with pytest.raises(PtoError, match="'pto.matmul' op lhs must be in memory space 'left', but it is in 'vec'") as e:
        build([left, right], lambda l, r: [pto.MatmulOp(l, r, ACC)])
    assert e.value.op is not None and e.value.op.name == "pto.matmul"


def test_every_op_is_built_here():
    """Runs last in this file: the tests above built every op of ALL_OPS."""
    missing = sorted({cls.name for cls in ALL_OPS} - BUILT)
    assert not missing, f"ops without a constructor test: {missing}"


def test_every_op_has_a_round_trip_and_a_verifier_lit_test():
    roundtrip = "".join(p.read_text() for p in (ROOT / "lit_tests" / "dialect").glob("ops_*.mlir"))
    for cls in ALL_OPS:
        assert re.search(rf"\b{re.escape(cls.name)}\b", roundtrip), f"{cls.name} has no round-trip lit test"
