"""The offline clicks count, tiny (two bot games): it writes turns, runs the page's click
logic over them in Node and prints both rules and their ratio (not a measurement)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("bgsage", reason="the benchmark's games are played by bgsage bots")

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("node") is None, reason="the count runs the page's JS in Node")
def test_two_games_count_both_rules() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "clicks.py"), "--games", "2", "--seed", "3"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    per_move = [float(x) for x in re.findall(r"(\d\.\d+) clicks a move", done.stdout)]
    assert len(per_move) == 2, done.stdout
    reference, share = per_move
    # the share never takes more clicks than one per die: each click plays at least one die
    assert 0 < share <= reference <= 4, done.stdout
    assert "ratio (share / one per die)" in done.stdout
