"""The module verifier run after parsing and after every pass.

It checks every op's own invariants (types, memory spaces, shapes, attribute ranges) and the `pto` attributes
on modules and functions (`pto.target`, `pto.kind`, `pto.split`, ...), and reports the first violation as a
`PtoError` located at the offending op.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import (
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.ir import Block, BlockArgument, ErasedSSAValue, Operation, OpResult
from xdsl.traits import IsTerminator, NoTerminator, SymbolOpInterface, SymbolTable
from xdsl.utils.exceptions import DiagnosticException, VerifyException

from .diagnostics import PtoError

if TYPE_CHECKING:
    from xdsl.dialects import func

# The func, scf and pto classes are imported by the checks that need them, once an op of theirs is met (the ops
# are told apart by name first): verifying a module that has none (`builtin.module {}`) loads none of them.
_SCF_RESULT_REGIONS = ("scf.if", "scf.execute_region", "scf.while")



def _message(err: Exception) -> str:
    text = str(err).strip()
    prefix = "Operation does not verify: "
    if text.startswith(prefix):
        text = text[len(prefix) :]
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:  # an exception without a message: still say what failed and where to look
        return (
            "does not verify (its verifier gave no reason); check its operands, result types and attributes "
            "against docs/dialect.md"
        )
    return " ".join(lines[:2])


_BASE_NAMES = {
    "integer": "an integer attribute (e.g. 0 : i64)",
    "string": 'a string attribute (e.g. "name")',
    "symbol_ref": "a symbol reference (e.g. @f_aiv)",
    "array": "an array attribute",
    "pto.split": "#pto.split<none|up_down|left_right>",
}
_CONSTRUCT_MISMATCH = re.compile(r"^(operand|result) '(\w+)' (?:expected )?at positions? [\d to]+ does not verify: (.*)$")
_WRONG_BASE = re.compile(r"^(.*) should be of base attribute ([\w.]+)$")
_MISSING_ATTR = re.compile(r"^attribute '(\w+)' expected in operation '[\w.]+'$")
_VAR_MISMATCH = re.compile(r"^attribute (.*) expected from variable '\w+', but got (.*)$")
_EXACT_MISMATCH = re.compile(r"^Expected attribute (.*) but got (.*)$")


def describe_base(name: str) -> str:
    """How to write an attribute of xDSL base `name` (for messages)."""
    return _BASE_NAMES.get(name, f"a {name} attribute")


def readable_parse_constraint(msg: str) -> str:
    """A constraint failure met while parsing an op (no op to inspect yet), reworded."""
    if m := _WRONG_BASE.match(msg):
        return f"invalid attribute value {m.group(1)}: expected {describe_base(m.group(2))}"
    return msg


def _readable(op: Operation, msg: str) -> str:
    """Reword xDSL's generic constraint messages so they say what is wrong with this op and how to fix it."""
    if m := _MISSING_ATTR.match(msg):
        return f"is missing its required attribute '{m.group(1)}'; add it to the attribute dictionary"
    if m := _VAR_MISMATCH.match(msg):
        return f"operands and result must all have the same type, but {m.group(1)} and {m.group(2)} differ"
    if m := _CONSTRUCT_MISMATCH.match(msg):
        inner = _WRONG_BASE.match(m.group(3))
        if inner:
            want = inner.group(2)
            want = f"!{want}" if "." in want else want
            return f"{m.group(1)} '{m.group(2)}' must be of type {want}, got {inner.group(1)}"
        if exact := _EXACT_MISMATCH.match(m.group(3)):
            return f"{m.group(1)} '{m.group(2)}' must be of type {exact.group(1)}, got {exact.group(2)}"
        if var := _VAR_MISMATCH.match(m.group(3)):
            return (
                f"{m.group(1)} '{m.group(2)}' has type {var.group(2)}, but the operands and result of this op "
                f"must all have one type, here {var.group(1)}"
            )
        return msg
    if m := _WRONG_BASE.match(msg):
        want = describe_base(m.group(2))
        names = [n for n, a in op.attributes.items() if str(a) == m.group(1)]
        what = f"attribute '{names[0]}'" if names else "an attribute"
        return f"{what} must be {want}, got {m.group(1)}"
    return msg


def verify_op(op: Operation) -> None:
    """Verify one op (not its nested ops)."""
    try:
        op.verify(verify_nested_ops=False)
    except PtoError:  # already located and worded (PtoError is a DiagnosticException too)
        raise
    except (VerifyException, DiagnosticException) as e:
        msg = _message(e)
        for prefix in (f"'{op.name}' ", f"{op.name} "):
            if msg.startswith(prefix):
                msg = msg[len(prefix) :]
        msg = _readable(op, msg)
        raise PtoError(f"'{op.name}' op {msg}", op=op) from None
    except Exception as e:  # a verifier must never crash the tool
        raise PtoError(f"'{op.name}' op could not be verified: {_message(e)}", op=op) from None


_VERIFIED_INPUT: ContextVar[ModuleOp | None] = ContextVar("pypto_verified_input", default=None)


@contextmanager
def verified_input(module: ModuleOp) -> Iterator[None]:
    """Tell the passes run inside the `with` block that `module` has been verified (by `verify_module`, or as the
    output of a pass), so `ensure_verified` need not verify it again. The pipeline runner uses it."""
    token = _VERIFIED_INPUT.set(module)
    try:
        yield
    finally:
        _VERIFIED_INPUT.reset(token)


def ensure_verified(module: ModuleOp) -> None:
    """A pass's precondition check: verify `module` unless the caller said it is verified (`verified_input`).

    The passes assume verified input (an `scf.if` that yields its results, ...). `pypto-opt` and `run_pipeline`
    verify before the first pass and after each pass, and say so; a host that runs a pass by itself (`xdsl-opt
    -p expand-mixed-kernel`, which only runs xDSL's own verifier, or `pass.apply` from Python) gets the located
    error of the verifier here instead of a crash inside the pass."""
    if _VERIFIED_INPUT.get() is not module:
        verify_module(module)


class VerifyMemo:
    """The op-local verdicts a run of passes has already established, so that verifying the module again after a
    pass re-checks only what the pass created or changed.

    What `verify_op` checks of an op with no regions and no successors that is not the last op of its block is a
    function of its class, its attributes and properties, and the types of its operands and results (xDSL's
    constraints, the op's own `verify_`, its traits' `verify`). The memo remembers that signature for every such
    op that verified; an op with an equal signature is not checked again. Signatures compare by value: xDSL
    attributes and types are immutable values whose equality is structural and exact (same class, same
    parameters; `FloatData` compares bits, so `-0.0` is not `0.0`), and every constraint and verifier reads an
    attribute only through its value, so two ops of one class with equal attributes and operand/result types get
    one verdict. So an op a pass moved or cloned is a hit, and so is an op it built with the attributes and types
    of one that verified before (the same `pto.tpush_to_aiv` in each of 500 kernels); an op with a new
    signature is verified in full. Only successes are remembered: a failing op is always verified, so the verdict
    and the message are those of the full verifier. The memo lives as long as the pipeline run that made it.

    Excluded (always verified): ops with regions or successors, block terminators (where an op stands decides
    its checks), ops with an operand that was erased, unregistered ops, and ops of a class with a trait whose
    `verify` looks beyond the op (`HasParent`, a symbol user such as `func.call`, ...: `_local_classes`) or that
    carries `ContextualVerify` (dialects/pto_traits.py), the opt-out for an op whose `verify_` reads other IR."""

    __slots__ = ("_seen", "_same", "_classes", "hits", "misses")

    def __init__(self) -> None:
        self._seen: dict[tuple, None] = {}
        self._same: dict[tuple, tuple] = {}
        self._classes: dict[type, bool] = {}
        self.hits = 0
        self.misses = 0

    def _local(self, cls: type) -> bool:
        ok = self._classes.get(cls)
        if ok is None:
            ok = self._classes[cls] = _verifies_locally(cls)
        return ok

    def signature(self, op: Operation) -> tuple | None:
        """The op's verification signature (a tuple of its class, operand and result types, attributes and
        properties), or None when its verdict may depend on other IR."""
        if op.regions or op._successors or not self._local(type(op)):
            return None
        block = op.parent
        if block is not None and block.last_op is op:
            return None
        key: list = [type(op)]
        for v in op._operands:
            if isinstance(v, ErasedSSAValue):
                return None
            key.append(v.type)
        key.append(None)
        for r in op.results:
            key.append(r.type)
        key.append(None)
        for k, a in op.attributes.items():
            key.append(k)
            key.append(a)
        key.append(None)
        for k, a in op.properties.items():
            key.append(k)
            key.append(a)
        return tuple(key)

    def verify(self, op: Operation) -> None:
        """`verify_op(op)`, skipped when an op of an equal signature verified before."""
        sig = self.signature(op)
        if sig is None:
            verify_op(op)
            return
        # First by identity (cheap: an op a pass did not touch still holds the very objects that verified), then
        # by value (hashing nested attributes structurally costs more than the identity lookup).
        ids = tuple(map(id, sig))
        if ids in self._same:
            self.hits += 1
            return
        try:
            known = sig in self._seen
        except TypeError:  # an attribute holding an unhashable value: verify the op every time
            verify_op(op)
            return
        if not known:
            self.misses += 1
            verify_op(op)
            self._seen[sig] = None
        else:
            self.hits += 1
        self._same[ids] = sig  # holds the objects, so no other object takes one of their identities


def _verifies_locally(cls: type) -> bool:
    """Whether the verdict of `verify_op` on an op of class `cls` (no regions, not a terminator) depends only on
    the op's signature: a registered IRDL op none of whose traits checks more than the op, and no
    `ContextualVerify` marker."""
    from xdsl.irdl import IRDLOperation
    from xdsl.traits import OpTrait

    from pypto_mlir.dialects.pto_traits import ContextualVerify

    if not isinstance(cls, type) or not issubclass(cls, IRDLOperation):
        return False
    try:
        traits = cls.traits
    except Exception:  # an op class xDSL cannot describe: verify it in full
        return False
    for t in traits:
        if isinstance(t, ContextualVerify):
            return False
        if type(t).verify is not OpTrait.verify and type(t).verify not in _NO_OP_TRAIT_VERIFIERS():
            return False
    return True


_no_op_verifiers: tuple | None = None


def _NO_OP_TRAIT_VERIFIERS() -> tuple:
    """Trait `verify` methods that are known to check nothing (xDSL's interface traits: `return`)."""
    global _no_op_verifiers
    if _no_op_verifiers is None:
        from xdsl import interfaces

        found = []
        for name in ("_ConditionallySpeculatableInterfaceTrait", "_HasFolderInterfaceTrait"):
            trait = getattr(interfaces, name, None)
            if trait is not None:
                found.append(trait.verify)
        _no_op_verifiers = tuple(found)
    return _no_op_verifiers


def verify_module(module: ModuleOp, memo: VerifyMemo | None = None) -> None:
    """Verify a whole module; raises `PtoError` at the first violation.

    With a `memo` (the pipeline runner passes one through a run), an op whose signature verified before is not
    checked again (`VerifyMemo`); the verdict and message are the same as without one."""
    _check_module_attrs(module)
    order: dict[Block, dict[Operation, int]] = {}
    check_op = verify_op if memo is None else memo.verify
    with indexed_symbol_lookup():
        for op in module.walk():
            _check_dominance(op, order)
            check_op(op)
            _check_terminators(op)
            name = op.name
            if name in _SCF_RESULT_REGIONS:
                _check_scf_yields(op)
            elif name == "func.func":
                _check_func_attrs(op)  # type: ignore[arg-type]
    _check_pipe_kernel_calls(module)
    _check_call_attrs(module)


def _check_call_attrs(module: ModuleOp) -> None:
    """The `pto.*` attributes of a `func.call` (docs/dialect.md, "Group members"): `pto.no_dep` lists distinct
    argument indices of the call; `pto.task_id` (the runtime task a Group member is submitted as, pypto's
    `Submit` TaskId) is a non-negative integer on a call of an AIC, AIV or InCore kernel directly in a Group's
    body.  A mixed task has one AIC and one AIV subslot, so one id may name an AIC call and an AIV call (an
    InCore call is both: ExpandMixedKernel splits it into the two, which keep its id), but not two calls of one
    side."""
    if module.body.block.first_op is None:
        return
    from xdsl.dialects import func

    from pypto_mlir.dialects.pto_abi import check_call_attrs
    from pypto_mlir.dialects.pto_traits import CoreSide
    from pypto_mlir.dialects.pto_types import FunctionKind, kind_of

    funcs = {f.sym_name.data: f for f in module.body.block.ops if isinstance(f, func.FuncOp)}
    tasks: dict[tuple[Operation, int], set[CoreSide]] = {}
    for op in module.walk():
        if not isinstance(op, func.CallOp):
            continue
        task = check_call_attrs(op)
        if task is None:
            continue
        parent = op.parent_op()
        callee = funcs.get(op.callee.root_reference.data)
        kind = kind_of(callee) if callee is not None else None
        if not (isinstance(parent, func.FuncOp) and kind_of(parent) == FunctionKind.GROUP) or kind not in (
            FunctionKind.AIC, FunctionKind.AIV, FunctionKind.INCORE
        ):
            raise PtoError(
                "'func.call' op has 'pto.task_id', which names the runtime task of a Group member: it belongs on a "
                "call of an AIC, AIV or InCore kernel directly in the body of a Group (pto.kind = #pto.kind<group>)",
                op=op,
            )
        side_of_kind = CoreSide.of_kind(kind)
        sides = set(CoreSide) if side_of_kind is None else {side_of_kind}  # an InCore kernel fills both
        key = (parent, task.value.data)
        taken = tasks.setdefault(key, set())
        if taken & sides:
            side = sorted(taken & sides)[0].tag
            raise PtoError(
                f"'func.call' op has pto.task_id = {task.value.data}, whose {side} subslot another call of Group "
                f"@{parent.sym_name.data} already fills; a task has one AIC and one AIV member call",
                op=op,
            )
        taken |= sides


_lookup_depth = 0


@contextmanager
def indexed_symbol_lookup() -> Iterator[None]:
    """While verifying, xDSL's `SymbolTable.lookup_symbol` answers from an index of each symbol table.

    xDSL's `func.call` verifier looks its callee up with `SymbolTable.lookup_symbol`, a scan of the symbol table's
    ops, once per call: O(calls x functions) on a module whose `@main` calls every kernel. Verification does not
    change the IR, so inside this block each table is scanned once into a name -> first symbol op index (the op
    the scan would have found first) and every lookup of a flat name is a dict access; a nested reference
    (`@a::@b`), or an op with no symbol table above it, still goes through xDSL's own lookup. The original is
    restored on exit (nested blocks share the outermost index)."""
    global _lookup_depth
    if _lookup_depth:
        _lookup_depth += 1
        try:
            yield
        finally:
            _lookup_depth -= 1
        return
    raw = SymbolTable.__dict__["lookup_symbol"]
    original = SymbolTable.lookup_symbol
    tables: dict[Operation, dict[StringAttr, Operation]] = {}

    def lookup(op: Operation, name: str | StringAttr | SymbolRefAttr) -> Operation | None:
        if isinstance(name, SymbolRefAttr):
            if name.nested_references.data:
                return original(op, name)
            root = name.root_reference
        else:
            root = StringAttr(name) if isinstance(name, str) else name
        anchor: Operation | None = op
        while anchor is not None and not anchor.has_trait(SymbolTable):
            anchor = anchor.parent_op()
        if anchor is None:
            return original(op, name)  # raises xDSL's error
        table = tables.get(anchor)
        if table is None:
            table = {}
            for o in anchor.regions[0].block.ops:
                if (iface := o.get_trait(SymbolOpInterface)) is not None:
                    sym = iface.get_sym_attr_name(o)
                    if sym is not None:
                        table.setdefault(sym, o)
            tables[anchor] = table
        return table.get(root)

    _lookup_depth = 1
    SymbolTable.lookup_symbol = staticmethod(lookup)  # type: ignore[method-assign]
    try:
        yield
    finally:
        SymbolTable.lookup_symbol = raw  # type: ignore[method-assign]
        _lookup_depth = 0


def _check_pipe_kernel_calls(module: ModuleOp) -> None:
    """An AIC or AIV kernel that sets up a pipe (`pto.reserve_buffer` / `pto.import_peer_buffer`) exchanges tiles
    with its peer kernel while both run, so it is called only from a Group (`pto.kind = #pto.kind<group>`), which
    starts its members together. A call from anywhere else runs the kernel alone: its first tpush/tpop waits
    forever. (Upstream `mlir-opt --inline` makes this: it inlines the Group's body into its caller.)"""
    if module.body.block.first_op is None:
        return
    from xdsl.dialects import func

    from pypto_mlir.dialects.pto_traits import CoreSide, PipeSetup
    from pypto_mlir.dialects.pto_types import FunctionKind, kind_of

    funcs = [op for op in module.body.block.ops if isinstance(op, func.FuncOp)]
    piped = {
        f.sym_name.data
        for f in funcs
        if CoreSide.of_kind(kind_of(f)) is not None and any(op.has_trait(PipeSetup) for op in f.walk())
    }
    if not piped:
        return
    for f in funcs:
        if kind_of(f) == FunctionKind.GROUP:
            continue
        for op in f.walk():
            if isinstance(op, func.CallOp) and op.callee.root_reference.data in piped:
                callee = op.callee.root_reference.data
                raise PtoError(
                    f"'func.call' op calls @{callee} from @{f.sym_name.data} (pto.kind = {kind_of(f) or 'none'}), "
                    f"but @{callee} sets up a pipe to its peer kernel and runs only as a member of a Group "
                    "(pto.kind = #pto.kind<group>), which starts both together; called alone it waits forever. "
                    "Call the Group instead (a Group inlined into its caller, e.g. by mlir-opt --inline, is no "
                    "longer one: keep Groups out of inlining)",
                    op=op,
                )


def _dominators(region) -> dict[Block, set[Block]]:
    """The dominator sets of the blocks of a multi-block region, over the terminators' successors."""
    blocks = list(region.blocks)
    preds: dict[Block, list[Block]] = {b: [] for b in blocks}
    for b in blocks:
        last = b.last_op
        for succ in last.successors if last is not None else ():
            if succ in preds:
                preds[succ].append(b)
    every = set(blocks)
    dom = {b: ({b} if i == 0 else set(every)) for i, b in enumerate(blocks)}
    changed = True
    while changed:
        changed = False
        for b in blocks[1:]:
            ps = [dom[p] for p in preds[b]]
            new = (set.intersection(*ps) if ps else set()) | {b}
            if new != dom[b]:
                dom[b], changed = new, True
    return dom


def _check_terminators(op: Operation) -> None:
    """Every block of a region ends with a terminator, unless the op says its regions need none (MLIR's rule;
    xDSL checks only that a terminator is last where there is one, so e.g. an `scf.while` whose `before` region
    was written as `{ }` verified, and printed as IR that does not parse back)."""
    if not op.regions or op.has_trait(NoTerminator):
        return
    for region in op.regions:
        for block in region.blocks:
            last = block.last_op
            if last is None:
                raise PtoError(
                    f"'{op.name}' op has an empty block in a region: expected at least a terminator", op=op
                )
            if not last.has_trait(IsTerminator):
                raise PtoError(
                    f"'{op.name}' op has a block with no terminator (it ends with '{last.name}'); end the block "
                    "with the terminator the op expects",
                    op=last,
                )


def _check_scf_yields(op: Operation) -> None:
    """An `scf.if` / `scf.execute_region` with results ends each region with an `scf.yield` of values of those
    types (xDSL inserts an empty yield when none is written, and does not compare; it does for `scf.for`); an
    `scf.execute_region` has one block (without branch ops a second one could never run)."""
    from xdsl.dialects import scf

    if isinstance(op, scf.IfOp):
        regions = [("then", op.true_region), ("else", op.false_region)]
        want = [r.type for r in op.results]
    elif isinstance(op, scf.ExecuteRegionOp):
        if len(op.region.blocks) > 1:
            raise PtoError(
                f"'scf.execute_region' op has {len(op.region.blocks)} blocks, but pto programs have no branch ops "
                "(the cf dialect is not loaded), so only its first block could ever run; write its body as one "
                "block ending with scf.yield",
                op=op,
            )
        regions, want = [("body", op.region)], [r.type for r in op.results]
    elif isinstance(op, scf.WhileOp):
        _check_scf_while(op)
        return
    else:
        return
    for which, region in regions:
        if not region.blocks:
            if want:
                raise PtoError(f"'{op.name}' op has results, so its {which} region must not be empty", op=op)
            continue
        last = region.blocks[-1].last_op
        got = [v.type for v in last.operands] if isinstance(last, scf.YieldOp) else None
        if got != want:
            yielded = "no scf.yield" if got is None else f"an scf.yield of ({', '.join(map(str, got))})"
            raise PtoError(
                f"'{op.name}' op must end its {which} region with an scf.yield of its result types "
                f"({', '.join(map(str, want))}), but the region ends with {yielded}; yield one value per result "
                "(a yield inside a nested op does not count)",
                op=last if last is not None else op,
            )


def _types(values) -> str:
    return "(" + ", ".join(str(v.type) for v in values) + ")"


def _check_scf_while(op: Operation) -> None:
    """An `scf.while` passes values around its two regions with matching types (xDSL checks none of it): the
    `before` block takes the init operands, `scf.condition` forwards the results, the `do` block takes exactly
    what the condition forwards, and its `scf.yield` gives the next iteration's `before` arguments."""
    from xdsl.dialects import scf

    assert isinstance(op, scf.WhileOp)
    if not op.before_region.blocks or not op.after_region.blocks:
        raise PtoError("'scf.while' op needs a before region and a do region, each with one block", op=op)
    before, after = op.before_region.blocks[0], op.after_region.blocks[0]
    inits, results = list(op.operands), list(op.results)
    cond, yielded = before.last_op, after.last_op

    def mismatch(what: str, got, want, at: Operation | None, fix: str) -> PtoError:
        return PtoError(
            f"'scf.while' op: {what} {_types(got)} but {fix} {_types(want)}; the values passed around the loop must "
            "match in number and type",
            op=at if at is not None else op,
        )

    if [a.type for a in before.args] != [v.type for v in inits]:
        raise mismatch("its before block takes", before.args, inits, op, "the init operands are")
    if not isinstance(cond, scf.ConditionOp):
        raise PtoError("'scf.while' op must end its before region with scf.condition", op=cond or op)
    forwarded = list(cond.operands)[1:]
    if [v.type for v in forwarded] != [r.type for r in results]:
        raise mismatch("scf.condition forwards", forwarded, results, cond, "the results are")
    if [a.type for a in after.args] != [v.type for v in forwarded]:
        raise mismatch("its do block takes", after.args, forwarded, op, "scf.condition forwards")
    if not isinstance(yielded, scf.YieldOp) or [v.type for v in yielded.operands] != [v.type for v in inits]:
        got = list(yielded.operands) if yielded is not None else []
        raise mismatch("its do block yields", got, inits, yielded, "the before block takes")


def _check_dominance(op: Operation, order: dict[Block, dict[Operation, int]]) -> None:
    """Every operand is defined before its use: by an op earlier in the same block or in an enclosing block, or
    as an argument of an enclosing block (MLIR's dominance in single-block regions; the module body is a graph
    region). The parser already scopes names; this catches a use placed before its definition, or outside the
    region that defines it, however the IR was built."""
    for i, v in enumerate(op.operands):
        if isinstance(v, BlockArgument):
            def_block, def_op = v.block, None
        elif isinstance(v, OpResult):
            def_op = v.op
            def_block = def_op.parent_block()
        else:
            continue
        name = f"%{v.name_hint}" if v.name_hint else f"operand #{i}"
        user: Operation | None = op
        while user is not None and user.parent_block() is not def_block:
            if def_block is not None and user.parent_region() is def_block.parent:
                break  # another block of the same multi-block region: dominance over the CFG
            user = user.parent_op()
        if user is not None and def_block is not None and user.parent_block() is not def_block:
            use_block = user.parent_block()
            region = def_block.parent
            assert use_block is not None and region is not None
            if isinstance(region.parent_op(), ModuleOp) or def_block in _dominators(region).get(use_block, ()):
                continue
            raise PtoError(
                f"'{op.name}' op uses {name}, which is defined in a block that does not dominate this one (not "
                "every path from the region's entry passes through it); define it in a dominating block",
                op=op,
            )
        if user is None or def_block is None:
            raise PtoError(
                f"'{op.name}' op uses {name}, which is defined inside a region that does not enclose this op; "
                "a value can only be used after its definition, in the same region or a nested one",
                op=op,
            )
        if def_op is None or isinstance(def_block.parent_op(), ModuleOp):
            continue
        pos = order.get(def_block)
        if pos is None:
            pos = order[def_block] = {o: k for k, o in enumerate(def_block.ops)}
        if pos[def_op] >= pos[user]:
            raise PtoError(
                f"'{op.name}' op uses {name} before its definition; move the op that defines it above this use",
                op=op,
            )


def _check_module_attrs(module: ModuleOp) -> None:
    for name, attr in module.attributes.items():
        if not name.startswith("pto."):
            continue
        from pypto_mlir.dialects.pto_types import TARGET_ATTR, TargetAttr

        if name != TARGET_ATTR:
            raise PtoError(f"unknown module attribute '{name}' (known: pto.target)", op=module)
        if not isinstance(attr, TargetAttr):
            raise PtoError(f"'pto.target' must be #pto.target<a2a3|a5>, got {attr}", op=module)


def _check_func_attrs(f: func.FuncOp) -> None:
    from xdsl.dialects import func

    from pypto_mlir.dialects.pto_abi import check_arg_attrs
    from pypto_mlir.dialects.pto_types import KINDS, SPLIT_ATTR, FuncFlag, FuncInt, KindAttr, SplitAttr

    if not isinstance(f, func.FuncOp):
        return
    unit_attrs = tuple(flag.value for flag in FuncFlag)
    int_attrs = tuple(n.value for n in FuncInt)
    known = ("pto.kind", SPLIT_ATTR, *unit_attrs, *int_attrs)
    for name, attr in f.attributes.items():
        if not name.startswith("pto."):
            continue
        if name not in known:
            raise PtoError(
                f"unknown function attribute '{name}' on @{f.sym_name.data} (known: {', '.join(known)})",
                op=f,
            )
        if name == "pto.kind" and not isinstance(attr, KindAttr):
            raise PtoError(f"'pto.kind' must be #pto.kind<K> with K one of: {', '.join(KINDS)}; got {attr}", op=f)
        if name == SPLIT_ATTR and not isinstance(attr, SplitAttr):
            raise PtoError(f"'pto.split' must be #pto.split<none|up_down|left_right>, got {attr}", op=f)
        if name in unit_attrs and not isinstance(attr, UnitAttr):
            raise PtoError(f"'{name}' is a unit attribute (write it without a value), got {attr}", op=f)
        if name in int_attrs:
            if not isinstance(attr, IntegerAttr) or attr.value.data <= 0:
                raise PtoError(f"'{name}' must be a positive integer, got {attr}", op=f)
    check_arg_attrs(f)


def function_kind(f: Operation) -> str | None:
    """The `#pto.kind<K>` keyword of a function (public name of `pto_types.kind_of`)."""
    from pypto_mlir.dialects.pto_types import kind_of

    return kind_of(f)


def module_target(module: ModuleOp) -> str | None:
    """The module's `#pto.target` keyword (public name of `pto_types.target_of`)."""
    from pypto_mlir.dialects.pto_types import target_of

    return target_of(module)


