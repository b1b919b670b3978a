"""Trait lookups memoized per op class.

xDSL's `Operation.get_trait` is a linear `isinstance` scan over the class's traits, and the analyses of
ExpandMixedKernel ask it of every op of every kernel several times over (affinity, GM accesses, transfer roles).
An op's traits are declared on its class (`Operation.traits` is a class variable; nothing in the project adds
a trait at run time), so the answer is a function of `(type(op), trait)` and is computed once per pair here.
"""

from __future__ import annotations

from functools import cache

from xdsl.ir import Operation
from xdsl.traits import OpTrait, OpTraitInvT


@cache
def _class_trait(cls: type[Operation], trait: type[OpTrait]) -> OpTrait | None:
    return cls.get_trait(trait)


def op_trait(op: Operation, trait: type[OpTraitInvT]) -> OpTraitInvT | None:
    """`op.get_trait(trait)` for a trait class, looked up once per op class."""
    return _class_trait(type(op), trait)  # type: ignore[return-value]


def op_has_trait(op: Operation, trait: type[OpTrait]) -> bool:
    """`op.has_trait(trait)` for a trait class, looked up once per op class."""
    return _class_trait(type(op), trait) is not None
