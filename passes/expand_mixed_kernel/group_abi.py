"""ExpandMixedKernel phase 4: the shared-parameter ABI of hand-written Groups (reference §5 phase 4).

A runtime mixed-kernel launch gives the AIC and the AIV member of a Group *one* argument payload, so both
compiled members must unpack the same parameter list.  Groups this pass creates forward their whole parameter
list to both members; a hand-written Group may call `@cube(%q, %k)` and `@vec(%out, %q)`.  For each Group whose
first AIC call and first AIV call (top level) do not both pass exactly the Group's parameters in order:

- every argument of both calls is bound to a Group parameter: a parameter itself; a buffer the Group allocates
  for a member (`pto.create_tensor`, an *internal output store*): promoted to a new last Group parameter with
  the direction the member gives it, which every caller of the Group now allocates (a Group or Spmd caller
  gets the parameter too, up to the code that allocates); a member result (its *output binding*: the member
  parameter that return position writes back, then what the call passes there); a `pto.tensor_cast` of any
  of these.  Anything else has no slot in the payload: a located error;
- each member is rebuilt onto the Group's parameter list: member parameter i becomes the Group parameter the
  call's argument i is bound to (so the same tensor passed twice - aliased arguments - is one parameter, used in
  both places); names, types and directions (`pto.out`/`pto.inout`) come from the Group, results and
  attributes from the member; unused parameters stay (they are legal kernel parameters); a member parameter
  whose type differs (a `?` the Group bound through a cast) is re-bound to the Group's type, and its aliases
  in the body follow (`_rebind_dims`);
- if both members are called exactly once in the module they are rebuilt in place under their own names;
  otherwise Group-private copies `@<g>_aic_adapter` / `@<g>_aiv_adapter` are added (the originals keep their
  ABI for their other callers) and every `pto.import_peer_buffer {peer_func = @old}` naming the other member is
  renamed to its adapter;
- both calls are rewritten to pass the full parameter list, keeping their other attributes (`pto.task_id`, the
  task the call is submitted as); their results keep their uses; a `pto.no_dep` call attribute (argument
  indices whose dependency tracking is off, pypto `pl.no_dep`) is remapped to the canonical parameter indices,
  an omitted output to its promoted parameter;
- on a2a3, an AIV member without a split mode whose transfers all use split code 0 gets `pto.dual_aiv_dispatch`
  (inferred dual dispatch), through an adapter if it has other callers.

A member without a body (an external declaration) cannot be rebuilt: if its layout differs, the Group is
rejected and both members must be declared with the Group's signature.
"""

from __future__ import annotations

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    i64,
)
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_abi import CallAttr, param_direction
from pypto_mlir.dialects.pto_ops import CreateTensorOp, ImportPeerBufferOp, StoreOp
from pypto_mlir.dialects.pto_traits import CoreSide, PipeFree, PipeTransfer
from pypto_mlir.dialects.pto_types import FuncFlag, TensorType, has_flag, set_flag
from pypto_mlir.dialects.pto_view_ops import TensorCastOp

from ..common import FunctionKind, kind_of, split_mode, with_loc
from ..analysis.lineage import output_binding

PASS_NAME = "ExpandMixedKernel"


def _members(g: func.FuncOp, funcs: dict[str, func.FuncOp]) -> tuple[func.CallOp, func.CallOp] | None:
    aic = aiv = None
    for op in g.body.block.ops:
        if not isinstance(op, func.CallOp):
            continue
        callee = funcs.get(op.callee.root_reference.data)
        if callee is None:
            continue
        if kind_of(callee) == FunctionKind.AIC and aic is None:
            aic = op
        elif kind_of(callee) == FunctionKind.AIV and aiv is None:
            aiv = op
    return (aic, aiv) if aic is not None and aiv is not None else None


def needs_inferred_dual_dispatch(f: func.FuncOp, target: str) -> bool:
    """a2a3, not stamped, no split mode, a body whose cross-core transfers (push/pop/free) all use split 0."""
    if target != "a2a3" or has_flag(f, FuncFlag.DUAL_AIV_DISPATCH) or not f.body.blocks:
        return False
    if split_mode(f) != "none" or has_flag(f, FuncFlag.SPLIT_AIV):
        return False
    transfers = [op for op in f.walk() if op.has_trait(PipeTransfer)]
    if not transfers:
        return False
    return all(op.has_trait(PipeFree) or op.split_code == 0 for op in transfers)


def _forwards_all(call: func.CallOp, g: func.FuncOp, callee: func.FuncOp) -> bool:
    params = list(g.body.block.args)
    return list(call.operands) == params and len(callee.function_type.inputs.data) == len(params)


class _Unbound(Exception):
    """A member argument with no slot in the Group's payload; the message says what the value is."""


def _resolve(g: func.FuncOp, v: SSAValue, funcs: dict[str, func.FuncOp], depth: int = 0) -> int | CreateTensorOp:
    """The Group parameter (its index) a member argument binds to, or the buffer the Group allocates for it
    (`pto.create_tensor`: an internal output store, promoted to a new Group parameter).  A store result is its
    destination buffer; a call result is the buffer the callee writes back (the call's *output binding*: the
    callee's return position traced to one of its parameters, then to what the call passes there)."""
    if depth > 64:
        raise _Unbound("a value whose buffer chain is too long to follow")
    if isinstance(v, BlockArgument):
        if v.block is g.body.block:
            return v.index
        raise _Unbound("a block argument of a region inside the Group")
    assert isinstance(v, OpResult)
    op = v.op
    if op.parent_block() is not g.body.block:
        raise _Unbound(f"a value computed inside a region of the Group by '{op.name}'")
    if isinstance(op, CreateTensorOp):
        return op
    if isinstance(op, (StoreOp, TensorCastOp)):  # the same buffer (a cast: under another type)
        return _resolve(g, op.operands[1] if isinstance(op, StoreOp) else op.src, funcs, depth + 1)
    if isinstance(op, func.CallOp):
        name = op.callee.root_reference.data
        callee = funcs.get(name)
        if callee is None or not callee.body.blocks:
            raise _Unbound(
                f"result #{v.index} of the call of '@{name}', which has no body that shows which of its parameters "
                f"the result writes back"
            )
        origin = output_binding(callee, v.index)
        if origin is None:
            raise _Unbound(
                f"result #{v.index} of the call of '@{name}', which is not a writeback of one of its parameters, "
                f"so no caller-visible buffer carries it"
            )
        return _resolve(g, op.operands[origin], funcs, depth + 1)
    raise _Unbound(f"a value computed in the Group body by '{op.name}'")


_DIRECTION_RANK = {"in": 0, "out": 1, "inout": 2}


def _direction_attrs(direction: str) -> DictionaryAttr:
    return DictionaryAttr({} if direction == "in" else {f"pto.{direction}": UnitAttr()})


def _add_param(f: func.FuncOp, t, name: str | None, direction: str) -> BlockArgument:
    """Append a parameter to `f` (its block, type and argument attributes)."""
    block = f.body.block
    n = len(block.args)
    arg = block.insert_arg(t, n)
    if name:
        arg.name_hint = name
    inputs = list(f.function_type.inputs.data)
    f.function_type = FunctionType.from_lists([*inputs, t], list(f.function_type.outputs.data))
    attrs = list(f.arg_attrs.data) if f.arg_attrs is not None else [DictionaryAttr({}) for _ in inputs]
    f.arg_attrs = ArrayAttr([*attrs, _direction_attrs(direction)])
    return arg


def _enclosing_func(op: Operation) -> func.FuncOp | None:
    p = op.parent_op()
    while p is not None and not isinstance(p, func.FuncOp):
        p = p.parent_op()
    return p


def _pass_new_argument(module: ModuleOp, f: func.FuncOp, t, name: str | None, direction: str, depth: int = 0) -> None:
    """`f` got a new last parameter of type `t`: every call of `f` passes a buffer for it.  A Group or Spmd
    caller (a wrapper that launches, not code that allocates) gets the parameter too, and its own callers pass
    it, up the call chain; any other caller allocates the buffer with `pto.create_tensor` right before the
    call (the outer caller owns the output, as in pypto)."""
    fname = f.sym_name.data
    calls = [op for op in module.walk() if isinstance(op, func.CallOp) and op.callee.root_reference.data == fname]
    added: dict[func.FuncOp, BlockArgument] = {}
    for call in calls:
        caller = _enclosing_func(call)
        if caller is not None and caller is not f and kind_of(caller) in (FunctionKind.GROUP, FunctionKind.SPMD) and depth < 16:
            if caller not in added:
                added[caller] = _add_param(caller, t, name, direction)
                _pass_new_argument(module, caller, t, name, direction, depth + 1)
            value: SSAValue = added[caller]
        else:
            alloc = CreateTensorOp(t)
            with_loc(alloc, call)
            if name:
                alloc.result.name_hint = name
            Rewriter.insert_op(alloc, InsertPoint.before(call))
            value = alloc.result
        new = func.CallOp(fname, [*call.operands, value], [r.type for r in call.results])
        with_loc(new, call)
        for k, v in call.attributes.items():
            if k != "callee":
                new.attributes[k] = v
        for old_r, new_r in zip(call.results, new.results):
            if old_r.name_hint:
                new_r.name_hint = old_r.name_hint
            old_r.replace_all_uses_with(new_r)
        Rewriter.replace_op(call, new)


def _promote_allocations(
    module: ModuleOp, g: func.FuncOp, resolved: list[list[int | CreateTensorOp]], calls, callees
) -> list[list[int]]:
    """Each buffer the Group allocates for a member (an internal output store) becomes a new last Group
    parameter, allocated by the Group's callers; returns each call's canonical parameter index per argument."""
    index_of: dict[CreateTensorOp, int] = {}
    for row, callee in zip(resolved, callees):
        for i, r in enumerate(row):
            if isinstance(r, CreateTensorOp) and r not in index_of:
                index_of[r] = -1
    for alloc in index_of:
        direction = "in"
        for row, callee in zip(resolved, callees):
            for i, r in enumerate(row):
                d = param_direction(callee, i)
                if r is alloc and _DIRECTION_RANK[d] > _DIRECTION_RANK[direction]:
                    direction = d
        if direction == "in":
            direction = "out"  # the Group allocated it for a member to fill: an output buffer of the launch
        name = alloc.result.name_hint
        t = alloc.result.type
        arg = _add_param(g, t, name, direction)
        index_of[alloc] = arg.index
        alloc.result.replace_all_uses_with(arg)
        Rewriter.erase_op(alloc)
        _pass_new_argument(module, g, t, name, direction)
    return [[r if isinstance(r, int) else index_of[r] for r in row] for row in resolved]


def _rebind_dims(uses: list[tuple[Operation, int, object]]) -> None:
    """Retype the aliases of re-bound parameters (pypto: the member's dimension symbols bound once to the Group
    argument's extents).  `uses`: (op, operand index, the type that operand had before).  A tensor flows, with
    its new type, through store results (the destination buffer), loop carries (init -> block argument and
    result), `scf.if` results (when every branch yields the same new type) and the return (the member's declared
    result type follows); a `func.call` or `scf.while` that needs the old type gets a `pto.tensor_cast` back to
    it; any other op reads the buffer whatever its static extents."""
    work = list(uses)
    seen: set[tuple[int, int]] = set()
    while work:
        op, i, old_t = work.pop()
        if (id(op), i) in seen:
            continue
        seen.add((id(op), i))
        v = op.operands[i]
        if v.type == old_t:
            continue
        if isinstance(op, StoreOp) and i == 1 and op.result.type != v.type:
            olds = op.result.type
            new_r = Rewriter.replace_value_with_new_type(op.result, v.type)
            work.extend((u.operation, u.index, olds) for u in new_r.uses)
        elif isinstance(op, TensorCastOp):
            continue  # its result keeps its own type: the cast is still between compatible types
        elif isinstance(op, scf.ForOp) and i >= 3:
            k = i - 3
            arg, res = op.body.block.args[k + 1], op.results[k]
            if arg.type != v.type:
                olda = arg.type
                new_a = Rewriter.replace_value_with_new_type(arg, v.type)
                work.extend((u.operation, u.index, olda) for u in new_a.uses)
            if res.type != v.type:
                oldr = res.type
                new_res = Rewriter.replace_value_with_new_type(res, v.type)
                work.extend((u.operation, u.index, oldr) for u in new_res.uses)
        elif isinstance(op, scf.YieldOp) and isinstance(op.parent_op(), scf.IfOp):
            if_op = op.parent_op()
            assert isinstance(if_op, scf.IfOp)
            ys = [r.block.last_op for r in (if_op.true_region, if_op.false_region) if r.blocks]
            if len(ys) == 2 and all(isinstance(y, scf.YieldOp) and y.operands[i].type == v.type for y in ys):
                res = if_op.results[i]
                if res.type != v.type:
                    oldr = res.type
                    new_res = Rewriter.replace_value_with_new_type(res, v.type)
                    work.extend((u.operation, u.index, oldr) for u in new_res.uses)
        elif isinstance(op, (func.CallOp, scf.WhileOp)) and isinstance(old_t, TensorType):
            cast = TensorCastOp(v, old_t)
            with_loc(cast, op)
            Rewriter.insert_op(cast, InsertPoint.before(op))
            op.operands[i] = cast.result
        # scf.yield of a loop (its carry was retyped from the init), func.return (the declared result type is
        # taken from the return below), loads and the other readers need nothing


def _rebuild(member: func.FuncOp, canon: list[int], g: func.FuncOp, name: str) -> func.FuncOp:
    """A copy of `member` named `name` whose parameters are the Group's; member parameter i is the Group
    parameter `canon[i]` (the one the call's argument i binds to)."""
    clone = member.clone()
    old_block = clone.body.block
    new_block = Block(arg_types=list(g.function_type.inputs.data))
    for new_arg, g_arg in zip(new_block.args, g.body.block.args):
        if g_arg.name_hint:
            new_arg.name_hint = g_arg.name_hint
    rebound: list[tuple[Operation, int, object]] = []
    for i, old_arg in enumerate(old_block.args):
        new_arg = new_block.args[canon[i]]
        if new_arg.type != old_arg.type:
            # A dimension the member declares `?` (the Group passed its tensor through a pto.tensor_cast) is bound
            # to the Group's extent: uses see the Group's type, and the aliases are retyped below.
            for use in list(old_arg.uses):
                rebound.append((use.operation, use.index, old_arg.type))
        old_arg.replace_all_uses_with(new_arg)
    for op in list(old_block.ops):
        op.detach()
        new_block.add_op(op)
    _rebind_dims(rebound)
    ret = new_block.last_op
    outputs = list(member.function_type.outputs.data)
    if isinstance(ret, func.ReturnOp):
        outputs = [v.type for v in ret.operands]
    region = Region(new_block)
    new = func.FuncOp(
        name,
        FunctionType.from_lists(list(g.function_type.inputs.data), outputs),
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


def _rewrite_call(
    call: func.CallOp, g: func.FuncOp, callee: func.FuncOp, canon: list[int]
) -> func.CallOp:
    """The call of the rebuilt `callee` with the Group's full parameter list.  A result whose type the rebuild
    re-bound (a `?` now static) reaches the Group's other users through a `pto.tensor_cast` back to the type
    they had (erased by the caller if unused once both calls are rewritten)."""
    new = func.CallOp(callee.sym_name.data, list(g.body.block.args), list(callee.function_type.outputs.data))
    with_loc(new, call)
    for k, v in call.attributes.items():
        if k in ("callee", "arg_directions"):
            continue
        new.attributes[k] = v
    no_dep = call.attributes.get(CallAttr.NO_DEP.value)
    if isinstance(no_dep, DenseArrayBase):  # the verifier checked: distinct indices of the call's arguments
        # An omitted output (a buffer the Group allocated, now a new Group parameter) maps to that parameter.
        mapped = sorted({canon[i] for i in no_dep.get_values()})
        new.attributes[CallAttr.NO_DEP.value] = DenseArrayBase.from_list(i64, mapped)
    Rewriter.insert_op(new, InsertPoint.before(call))
    for old_r, new_r in zip(call.results, new.results):
        if old_r.name_hint:
            new_r.name_hint = old_r.name_hint
        value: SSAValue = new_r
        if new_r.type != old_r.type and old_r.uses:
            cast = TensorCastOp(new_r, old_r.type)
            with_loc(cast, new)
            Rewriter.insert_op(cast, InsertPoint.after(new))
            value = cast.result
        old_r.replace_all_uses_with(value)
    Rewriter.erase_op(call)
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
    for g in [f for f in funcs.values() if kind_of(f) == FunctionKind.GROUP and f.body.blocks]:
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
            resolved: list[list[int | CreateTensorOp]] = []
            for call, callee in zip(calls, callees):
                row: list[int | CreateTensorOp] = []
                for i, v in enumerate(call.operands):
                    try:
                        row.append(_resolve(g, v, funcs))
                    except _Unbound as e:
                        raise PtoError(
                            f"{PASS_NAME}: Group '{gname}' passes a value that is not one of its parameters (argument "
                            f"#{i} of the call of '@{callee.sym_name.data}': {e}) to a member; both members share "
                            f"the Group's argument payload, so an argument must be a Group parameter, a buffer the "
                            f"Group allocates (pto.create_tensor, promoted to a new Group parameter) or a member "
                            f"output written back to one. Make the value a Group parameter, or compute it inside "
                            f"the member",
                            op=call,
                        ) from None
                resolved.append(row)
            canon = _promote_allocations(module, g, resolved, calls, callees)
        keep = all(call_count.get(f.sym_name.data, 0) == 1 for f in callees)
        taken = set(funcs)
        if keep:
            names = [f.sym_name.data for f in callees]
        else:
            names = []
            for side in CoreSide:
                n = _fresh(f"{gname}_{side}_adapter", taken)
                taken.add(n)
                names.append(n)
        renames = {f.sym_name.data: n for f, n in zip(callees, names)}
        new_funcs: list[func.FuncOp] = []
        for call, callee, name in zip(calls, callees, names):
            if layout_differs:
                new = _rebuild(callee, canon[calls.index(call)], g, name)
            else:
                new = callee.clone()
                new.sym_name = StringAttr(name)
            if not keep:
                for op in new.walk():
                    if isinstance(op, ImportPeerBufferOp):
                        peer = op.peer_func.root_reference.data
                        if peer in renames:
                            op.peer_func = SymbolRefAttr(renames[peer])
            new_funcs.append(new)
        if dual:
            set_flag(new_funcs[1], FuncFlag.DUAL_AIV_DISPATCH)
        if keep:
            for callee, new in zip(callees, new_funcs):
                Rewriter.insert_op(new, InsertPoint.before(callee))
                Rewriter.erase_op(callee)
        else:  # the Group's private pair, AIC then AIV, at the top of the module
            Rewriter.insert_op(new_funcs[0], InsertPoint.at_start(module.body.block))
            Rewriter.insert_op(new_funcs[1], InsertPoint.after(new_funcs[0]))
        for new in new_funcs:
            funcs[new.sym_name.data] = new
        for k, (call, name) in enumerate(zip(calls, names)):
            if layout_differs:
                _rewrite_call(call, g, new_funcs[k], canon[k])
            elif not keep:
                call.attributes["callee"] = SymbolRefAttr(name)
            if not keep:
                call_count[name] = 1
        if layout_differs:
            # the casts that only bound member arguments (now Group parameters), and unused casts back
            for op in [o for o in g.body.block.ops if isinstance(o, TensorCastOp)][::-1]:
                if not op.result.uses:
                    Rewriter.erase_op(op)


__all__ = ["needs_inferred_dual_dispatch", "normalize_group_abi"]
