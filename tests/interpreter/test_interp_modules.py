"""The interpreter's module layout and its extension points (docs/interpreter.md "Extension points"): every module
is small and documented, no two import each other (the effect modules see the machine only as a `MachineView`),
every op of every core runs through `Machine.exec_op`, and a blocked core says why in a structured `Wait`."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

from kernelgen.interp_util import input_text, parsed
from pypto_mlir.interpreter import Machine, find_entry
from pypto_mlir.interpreter.runner import copy_inputs, make_inputs
from pypto_mlir.interpreter.state import Wait, WaitKind
from pypto_mlir.dialects.pto_traits import CoreSide, PipeDirection

PKG = Path(__file__).resolve().parents[2] / "python" / "pypto_mlir" / "interpreter"
MODULES = sorted(p.stem for p in PKG.glob("*.py"))
EFFECT_MODULES = ("gm", "pipes", "transfer", "lanes", "comm")


def _imports(name: str) -> set[str]:
    """The interpreter modules `name` imports, at the top or inside a function (`__init__` for the package)."""
    tree = ast.parse((PKG / f"{name}.py").read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level == 1:
                if mod:
                    out.add(mod.split(".")[0])
                else:
                    out.update(a.name for a in node.names)
            elif mod == "pypto_mlir.interpreter":
                out.add("__init__")
                out.update(a.name for a in node.names)
            elif mod.startswith("pypto_mlir.interpreter."):
                out.add(mod.split(".")[2])
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("pypto_mlir.interpreter."):
                    out.add(a.name.split(".")[2])
                elif a.name == "pypto_mlir.interpreter":
                    out.add("__init__")
    return (out & set(MODULES)) - {name}


def test_every_interpreter_module_is_small_and_documented():
    for name in MODULES:
        text = (PKG / f"{name}.py").read_text(encoding="utf-8")
        assert len(text.splitlines()) < 800, f"{name}.py has {len(text.splitlines())} lines"
        assert ast.get_docstring(ast.parse(text)), f"{name}.py has no module docstring"


def test_no_import_circle_between_interpreter_modules():
    graph = {name: _imports(name) for name in MODULES}
    assert "state" in graph["machine"] and "machine" in graph["runner"]  # the scan does see imports

    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for n in graph[todo.pop()]:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen

    circles = sorted(name for name in MODULES if name in reach(name))
    assert not circles, f"import circles through: {circles} ({ {n: sorted(graph[n]) for n in circles} })"
    for name in EFFECT_MODULES:
        assert "machine" not in reach(name), f"{name}.py reaches machine.py"


class _Recording(Machine):
    """A machine that records every op each core runs and the waits of a deadlock: what a timing model hooks."""

    def __init__(self, module):
        super().__init__(module)
        self.ops: Counter = Counter()
        self.waits: list[tuple[str, Wait]] = []

    def exec_op(self, op, env, ctx):
        self.ops[(ctx.label, op.name)] += 1
        return (yield from super().exec_op(op, env, ctx))

    def report_deadlock(self, live, grp, label):
        self.waits = [(ctx.label, ctx.waiting_at) for ctx, _, _ in live]
        super().report_deadlock(live, grp, label)


def _run(machine: _Recording, module) -> None:
    f = find_entry(module)
    machine.run(f.sym_name.data, copy_inputs(make_inputs(f)))


def test_every_op_of_every_core_goes_through_exec_op():
    m = parsed(input_text("loop_accumulate.expanded.a2a3.mlir"))
    machine = _Recording(m)
    _run(machine, m)
    by_core = Counter()
    for (label, name), n in machine.ops.items():
        by_core[label, name.split(".")[-1]] += n
    cores = {label for label, _ in by_core}
    aic = next(c for c in cores if "(AIC" in c)
    lanes = sorted(c for c in cores if "(AIV" in c)
    assert len(lanes) == 2
    pushes = by_core[aic, "tpush_to_aiv"]
    assert pushes > 1  # inside the K-loop: loop bodies run through the hook too
    for lane in lanes:
        assert by_core[lane, "tpop_from_aic"] == pushes and by_core[lane, "tfree_to_aic"] == pushes


def test_a_deadlock_names_each_cores_wait_kind_and_ring():
    text = "\n".join(l for l in input_text("loop_accumulate.expanded.a2a3.mlir").splitlines() if "tfree_to_aic" not in l)
    m = parsed(text)
    machine = _Recording(m)
    with pytest.raises(Exception, match="deadlock"):
        _run(machine, m)
    kinds = [(label.split(" (")[-1].split(",")[0].rstrip(")"), w.kind) for label, w in machine.waits]
    assert kinds == [("AIC", WaitKind.PUSH), ("AIV", WaitKind.POP), ("AIV", WaitKind.POP)]
    rings = {id(w.ring) for _, w in machine.waits}
    assert len(rings) == 1  # all three wait on the one C->V ring of pipe 0
    ring = machine.waits[0][1].ring
    assert (ring.pipe_id, ring.direction) == (0, PipeDirection.C2V)
    assert ring.producers == [CoreSide.AIC]
    assert machine.waits[1][1].count == machine.waits[2][1].count == ring.slot_num
    assert machine.waits[0][1].reason == (
        f"the {ring.name()} is full ({ring.slot_num} of {ring.slot_num} slots hold tiles not yet freed by the consumer)"
    )
