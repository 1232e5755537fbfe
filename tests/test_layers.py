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
