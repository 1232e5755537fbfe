from __future__ import annotations

from pathlib import Path

import pytest

from conftest import DATA
from gammon.cli import main
from gammon.match import Match


def test_convert_mat_to_log_to_sgf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "tiny.jsonl"
    assert main(["convert", str(DATA / "tiny.mat"), str(log)]) == 0
    match = Match.from_log(log.read_text(encoding="utf-8"))
    assert match.state.games[0].reason == "drop"
    mat = tmp_path / "again.mat"
    assert main(["convert", str(log), str(mat)]) == 0
    assert "Doubles => 2" in mat.read_text(encoding="utf-8")
    sgf = tmp_path / "m.sgf"
    assert main(["convert", str(log), str(sgf)]) == 0
    assert sgf.read_text(encoding="utf-8").startswith("(;FF[4]GM[6]")
    # and back: SGF is read too
    back = tmp_path / "back.jsonl"
    assert main(["convert", str(sgf), str(back)]) == 0
    again = Match.from_log(back.read_text(encoding="utf-8"))
    assert again.state.score == match.state.score and again.state.games == match.state.games
    # and eXtreme Gammon's .xg, both ways
    xg = tmp_path / "m.xg"
    assert main(["convert", str(log), str(xg)]) == 0
    assert xg.read_bytes()[:4] == b"RGMH"
    from_xg = tmp_path / "from_xg.jsonl"
    assert main(["convert", str(xg), str(from_xg)]) == 0
    assert Match.from_log(from_xg.read_text(encoding="utf-8")).state.games == match.state.games
    capsys.readouterr()


def test_convert_errors_are_clear(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", str(tmp_path / "missing.mat"), str(tmp_path / "x.jsonl")]) == 2
    assert "cannot" in capsys.readouterr().err
    bad = tmp_path / "bad.mat"
    bad.write_text(" 3 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 24/10\n", encoding="utf-8")
    assert main(["convert", "--strict", str(bad), str(tmp_path / "x.jsonl")]) == 2
    assert "error" in capsys.readouterr().err
    # without --strict the illegal move is named in a warning and left out
    assert main(["convert", str(bad), str(tmp_path / "x.jsonl")]) == 0
    out = capsys.readouterr()
    assert out.out.rstrip().endswith("1 warning")
    assert out.err.startswith("warning: bad.mat: line 5: game 1, move 1 (A): '31: 24/10': illegal")
