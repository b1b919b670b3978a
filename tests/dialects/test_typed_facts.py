"""Facts are typed and stated once, in the dialect layer (issue 41): an op's attribute is read through its IRDL
accessor (`init.depth`, `op.split_code`), never by its name; the argument and call attributes are `ArgAttr` /
`CallAttr` (dialects/pto_abi.py); which op is which is asked of its class or traits, never of an op-name table;
the names of an expanded kernel's halves come from `CoreSide.half_name`; the implicit ring depth, the ring's
memory space and the tpop -> tfree pairing have one home each.

`PENDING` lists, per rule, files allowed to break it for now (empty since passes/expand_mixed_kernel/ was
cleaned, issue 41): an entry fails the test once its file is clean, so the list can only shrink."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, UnitAttr, f32, i64

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects import ALL_PTO_OPS
from pypto_mlir.dialects import pto_ops as P
from pypto_mlir.dialects.pto_abi import ArgAttr, CallAttr, check_arg_attrs, param_direction, task_id_of
from pypto_mlir.dialects.pto_traits import CoreSide, CostFree, PipeDirection, PipeFree, PipePop, PipePush, Transcendental
from pypto_mlir.dialects.pto_types import TensorType

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(p for folder in ("dialects", "passes", "python", "tools") for p in (ROOT / folder).rglob("*.py"))

PENDING: dict[str, set[str]] = {}

FIELDS = "slot_num|local_slot_num|slot_size|dir_mask|id|split|lane_stride|size|name|base|atomic|peer_func"
BY_NAME = re.compile(rf"\bget_int_attr\(|\.attributes(\[|\.get\(|\.pop\()\s*[\"']({FIELDS})[\"']")
"""An IRDL field of a `pto` op read or written through its name instead of its accessor."""
HALF_NAME = re.compile(r"[\"']_ai[cv][\"']|\}_ai[cv]\b")
"""The `_aic` / `_aiv` suffix of an expanded kernel's halves spelled out (`CoreSide.half_name` owns it)."""
ABI_NAMES = frozenset(a.value for a in (*ArgAttr, *CallAttr))
OP_NAMES = frozenset(cls.name for cls in ALL_PTO_OPS)


def _rel(p: Path) -> str:
    return str(p.relative_to(ROOT))


def by_name_lines(text: str) -> list[int]:
    return [i for i, line in enumerate(text.splitlines(), 1) if BY_NAME.search(line)]


def half_name_lines(text: str) -> list[int]:
    return [i for i, line in enumerate(text.splitlines(), 1) if HALF_NAME.search(line)]


def abi_lines(text: str) -> list[int]:
    """String constants that are exactly an argument or call attribute's name (a message quoting one is text)."""
    return [
        n.lineno
        for n in ast.walk(ast.parse(text))
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in ABI_NAMES
    ]


def op_name_table_lines(text: str) -> list[int]:
    """Op names compared with (`op.name == "pto.move"`) or listed in a tuple, list, set or dict key."""
    out = []
    for n in ast.walk(ast.parse(text)):
        consts: list[ast.expr] = []
        if isinstance(n, ast.Compare):
            consts = [n.left, *n.comparators]
            consts += [e for c in n.comparators if isinstance(c, (ast.Tuple, ast.List, ast.Set)) for e in c.elts]
        elif isinstance(n, (ast.Tuple, ast.List, ast.Set)):
            consts = list(n.elts)
        elif isinstance(n, ast.Dict):
            consts = [k for k in n.keys if k is not None]
        if any(isinstance(c, ast.Constant) and c.value in OP_NAMES for c in consts):
            out.append(n.lineno)
    return out


CHECKS = {
    # rule: (finder, the files allowed to state it: the home of the fact)
    "by_name": (by_name_lines, {"dialects/pto_op_base.py"}),
    "abi": (abi_lines, {"dialects/pto_abi.py"}),
    "half_name": (half_name_lines, {"dialects/pto_traits.py"}),
    # the op index (op name -> defining module) is the one table of op names; test_op_index.py checks it
    "op_name_table": (op_name_table_lines, {"dialects/pto_op_index.py"}),
}


@pytest.mark.parametrize("rule", sorted(CHECKS))
def test_fact_is_typed_and_has_one_home(rule):
    find, home = CHECKS[rule]
    pending = PENDING.get(rule, set())
    hits, pending_seen = [], set()
    for p in SOURCES:
        name = _rel(p)
        if name in home:
            continue
        lines = find(p.read_text(encoding="utf-8"))
        if lines and name in pending:
            pending_seen.add(name)
        elif lines:
            hits += [f"{name}:{i}" for i in lines]
    assert not hits, f"{rule}: ask the typed accessor / enum / trait instead:\n" + "\n".join(hits)
    assert pending_seen == pending, f"{rule}: clean now, remove from PENDING: {sorted(pending - pending_seen)}"


def test_finders_can_fail():
    assert by_name_lines('sn = get_int_attr(init, "slot_num")\nx = op.attributes["split"].value.data') == [1, 2]
    assert by_name_lines('local = init.attributes.get("local_slot_num")')
    assert not by_name_lines("sn = init.explicit_depth\nfor k, v in op.attributes.items(): pass")
    assert half_name_lines('aic = funcs.get(f"{name}_aic")') and half_name_lines('for s in ("_aic", "_aiv"): pass')
    assert not half_name_lines("aic = funcs.get(CoreSide.AIC.half_name(name))\nx = 'pto.tpop_from_aic'")
    assert abi_lines('NO_DEP = "pto.no_dep"') and abi_lines('if "pto.inout" in d: pass')
    assert not abi_lines("""raise E(f"'pto.task_id' must be non-negative")""")
    assert op_name_table_lines('if op.name == "pto.move": pass') == [1]
    assert op_name_table_lines('T = frozenset({"pto.exp", "pto.log"})')
    assert op_name_table_lines('_PUSH_POP = {"pto.tpush_to_aiv": ("c2v", "push")}')
    assert not op_name_table_lines('m = f"{op.name}: bad"\nif isinstance(op, P.MoveOp): pass')


def test_implicit_depth_and_pipe_accessors():
    assert P.implicit_slot_num(3) == 4 and P.implicit_slot_num(1) == 8 and P.implicit_slot_num(2) == 8
    c2v, v2c = P.ReserveBufferOp("r", 512).result, P.ReserveBufferOp("s", 512).result
    init = P.AicInitializePipeOp(c2v, v2c, 3, 256)
    assert (init.pipe_id, init.directions, init.slot_bytes, init.explicit_depth, init.depth) == (0, 3, 256, None, 4)
    assert init.consumer_depth == 4
    init = P.AivInitializePipeOp(c2v, v2c, 1, 256, slot_num=2, local_slot_num=1, id=5)
    assert (init.pipe_id, init.depth, init.local_depth, init.consumer_depth) == (5, 2, 1, 1)
    assert c2v.owner.ring_bytes == 512  # type: ignore[attr-defined]


def test_tfree_pairing_is_derived_from_traits():
    assert P.TFREE_FOR_TPOP == {P.TPopFromAicOp: P.TFreeToAicOp, P.TPopFromAivOp: P.TFreeToAivOp}
    for pop, free in P.TFREE_FOR_TPOP.items():
        assert pop.get_trait(PipePop).direction is free.get_trait(PipeFree).direction  # type: ignore[attr-defined]
    assert P.pipe_op(PipePush, PipeDirection.V2C) is P.TPushToAicOp


def test_ring_space_and_half_names():
    assert CoreSide.AIV.ring_space == "vec" and CoreSide.AIC.ring_space == "mat"
    assert CoreSide.AIC.half_name("k") == "k_aic" and CoreSide.AIV.half_name("k") == "k_aiv"
    assert CoreSide.kernel_of_half("mm_aiv") == ("mm", CoreSide.AIV)
    assert CoreSide.kernel_of_half("mm") is None


def test_cost_traits():
    assert {c.name for c in ALL_PTO_OPS if c.has_trait(Transcendental)} == {
        "pto.exp", "pto.log", "pto.sqrt", "pto.rsqrt", "pto.recip", "pto.div", "pto.divs", "pto.row_expand_div",
        "pto.col_expand_div",
    }
    assert {c.name for c in ALL_PTO_OPS if c.has_trait(CostFree)} == {
        "pto.create", "pto.tensor_cast", "pto.get_subblock_idx",
    }


def _func(*arg_attrs: dict) -> func.FuncOp:
    f = func.FuncOp("f", ([TensorType([16], f32)] * len(arg_attrs), []))
    f.arg_attrs = ArrayAttr([DictionaryAttr(d) for d in arg_attrs])
    return f


def test_argument_directions_and_task_id():
    f = _func({}, {ArgAttr.OUT.value: UnitAttr()}, {ArgAttr.INOUT.value: UnitAttr()})
    assert [param_direction(f, i) for i in range(3)] == ["in", "out", "inout"]
    check_arg_attrs(f)
    with pytest.raises(PtoError, match="marked both 'pto.out' and 'pto.inout'"):
        check_arg_attrs(_func({ArgAttr.OUT.value: UnitAttr(), ArgAttr.INOUT.value: UnitAttr()}))
    call = func.CallOp("g", [], [])
    assert task_id_of(call) is None
    call.attributes[CallAttr.TASK_ID.value] = IntegerAttr(3, i64)
    assert task_id_of(call) == 3
