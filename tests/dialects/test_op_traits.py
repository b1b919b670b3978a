"""Op facts are xDSL traits on written-out op classes (dialects/pto_traits.py), each stated once.

- every registered `pto` op has exactly one affinity trait, and is a class written in the source;
- the pipe-protocol ops carry their role, direction and side; views, generators and axes are traits too;
- no string-valued op fact (`AFFINITY = "first_tile"`, `ROLE`, `DIRECTION`) and no `type()` op factory is left in
  the dialect, the passes or the interpreter; the interpreter does not hand a pipe op's direction or side around
  as string literals (it asks the op's `PipePush`/`PipePop`/`PipeFree`/`PipeInit` trait);
- the GM-access passes (hazards, GM fences) ask `CoreSide` / `PipeDirection` and the pipe traits, never compare or
  pick a side or direction as a string literal;
- `kind_of` (the `#pto.kind` of a function) is defined once, in `dialects/pto_types.py`.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pypto_mlir.dialects import pto
from pypto_mlir.dialects.pto_ops import ALL_OPS
from pypto_mlir.dialects.pto_traits import (
    AffinityTrait,
    BoundaryAffinity,
    CoreSide,
    PipeDirection,
    PipeFree,
    PipeInit,
    PipePop,
    PipePush,
    PipeSetup,
    PipeTransfer,
)

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(
    [*ROOT.glob("dialects/*.py"), *ROOT.glob("passes/**/*.py"), *ROOT.glob("python/pypto_mlir/interpreter/*.py")]
)


@pytest.mark.parametrize("cls", ALL_OPS, ids=lambda c: c.name)
def test_every_op_has_exactly_one_affinity_trait(cls):
    found = [t for t in cls.traits if isinstance(t, AffinityTrait)]
    assert len(found) == 1, f"{cls.name}: {found}"


def test_every_registered_op_is_a_written_class():
    """`grep 'class ExpOp'` finds every op: each registered op class is defined by a `class` statement."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in ROOT.glob("dialects/*.py"))
    for cls in pto.PTO.operations:
        assert re.search(rf"^class {cls.__name__}\(", text, re.M), f"{cls.name} ({cls.__name__}) is not written out"


def test_pipe_ops_state_role_direction_and_side():
    expect = {
        pto.TPushToAivOp: (PipePush, PipeDirection.C2V, CoreSide.AIC),
        pto.TPushToAicOp: (PipePush, PipeDirection.V2C, CoreSide.AIV),
        pto.TPopFromAicOp: (PipePop, PipeDirection.C2V, CoreSide.AIV),
        pto.TPopFromAivOp: (PipePop, PipeDirection.V2C, CoreSide.AIC),
        pto.TFreeToAicOp: (PipeFree, PipeDirection.C2V, CoreSide.AIV),
        pto.TFreeToAivOp: (PipeFree, PipeDirection.V2C, CoreSide.AIC),
    }
    for cls, (role, direction, side) in expect.items():
        t = cls.get_trait(PipeTransfer)
        assert type(t) is role and t.direction is direction and t.side is side, cls.name
        # the fixed affinity agrees with the side the protocol runs the op on
        assert cls.get_trait(AffinityTrait).intrinsic(None) is side.affinity, cls.name  # type: ignore[arg-type]
    assert set(pto.SETUP_OPS) == {cls for cls in ALL_OPS if cls.has_trait(PipeSetup)}
    assert pto.AicInitializePipeOp.get_trait(PipeInit).side is CoreSide.AIC
    assert pto.AivInitializePipeOp.get_trait(PipeInit).side is CoreSide.AIV
    assert pto.AivShardOp.get_trait(BoundaryAffinity).direction is PipeDirection.C2V
    assert pto.AicGatherOp.get_trait(BoundaryAffinity).direction is PipeDirection.V2C


def test_value_traits():
    assert set(pto.VIEW_OPS) == {pto.SliceOp, pto.ReshapeOp, pto.TransposeViewOp, pto.SetValidShapeOp}
    assert pto.TransposeOp not in pto.VIEW_OPS  # transpose copies
    assert set(pto.GENERATOR_OPS) == {pto.FullOp, pto.CreateOp, pto.CiOp, pto.RandomOp}
    assert [c for c in pto.GENERATOR_OPS if c.get_trait(pto.TileGenerator).position_dependent] == [pto.CiOp, pto.RandomOp]
    assert {c.get_trait(pto.ReductionAxis).axis for c in (pto.RowSumOp, pto.RowMaxOp, pto.RowMinOp)} == {1}
    assert {c.get_trait(pto.ReductionAxis).axis for c in (pto.ColSumOp, pto.ColMaxOp, pto.ColMinOp)} == {0}
    assert {c.get_trait(pto.BroadcastAxis).axis for c in pto.EXPAND_OPS if c.name.startswith("pto.row")} == {1}
    assert {c.get_trait(pto.BroadcastAxis).axis for c in pto.EXPAND_OPS if c.name.startswith("pto.col")} == {0}


def test_enums_compare_equal_to_their_spelling():
    """The enums are `StrEnum`s: printed in messages and stored in attributes as the dialect spells them."""
    assert f"{PipeDirection.C2V}" == "c2v" and f"{CoreSide.AIV}" == "aiv"
    assert PipeDirection.V2C.producer is CoreSide.AIV and PipeDirection.V2C.consumer is CoreSide.AIC
    assert (PipeDirection.C2V.bit, PipeDirection.V2C.bit) == (1, 2)


STRING_FACT = re.compile(
    r"\b(AFFINITY|ROLE|DIRECTION)\s*(:|=)"  # class-data op facts
    r"|getattr\(\s*type\(\w+\)\s*,\s*\"(AFFINITY|ROLE|DIRECTION|AXIS)\""  # reading them
    r"|\"(first_tile|result_memory)\""  # the old affinity kinds
    r"|\btype\(\s*op_name"  # op classes made by type() factories
    r"|\.AXIS\b"
    r"|\"(c2v|v2c)\"\s*,\s*\"(aic|aiv)\""  # a pipe op's direction and side passed as strings
    r"|\b1 if \w+ == \"c2v\""  # PipeDirection.bit written again
)


def test_no_string_op_facts_left():
    hits = [
        f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
        for p in SOURCES
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if STRING_FACT.search(line)
    ]
    assert not hits, "string op facts left:\n" + "\n".join(hits)


def test_string_fact_pattern_can_fail():
    """The pattern above does catch the forms it forbids."""
    for bad in ('    AFFINITY: ClassVar[str] = "first_tile"', 'getattr(type(op), "DIRECTION", None)',
                "cls = type(op_name.split('.')[1], (b,), {})", "type(op).AXIS == d",
                'return (yield from self._push(op, args[0], ctx, "c2v", "aic"))',
                'bit = 1 if direction == "c2v" else 2'):
        assert STRING_FACT.search(bad), bad


SIDE_STRING = re.compile(
    r"(==|!=)\s*\"(c2v|v2c|aic|aiv)\""  # a side or direction compared as a string
    r"|\"(c2v|v2c|aic|aiv)\"\s+if\b"  # or picked as one
    r"|[{,]\s*\"(c2v|v2c|aic|aiv)\"\s*:|:\s*\"(c2v|v2c|aic|aiv)\"\s*[,}]"  # or keying / filling a table
    r"|\bin \(\"(aic|aiv|c2v|v2c)\""  # or listed
)
SIDE_CLEAN = ["passes/analysis/hazards.py", "passes/expand_mixed_kernel/gm_sync.py"]
"""The pass files that ask `CoreSide` / `PipeDirection` and the pipe traits (the others still have literals)."""


def test_no_side_or_direction_strings_in_clean_passes():
    hits = [
        f"{name}:{i}: {line.strip()}"
        for name in SIDE_CLEAN
        for i, line in enumerate((ROOT / name).read_text(encoding="utf-8").splitlines(), 1)
        if SIDE_STRING.search(line)
    ]
    assert not hits, "side/direction string literals left:\n" + "\n".join(hits)


def test_side_string_pattern_can_fail():
    for bad in ('        if b.side == "aic":', '    return "c2v" if self.src.core == "aic" else "v2c"',
                '_CORE = {Affinity.CUBE: "aic", Affinity.VECTOR: "aiv"}', 'DIR_BIT = {"c2v": 1, "v2c": 2}',
                '        if core in ("aic", "aiv"):', '    pop_type = _token_type(src, "vec" if d == "c2v" else "mat")'):
        assert SIDE_STRING.search(bad), bad
    assert not SIDE_STRING.search('    d = PipeDirection.from_producer(p.core)')


KIND_OF_DEF = re.compile(r"^\s*def kind_of\(")


def test_kind_of_is_defined_once():
    """`kind_of` has one definition (pto_types, next to `#pto.kind`); passes/common.py only re-exports it."""
    folders = ("dialects", "passes", "python", "tools", "benchmarks", "tests")
    defs = [
        f"{p.relative_to(ROOT)}:{i}"
        for folder in folders
        for p in sorted((ROOT / folder).rglob("*.py"))
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if KIND_OF_DEF.match(line)
    ]
    assert len(defs) == 1 and defs[0].startswith("dialects/pto_types.py:"), defs
    assert KIND_OF_DEF.match("def kind_of(op: Operation) -> str | None:")
