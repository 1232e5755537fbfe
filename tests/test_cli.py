from __future__ import annotations

import json
import subprocess
import sys

import pytest

from gammon.cli import main


def run(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gammon", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_moves_with_position_and_dice(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "4HPwATDgc/ABMA", "65"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["24/13\t4HPwAyDgc/ABMA"] or len(out) == 7
    assert "24/13\t" in "\n".join(out)


def test_moves_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "--json", "4HPwATDgc/ABMA", "31"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data) == 16
    assert {"move", "position_id"} <= set(data[0])
    assert any(d["move"] == "8/5 6/5" and d["position_id"] == "sGfwATDgc/ABMA" for d in data)


def test_moves_stdin_answers_each_line_in_order() -> None:
    lines = [
        "4HPwATDgc/ABMA 31",
        "garbage",
        "4HPwATDgc/ABMA 77",
        "sGfwATDgc/ABMA 66",
        "27YBAAAEAEAAAA 66",
    ]
    proc = run(["moves", "--json"], "\n".join(lines) + "\n")
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(answers) == len(lines)
    assert len(answers[0]) == 16
    assert "error" in answers[1] and "error" in answers[2]
    assert isinstance(answers[3], list) and answers[3]
    assert answers[4] == []


def test_moves_caucasian_variant(capsys: pytest.CaptureFixture[str]) -> None:
    # C07: under the Caucasian rule only 8/4* can be played with 4-1
    assert main(["moves", "--variant", "caucasian", "AABGBoMAAAAAAA", "41"]) == 0
    assert capsys.readouterr().out.split("\t")[0] == "8/4*"
    assert main(["moves", "AABGBoMAAAAAAA", "41"]) == 0
    assert capsys.readouterr().out.split("\t")[0] == "8/4*/3"


def test_no_move_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "not-an-id!!!!!", "31"]) == 2
    assert "invalid Position ID" in capsys.readouterr().err
    assert main(["moves", "4HPwATDgc/ABMA"]) == 2
    assert "give both" in capsys.readouterr().err


def test_show_and_demo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "4HPwATDgc/ABMA"]) == 0
    out = capsys.readouterr().out
    assert "pips 167" in out and "XGID=" in out
    assert main(["demo"]) == 0
    assert "16 legal moves with 31" in capsys.readouterr().out


def test_show_svg(capsys: pytest.CaptureFixture[str]) -> None:
    import xml.etree.ElementTree as ET

    assert main(["show", "4HPwATDgc/ABMA", "--svg", "--dice", "31"]) == 0
    root = ET.fromstring(capsys.readouterr().out)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert sum(1 for e in root.iter() if e.get("class") == "die") == 2
    assert main(["show", "4HPwATDgc/ABMA", "--svg", "--dice", "71"]) == 2
    assert "invalid dice '71'" in capsys.readouterr().err


def test_help_lists_commands() -> None:
    proc = run(["--help"])
    assert proc.returncode == 0
    for command in ("moves", "show", "demo"):
        assert command in proc.stdout
