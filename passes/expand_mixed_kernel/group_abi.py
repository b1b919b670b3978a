"""ExpandMixedKernel phase 4: the shared-parameter ABI of hand-written Groups (reference §5 phase 4).

A runtime mixed-kernel launch gives the AIC and the AIV member of a Group *one* argument payload, so both
compiled members must unpack the same parameter list.  Groups this pass creates forward their whole parameter
list to both members; a hand-written Group may call `@cube(%q, %k)` and `@vec(%out, %q)`.  For each Group whose
first AIC call and first AIV call (top level) do not both pass exactly the Group's parameters in order:

- every argument of both calls must be a parameter of the Group (a value computed in the Group body has no slot
  in the payload: located error);
- each member is rebuilt onto the Group's parameter list: member parameter i becomes the Group parameter the
  call passes at position i (so the same tensor passed twice - aliased arguments - is one parameter, used in
  both places); names, types and directions (`pto.out`/`pto.inout`) come from the Group, results and
  attributes from the member; unused parameters stay (they are legal kernel parameters);
- if both members are called exactly once in the module they are rebuilt in place under their own names;
  otherwise Group-private copies `@<g>_aic_adapter` / `@<g>_aiv_adapter` are added (the originals keep their
  ABI for their other callers) and every `pto.import_peer_buffer {peer_func = @old}` naming the other member is
  renamed to its adapter;
- both calls are rewritten to pass the full parameter list; their results (the *output bindings*: which Group
  value each member result feeds) keep their uses; a `pto.no_dep` call attribute (argument indices whose
  dependency tracking is off, pypto `pl.no_dep`) is remapped to the canonical parameter indices;
- on a2a3, an AIV member without a split mode whose transfers all use split code 0 gets `pto.dual_aiv_dispatch`
  (inferred dual dispatch), through an adapter if it has other callers.

A member without a body (an external declaration) cannot be rebuilt: if its layout differs, the Group is
rejected and both members must be declared with the Group's signature.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import DenseArrayBase, FunctionType, ModuleOp, StringAttr, SymbolRefAttr, UnitAttr, i64
from xdsl.ir import Block, BlockArgument, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import ImportPeerBufferOp, get_int_attr
from pypto_mlir.dialects.pto_traits import PipeFree, PipeTransfer

from ..common import kind_of, split_mode, with_loc

PASS_NAME = "ExpandMixedKernel"
NO_DEP = "pto.no_dep"


def _members(g: func.FuncOp, funcs: dict[str, func.FuncOp]) -> tuple[func.CallOp, func.CallOp] | None:
    aic = aiv = None
    for op in g.body.block.ops:
        if not isinstance(op, func.CallOp):
            continue
        callee = funcs.get(op.callee.root_reference.data)
        if callee is None:
            continue
        if kind_of(callee) == "aic" and aic is None:
            aic = op
        elif kind_of(callee) == "aiv" and aiv is None:
            aiv = op
    return (aic, aiv) if aic is not None and aiv is not None else None


def needs_inferred_dual_dispatch(f: func.FuncOp, target: str) -> bool:
    """a2a3, not stamped, no split mode, a body whose cross-core transfers (push/pop/free) all use split 0."""
    if target != "a2a3" or "pto.dual_aiv_dispatch" in f.attributes or not f.body.blocks:
        return False
    if split_mode(f) != "none" or "pto.split_aiv" in f.attributes:
        return False
    transfers = [op for op in f.walk() if op.has_trait(PipeTransfer)]
    if not transfers:
        return False
    return all(op.has_trait(PipeFree) or (get_int_attr(op, "split") or 0) == 0 for op in transfers)


def _forwards_all(call: func.CallOp, g: func.FuncOp, callee: func.FuncOp) -> bool:
    params = list(g.body.block.args)
    return list(call.operands) == params and len(callee.function_type.inputs.data) == len(params)


def _param_index(g: func.FuncOp, v: SSAValue) -> int | None:
    if isinstance(v, BlockArgument) and v.block is g.body.block:
        return v.index
    return None


def _rebuild(member: func.FuncOp, call: func.CallOp, g: func.FuncOp, name: str) -> func.FuncOp:
    """A copy of `member` named `name` whose parameters are the Group's; member parameter i is the Group
    parameter the call passes at position i."""
    clone = member.clone()
    old_block = clone.body.block
    new_block = Block(arg_types=list(g.function_type.inputs.data))
    for new_arg, g_arg in zip(new_block.args, g.body.block.args):
        if g_arg.name_hint:
            new_arg.name_hint = g_arg.name_hint
    for i, old_arg in enumerate(old_block.args):
        idx = _param_index(g, call.operands[i])
        assert idx is not None
        old_arg.replace_all_uses_with(new_block.args[idx])
    for op in list(old_block.ops):
        op.detach()
        new_block.add_op(op)
    region = Region(new_block)
    new = func.FuncOp(
        name,
        FunctionType.from_lists(list(g.function_type.inputs.data), list(member.function_type.outputs.data)),
        region,
        member.sym_visibility,
        arg_attrs=g.arg_attrs,
        res_attrs=member.res_attrs,
    )
    with_loc(new, member)
    for k, v in member.attributes.items():
        if k not in ("sym_name", "function_type", "arg_attrs", "res_attrs", "sym_visibility"):
            new.attributes[k] = v
    return new


def _fresh(name: str, taken: set[str]) -> str:
    if name not in taken:
        return name
    i = 1
    while f"{name}_{i}" in taken:
        i += 1
    return f"{name}_{i}"


def _rewrite_call(call: func.CallOp, g: func.FuncOp, callee: str) -> func.CallOp:
    new = func.CallOp(callee, list(g.body.block.args), [r.type for r in call.results])
    with_loc(new, call)
    for k, v in call.attributes.items():
        if k in ("callee", "arg_directions"):
            continue
        new.attributes[k] = v
    no_dep = call.attributes.get(NO_DEP)
    if no_dep is not None:
        if not isinstance(no_dep, DenseArrayBase):
            raise PtoError(f"{PASS_NAME}: '{NO_DEP}' must be an array<i64> of argument indices", op=call)
        mapped = []
        for i in no_dep.get_values():
            if not 0 <= i < len(call.operands):
                raise PtoError(
                    f"{PASS_NAME}: Cannot map the {NO_DEP} argument #{i} of this call to a canonical Group parameter: "
                    f"the call has {len(call.operands)} arguments",
                    op=call,
                )
            mapped.append(_param_index(g, call.operands[i]))
        new.attributes[NO_DEP] = DenseArrayBase.from_list(i64, sorted(set(m for m in mapped if m is not None)))
    for old_r, new_r in zip(call.results, new.results):
        if old_r.name_hint:
            new_r.name_hint = old_r.name_hint
        old_r.replace_all_uses_with(new_r)
    Rewriter.replace_op(call, new)
    return new


def normalize_group_abi(module: ModuleOp, target: str, existing: set[str] | None = None) -> None:
    """`existing`: the module's function names before the pass; members the pass itself created (the halves of
    an expanded kernel) are left as phase 3 wired them."""
    funcs = {f.sym_name.data: f for f in module.body.block.ops if isinstance(f, func.FuncOp)}
    call_count: dict[str, int] = {}
    for op in module.walk():
        if isinstance(op, func.CallOp):
            n = op.callee.root_reference.data
            call_count[n] = call_count.get(n, 0) + 1
    for g in [f for f in funcs.values() if kind_of(f) == "group" and f.body.blocks]:
        pair = _members(g, funcs)
        if pair is None:
            continue
        calls = list(pair)
        callees = [funcs[c.callee.root_reference.data] for c in calls]
        if existing is not None and any(f.sym_name.data not in existing for f in callees):
            continue
        gname = g.sym_name.data
        for call, callee in zip(calls, callees):
            n_params = len(callee.function_type.inputs.data)
            if len(call.operands) != n_params:
                raise PtoError(
                    f"{PASS_NAME}: Group '{gname}' calls member '{callee.sym_name.data}' with {len(call.operands)} "
                    f"arguments, but its signature has {n_params}",
                    op=call,
                )
        layout_differs = not all(_forwards_all(c, g, f) for c, f in zip(calls, callees))
        dual = needs_inferred_dual_dispatch(callees[1], target)
        if not layout_differs and not dual:
            continue
        if layout_differs:
            for call, callee in zip(calls, callees):
                if not callee.body.blocks:
                    raise PtoError(
                        f"{PASS_NAME}: Mixed Group '{gname}' has AIC/AIV members with different argument layouts. "
                        f"External members cannot be adapted ('@{callee.sym_name.data}' has no body); declare both "
                        f"members with the Group's signature",
                        op=call,
                    )
                for i, v in enumerate(call.operands):
                    if _param_index(g, v) is None:
                        raise PtoError(
                            f"{PASS_NAME}: Group '{gname}' passes a value that is not one of its parameters (argument "
                            f"#{i} of the call of '@{callee.sym_name.data}') to a member; both members share the "
                            f"Group's argument payload, so only Group parameters can be forwarded. Make the value a "
                            f"Group parameter, or compute it inside the member",
                            op=call,
                        )
        keep = all(call_count.get(f.sym_name.data, 0) == 1 for f in callees)
        taken = set(funcs)
        if keep:
            names = [f.sym_name.data for f in callees]
        else:
            names = []
            for side in ("aic", "aiv"):
                n = _fresh(f"{gname}_{side}_adapter", taken)
                taken.add(n)
                names.append(n)
        renames = {f.sym_name.data: n for f, n in zip(callees, names)}
        new_funcs: list[func.FuncOp] = []
        for call, callee, name in zip(calls, callees, names):
            if layout_differs:
                new = _rebuild(callee, call, g, name)
            else:
                new = callee.clone()
                new.sym_name = StringAttr(name)
            if not keep:
                for op in new.walk():
                    if isinstance(op, ImportPeerBufferOp):
                        peer = op.peer_func.root_reference.data
                        if peer in renames:
                            op.attributes["peer_func"] = SymbolRefAttr(renames[peer])
            new_funcs.append(new)
        if dual:
            new_funcs[1].attributes["pto.dual_aiv_dispatch"] = UnitAttr()
        if keep:
            for callee, new in zip(callees, new_funcs):
                Rewriter.insert_op(new, InsertPoint.before(callee))
                Rewriter.erase_op(callee)
        else:  # the Group's private pair, AIC then AIV, at the top of the module
            Rewriter.insert_op(new_funcs[0], InsertPoint.at_start(module.body.block))
            Rewriter.insert_op(new_funcs[1], InsertPoint.after(new_funcs[0]))
        for new in new_funcs:
            funcs[new.sym_name.data] = new
        for call, name in zip(calls, names):
            if layout_differs:
                _rewrite_call(call, g, name)
            elif not keep:
                call.attributes["callee"] = SymbolRefAttr(name)
            if not keep:
                call_count[name] = 1


__all__ = ["needs_inferred_dual_dispatch", "normalize_group_abi"]
