"""The verifier's memo (`VerifyMemo`): what the pipeline verifies after a pass is what the pass created or changed,
and the verdict is the full verifier's (issue 28)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, traits_def
from xdsl.utils.exceptions import VerifyException

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.ir import make_context, parse_module
from pypto_mlir.pipeline import run_pipeline
from pypto_mlir.verify import VerifyMemo, verify_module
from pypto_mlir.dialects.pto_traits import ContextualVerify

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernelgen.verify_equivalence import run  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "matmul_softmax.a2a3.mlir"


def _verdict(module, memo=None) -> str:
    try:
        verify_module(module, memo)
    except PtoError as e:
        return e.format("t.mlir")
    return "ok"


def test_memo_agrees_with_full_verifier_on_corpora():
    """Lit inputs, examples, generated kernels and fuzz mutants: at every step (input, after each pass) the
    memoized verdict equals the full one (`python tests/kernelgen/verify_equivalence.py` runs 1000 + 1000)."""
    tallies = run(kernels=40, mutants=400, seed=5, quiet=True)
    for label, t in tallies.items():
        assert not t.mismatches, "\n".join(t.mismatches)
        assert t.steps > 0, label
    lit = tallies["lit+examples"]
    assert lit.verdicts["rejected"] > 50 and lit.verdicts["ok"] > 300  # both verdicts are exercised
    assert tallies["mutants"].verdicts["rejected"] > 0
    assert all(t.hits > 0 for t in tallies.values())  # the memo is used, not bypassed


def test_unchanged_ops_are_not_verified_again():
    text = EXAMPLE.read_text()
    module = parse_module(text, "t.mlir")
    memo = VerifyMemo()
    verify_module(module, memo)
    first = memo.misses
    assert first > 0
    verify_module(module, memo)
    assert memo.misses == first  # the second walk found every eligible op already verified
    assert memo.hits >= first


def test_pipeline_verifies_pass_output_with_memo_and_full_alike():
    text = EXAMPLE.read_text()
    a, b = parse_module(text, "t.mlir"), parse_module(text, "t.mlir")
    memo = VerifyMemo()
    verify_module(a, memo)
    run_pipeline(a, "lower-auto-vector-split,expand-mixed-kernel", input_verified=True, memo=memo)
    run_pipeline(b, "lower-auto-vector-split,expand-mixed-kernel", full_verify=True)
    assert str(a) == str(b)
    assert memo.hits > 0


def test_changed_op_is_verified_again_with_the_full_message():
    """An op a pass changes (here: a new, out-of-range attribute object) gets a new signature and the full
    verifier's message, although an op of the old signature verified."""
    text = """func.func @f(%b: i32) {
  pto.aic_initialize_pipe %b, %b {dir_mask = 1 : i64, slot_size = 8192 : i64} : i32, i32
  func.return
}
"""
    module = parse_module(text, "t.mlir")
    memo = VerifyMemo()
    assert _verdict(module, memo) == "ok"
    op = next(o for o in module.walk() if o.name == "pto.aic_initialize_pipe")
    op.attributes["dir_mask"] = IntegerAttr(7, i64)  # what a faulty pass might write
    full = _verdict(module)
    assert full != "ok" and "dir_mask" in full
    assert _verdict(module, memo) == full


def test_equal_signature_built_anew_is_a_hit_and_a_changed_value_is_not():
    """Signatures compare by value: an op a pass builds with new attribute and type objects equal to those of an
    op that verified is not verified again (the same pipe setup in each of 500 kernels); a different value is."""
    text = """func.func @f(%b: i32) {
  pto.aic_initialize_pipe %b, %b {dir_mask = 1 : i64, slot_size = 8192 : i64} : i32, i32
  func.return
}
"""
    module = parse_module(text, "t.mlir")
    memo = VerifyMemo()
    assert _verdict(module, memo) == "ok"
    op = next(o for o in module.walk() if o.name == "pto.aic_initialize_pipe")
    misses = memo.misses
    op.attributes["dir_mask"] = IntegerAttr(1, i64)  # a new object, equal to the old one
    assert _verdict(module, memo) == "ok" and memo.misses == misses
    op.attributes["slot_size"] = IntegerAttr(4096, i64)  # a new value: verified again
    assert _verdict(module, memo) == "ok" and memo.misses == misses + 1


# An op whose verifier reads its parent (not only its own attributes and types): the memo must not be used for it.
def _parent_verify(self) -> None:
    parent = self.parent_op()
    if parent is not None and parent.name == "func.func" and "bad" in parent.sym_name.data:
        raise VerifyException("may not be used in a function named 'bad...'")


@irdl_op_definition
class _ParentReadingOp(IRDLOperation):
    name = "memotest.reads_parent"
    verify_ = _parent_verify


@irdl_op_definition
class _MarkedParentReadingOp(IRDLOperation):
    name = "memotest.reads_parent_marked"
    traits = traits_def(ContextualVerify())
    verify_ = _parent_verify


def _two_functions(op_name: str) -> str:
    return f"""module {{
  func.func @good() {{
    "{op_name}"() : () -> ()
    return
  }}
  func.func @bad() {{
    "{op_name}"() : () -> ()
    return
  }}
}}
"""


@pytest.mark.parametrize(
    "op_name, memo_sees_it",
    [("memotest.reads_parent", False), ("memotest.reads_parent_marked", True)],
    ids=["unmarked-verifier-is-missed", "ContextualVerify-is-checked"],
)
def test_contextual_verifier_needs_the_trait(op_name, memo_sees_it):
    """The memo's premise is that an op's verdict depends only on its signature. A verifier that reads other IR
    breaks it: unmarked, the second op (same signature as the first) is skipped and its error missed — which the
    equivalence check would report; with `ContextualVerify` it is checked every time."""
    ctx = make_context()
    ctx.load_dialect(Dialect("memotest", [_ParentReadingOp, _MarkedParentReadingOp]))
    module = parse_module(_two_functions(op_name), "t.mlir", ctx)
    full = _verdict(module)
    assert "may not be used in a function named 'bad" in full
    memo = VerifyMemo()
    # i64 is one shared object, so both ops have the same signature
    assert (_verdict(module, memo) == full) is memo_sees_it
