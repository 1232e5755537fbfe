"""gammon.bots imports with the standard library alone; bgsage only when asked for."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

BOTS = Path(__file__).resolve().parents[2] / "src" / "gammon" / "bots"
ENGINE_FREE = ["__init__.py", "met.py", "evaluator.py", "equity.py", "bot.py"]


def _top_level_imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_engine_free_modules_import_only_the_standard_library() -> None:
    allowed = set(sys.stdlib_module_names) | {"gammon"}
    for name in ENGINE_FREE:
        outside = _top_level_imports(BOTS / name) - allowed
        assert not outside, f"{name} imports {sorted(outside)}"


def test_importing_gammon_bots_does_not_load_bgsage() -> None:
    code = (
        "import sys, gammon.bots, gammon.bots.bot, gammon.bots.equity\n"
        "assert not {'bgsage', 'bgbot_cpp', 'numpy'} & set(sys.modules), sorted(sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_table_ships_inside_the_package() -> None:
    assert (BOTS / "data" / "Kazaross-XG2.xml").is_file()
