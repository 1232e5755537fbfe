"""The one import-graph checker of the tests: gammon's modules, what each imports, cycles.

Every import counts: at module level, inside functions and under ``TYPE_CHECKING``.
``from package import name`` depends on ``package.name`` when that is a module, else on
the package itself; the implicit import of a parent package does not count (every module
would otherwise form a cycle with ``gammon/__init__``).  Relative imports are resolved.

>>> graph = import_graph(["gammon.position", "gammon.rules", "gammon.variants"])
>>> sorted(graph)
['gammon.position', 'gammon.rules', 'gammon.variants']
>>> cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
[['a', 'b', 'c']]
>>> sorted(packages_imported(SRC / "gammon" / "bots" / "nets" / "net.py") & {"numpy", "sys"})
['numpy']
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from pathlib import Path

__all__ = ["SRC", "cycles", "import_graph", "module_paths", "packages_imported"]

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"


def module_paths() -> dict[str, Path]:
    """Every gammon module's dotted name -> its file (a package is its ``__init__``)."""
    mods: dict[str, Path] = {}
    for path in (SRC / "gammon").rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        mods[".".join(parts)] = path
    return mods


def _targets(
    name: str, path: Path, node: ast.Import | ast.ImportFrom, mods: dict[str, Path]
) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    base = node.module or ""
    if node.level:
        parts = package.split(".")
        parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join([*parts, base] if base else parts)
    return [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]


def import_graph(within: Iterable[str] | None = None) -> dict[str, set[str]]:
    """Module -> the gammon modules it imports (anywhere in the file).

    ``within`` (dotted names) keeps those modules alone, and only the imports between
    them: the subgraph whose cycles are that layer's own.
    """
    mods = module_paths()
    keep = set(mods) if within is None else set(within)
    unknown = keep - set(mods)
    if unknown:
        raise ValueError(f"not gammon modules: {sorted(unknown)}")
    graph: dict[str, set[str]] = {}
    for name in sorted(keep):
        path = mods[name]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for target in _targets(name, path, node, mods):
                    while target not in mods and "." in target:
                        target = target.rpartition(".")[0]
                    if target in keep and target != name:
                        deps.add(target)
        graph[name] = deps
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative);
    edges to modules outside ``graph`` are ignored."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def children(node: str) -> Iterator[str]:
        return iter(sorted(c for c in graph[node] if c in graph))

    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, children(root))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, todo = work[-1]
            child = next(todo, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, children(child)))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def packages_imported(path: Path, *, top_level_only: bool = False) -> set[str]:
    """The top-level package names a file imports absolutely (``numpy`` for
    ``import numpy.linalg``); ``top_level_only`` counts the module-level statements alone
    (an import inside a function runs only when called)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    names: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names
