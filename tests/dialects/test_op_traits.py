"""Op facts are xDSL traits on written-out op classes (dialects/pto_traits.py), each stated once.

- every registered `pto` op has exactly one affinity trait, and is a class written in the source;
- the pipe-protocol ops carry their role, direction and side; views, generators and axes are traits too;
- no string-valued op fact (`AFFINITY = "first_tile"`, `ROLE`, `DIRECTION`) and no `type()` op factory is left in
  the dialect, the passes or the interpreter; the interpreter does not hand a pipe op's direction or side around
  as string literals (it asks the op's `PipePush`/`PipePop`/`PipeFree`/`PipeInit` trait);
- the dialect, the passes, the interpreter and the verifier ask `CoreSide` / `PipeDirection` / `FunctionKind` and
  the pipe traits, never spell a side, direction or function kind as a string literal (only the enums' definitions
  hold the spellings);
- `kind_of` (the `#pto.kind` of a function) is defined once, in `dialects/pto_types.py`.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType

from pypto_mlir.dialects import pto
from pypto_mlir.dialects.pto_ops import ALL_OPS
from pypto_mlir.dialects.pto_traits import (
    Affinity,
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
from pypto_mlir.dialects.pto_types import FunctionKind, kind_of, set_kind
from pypto_mlir.passes.expand_mixed_kernel.pipe_metadata import side_of

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


def test_enum_mappings():
    """The mappings the passes used to write as string tables, each owned by its enum."""
    assert [CoreSide.of_affinity(a) for a in (Affinity.CUBE, Affinity.VECTOR, Affinity.SHARED)] == [
        CoreSide.AIC, CoreSide.AIV, CoreSide.AIV
    ]
    assert (CoreSide.AIC.kind, CoreSide.AIV.kind) == (FunctionKind.AIC, FunctionKind.AIV)
    assert [CoreSide.of_kind(k) for k in (FunctionKind.AIC, FunctionKind.AIV, FunctionKind.INCORE, None)] == [
        CoreSide.AIC, CoreSide.AIV, None, None
    ]
    assert (CoreSide.AIC.pop_space, CoreSide.AIV.pop_space) == ("mat", "vec")
    assert (CoreSide.AIC.tag, PipeDirection.V2C.tag, CoreSide.AIV.label) == ("AIC", "V2C", "AIV (vector)")
    assert CoreSide.AIC.upper() == "AIC"  # `tag`, not a property named `upper`: str.upper() still works
    assert [PipeDirection.to_consumer(s) for s in CoreSide] == [PipeDirection.V2C, PipeDirection.C2V]
    # the consumer reserves a direction's ring, the producer imports it
    assert side_of(CoreSide.AIC).buffer_op(PipeDirection.C2V) is pto.ImportPeerBufferOp
    assert side_of(CoreSide.AIC).buffer_op(PipeDirection.V2C) is pto.ReserveBufferOp
    assert side_of(CoreSide.AIV).buffer_op(PipeDirection.C2V) is pto.ReserveBufferOp
    assert side_of(CoreSide.AIV).buffer_op(PipeDirection.V2C) is pto.ImportPeerBufferOp
    f = func.FuncOp("f", FunctionType.from_lists([], []))
    set_kind(f, FunctionKind.GROUP)
    assert kind_of(f) is FunctionKind.GROUP and str(f.attributes["pto.kind"]) == "#pto.kind<group>"


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


SIDE_STRING = re.compile(r"[\"'](aic|aiv|c2v|v2c)[\"']")
"""A side or direction spelled as a string of its own: compared, picked, keyed, listed or passed (`"aic"`).  Text
that only contains the word (`"aic_gather"`, `f"{side}_adapter"`, a message) is not a fact and does not match."""

KIND_STRING = re.compile(
    r"(==|!=|\bin)\s*[(\[{]?\s*[\"'](opaque|orchestration|incore|group|spmd|inline)[\"']"  # a kind compared / listed
    r"|\bset_kind\([^)]*[\"']"  # or set as a string
)
"""A function kind asked as a string instead of as `FunctionKind` (the side kinds aic / aiv: `SIDE_STRING`)."""

ENUM_DEFINITIONS = ("dialects/pto_traits.py", "dialects/pto_types.py")
"""Where `CoreSide`, `PipeDirection` and `FunctionKind` are defined: their members' values are the one place
the spellings stand (`AIC = "aic"`), so only these files may hold them."""

SIDE_CLEAN = sorted(
    str(p.relative_to(ROOT))
    for p in [*SOURCES, ROOT / "python" / "pypto_mlir" / "verify.py"]
    if str(p.relative_to(ROOT)) not in ENUM_DEFINITIONS
)
"""Every file of the dialect (but the enums' definitions), the passes, the interpreter and the verifier asks
`CoreSide` / `PipeDirection` / `FunctionKind` and the pipe traits."""


def test_side_clean_covers_the_passes_and_the_interpreter():
    """The list is computed, so it cannot fall behind: every pass and interpreter file is in it."""
    for must in ("passes/expand_mixed_kernel/verifier.py", "passes/lower_auto_vector_split/lowering.py",
                 "passes/analysis/affinity.py", "python/pypto_mlir/interpreter/machine.py",
                 "python/pypto_mlir/verify.py", "dialects/pto_ops.py"):
        assert must in SIDE_CLEAN, must
    assert not set(ENUM_DEFINITIONS) & set(SIDE_CLEAN)
    passes = {str(p.relative_to(ROOT)) for p in ROOT.glob("passes/**/*.py")}
    assert {n for n in SIDE_CLEAN if n.startswith("passes/")} == passes


def test_no_side_or_direction_strings_in_clean_files():
    hits = [
        f"{name}:{i}: {line.strip()}"
        for name in SIDE_CLEAN
        for i, line in enumerate((ROOT / name).read_text(encoding="utf-8").splitlines(), 1)
        if SIDE_STRING.search(line) or KIND_STRING.search(line)
    ]
    assert not hits, "side/direction/kind string literals left:\n" + "\n".join(hits)


def test_side_string_pattern_can_fail():
    for bad in ('        if b.side == "aic":', '    return "c2v" if self.src.core == "aic" else "v2c"',
                '_CORE = {Affinity.CUBE: "aic", Affinity.VECTOR: "aiv"}', 'DIR_BIT = {"c2v": 1, "v2c": 2}',
                '        if core in ("aic", "aiv"):', '    pop_type = _token_type(src, "vec" if d == "c2v" else "mat")',
                '        check_local_depth(aic, "aic", local, setting)', '            full = e.parts["aic"]',
                "    other = grp.inits.get((pid, 'aiv'))"):
        assert SIDE_STRING.search(bad), bad
    for good in ('    d = PipeDirection.from_producer(p.core)', '    n = _fresh(f"{gname}_{side}_adapter", taken)',
                 '        raise InterpError(f"aic_gather with split = {split} runs outside a two-lane context")',
                 '    other = grp.inits.get((pid, side.other))'):
        assert not SIDE_STRING.search(good), good
    for bad in ('        if kind_of(op) != "incore":', '    set_kind(g, "group")', "        if kind == 'group':",
                '        if kind not in ("incore", FunctionKind.AIV):', 'kind_of(caller) in ("group", "spmd")'):
        assert KIND_STRING.search(bad), bad
    for good in ('        if kind_of(op) != FunctionKind.INCORE:', '    set_kind(g, FunctionKind.GROUP)',
                 '"call of an AIC, AIV or InCore kernel directly in the body of a Group (pto.kind = #pto.kind<group>)"'):
        assert not KIND_STRING.search(good), good


@pytest.mark.parametrize("name", ["kind_of", "set_kind"])
def test_kind_helpers_are_defined_once(name):
    """`kind_of` / `set_kind` (the `#pto.kind` of a function, as `FunctionKind`) have one definition each
    (pto_types, next to `#pto.kind`); passes/common.py only re-exports them."""
    pattern = re.compile(rf"^\s*def {name}\(")
    folders = ("dialects", "passes", "python", "tools", "benchmarks", "tests")
    defs = [
        f"{p.relative_to(ROOT)}:{i}"
        for folder in folders
        for p in sorted((ROOT / folder).rglob("*.py"))
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.match(line)
    ]
    assert len(defs) == 1 and defs[0].startswith("dialects/pto_types.py:"), defs
    assert pattern.match(f"def {name}(op: Operation) -> str | None:")


FUNC_ATTRS = frozenset({
    "pto.split_aiv", "pto.split_aiv_region_validated", "pto.dual_aiv_dispatch", "pto.sync_start", "pto.slot_num",
    "pto.local_slot_num", "pto.core_num", "pto.target", "pto.split",
})


def func_attr_strings(source: str) -> list[int]:
    """Lines of the string constants that are exactly a function / module attribute's name (`"pto.split_aiv"`):
    the attribute spelled instead of asked through its typed accessor (`has_flag`, `set_flag`, `int_attr_of`,
    `target_of`, `split_mode_of`, `set_split_mode`; names `FuncFlag`, `FuncInt`, `TARGET_ATTR`, `SPLIT_ATTR`, all
    in dialects/pto_types.py).  A message that quotes the name (`f"'pto.slot_num' of @{name} ..."`) is text."""
    import ast

    tree = ast.parse(source)
    # The attribute *type* name in a table of how to write each type (`"pto.split": "#pto.split<...>"`) is not
    # an attribute read or set.
    syntax_keys = {
        id(k)
        for node in ast.walk(tree)
        if isinstance(node, ast.Dict)
        for k, v in zip(node.keys, node.values)
        if isinstance(v, ast.Constant) and isinstance(v.value, str) and v.value.startswith("#pto.")
    }
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in FUNC_ATTRS
        and id(node) not in syntax_keys
    ]


def test_no_function_attribute_strings_in_clean_files():
    hits = [
        f"{name}:{i}"
        for name in SIDE_CLEAN
        for i in func_attr_strings((ROOT / name).read_text(encoding="utf-8"))
    ]
    assert not hits, "function attributes spelled as strings:\n" + "\n".join(hits)


def test_function_attribute_pattern_can_fail():
    for bad in ('if "pto.split_aiv" in f.attributes: pass', "attr = module.attributes.get('pto.target')",
                'f.attributes["pto.split"] = split', 'slot_num = _int_attr(original, "pto.slot_num")'):
        assert func_attr_strings(bad), bad
    for good in ('if has_flag(f, FuncFlag.SPLIT_AIV): pass', 'm = "requests pto.split<up_down>, no pto.split_aiv"',
                 'op_name = "pto.split_aiv_scope"', """m = f"'pto.slot_num' of @{name} must be positive" """):
        assert not func_attr_strings(good), good


def test_function_attribute_accessors():
    from xdsl.dialects import func
    from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64

    from pypto_mlir.dialects.pto_types import (
        FuncFlag, FuncInt, TargetAttr, has_flag, int_attr_of, set_flag, set_split_mode, split_mode_of, target_of,
    )

    f = func.FuncOp("k", ((), ()))
    assert not has_flag(f, FuncFlag.SPLIT_AIV) and split_mode_of(f) == "none"
    set_flag(f, FuncFlag.SPLIT_AIV)
    set_split_mode(f, "up_down")
    assert has_flag(f, FuncFlag.SPLIT_AIV) and split_mode_of(f) == "up_down"
    set_flag(f, FuncFlag.SPLIT_AIV, False)
    assert not has_flag(f, FuncFlag.SPLIT_AIV)
    assert int_attr_of(f, FuncInt.SLOT_NUM) is None
    f.attributes[FuncInt.SLOT_NUM.value] = IntegerAttr(4, i64)
    assert int_attr_of(f, FuncInt.SLOT_NUM) == 4
    m = ModuleOp([])
    assert target_of(m) is None
    m.attributes["pto.target"] = TargetAttr("a5")
    assert target_of(m) == "a5"
