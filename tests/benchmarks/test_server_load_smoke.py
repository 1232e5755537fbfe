"""Two 5-second runs of ``benchmarks/server_load.py``, so that the benchmark cannot rot
(issue #20: as shipped it died on ``--max-sockets`` and nobody noticed)."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the server benchmark needs the server extra")

ROOT = Path(__file__).resolve().parents[2]


def test_the_server_benchmark_runs() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    command = [sys.executable, str(ROOT / "benchmarks" / "server_load.py")]
    args = ["--matches", "30", "--duration", "5", "--think", "0.2", "--clients", "1"]
    args += ["--repeat", "2"]  # two runs, each on fresh servers, and their summary
    done = subprocess.run(
        [*command, *args], capture_output=True, text=True, timeout=180, env=env, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    acked = [int(n) for n in re.findall(r"actions acknowledged: (\d+) in", out)]
    assert len(acked) == 2 and min(acked) > 30, out
    assert "load average" in out and "run 2:" in out and re.search(r"p99: median \d", out), out
    # every acknowledged action's event reached the other player (paired by version)
    news = [int(n) for n in re.findall(r"the opponent's news .* \((\d+) actions\)", out)]
    assert len(news) == 2 and all(n >= 0.9 * a for n, a in zip(news, acked, strict=True)), out
    errors = re.search(r"errors: (\{.*\})", out)
    # a decision a player saw may have moved on (the server rolled): nothing else
    assert errors is None or set(ast.literal_eval(errors.group(1))) <= {
        "stale",
        "illegal_action",
    }, out
