"""The passes keep the input IR out of the cyclic collector's scans while they run, and leave the collector
as they found it (docs/performance.md, "Garbage collection")."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.ir import make_context, parse_module
from pypto_mlir.passes.common import old_heap_frozen
from pypto_mlir.passes.expand_mixed_kernel.pass_ import ExpandMixedKernelPass
from pypto_mlir.pipeline import with_default_models
from pypto_mlir.passes.lower_auto_vector_split.pass_ import LowerAutoVectorSplitPass

ROOT = Path(__file__).resolve().parents[2]


def test_frozen_inside_and_unfrozen_after():
    assert gc.get_freeze_count() == 0
    before = object()  # noqa: F841 - exists before the block, so it is frozen inside it
    with old_heap_frozen():
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0


def test_unfrozen_after_an_error():
    with pytest.raises(RuntimeError):
        with old_heap_frozen():
            raise RuntimeError("boom")
    assert gc.get_freeze_count() == 0


def test_leaves_a_caller_freeze_alone():
    gc.freeze()
    try:
        n = gc.get_freeze_count()
        with old_heap_frozen():
            assert gc.get_freeze_count() == n
        assert gc.get_freeze_count() == n  # not unfrozen by the pass
    finally:
        gc.unfreeze()


def test_does_nothing_when_the_collector_is_disabled():
    gc.disable()
    try:
        with old_heap_frozen():
            assert gc.get_freeze_count() == 0
    finally:
        gc.enable()


@pytest.mark.parametrize("pass_cls", [LowerAutoVectorSplitPass, ExpandMixedKernelPass])
def test_passes_restore_the_collector(pass_cls):
    text = (ROOT / "examples" / "matmul_softmax.a2a3.mlir").read_text()
    m = parse_module(text, "matmul_softmax.a2a3.mlir")
    if pass_cls is ExpandMixedKernelPass:
        LowerAutoVectorSplitPass().apply(make_context(), m)  # the split kernel must be lowered first
    with_default_models(pass_cls()).apply(make_context(), m)
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_expand_restores_the_collector_on_rejection():
    m = parse_module("builtin.module {\n}\n", "no_target.mlir")  # no pto.target: rejected
    with pytest.raises(PtoError):
        with_default_models(ExpandMixedKernelPass()).apply(make_context(), m)
    assert gc.isenabled() and gc.get_freeze_count() == 0
