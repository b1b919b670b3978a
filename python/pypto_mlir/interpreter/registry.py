"""The interpreter's op semantics, keyed by op class (as xDSL's `@impl` keys `InterpreterFunctions`).

An implementation is registered for one or more op classes with one of three decorators, which say what it may do:

* `@impl(Op, ...)` — a *plain* op: a function of its operands, `fn(op, args) -> results`.  It touches no machine
  state (tile and scalar semantics: `semantics.py`).
* `@impl_effect(Op, ...)` — an op with an effect on the machine that never waits: GM loads and stores (`gm.py`),
  pipe setup and `tfree` (`pipes.py`), lanes (`lanes.py`).  `fn(machine, op, args, env, ctx) -> results`, where
  `machine` is a `state.MachineView`.
* `@impl_sync(Op, ...)` — an op that may have to wait for another core (`tpush` on a full ring, `tpop` on an empty
  one, a lane at an `aic_gather`, a signal `wait`), and the ops with regions or calls whose bodies may wait.
  `fn(machine, op, args, env, ctx)` is a generator that yields a `state.Wait` (its `WaitKind`, the ring or
  signal) each time it cannot proceed and returns the results.

Terminators (`IsTerminator`) are not registered: the block runner returns their operands.  A subclass of a
registered op class inherits its implementation.  Why the interpreter does not run on xDSL's own `Interpreter`
is written in `docs/interpreter.md` (*Implementation*).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from xdsl.ir import Operation

PLAIN = "plain"
EFFECT = "effect"
SYNC = "sync"


@dataclass(frozen=True)
class OpImpl:
    kind: str  # PLAIN, EFFECT or SYNC
    fn: Callable[..., Any]


class OpRegistry:
    """Op class -> implementation; a lookup walks the op class's MRO, so a family base registers its members."""

    def __init__(self) -> None:
        self._impls: dict[type[Operation], OpImpl] = {}
        self._cache: dict[type[Operation], OpImpl | None] = {}

    def register(self, kind: str, *op_types: type[Operation]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
            for t in op_types:
                if t in self._impls:
                    raise ValueError(f"{t.__name__} has two interpreter implementations")
                self._impls[t] = OpImpl(kind, fn)
            self._cache.clear()
            return fn

        return deco

    def lookup(self, op_type: type[Operation]) -> OpImpl | None:
        if op_type not in self._cache:
            self._cache[op_type] = next((self._impls[t] for t in op_type.__mro__ if t in self._impls), None)
        return self._cache[op_type]

    def op_types(self) -> list[type[Operation]]:
        return list(self._impls)


REGISTRY = OpRegistry()


def impl(*op_types: type[Operation]):
    """Register a plain op: `fn(op, args) -> results`."""
    return REGISTRY.register(PLAIN, *op_types)


def impl_effect(*op_types: type[Operation]):
    """Register an op with a machine effect that never waits: `fn(machine, op, args, env, ctx) -> results`."""
    return REGISTRY.register(EFFECT, *op_types)


def impl_sync(*op_types: type[Operation]):
    """Register an op that may wait: a generator `fn(machine, op, args, env, ctx)` returning the results."""
    return REGISTRY.register(SYNC, *op_types)
