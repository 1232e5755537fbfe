"""The core (gammon, gammon.notation, gammon.match) imports only the standard library,
and nothing under src/ imports the GPL test oracles."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "gammon"
CORE = [p for p in SRC.glob("*.py") if p.name not in {"cli.py", "__main__.py"}] + [
    *SRC.glob("notation/**/*.py"),
    *SRC.glob("rules/**/*.py"),
    *SRC.glob("match/**/*.py"),
]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_core_imports_only_the_standard_library() -> None:
    assert CORE
    allowed = set(sys.stdlib_module_names) | {"gammon"}
    for path in CORE:
        outside = _imports(path) - allowed
        assert not outside, f"{path.relative_to(SRC)} imports {sorted(outside)}"


def test_core_does_not_import_the_outer_layers() -> None:
    for path in CORE:
        text = path.read_text(encoding="utf-8")
        for layer in ("gammon.bots", "gammon.server", "gammon.storage", "gammon.cli"):
            assert f"import {layer}" not in text and f"from {layer}" not in text, (path, layer)


def test_nothing_imports_gnubg() -> None:
    for path in SRC.rglob("*.py"):
        assert not _imports(path) & {"gnubg", "gnubg_nn"}, path


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_graph(paths: list[Path]) -> dict[str, set[str]]:
    """Module -> the gammon modules it imports, counting every import statement (inside
    functions and under ``TYPE_CHECKING`` too); ``from pkg import name`` counts the
    submodule ``pkg.name`` when there is one, else ``pkg``."""
    known = {_module_name(p): p for p in SRC.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in paths:
        name = _module_name(path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    targets.add(full if full in known else base)
        found = set()
        for target in targets:
            while target and target not in known and "." in target:
                target = target.rpartition(".")[0]
            if target in known and target != name:
                found.add(target)
        graph[name] = found
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_core_has_no_import_cycles() -> None:
    """gammon's own modules, gammon.notation and gammon.rules import each other without
    a cycle: a lower module that needs a type takes a small Protocol instead."""
    core = [p for p in SRC.glob("*.py") if p.name not in {"cli.py", "__main__.py"}] + [
        *SRC.glob("notation/**/*.py"),
        *SRC.glob("rules/**/*.py"),
    ]
    graph = _import_graph(core)
    assert graph["gammon.model"] >= {"gammon.rules", "gammon.notation.drawing"}
    assert _cycles(graph) == []
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c"]]
