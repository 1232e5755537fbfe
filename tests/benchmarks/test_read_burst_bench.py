"""The read-burst benchmark, tiny (2 bursts of 4 clients asking a 2-game session's page,
the same server twice): it prints the probe's figures for each server and the ratio (not
a measurement)."""

from __future__ import annotations

from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
SRC = Path(__file__).resolve().parents[2] / "src"


def test_a_tiny_run_prints_each_servers_probe_and_the_ratio(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import read_burst

    args = ["--clients", "4", "--bursts", "2", "--pause", "0.5", "--games", "2"]
    assert read_burst.main([*args, "--server-src", str(SRC), "--server-src", str(SRC)]) == 0
    out = capsys.readouterr().out
    assert out.count("probe during the bursts:  p50") == 2, out
    assert out.count("the clients' answers (HTTP status: count): {200: 8}") == 2, out
    assert "against the first server:" in out.splitlines()[-1], out
