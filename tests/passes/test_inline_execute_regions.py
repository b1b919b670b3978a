"""`passes.common.inline_execute_regions`, the one rule both passes apply to `scf.execute_region` (issue 40)."""

from __future__ import annotations

from xdsl.dialects import func, scf

from pypto_mlir import parse_module, print_module, verify_module
from pypto_mlir.passes.common import inline_execute_regions

TEXT = """builtin.module {
  func.func @f(%a: i32) -> i32 {
    %x, %y = scf.execute_region -> (i32, i32) {
      %one = arith.constant 1 : i32
      %z = scf.execute_region -> (i32) {
        %s = arith.addi %a, %one : i32
        scf.yield %s : i32
      }
      scf.yield %z, %a : i32, i32
    }
    scf.execute_region {
      scf.yield
    }
    %r = arith.subi %x, %y : i32
    func.return %r : i32
  }
}
"""


def test_nested_regions_are_inlined_and_results_replaced_by_the_yielded_values():
    module = parse_module(TEXT, "t.mlir")
    f = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    assert inline_execute_regions(f) == 3
    verify_module(module)
    assert not any(isinstance(op, scf.ExecuteRegionOp) for op in module.walk())
    text = print_module(module)
    # %x was the inner region's result (%s), %y a value from outside the region (%a); the order is kept
    assert "%s = arith.addi %a, %one : i32" in text
    assert "%r = arith.subi %s, %a : i32" in text
    assert text.index("%one = arith.constant") < text.index("%s = arith.addi") < text.index("%r = arith.subi")


def test_a_function_without_regions_is_unchanged():
    module = parse_module("builtin.module {\n  func.func @g() {\n    func.return\n  }\n}\n", "t.mlir")
    before = print_module(module)
    f = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    assert inline_execute_regions(f) == 0
    assert print_module(module) == before
