"""The project's folders are layers, and no import circle joins its modules (dialects/, passes/, tools/,
python/pypto_mlir/).

The graph is built from the source with `ast`, so it sees every import the code can run: module-level ones and
the lazy ones inside functions (a lazy import that closes a circle is a circle still, only one that happens to
load in the right order). Imports under `if TYPE_CHECKING:` never run and are not edges of the circle check, but
they are dependences all the same, so the layer check sees them. `from P import x` is an edge to the module
`P.x` when there is one, else to `P`; importing `P.x` is not counted as importing the package `P` too (an
`__init__` that re-exports its submodules would otherwise close a circle with each of them).

The layers (docs/contributing.md *Layers*), bottom first; a module imports its own layer and the layers below
it, never one above or beside it:

    diagnostics  <  dialect  <  ir (parse, print, verify)  <  analysis  <  timing  <  passes | interpreter  <  drivers

`passes` and `interpreter` sit beside each other: a pass never runs the interpreter, the interpreter never runs a
pass (what composes them, `pypto_mlir.check_pipeline`, is a driver).  Inside `passes`, a pass's folder imports
only itself and the shared `common.py` / `decisions.py`, never another pass (the registry, `passes/__init__.py`,
names them all).  There is no exceptions list; `PENDING` holds the one edge whose fix belongs to a branch not yet
merged, and the test fails as soon as that edge is gone, so the entry cannot outlive it.

Lazy imports (inside a function) and `TYPE_CHECKING` imports are counted against ceilings that can only go
down: each one is an edge a reader does not see at the top of the file.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# source folder -> the package it is installed as (pyproject's [tool.setuptools.package-dir])
PACKAGES = {
    "python/pypto_mlir": "pypto_mlir",
    "dialects": "pypto_mlir.dialects",
    "passes": "pypto_mlir.passes",
    "tools": "pypto_mlir.tools",
}

# (layer, the module-name prefixes that belong to it), bottom first; a module is in the layer of its longest
# matching prefix, and a module no prefix matches (the pipeline, the tools, ...) is a driver.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("diagnostics", ("pypto_mlir.diagnostics",)),
    ("dialect", ("pypto_mlir.dialects",)),
    ("ir", ("pypto_mlir.ir", "pypto_mlir.verify")),
    ("analysis", ("pypto_mlir.passes.analysis",)),
    ("timing", ("pypto_mlir.timing",)),
    ("passes", ("pypto_mlir.passes",)),
    ("interpreter", ("pypto_mlir.interpreter",)),
    ("drivers", ()),
]
BESIDE = {frozenset({"passes", "interpreter"})}
"""Layers at the same height: neither imports the other."""
SHARED_PASS_MODULES = {"pypto_mlir.passes", "pypto_mlir.passes.common", "pypto_mlir.passes.decisions"}

# Edges whose fix is pending on another branch (none: ExpandMixedKernel's ring depth choice asks a cost model it
# is handed, house-emk).  An entry is removed with its edge.
PENDING: set[tuple[str, str]] = set()

# Ceilings that can only go down: when a change removes lazy or TYPE_CHECKING imports, lower the number with it.
# 104: main's 105 (the startup work of issue 44, branch newcomer, defers imports a run may not need to first use:
# the op families via dialects/pto_op_index.py, the context's dialects in ir.py, upstream MLIR in mlir_tools.py,
# the pass registry in pipeline.py, pypto-opt's rarely used flags in tools/opt_flags.py) less the one house-emk
# removed (ExpandMixedKernel's ring depth choice no longer imports the interpreter lazily: it is handed a model).
# 105: plus the registry's loader of skew-cross-core-pipeline (passes/__init__.py loads every pass lazily).
# 106: plus pipeline.DefaultSkewRewriter's import of the skew pass, loaded when ExpandMixedKernel's skew choice
# first asks it (issue 42): a pass folder may not import another pass, so the driver joins them, and a driver
# that runs no pass must not load it at startup (issue 44).
# 107: + pipeline.DefaultSplitCostModel's import of split_cost (branch split-auto: the split cost model loads the
# interpreter, which most runs never time with; the ring cost model's import is lazy for the same reason).
LAZY_IMPORT_CEILING = 107
TYPE_CHECKING_IMPORT_CEILING = 11

# Circles tolerated for now, each exactly this set of modules (a circle that grows, or any other, fails the test).
# None: keep it so.
KNOWN_CYCLES: set[frozenset[str]] = set()


def project_modules() -> dict[str, Path]:
    """Module name -> source file, for every module of the three packages."""
    out: dict[str, Path] = {}
    for folder, package in PACKAGES.items():
        base = ROOT / folder
        for path in sorted(base.rglob("*.py")):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join([package, *parts])] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> list[tuple[ast.Import | ast.ImportFrom, str]]:
    """Every import statement in `tree`, at any depth, with where it is: "module" (runs on import), "lazy" (inside
    a function) or "type" (in the body of an `if TYPE_CHECKING:`, which never runs)."""
    found: list[tuple[ast.Import | ast.ImportFrom, str]] = []

    def visit(node: ast.AST, where: str) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append((node, where))
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, "type")
            for child in node.orelse:
                visit(child, where)
            return
        inner = "lazy" if where == "module" and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else where
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    visit(tree, "module")
    return found


def import_graph(type_checking: bool = False) -> dict[str, set[str]]:
    """Module -> the project modules it imports (with `type_checking`, the `TYPE_CHECKING` ones too)."""
    modules = project_modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}

    def known(name: str) -> str | None:
        """`name` if it is a project module, else its longest prefix that is (None outside the project)."""
        parts = name.split(".")
        while parts:
            if ".".join(parts) in modules:
                return ".".join(parts)
            parts.pop()
        return None

    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node, where in _imports(ast.parse(path.read_text(), str(path))):
            if where == "type" and not type_checking:
                continue
            if isinstance(node, ast.Import):
                targets = [known(alias.name) for alias in node.names]
            else:
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                targets = [
                    f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else known(source)
                    for alias in node.names
                ]
            graph[name].update(t for t in targets if t is not None and t != name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan), each an import circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[frozenset[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return out


def _path_in(component: frozenset[str], graph: dict[str, set[str]]) -> str:
    """One circle through the component, `a -> b -> ... -> a`, for the failure message."""
    start = min(component)
    path, seen = [start], {start}
    while True:
        nxt = sorted(w for w in graph[path[-1]] if w in component)
        back = [w for w in nxt if w == start]
        if back and len(path) > 1:
            return " -> ".join(path + [start])
        step = next((w for w in nxt if w not in seen), None)
        if step is None:
            return " <-> ".join(sorted(component))
        path.append(step)
        seen.add(step)


def test_the_graph_sees_lazy_imports():
    """The graph is what the test claims: a function-level import is an edge, a TYPE_CHECKING one is not."""
    graph = import_graph()
    # passes/__init__.py loads each pass inside a function, and imports xdsl.passes only for the type checker
    assert "pypto_mlir.passes.expand_mixed_kernel.pass_" in graph["pypto_mlir.passes"]
    assert "pypto_mlir.passes.expand_mixed_kernel.verifier" in graph["pypto_mlir.passes"]
    # python/pypto_mlir/__init__.py imports its names lazily (import_module), and the TYPE_CHECKING ones are not edges
    assert "pypto_mlir.ir" not in graph["pypto_mlir"]
    # a relative `from .x import y` and an absolute `from pypto_mlir.x import y` name the same module
    assert "pypto_mlir.passes.analysis.affinity" in graph["pypto_mlir.passes.expand_mixed_kernel.split_mixed_kernel"]
    assert "pypto_mlir.diagnostics" in graph["pypto_mlir.passes.expand_mixed_kernel.split_mixed_kernel"]


def test_no_import_cycles():
    graph = import_graph()
    found = cycles(graph)
    unexpected = [c for c in found if c not in KNOWN_CYCLES]
    assert not unexpected, "import circles:\n" + "\n".join(_path_in(c, graph) for c in unexpected)


def layer_of(module: str) -> str:
    """The layer of `module`: the one of its longest matching prefix in `LAYERS`, else "drivers"."""
    best, length = "drivers", -1
    for layer, prefixes in LAYERS:
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > length:
                best, length = layer, len(prefix)
    return best


def _pass_folder(module: str) -> str | None:
    """The pass folder `pypto_mlir.passes.<name>` a passes-layer module belongs to (None for the shared ones); a
    folder's own `__init__` belongs to it (it may re-export its modules, as skew_cross_core_pipeline's does)."""
    parts = module.split(".")
    if len(parts) == 3 and (ROOT / "passes" / parts[2]).is_dir():
        return module
    return ".".join(parts[:3]) if len(parts) > 3 else None


def layer_violations(graph: dict[str, set[str]]) -> list[tuple[str, str, str]]:
    """(importer, imported, why) for every edge against the layer order."""
    rank = {layer: i for i, (layer, _) in enumerate(LAYERS)}
    out = []
    for src in sorted(graph):
        a = layer_of(src)
        for dst in sorted(graph[src]):
            b = layer_of(dst)
            if frozenset({a, b}) in BESIDE:
                out.append((src, dst, f"{a} and {b} sit beside each other"))
            elif rank[b] > rank[a]:
                out.append((src, dst, f"{a} imports {b}, a layer above it"))
            elif a == b == "passes" and src != "pypto_mlir.passes" and dst not in SHARED_PASS_MODULES:
                if _pass_folder(src) != _pass_folder(dst):
                    out.append((src, dst, "a pass imports another pass"))
    return out


def hidden_imports() -> dict[str, list[str]]:
    """"lazy" / "type" -> `path:line` of every import inside a function / under `if TYPE_CHECKING:`."""
    found: dict[str, list[str]] = {"lazy": [], "type": []}
    for path in project_modules().values():
        for node, where in _imports(ast.parse(path.read_text(), str(path))):
            if where != "module":
                found[where].append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_layers():
    graph = import_graph(type_checking=True)
    found = layer_violations(graph)
    unexpected = [f"{a} -> {b}: {why}" for a, b, why in found if (a, b) not in PENDING]
    assert not unexpected, "imports against the layers (docs/contributing.md, Layers):\n" + "\n".join(unexpected)
    stale = sorted(PENDING - {(a, b) for a, b, _ in found})
    assert not stale, f"pending edges that are gone, remove them from PENDING: {stale}"


def test_layer_check_can_fail():
    """Each rule of the layer check rejects the edge it is about."""
    graph = {
        "pypto_mlir.dialects.pto_ops": {"pypto_mlir.passes.analysis.affinity"},
        "pypto_mlir.interpreter.machine": {"pypto_mlir.passes.common"},
        "pypto_mlir.passes.common": {"pypto_mlir.interpreter.machine"},
        "pypto_mlir.passes.lower_auto_vector_split.pass_": {
            "pypto_mlir.passes.expand_mixed_kernel.pass_",
            "pypto_mlir.passes.lower_auto_vector_split.lowering",
            "pypto_mlir.passes.common",
            "pypto_mlir.timing.costs",
        },
        "pypto_mlir.passes": {"pypto_mlir.passes.expand_mixed_kernel.pass_"},
        "pypto_mlir.timing.costs": {"pypto_mlir.interpreter.machine"},
        "pypto_mlir.pipeline": {"pypto_mlir.passes", "pypto_mlir.interpreter"},
    }
    found = {(a, b) for a, b, _ in layer_violations(graph)}
    assert found == {
        ("pypto_mlir.dialects.pto_ops", "pypto_mlir.passes.analysis.affinity"),
        ("pypto_mlir.interpreter.machine", "pypto_mlir.passes.common"),
        ("pypto_mlir.passes.common", "pypto_mlir.interpreter.machine"),
        ("pypto_mlir.passes.lower_auto_vector_split.pass_", "pypto_mlir.passes.expand_mixed_kernel.pass_"),
        ("pypto_mlir.timing.costs", "pypto_mlir.interpreter.machine"),
    }
    assert layer_of("pypto_mlir.verify") == "ir" and layer_of("pypto_mlir.tools.pypto_opt") == "drivers"


def test_hidden_import_ceilings():
    """Lazy and TYPE_CHECKING imports hide edges from a reader: their number can only go down."""
    found = hidden_imports()
    for kind, ceiling in (("lazy", LAZY_IMPORT_CEILING), ("type", TYPE_CHECKING_IMPORT_CEILING)):
        n = len(found[kind])
        assert n <= ceiling, f"{n} {kind} imports, over the ceiling of {ceiling}: import at the top of the module\n" + (
            "\n".join(found[kind])
        )
        assert n == ceiling, f"{n} {kind} imports, under the ceiling of {ceiling}: lower the ceiling to {n}"
