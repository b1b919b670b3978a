"""GM lineage: which function parameter a tensor value is (the result of a GM-writing op, a store, a put or a
tensor_get, is its destination buffer: `pto_traits.renamed_tensor`; a `pto.tensor_cast` result is its source).

Used by the Group's parameter-return rule (reference §5, `ReturnedParamIndices`), by the remapping of
dangling GM tensor references to parameters (§6, `RemapDanglingGmRefsToParam`), and for the *output binding* of
a call result (docs/dialect.md, "Group members"): ExpandMixedKernel phase 4 and the interpreter's Groups.
"""

from __future__ import annotations

from xdsl.dialects import func, scf
from xdsl.ir import BlockArgument, OpResult, SSAValue

from pypto_mlir.dialects.pto_abi import param_direction  # noqa: F401  (asked here by ExpandMixedKernel)
from pypto_mlir.dialects.pto_traits import renamed_tensor, viewed_tensor


def gm_origin(value: SSAValue, f: func.FuncOp, _depth: int = 0) -> BlockArgument | None:
    """The parameter of `f` that `value` is the buffer of, following the results of GM writes, casts, carries and
    branch results."""
    if _depth > 256:
        return None
    if isinstance(value, BlockArgument):
        if value.block is f.body.block:
            return value
        parent = value.block.parent_op()
        if isinstance(parent, scf.ForOp) and value.index >= 1:
            return gm_origin(parent.iter_args[value.index - 1], f, _depth + 1)
        if isinstance(parent, scf.WhileOp) and value.block is parent.before_region.block:
            return gm_origin(parent.arguments[value.index], f, _depth + 1)
        return None
    assert isinstance(value, OpResult)
    op = value.op
    written = renamed_tensor(value) or viewed_tensor(value)  # a GM write's destination; a cast's source
    if written is not None:
        return gm_origin(written, f, _depth + 1)
    if isinstance(op, scf.ForOp):
        init = gm_origin(op.iter_args[value.index], f, _depth + 1)
        y = op.body.block.last_op
        if init is not None and isinstance(y, scf.YieldOp):
            if gm_origin(y.operands[value.index], f, _depth + 1) is init:
                return init
        return None
    if isinstance(op, scf.IfOp):
        origins = []
        for region in (op.true_region, op.false_region):
            y = region.block.last_op if region.blocks else None
            if not isinstance(y, scf.YieldOp):
                return None
            origins.append(gm_origin(y.operands[value.index], f, _depth + 1))
        if origins[0] is not None and all(o is origins[0] for o in origins):
            return origins[0]
        return None
    return None


def returned_param_indices(f: func.FuncOp) -> list[int] | None:
    """For each return position the index of the parameter it writes back, or None if one is not a writeback."""
    ret = f.body.block.last_op
    if not isinstance(ret, func.ReturnOp):
        return None
    out: list[int] = []
    for v in ret.operands:
        origin = gm_origin(v, f)
        if origin is None:
            return None
        out.append(origin.index)
    return out


def output_binding(callee: func.FuncOp, result_index: int) -> int | None:
    """The parameter of `callee` that its result `result_index` writes back (so a call's result is the buffer
    the call passes there), or None: no body, or that return position is not a parameter writeback."""
    if not callee.body.blocks:
        return None
    ret = callee.body.block.last_op
    if not isinstance(ret, func.ReturnOp) or not 0 <= result_index < len(ret.operands):
        return None
    origin = gm_origin(ret.operands[result_index], callee)
    return None if origin is None else origin.index
