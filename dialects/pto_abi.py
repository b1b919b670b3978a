"""The `pto.*` attributes of function arguments and calls (docs/dialect.md, "Group members"): which names exist,
how to read them and the one check of their form.

- Argument attributes (`ArgAttr`): `pto.out` (the kernel writes the GM tensor) and `pto.inout` (reads and
  writes it), unit attributes, at most one per argument; an argument with neither is an input
  (`param_direction`).
- Call attributes (`CallAttr`): `pto.no_dep` (an `array<i64: ...>` of distinct argument indices whose GM
  dependences the runtime need not track) and `pto.task_id` (a non-negative integer, the runtime task a Group
  member is submitted as; where it may stand is checked by `pypto_mlir.verify`, which knows the callee).

Every reader (the GM lineage, the interpreter's inputs and labels, the Group ABI of ExpandMixedKernel) asks this
module instead of spelling an attribute name.
"""

from __future__ import annotations

from enum import StrEnum

from xdsl.dialects.builtin import DenseArrayBase, DictionaryAttr, IntegerAttr, IntegerType, UnitAttr
from xdsl.ir import Attribute, Operation

from pypto_mlir.diagnostics import PtoError


class ArgAttr(StrEnum):
    """The unit attributes a function argument may carry (its direction)."""

    OUT = "pto.out"
    INOUT = "pto.inout"


class CallAttr(StrEnum):
    """The attributes a `func.call` may carry."""

    NO_DEP = "pto.no_dep"
    TASK_ID = "pto.task_id"


def _known(names: type[StrEnum]) -> str:
    return ", ".join(n.value for n in names)


_ARG_NAMES = frozenset(a.value for a in ArgAttr)
_CALL_NAMES = frozenset(a.value for a in CallAttr)


def param_direction(f: Operation, index: int) -> str:
    """`in`, `out` or `inout`: the direction of argument `index` of the function `f`."""
    arg_attrs = f.arg_attrs  # type: ignore[attr-defined]
    if arg_attrs is None:
        return "in"
    d = arg_attrs.data[index]
    assert isinstance(d, DictionaryAttr)
    for attr in (ArgAttr.INOUT, ArgAttr.OUT):
        if attr.value in d.data:
            return attr.value.removeprefix("pto.")
    return "in"


def task_id_of(call: Operation) -> int | None:
    """The `pto.task_id` of a call (verified: a non-negative integer), or None."""
    attr = call.attributes.get(CallAttr.TASK_ID.value)
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def check_arg_attrs(f: Operation) -> None:
    """The `pto.*` attributes of `f`'s arguments: known names, unit values, at most one direction each."""
    arg_attrs = f.arg_attrs  # type: ignore[attr-defined]
    if arg_attrs is None:
        return
    name_of_f = f.sym_name.data  # type: ignore[attr-defined]
    for i, d in enumerate(arg_attrs.data):
        assert isinstance(d, DictionaryAttr)
        for name in d.data:
            if not name.startswith("pto."):
                continue
            if name not in _ARG_NAMES:
                raise PtoError(
                    f"unknown argument attribute '{name}' on argument {i} of @{name_of_f} (known: {_known(ArgAttr)})",
                    op=f,
                )
            if not isinstance(d.data[name], UnitAttr):
                raise PtoError(
                    f"'{name}' is a unit attribute (write {{{name}}} without a value), got {d.data[name]}", op=f
                )
        if all(a.value in d.data for a in ArgAttr):
            raise PtoError(
                f"argument {i} of @{name_of_f} is marked both 'pto.out' and 'pto.inout'; an argument has one "
                f"direction: keep 'pto.inout' if the kernel reads the tensor before writing it, else 'pto.out'",
                op=f,
            )


def check_call_attrs(call: Operation) -> IntegerAttr | None:
    """The form of a call's `pto.*` attributes (known names, `pto.no_dep` indices, `pto.task_id` an integer >= 0);
    returns the `pto.task_id` for the caller's placement check."""
    for name in call.attributes:
        if name.startswith("pto.") and name not in _CALL_NAMES:
            raise PtoError(f"'func.call' op has an unknown attribute '{name}' (known on calls: {_known(CallAttr)})", op=call)
    no_dep = call.attributes.get(CallAttr.NO_DEP.value)
    if no_dep is not None:
        _check_no_dep(call, no_dep)
    task = call.attributes.get(CallAttr.TASK_ID.value)
    if task is None:
        return None
    if not isinstance(task, IntegerAttr) or isinstance(task.type, IntegerType) and task.type.width.data == 1:
        raise PtoError(f"'func.call' op 'pto.task_id' must be an integer (e.g. 0 : i64), got {task}", op=call)
    if task.value.data < 0:
        raise PtoError(f"'func.call' op 'pto.task_id' must be non-negative, got {task.value.data}", op=call)
    return task


def _check_no_dep(call: Operation, no_dep: Attribute) -> None:
    if not (
        isinstance(no_dep, DenseArrayBase) and isinstance(no_dep.elt_type, IntegerType) and no_dep.elt_type.width.data == 64
    ):
        raise PtoError(f"'func.call' op 'pto.no_dep' must be an array<i64: ...> of argument indices, got {no_dep}", op=call)
    idx = list(no_dep.get_values())
    n = len(call.operands)
    for i in idx:
        if not 0 <= i < n:
            raise PtoError(f"'func.call' op 'pto.no_dep' lists argument #{i}, but the call has {n} arguments", op=call)
    if len(set(idx)) != len(idx):
        raise PtoError(f"'func.call' op 'pto.no_dep' lists an argument twice: {idx}", op=call)


__all__ = ["ArgAttr", "CallAttr", "check_arg_attrs", "check_call_attrs", "param_direction", "task_id_of"]
