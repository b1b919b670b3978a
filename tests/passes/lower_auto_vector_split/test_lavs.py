"""LowerAutoVectorSplit (AUTO path): the reusable SplitLowering API, the lane-stride scan, the internal cube
check, pass dispatch, idempotence and round trips."""

from __future__ import annotations

import glob
import os
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects import func

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import AivShardOp, MatmulOp, StoreOp
from pypto_mlir.ir import parse_module, print_module
from pypto_mlir.passes.lower_auto_vector_split import pass_ as lavs
from pypto_mlir.passes.lower_auto_vector_split.auto.lane_stride import scan_lane_stride
from pypto_mlir.verify import verify_module
from pypto_mlir.pipeline import with_default_models

ROOT = str(Path(__file__).resolve().parents[3])


def _module(body: str, args: str, split: str = "up_down") -> str:
    return (
        "builtin.module attributes {pto.target = #pto.target<a2a3>} {\n"
        f"  func.func @f({args}) attributes {{pto.kind = #pto.kind<incore>, pto.split = #pto.split<{split}>}} {{\n"
        f"{body}\n    func.return\n  }}\n}}"
    )


def _func(text: str) -> func.FuncOp:
    m = parse_module(text)
    return next(op for op in m.walk() if isinstance(op, func.FuncOp))


def _run(text: str) -> str:
    m = parse_module(text)
    with_default_models(lavs.LowerAutoVectorSplitPass()).apply(Context(), m)  # an auto / combining kernel is timed
    verify_module(m)
    return print_module(m)


MIXED = _module(
    "%s = pto.move %acc : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>\n"
    "%e = pto.exp %s : !pto.tile<64x128xf32, vec>\n"
    "%o = pto.store %e, %out[0, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<64x128xf32>",
    "%acc: !pto.tile<64x128xf32, acc>, %out: !pto.tensor<64x128xf32>",
)


def test_split_lowering_tracks_halves():
    f = _func(MIXED)
    lw = lavs.lower_auto_function(f, "up_down")
    ops = list(f.body.block.ops)
    shard = next(op for op in ops if isinstance(op, AivShardOp))
    info = lw.tracked[shard.result]
    assert (info.dim, info.half, info.full, info.step) == (0, 32, 64, 32)
    exp = shard.next_op
    assert lw.is_halved(exp.results[0])
    assert exp.results[0].type.get_shape() == (32, 128)
    assert "pto.split_aiv" in f.attributes
    # the internal check passes on the real output...
    lw.check_no_cube_tile_halved(f)


def test_internal_cube_check_fires():
    text = _module(
        "%s = pto.move %acc : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>\n"
        "%c = pto.matmul %l, %r : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>",
        "%acc: !pto.tile<16x16xf32, acc>, %l: !pto.tile<16x16xf32, left>, %r: !pto.tile<16x16xf32, right>",
    )
    f = _func(text)
    lw = lavs.lower_auto_function(f, "up_down")
    mm = next(op for op in f.walk() if isinstance(op, MatmulOp))
    # ... and fires when a cube op touches a tracked (halved) tile
    lw.track(mm.results[0], next(iter(lw.tracked.values())))
    with pytest.raises(PtoError, match="Internal error: LowerAutoVectorSplit halved a CUBE-affinity op in 'f'"):
        lw.check_no_cube_tile_halved(f)


@pytest.mark.parametrize(
    "body,args,stride",
    [
        # a single ragged boundary whose tiles all derive from it: balanced
        (
            "%s = pto.move %q : !pto.tile<16x128xf32, acc, valid = [13, 128]> -> !pto.tile<16x128xf32, vec, valid = [13, 128]>\n"
            "%e = pto.exp %s : !pto.tile<16x128xf32, vec, valid = [13, 128]>",
            "%q: !pto.tile<16x128xf32, acc, valid = [13, 128]>",
            7,
        ),
        # an independent load keeps the box partition
        (
            "%s = pto.move %q : !pto.tile<16x128xf32, acc, valid = [13, 128]> -> !pto.tile<16x128xf32, vec, valid = [13, 128]>\n"
            "%b = pto.load %x[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>",
            "%q: !pto.tile<16x128xf32, acc, valid = [13, 128]>, %x: !pto.tensor<16x128xf32>",
            None,
        ),
        # a V->C boundary keeps the box partition
        (
            "%s = pto.move %q : !pto.tile<16x128xf32, acc, valid = [13, 128]> -> !pto.tile<16x128xf32, vec, valid = [13, 128]>\n"
            "%m = pto.move %s : !pto.tile<16x128xf32, vec, valid = [13, 128]> -> !pto.tile<16x128xf32, mat, valid = [13, 128]>",
            "%q: !pto.tile<16x128xf32, acc, valid = [13, 128]>",
            None,
        ),
        # two boundaries with different (box, valid)
        (
            "%s = pto.move %q : !pto.tile<16x128xf32, acc, valid = [13, 128]> -> !pto.tile<16x128xf32, vec, valid = [13, 128]>\n"
            "%t = pto.move %p : !pto.tile<16x128xf32, acc, valid = [11, 128]> -> !pto.tile<16x128xf32, vec, valid = [11, 128]>",
            "%q: !pto.tile<16x128xf32, acc, valid = [13, 128]>, %p: !pto.tile<16x128xf32, acc, valid = [11, 128]>",
            None,
        ),
        # fully valid: no stride
        (
            "%s = pto.move %q : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>",
            "%q: !pto.tile<16x128xf32, acc>",
            None,
        ),
        # a singleton-split generator does not block; a carried tile derived from the boundary does not either
        (
            "%s = pto.move %q : !pto.tile<16x128xf32, acc, valid = [13, 128]> -> !pto.tile<16x128xf32, vec, valid = [13, 128]>\n"
            "%z = pto.full %f : f32 -> !pto.tile<1x128xf32, vec>\n"
            "%c0 = arith.constant 0 : index\n%c1 = arith.constant 1 : index\n"
            "%r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %s) -> (!pto.tile<16x128xf32, vec, valid = [13, 128]>) {\n"
            "  %e = pto.exp %a : !pto.tile<16x128xf32, vec, valid = [13, 128]>\n"
            "  scf.yield %e : !pto.tile<16x128xf32, vec, valid = [13, 128]>\n}",
            "%q: !pto.tile<16x128xf32, acc, valid = [13, 128]>, %f: f32, %n: index",
            7,
        ),
    ],
)
def test_scan_lane_stride(body, args, stride):
    assert scan_lane_stride(_func(_module(body, args)), 0) == stride


def test_region_functions_go_to_the_region_path(monkeypatch):
    seen = []
    monkeypatch.setattr(lavs, "lower_region_function", lambda f: seen.append(f.sym_name.data))
    text = (
        "builtin.module attributes {pto.target = #pto.target<a2a3>} {\n"
        "  func.func @r(%o: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>\n"
        "      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {\n"
        "    %x = pto.split_aiv_scope none (%aiv_id) -> (!pto.tensor<16x16xf32>) {\n"
        "      pto.yield %o : !pto.tensor<16x16xf32>\n    }\n"
        "    func.return %x : !pto.tensor<16x16xf32>\n  }\n}"
    )
    m = parse_module(text)
    lavs.LowerAutoVectorSplitPass().apply(Context(), m)
    assert seen == ["r"]


def test_pass_is_idempotent_and_round_trips():
    once = _run(MIXED)
    assert "pto.aiv_shard" in once and "pto.split_aiv" in once
    assert _run(once) == once  # already split_aiv: untouched
    assert print_module(parse_module(once)) == once


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir"))))
def test_examples_lower_and_verify(path):
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    out = _run(text)
    m = parse_module(out)
    for f in m.walk():
        if isinstance(f, func.FuncOp) and "pto.split" in f.attributes and "pto.split_aiv" in f.attributes:
            # every store of a per-lane function that follows a shard moves with the lane
            stores = [op for op in f.walk() if isinstance(op, StoreOp) and op.tile.type.space == "vec"]
            assert all(op.offsets for op in stores)
