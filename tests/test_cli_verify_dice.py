from __future__ import annotations

from pathlib import Path

import pytest

from gammon.cli import main
from gammon.match import DiceRecord, Match, Play, Roll, TableOptions
from gammon.match.fairdice import VerifiableDice


def _played_log(tmp_path: Path, *, tamper: bool = False, reveal: bool = True) -> Path:
    dice = VerifiableDice(bytes(range(32)), "m-42", ("alice-seed", "bob-seed"))
    record = DiceRecord(dice.match_id, dice.commitment, dice.client_seeds)
    match = Match(TableOptions(match_length=1), dice=record)
    while True:
        roll = dice.roll()
        seat = 0 if match.state.game.phase == "opening" else match.state.game.turn
        assert seat is not None
        match.push(Roll(seat, roll))
        if match.state.game.phase != "opening":
            break
    g = match.state.game
    assert g.turn is not None and g.dice is not None
    match.push(Play(g.turn, str(g.position.legal_moves(g.dice)[0])))
    if reveal:
        match.server_seed = dice.reveal()
    text = match.to_log()
    if tamper:
        lines = text.splitlines()
        first_roll = next(i for i, line in enumerate(lines) if '"roll"' in line)
        d = lines[first_roll].split('"dice": "')[1][:2]
        swapped = d[::-1] if d[0] != d[1] else ("12" if d != "12" else "13")
        lines[first_roll] = lines[first_roll].replace(f'"dice": "{d}"', f'"dice": "{swapped}"')
        text = "\n".join(lines) + "\n"
    path = tmp_path / "match.jsonl"
    path.write_text(text, encoding="utf-8")
    return path


def test_verify_dice_accepts_an_honest_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify-dice", str(_played_log(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert "commitment" in out and "ok" in out


def test_verify_dice_names_the_tampered_roll(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _played_log(tmp_path, tamper=True)
    assert main(["verify-dice", str(path)]) == 1
    assert "roll 0" in capsys.readouterr().out


def test_verify_dice_needs_a_revealed_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify-dice", str(_played_log(tmp_path, reveal=False))]) == 2
    assert "not revealed" in capsys.readouterr().err
    assert main(["verify-dice", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_verify_dice_refuses_an_unknown_scheme(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _played_log(tmp_path)
    text = path.read_text(encoding="utf-8")
    assert '"scheme": "hmac-sha256-v1"' in text
    path.write_text(text.replace('"scheme": "hmac-sha256-v1"', '"scheme": "md5-v0"'), "utf-8")
    assert main(["verify-dice", str(path)]) == 2
    err = capsys.readouterr().err
    assert "'md5-v0'" in err and "hmac-sha256-v1" in err
