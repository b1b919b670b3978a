"""The `pto` types and attributes through the Python API: TileType.get / with_ / implicit views, the canonical
printed form, tile_bytes, TensorType, and the keyword attributes (#pto.target, #pto.kind, #pto.split)."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float8E4M3FNType,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerType,
    f32,
    i32,
)
from xdsl.utils.exceptions import VerifyException

from pypto_mlir import parse_module, print_module
from pypto_mlir.dialects.pto_types import (
    DYNAMIC,
    KINDS,
    MEMORY_SPACES,
    SPLIT_MODES,
    KindAttr,
    SplitAttr,
    TargetAttr,
    TensorType,
    TileType,
    TileView,
    element_bits,
    implicit_view,
    is_cube_memory,
    tile_bytes,
)

bf16 = BFloat16Type()
f16 = Float16Type()


# -- implicit views ------------------------------------------------------------------------------------------

IMPLICIT = {
    "mat": TileView("col_major", "row_major", 512),
    "left": TileView("col_major", "row_major", 512),
    "right": TileView("row_major", "col_major", 512),
    "acc": TileView("col_major", "row_major", 1024),
    "left_scale": TileView("row_major", "row_major", 32),
    "right_scale": TileView("col_major", "col_major", 32),
    "vec": TileView("row_major", "none_box", 512),
    "bias": TileView("row_major", "none_box", 512),
}


@pytest.mark.parametrize("space", MEMORY_SPACES)
def test_implicit_view_of_every_memory_space(space):
    assert implicit_view([16, 128], space) == IMPLICIT[space]


@pytest.mark.parametrize(
    "shape, blayout",
    [([16, 1], "col_major"), ([128, 1], "col_major"), ([DYNAMIC, 1], "col_major"), ([1, 1], "row_major"),
     ([1, 16], "row_major"), ([16, 2], "row_major"), ([16], "row_major"), ([2, 16, 1], "row_major")],
)
def test_vec_column_is_col_major(shape, blayout):
    """Only a 2-D Nx1 column (N != 1) gets the col_major block layout."""
    assert implicit_view(shape, "vec").blayout == blayout


@pytest.mark.parametrize("space", MEMORY_SPACES)
def test_get_fills_in_the_implicit_view_and_prints_bare(space):
    t = TileType.get([16, 128], f32, space)
    assert t.view == IMPLICIT[space]
    assert t.get_valid() == (16, 128)
    assert str(t) == f"!pto.tile<16x128xf32, {space}>"


def test_get_with_every_view_field_prints_them_in_a_fixed_order():
    t = TileType.get([16, 128], f32, "vec", valid=[DYNAMIC, 100], pad="zero", fractal=32, slayout="col_major",
                     blayout="none_box")
    assert str(t) == (
        "!pto.tile<16x128xf32, vec, blayout = none_box, slayout = col_major, fractal = 32, pad = zero, "
        "valid = [?, 100]>"
    )
    assert t.layouts == ("none_box", "col_major")
    assert t.view == TileView("none_box", "col_major", 32, "zero")
    assert not t.is_fully_valid()


def test_fields_equal_to_the_implicit_view_are_not_printed():
    written = TileType.get([16, 128], bf16, "mat", blayout="col_major", slayout="row_major", fractal=512, pad="null")
    assert str(written) == "!pto.tile<16x128xbf16, mat>"
    assert written == TileType.get([16, 128], bf16, "mat")


def test_column_with_row_major_prints_it():
    assert str(TileType.get([16, 1], f32, "vec")) == "!pto.tile<16x1xf32, vec>"
    assert str(TileType.get([16, 1], f32, "vec", blayout="row_major")) == "!pto.tile<16x1xf32, vec, blayout = row_major>"


def test_dynamic_dims_print_as_question_marks():
    t = TileType.get([DYNAMIC, 128], f32, "vec", valid=[8, DYNAMIC])
    assert str(t) == "!pto.tile<?x128xf32, vec, valid = [8, ?]>"
    assert not t.is_static()
    assert t.rank == 2


# -- with_ ---------------------------------------------------------------------------------------------------


def test_with_keeps_the_view_by_default():
    t = TileType.get([16, 128], f32, "vec", blayout="col_major", pad="max")
    moved = t.with_(memory_space="mat")
    assert moved.space == "mat"
    assert moved.layouts == ("col_major", "none_box") and moved.pad.data == "max"


def test_with_reset_view_takes_the_new_spaces_implicit_view_but_keeps_pad():
    t = TileType.get([16, 128], f32, "vec", pad="zero")
    moved = t.with_(memory_space="right", reset_view=True)
    assert moved.view == TileView("row_major", "col_major", 512, "zero")
    assert str(moved) == "!pto.tile<16x128xf32, right, pad = zero>"


def test_with_new_shape_is_fully_valid_unless_valid_is_given():
    t = TileType.get([16, 128], f32, "vec", valid=[13, 128])
    assert t.with_(shape=[8, 128]).get_valid() == (8, 128)
    assert t.with_(shape=[8, 128], valid=[5, 128]).get_valid() == (5, 128)
    assert t.with_(element_type=f16).get_valid() == (13, 128)
    assert t.with_(element_type=f16).element_type == f16


# -- tile_bytes / element_bits -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "shape, elem, expected",
    [
        ([16, 128], f32, 16 * 128 * 4),
        ([16, 128], bf16, 16 * 128 * 2),
        ([16, 128], f16, 16 * 128 * 2),
        ([64, 64], Float8E4M3FNType(), 64 * 64),
        ([16, 64], IntegerType(4), 16 * 64 // 2),
        ([1, 3], IntegerType(4), 2),  # 12 bits round up to 2 bytes
        ([16, 16], IntegerType(64), 16 * 16 * 8),
        ([2, 16, 8], i32, 2 * 16 * 8 * 4),
    ],
)
def test_tile_bytes_is_shape_times_element_bits_over_8(shape, elem, expected):
    assert tile_bytes(TileType.get(shape, elem, "vec")) == expected


def test_tile_bytes_of_a_dynamic_tile_is_none():
    assert tile_bytes(TileType.get([DYNAMIC, 128], f32, "vec")) is None


def test_element_bits_rejects_non_numeric_types():
    assert element_bits(bf16) == 16 and element_bits(IntegerType(1)) == 1
    with pytest.raises(VerifyException, match="unsupported element type"):
        element_bits(IndexType())


# -- verification through the constructor --------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"memory_space": "ub"}, "unknown memory space 'ub'"),
        ({"blayout": "diagonal"}, "unknown tile layout 'diagonal'"),
        ({"slayout": "nz"}, "unknown tile layout 'nz'"),
        ({"pad": "one"}, "unknown pad value 'one'"),
        ({"fractal": 0}, "tile fractal size must be positive"),
        ({"valid": [17, 128]}, "tile valid extent 17 on dim 0 exceeds the dimension 16"),
        ({"valid": [16]}, "tile valid region has 1 extents but the tile has rank 2"),
        ({"shape": [-2, 128], "valid": [1, 128]}, "tile dimensions must be non-negative or '?'"),
        ({"element_type": IndexType()}, "!pto.tile element type must be an integer or float type"),
    ],
)
def test_invalid_tiles_raise(kwargs, message):
    args = {"shape": [16, 128], "element_type": f32, "memory_space": "vec"}
    args.update(kwargs)
    with pytest.raises(VerifyException, match=message.replace("(", r"\(").replace("[", r"\[").replace("?", r"\?")):
        TileType.get(args.pop("shape"), args.pop("element_type"), args.pop("memory_space"), **args)


def test_tensor_type():
    t = TensorType([DYNAMIC, 128], bf16, "dn")
    assert str(t) == "!pto.tensor<?x128xbf16, dn>"
    assert t.get_shape() == (DYNAMIC, 128) and t.rank == 2
    assert str(TensorType([16], f32)) == "!pto.tensor<16xf32>"
    with pytest.raises(VerifyException, match="unknown tensor layout 'zz'"):
        TensorType([16], f32, "zz")
    with pytest.raises(VerifyException, match="dimensions must be non-negative"):
        TensorType([-3], f32)
    with pytest.raises(VerifyException, match="element type must be an integer or float type"):
        TensorType([16], IndexType())


def test_is_cube_memory():
    assert not is_cube_memory("vec")
    assert all(is_cube_memory(s) for s in MEMORY_SPACES if s != "vec")


# -- keyword attributes --------------------------------------------------------------------------------------


@pytest.mark.parametrize("cls, words", [(TargetAttr, ("a2a3", "a5")), (KindAttr, KINDS), (SplitAttr, SPLIT_MODES)])
def test_keyword_attributes(cls, words):
    for w in words:
        attr = cls(w)
        assert attr.data == w
        assert str(attr) == f"#{cls.name}<{w}>"
    with pytest.raises(VerifyException, match=f"unknown {cls.name} value 'bogus'"):
        cls("bogus")


def test_split_mode_int():
    assert [SplitAttr(m).mode_int for m in SPLIT_MODES] == [0, 1, 2]


# -- parse/print fixed point of types ------------------------------------------------------------------------

TYPES = [
    "!pto.tensor<16x128xbf16>",
    "!pto.tensor<?x?xf16, dn>",
    "!pto.tensor<2x16x128xi4, nz>",
    "!pto.tile<16x128xf32, vec>",
    "!pto.tile<16x1xf32, vec>",
    "!pto.tile<16x1xf32, vec, blayout = row_major>",
    "!pto.tile<16x128xbf16, mat, fractal = 1024, pad = min>",
    "!pto.tile<128x64xbf16, right, blayout = col_major, slayout = row_major>",
    "!pto.tile<16x64xf32, acc, valid = [?, 64]>",
    "!pto.tile<16x4xf8E8M0FNU, left_scale>",
    "!pto.tile<4x64xf8E8M0FNU, right_scale, blayout = row_major>",
    "!pto.tile<1x64xf32, bias>",
    "!pto.tile<?x128xf32, vec, valid = [8, ?]>",
]


@pytest.mark.parametrize("text", TYPES)
def test_canonical_types_print_as_written(text):
    m = parse_module(f"func.func @f(%a: {text}) {{\n  func.return\n}}\n")
    printed = print_module(m)
    assert f"%a: {text})" in printed
    assert print_module(parse_module(printed)) == printed
