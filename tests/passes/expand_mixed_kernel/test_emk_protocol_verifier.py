"""The MixedKernelExpanded verifier against the pass's real output: every example kernel, expanded, passes it;
removing or breaking any single protocol op of that output makes it fail, at a location.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from pypto_mlir import PtoError, make_context, parse_module, print_module, verify_module
from pypto_mlir.dialects.pto_ops import (
    AicInitializePipeOp,
    AivInitializePipeOp,
    ImportPeerBufferOp,
    ReserveBufferOp,
    TFreeToAicOp,
    TFreeToAivOp,
    TPopFromAicOp,
    TPopFromAivOp,
)
from pypto_mlir.passes.expand_mixed_kernel.pass_ import ExpandMixedKernelPass
from pypto_mlir.pipeline import with_default_models
from pypto_mlir.passes.lower_auto_vector_split.pass_ import LowerAutoVectorSplitPass
from pypto_mlir.passes.expand_mixed_kernel.verifier import (
    VerifyMixedKernelExpandedPass,
    verify_mixed_kernel_expanded,
)

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples").glob("*.mlir"))


def expanded(path: Path) -> str:
    """The example through the usual pipeline (ExpandMixedKernel requires a split kernel lowered first)."""
    m = parse_module(path.read_text(), str(path))
    with_default_models(LowerAutoVectorSplitPass()).apply(make_context(), m)
    with_default_models(ExpandMixedKernelPass()).apply(make_context(), m)
    verify_module(m)
    return print_module(m)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_output_verifies_and_is_stable(path: Path) -> None:
    out = expanded(path)
    m = parse_module(out)
    verify_mixed_kernel_expanded(m)
    VerifyMixedKernelExpandedPass().apply(make_context(), m)  # the standalone pass changes nothing
    assert print_module(m) == out
    with_default_models(ExpandMixedKernelPass()).apply(make_context(), m)  # and so does a second expansion
    assert print_module(m) == out


def _protocol_ops(m: ModuleOp) -> list[Operation]:
    kinds = (TFreeToAicOp, TFreeToAivOp, AicInitializePipeOp, AivInitializePipeOp, ReserveBufferOp, ImportPeerBufferOp)
    return [op for op in m.walk() if isinstance(op, kinds)]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_dropping_any_protocol_op_is_caught(path: Path) -> None:
    out = expanded(path)
    n = len(_protocol_ops(parse_module(out)))
    assert n >= 4  # every example has a pipe
    for i in range(n):
        m = parse_module(out, "expanded.mlir")
        op = _protocol_ops(m)[i]
        if op.results:
            # a buffer op: drop it and give its user a fresh placeholder of the same type, so only the
            # protocol (not SSA) is broken
            from xdsl.dialects import arith
            from xdsl.dialects.builtin import IntegerAttr, i32

            zero = arith.ConstantOp(IntegerAttr(0, i32))
            op.parent_block().insert_op_before(zero, op)  # type: ignore[union-attr]
            op.results[0].replace_all_uses_with(zero.results[0])
        op.detach()
        op.erase()
        with pytest.raises(PtoError) as e:
            verify_mixed_kernel_expanded(m)
        assert e.value.loc is not None, e.value.message


def test_tfree_moved_before_use_is_caught() -> None:
    out = expanded(next(p for p in EXAMPLES if p.name == "seed_example1.a2a3.mlir"))
    m = parse_module(out, "expanded.mlir")
    free = next(op for op in m.walk() if isinstance(op, TFreeToAicOp))
    pop = free.operands[0].owner
    assert isinstance(pop, Operation)
    free.detach()
    pop.parent_block().insert_op_after(free, pop)  # type: ignore[union-attr]
    with pytest.raises(PtoError, match="reads a popped tile after its slot was released"):
        verify_mixed_kernel_expanded(m)


def _lit_outputs() -> list[tuple[str, str]]:
    """The pass output of every example and of every expand_mixed_kernel lit input the pass accepts."""
    root = Path(__file__).resolve().parents[3]
    outs = [(p.name, expanded(p)) for p in EXAMPLES]
    for p in sorted((root / "lit_tests" / "expand_mixed_kernel").glob("*.mlir")):
        if p.name.startswith("verifier_"):
            continue  # hand-written AIC/AIV kernels: their frees were not placed by the pass
        for k, chunk in enumerate(p.read_text().split("\n// -----\n")):
            for text in (chunk, chunk.replace("a2a3", "a5")):
                try:
                    m = parse_module(text, p.name)
                    with_default_models(ExpandMixedKernelPass()).apply(make_context(), m)
                except PtoError:
                    continue
                outs.append((f"{p.name}#{k}", print_module(m)))
    return outs


def test_every_tfree_moved_above_its_last_use_is_caught() -> None:
    """tfree placement puts each free right after the last use of its slot (a view, an scf.if/for/while result,
    a copy passed out of the block); moving any free above the op before it (when that op is not its tpop) is
    therefore unsafe, and the verifier must reject every such variant at a location."""
    checked = 0
    for name, out in _lit_outputs():
        n = sum(1 for op in parse_module(out).walk() if isinstance(op, (TFreeToAicOp, TFreeToAivOp)))
        for i in range(n):
            m = parse_module(out, "expanded.mlir")
            free = [op for op in m.walk() if isinstance(op, (TFreeToAicOp, TFreeToAivOp))][i]
            prev = free.prev_op
            while isinstance(prev, (TFreeToAicOp, TFreeToAivOp)):
                prev = prev.prev_op
            if prev is None or isinstance(prev, (TPopFromAicOp, TPopFromAivOp)):
                continue  # an unused pop: its free is already right after it (or a kept hand-written free)
            free.detach()
            prev.parent_block().insert_op_before(free, prev)  # type: ignore[union-attr]
            with pytest.raises(PtoError) as e:
                verify_mixed_kernel_expanded(m)
            assert e.value.loc is not None, f"{name}: {e.value.message}"
            checked += 1
    assert checked > 50
