"""The fair-play benchmark, tiny (two rounds of 1-point matches): it plays, analyses,
scores like the server and prints its table (not a measurement)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("bgsage", reason="the benchmark plays and analyses with bgsage")

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_a_tiny_run_prints_every_line_and_scores_its_raw_data_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import fairplay

    raw, out = tmp_path / "raw.json", tmp_path / "out.txt"
    args = ["--levels", "expert", "--honest", "2", "--fractions", "1.0", "--cheaters", "2"]
    args += ["--history", "1", "--test", "1", "--length", "1", "--workers", "1"]
    assert fairplay.main([*args, "--raw", str(raw), "--out", str(out), "--sweep", "4"]) == 0
    text = capsys.readouterr().out
    assert "Honest accounts" in text and "f = 1.0" in text and "4.0: FP" in text
    data = json.loads(raw.read_text())
    assert data["matches"] == 4 and len(data["games"]) == 8  # 2 rounds of 2 matches
    assert out.read_text().startswith("$ .venv/bin/python benchmarks/fairplay.py")
    assert fairplay.main(["--from-raw", str(raw), "--sweep"]) == 0
    assert capsys.readouterr().out.splitlines()[2:] == text.splitlines()[2:-3]  # no sweep
