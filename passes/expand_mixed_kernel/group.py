"""The AIC / AIV halves, the Group wrapper and the rewriting of existing Group callers (reference §5).

- `@<f>_aic`: no results, its return carries nothing; `@<f>_aiv`: the original results.  Both keep every
  parameter (names and `{pto.out}`/`{pto.inout}`) and the original function attributes (kind replaced).
- Group `@<f>` (when created): calls `@<f>_aic` then `@<f>_aiv`, forwarding every parameter in order.  If every
  return position writes back a parameter, the AIV call's results are not used and the Group returns those
  parameters; otherwise it returns the AIV call's results.
- An existing Group that calls `@<f>` at its top level is rewritten in place: `call @<f>_aic(args)` then
  `call @<f>_aiv(args)` replacing the original call.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, StringAttr
from xdsl.ir import Block, Region
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from ..common import FunctionKind, kind_of, set_kind, with_loc
from ..analysis.lineage import returned_param_indices
from .split import erase_op


def make_aic_function(f: func.FuncOp, name: str) -> None:
    """Turn the AIC side's clone into `@<name>`: kind aic, no results, an empty return."""
    f.sym_name = _str(name)
    set_kind(f, FunctionKind.AIC)
    ret = f.body.block.last_op
    if isinstance(ret, func.ReturnOp) and ret.operands:
        new_ret = with_loc(func.ReturnOp(), ret)
        f.body.block.insert_op_before(new_ret, ret)
        erase_op(ret)
    f.function_type = FunctionType.from_lists(list(f.function_type.inputs.data), [])
    f.res_attrs = None


def make_aiv_function(f: func.FuncOp, name: str) -> None:
    f.sym_name = _str(name)
    set_kind(f, FunctionKind.AIV)


def _str(name: str) -> StringAttr:
    return StringAttr(name)


def build_group(original: func.FuncOp, aic_name: str, aiv_name: str) -> func.FuncOp:
    """A Group named like `original` calling both halves with the full parameter list."""
    ftype = original.function_type
    g = func.FuncOp(
        original.sym_name.data,
        ftype,
        Region(Block(arg_types=ftype.inputs.data)),
        original.sym_visibility,
        arg_attrs=original.arg_attrs,
        res_attrs=original.res_attrs,
    )
    with_loc(g, original)
    g.attributes.update(original.attributes)
    set_kind(g, FunctionKind.GROUP)
    block = g.body.block
    for new, old in zip(block.args, original.body.block.args):
        new.name_hint = old.name_hint
    params = list(block.args)
    aic_call = with_loc(func.CallOp(aic_name, params, []), original)
    aiv_call = with_loc(func.CallOp(aiv_name, params, list(ftype.outputs.data)), original)
    block.add_ops([aic_call, aiv_call])
    indices = returned_param_indices(original)
    if indices is not None:
        values = [params[i] for i in indices]
    else:
        values = list(aiv_call.results)
        orig_ret = original.body.block.last_op
        if orig_ret is not None:
            for r, v in zip(aiv_call.results, orig_ret.operands):
                r.name_hint = v.name_hint
    block.add_op(with_loc(func.ReturnOp(*values), original.body.block.last_op or original))
    return g


def top_level_callers(module_funcs: list[func.FuncOp], name: str) -> list[func.FuncOp]:
    """Functions calling `@name` directly in their entry block (nested calls are not seen, as in the reference)."""
    out = []
    for f in module_funcs:
        if f.body.blocks and any(
            isinstance(op, func.CallOp) and op.callee.root_reference.data == name for op in f.body.block.ops
        ):
            out.append(f)
    return out


class RewriteGroupCaller(RewritePattern):
    """In a Group, a top-level `call @<f>` of an expanded kernel becomes `call @<f>_aic` + `call @<f>_aiv`."""

    def __init__(self, expanded: dict[str, tuple[str, str]]):
        self.expanded = expanded

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.CallOp, rewriter: PatternRewriter) -> None:
        names = self.expanded.get(op.callee.root_reference.data)
        if names is None:
            return
        parent = op.parent_op()
        if not isinstance(parent, func.FuncOp) or kind_of(parent) != FunctionKind.GROUP or op.parent_block() is not parent.body.block:
            return
        aic_name, aiv_name = names
        args = list(op.arguments)
        aic_call = with_loc(func.CallOp(aic_name, args, []), op)
        aiv_call = with_loc(func.CallOp(aiv_name, args, [r.type for r in op.results]), op)
        aic_call.attributes.update(op.attributes)
        aiv_call.attributes.update(op.attributes)
        for new, old in zip(aiv_call.results, op.results):
            new.name_hint = old.name_hint
        rewriter.insert(aic_call, InsertPoint.before(op))
        rewriter.replace(op, aiv_call)
