"""No import circle between the project's modules (passes/, dialects/, python/pypto_mlir/).

The graph is built from the source with `ast`, so it sees every import the code can run: module-level ones and
the lazy ones inside functions (a lazy import that closes a circle is a circle still, only one that happens to
load in the right order). Imports under `if TYPE_CHECKING:` never run and are not edges. `from P import x` is an
edge to the module `P.x` when there is one, else to `P`; importing `P.x` is not counted as importing the package
`P` too (an `__init__` that re-exports its submodules would otherwise close a circle with each of them).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# source folder -> the package it is installed as (pyproject's [tool.setuptools.package-dir])
PACKAGES = {"python/pypto_mlir": "pypto_mlir", "dialects": "pypto_mlir.dialects", "passes": "pypto_mlir.passes"}

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


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement in `tree`, at any depth, except the bodies of `if TYPE_CHECKING:`."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports."""
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
        for node in _imports(ast.parse(path.read_text(), str(path))):
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
