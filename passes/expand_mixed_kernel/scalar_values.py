"""The values the ring depth choice times a kernel's scalar parameters at (issue 42, part 1).

A Group's scalar parameters (index, integer, float) can set its schedule: a trip count or a branch flag decides
how many tiles cross and when.  The choice (`ring_depth.py`) times such a kernel over stated values, by what each
parameter is used for.  A use is found by following the parameter from the Group into the halves it calls
(`func.call` operands to the callee's arguments) and through `arith` ops (their results carry it on):

- *bound*: an operand `lb` / `ub` of an `scf.for`;  *step*: its `step`;
- *branch*: the condition of an `scf.if`;  *while*: the condition of an `scf.while` (`scf.condition`'s first
  operand): a stated value could keep the loop running forever, so a kernel with such a parameter is not timed;
- *data*: any other use (a GM offset of a load / store, a scalar of a tile op, an `iter_args` init, a yield,
  a call to a function the module does not define, ...).

The values (`PARAM_VALUES`, one set per type; the same for every kernel, so a report is comparable):

- a parameter used only as a bound, step or branch (*control*) takes every value of its type's set: an `i1`
  0 and 1 (both branches); an integer or index 0, 1, 2, 8 (a loop it bounds runs 0, 1, 2 and 8 trips when it
  is the trip count: none, one tile through the ring, the default depth's two, and a steady state long enough
  for every depth up to 8 to reuse its slots; 0 also takes a `flag == 0` branch); a float 0.0, 1.0, 2.0, 8.0.
  A parameter that reaches a loop step never takes 0 (a loop of step 0 does not end);
- a parameter with a *data* use takes those values too when it is also a control parameter, else the one
  stated value 0 (an offset of 0, a tile scalar of 0; it moves the same tiles at any value);
- an unused parameter takes 0.

Run j gives each parameter the j-th value of its set (a shorter set starts again from its first value), so there
are as many runs as the longest set has values (at most 4) and every value of every parameter is timed, though not
every combination.  The depth chosen is the one with the least makespan summed over the runs (the long runs, where
the depth matters, weigh most); a depth that deadlocks or leaves a slot reuse unguarded in any run is rejected.
Every run must keep its GM accesses inside the tensors: the interpreter checks each window, and a run that
leaves a tensor makes the kernel untimed, with the parameter values and the access in the reason
(`interpreter/ring_cost.py`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IndexType, IntegerType, ModuleOp
from xdsl.ir import SSAValue

from pypto_mlir.dialects.pto_types import TensorType, TileType

CONTROL_USES = frozenset({"bound", "step", "branch", "while"})

PARAM_VALUES = {"i1": (0, 1), "integer": (0, 1, 2, 8), "float": (0.0, 1.0, 2.0, 8.0)}
"""The values a control parameter is timed at, by its type (module doc)."""


@dataclass(frozen=True)
class ScalarParam:
    """A scalar parameter of a Group: its position, its name for the report and what it is used for."""

    index: int
    name: str
    uses: frozenset[str]

    @property
    def role(self) -> str:
        if not self.uses:
            return "unused"
        return "control" if self.uses <= CONTROL_USES else "data"


def _kind(t) -> str:
    if isinstance(t, IntegerType) and t.width.data == 1:
        return "i1"
    if isinstance(t, (IntegerType, IndexType)):
        return "integer"
    return "float"


def _uses(value: SSAValue, funcs: dict[str, func.FuncOp], seen: set) -> set[str]:
    """What `value` is used for (module doc), following calls into `funcs` and arith ops."""
    if value in seen:
        return set()
    seen.add(value)
    out: set[str] = set()
    for use in value.uses:
        op, i = use.operation, use.index
        if isinstance(op, scf.ForOp) and i == 2:
            out.add("step")
        elif isinstance(op, scf.ForOp) and i < 2:
            out.add("bound")
        elif isinstance(op, scf.IfOp):
            out.add("branch")
        elif isinstance(op, scf.ConditionOp) and i == 0:
            out.add("while")
        elif op.dialect_name() == arith.Arith.name and op.results:
            for r in op.results:
                out |= _uses(r, funcs, seen)
        elif isinstance(op, func.CallOp) and op.callee.root_reference.data in funcs:
            callee = funcs[op.callee.root_reference.data]
            if callee.body.blocks and i < len(callee.body.block.args):
                out |= _uses(callee.body.block.args[i], funcs, seen)
            else:
                out.add("data")
        else:
            out.add("data")
    return out


def scalar_params(module: ModuleOp, group: func.FuncOp) -> list[ScalarParam]:
    """The scalar parameters of `group` and their uses (module doc)."""
    funcs = {op.sym_name.data: op for op in module.body.block.ops if isinstance(op, func.FuncOp)}
    out = []
    for i, a in enumerate(group.body.block.args):
        if isinstance(a.type, (TensorType, TileType)):
            continue
        name = a.name_hint or f"arg{i}"
        out.append(ScalarParam(i, f"%{name}", frozenset(_uses(a, funcs, set()))))
    return out


def param_values(group: func.FuncOp, p: ScalarParam) -> tuple:
    """The values `p` is timed at (module doc)."""
    kind = _kind(group.body.block.args[p.index].type)
    if not p.uses & CONTROL_USES:
        return (0.0,) if kind == "float" else (0,)
    values = PARAM_VALUES[kind]
    return tuple(v for v in values if v != 0) if "step" in p.uses else values


def timing_runs(module: ModuleOp, group: func.FuncOp) -> tuple[list[ScalarParam], list[dict[int, int | float]]]:
    """(the scalar parameters of `group`, the assignments (parameter index -> value) to time it over: run j takes
    each parameter's j-th value, cycling; one empty assignment when it has none)."""
    params = scalar_params(module, group)
    sets = {p.index: param_values(group, p) for p in params}
    n = max((len(v) for v in sets.values()), default=1)
    return params, [{i: vs[j % len(vs)] for i, vs in sets.items()} for j in range(n)]

