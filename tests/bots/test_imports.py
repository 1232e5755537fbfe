"""gammon.bots imports with the standard library alone; bgsage only when asked for."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from importgraph import packages_imported

BOTS = Path(__file__).resolve().parents[2] / "src" / "gammon" / "bots"
ENGINE_FREE = ["__init__.py", "met.py", "evaluator.py", "equity.py", "bot.py"]


def test_engine_free_modules_import_only_the_standard_library() -> None:
    allowed = set(sys.stdlib_module_names) | {"gammon"}
    for name in ENGINE_FREE:
        outside = packages_imported(BOTS / name, top_level_only=True) - allowed
        assert not outside, f"{name} imports {sorted(outside)}"


def test_importing_gammon_bots_does_not_load_bgsage() -> None:
    code = (
        "import sys, gammon.bots, gammon.bots.bot, gammon.bots.equity\n"
        "assert not {'bgsage', 'bgbot_cpp', 'numpy'} & set(sys.modules), sorted(sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_table_ships_inside_the_package() -> None:
    assert (BOTS / "data" / "Kazaross-XG2.xml").is_file()
