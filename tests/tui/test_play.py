"""``gammon play`` driven through its input, as a person (or tmux) would drive it."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("bgsage", reason="gammon play needs the bot extra (bgsage)")
pytest.importorskip("rich", reason="gammon play needs the bot extra (rich)")

from rich.console import Console

from gammon.bots.seat import bot_for_level
from gammon.cli import build_parser, main
from gammon.match import TableOptions
from gammon.match.fairdice import VerifiableDice
from gammon.tui.play import Quit, TerminalGame, scripted

SEED = "11" * 32


def _game(options: TableOptions, read: object) -> tuple[TerminalGame, io.StringIO]:
    out = io.StringIO()
    game = TerminalGame(
        options,
        human=0,
        bot=bot_for_level("expert"),
        dice=VerifiableDice(bytes.fromhex(SEED), "test-play"),
        read=read,  # type: ignore[arg-type]
        console=Console(file=out, no_color=True, width=120),
    )
    return game, out


def test_a_whole_match_played_through_the_prompts() -> None:
    holder: list[TerminalGame] = []
    answered: list[str] = []

    def read(prompt: str) -> str:
        game = holder[0]
        g = game.match.state.game
        if prompt.startswith("Play "):
            answer = ""  # confirm
        elif g.phase == "moving":
            assert g.dice is not None
            answer = str(g.position.legal_moves(g.dice)[0])
        elif g.phase in ("doubled", "beavered", "raccooned"):
            answer = "take"
        elif g.phase == "resigning":
            answer = "accept"
        else:
            answer = ""
        answered.append(answer)
        return answer

    game, out = _game(TableOptions(match_length=3), read)
    holder.append(game)
    game.run()
    assert game.match.state.over
    text = out.getvalue()
    assert "commitment" in text and "wins the match" in text
    assert len(answered) > 10


def test_undo_before_confirm_and_bad_input_change_nothing() -> None:
    lines = ["", "", "?", "1", "undo", "24/12", "help", "hint", "?", "1", "", "quit"]
    game, out = _game(TableOptions(match_length=1), scripted(lines))
    with pytest.raises(Quit):
        game.run()
    text = out.getvalue()
    assert "Taken back." in text
    assert "illegal move '24/12'" in text or "Not now" in text
    assert "take / drop" in text  # help was shown
    # exactly one move of ours was confirmed (the undone one was not played)
    plays = [a for a in game.match.actions if getattr(a, "move", None) and a.player == 0]
    assert len(plays) <= 1


def test_cli_play_saves_a_verifiable_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "m.jsonl"
    args = build_parser().parse_args(
        ["play", "--match", "1", "--no-color", "--server-seed", SEED, "--save", str(record)]
    )
    from gammon.tui.play import run

    assert run(args, read=scripted(["", "", "?", "1", "", "resign 3", "quit"])) == 0
    assert record.exists()
    capsys.readouterr()
    assert main(["verify-dice", str(record)]) == 0


def test_every_table_option_is_a_flag() -> None:
    args = build_parser().parse_args(
        [
            "play",
            "--money",
            "--games",
            "2",
            "--stake",
            "5",
            "--cube-limit",
            "8",
            "--jacoby",
            "--beaver",
            "--raccoon",
            "--auto-doubles",
            "1",
            "--end",
            "mars",
            "--draw-last-roll",
            "--first-move",
            "loser",
            "--variant",
            "caucasian",
            "--clock",
            "--level",
            "beginner",
        ]
    )
    assert args.money and args.cube_limit == 8 and args.end == "mars" and args.first_move == "loser"


def test_play_runs_as_a_program(tmp_path: Path) -> None:
    record = tmp_path / "p.jsonl"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gammon",
            "play",
            "--match",
            "1",
            "--no-color",
            "--save",
            str(record),
        ],
        input="\n\n?\nhelp\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Saved the match" in proc.stdout and record.exists()


def test_a_match_can_start_at_a_score(tmp_path: Path) -> None:
    from gammon.match import read_log
    from gammon.tui.play import run

    record = tmp_path / "s.jsonl"
    flags = ["--match", "5", "--score", "4-2", "--seat", "1", "--no-color"]
    args = build_parser().parse_args(["play", *flags, "--server-seed", SEED, "--save", str(record)])
    assert run(args, read=scripted(["quit"])) == 0
    saved = read_log(record.read_text())
    assert saved.start_score == (2, 4)  # seat 0 is the bot: its score first
    assert saved.initial_state().game.crawford


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--score", "5-2"], "cannot start at 5-2"),
        (["--money", "--score", "1-0"], "are for matches"),
        (["--score", "2-3", "--post-crawford"], "needs a --score where one side needs one point"),
    ],
)
def test_bad_starting_scores_are_refused(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--no-color", *argv]) == 2
    assert message in capsys.readouterr().err


def test_a_malformed_score_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--score", "four-two"])
    assert "expected a score like 3-4" in capsys.readouterr().err


def test_only_a_yes_confirms_a_move_anything_else_asks_again() -> None:
    prompts: list[str] = []
    lines = iter(["", "", "1", "24/12 nonsense", "hint", "y", "quit", "y"])

    def read(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(lines)
        except StopIteration:
            raise Quit from None

    game, out = _game(TableOptions(match_length=1), read)
    # "1" is not a move number until listed: type the first legal move instead
    holder = game

    def read2(prompt: str) -> str:
        g = holder.match.state.game
        answer = read(prompt)
        if answer == "1" and g.phase == "moving" and g.dice is not None:
            return str(g.position.legal_moves(g.dice)[0])
        return answer

    game.read = read2
    with pytest.raises(Quit):
        game.run()
    text = out.getvalue()
    play_prompts = [p for p in prompts if p.startswith("Play ")]
    assert len(play_prompts) == 3  # asked again twice, then "y" played it
    assert text.count("is neither") == 2
    assert any(getattr(a, "move", None) and a.player == 0 for a in game.match.actions)


def test_quit_asks_first() -> None:
    game, out = _game(TableOptions(match_length=1), scripted(["quit", "n", "quit", "yes"]))
    with pytest.raises(Quit):
        game.run()
    text = out.getvalue()
    assert "Playing on." in text
    assert not game.match.actions or all(a.player != 0 for a in game.match.actions)


def test_the_person_at_the_keyboard_is_you_with_the_right_verbs() -> None:
    game, _out = _game(TableOptions(match_length=1), scripted([]))
    assert game.subject(0, "rolls") == "You roll"
    assert game.subject(0, "doubles") == "You double"
    assert game.subject(0, "starts") == "You start"
    assert game.subject(0, "wins") == "You win"
    assert game.subject(1, "rolls") == "Bot rolls"


def test_a_whole_match_speaks_good_english() -> None:
    game, out = _game(TableOptions(match_length=1), scripted(["", "double", "resign 3"]))
    with contextlib.suppress(Quit):
        game.run()
    text = out.getvalue()
    assert "You offer to resign" in text
    for wrong in ("You starts", "You rolls", "You doubles", "You offers", "You wins", "You plays"):
        assert wrong not in text


def test_the_record_goes_to_the_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gammon.tui.play import data_dir, run

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GAMMON_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_dir() == tmp_path / "xdg" / "gammon" / "games"
    monkeypatch.setenv("GAMMON_DATA_DIR", str(tmp_path / "mine"))
    args = build_parser().parse_args(["play", "--match", "1", "--no-color", "--server-seed", SEED])
    assert run(args, read=scripted(["quit", "y"])) == 0
    saved = list((tmp_path / "mine").glob("gammon-*.jsonl"))
    assert len(saved) == 1
    assert not list(tmp_path.glob("gammon-*.jsonl"))  # nothing in the current directory


def _play_first_moves(options: TableOptions) -> tuple[TerminalGame, io.StringIO]:
    """A whole match through the prompts, always typing the first legal move."""
    holder: list[TerminalGame] = []

    def read(prompt: str) -> str:
        g = holder[0].match.state.game
        if prompt.startswith("Play "):
            return ""
        if g.phase == "moving":
            assert g.dice is not None
            return str(g.position.legal_moves(g.dice)[0])
        return "accept" if g.phase == "resigning" else ""

    game, out = _game(options, read)
    holder.append(game)
    game.run()
    return game, out


@pytest.mark.parametrize("variant", ["fevga", "plakoto", "tavla"])
def test_a_whole_game_of_a_variant_through_the_prompts(variant: str) -> None:
    game, out = _play_first_moves(TableOptions(variant=variant, match_length=1, cube=False))
    assert game.match.state.over
    assert "wins the match" in out.getvalue()


def test_play_offers_every_variant_and_no_cube_where_it_has_none(tmp_path: Path) -> None:
    from gammon.match import read_log
    from gammon.tui.play import run

    record = tmp_path / "v.jsonl"
    argv = ["play", "--variant", "long-nardy", "--no-color", "--server-seed", SEED]
    args = build_parser().parse_args([*argv, "--save", str(record)])
    assert run(args, read=scripted(["quit", "y"])) == 0
    options = read_log(record.read_text()).options
    assert (options.variant, options.cube) == ("long-nardy", False)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--variant", "chess"])


def test_a_tavli_match_through_the_prompts(tmp_path: Path) -> None:
    """``gammon play --variant tavli``: no cube, the winner starts the next game, and the
    games go portes, plakoto, fevga, each announced with its variant."""
    from gammon.match import read_log
    from gammon.tui.play import run

    record = tmp_path / "t.jsonl"
    argv = ["play", "--variant", "tavli", "--match", "3", "--no-color", "--server-seed", SEED]
    args = build_parser().parse_args([*argv, "--save", str(record)])
    assert run(args, read=scripted(["quit", "y"])) == 0
    options = read_log(record.read_text()).options
    assert (options.variant, options.cube, options.first_move) == ("tavli", False, "winner")

    game, out = _play_first_moves(TableOptions(variant="tavli", match_length=3, cube=False))
    state = game.match.state
    assert state.over and len(state.games) >= 2
    assert "Game 2 starts: plakoto" in out.getvalue()


def test_hint_in_plakoto_lists_the_net_s_best_moves() -> None:
    holder: list[TerminalGame] = []
    asked: list[str] = []

    def read(prompt: str) -> str:
        g = holder[0].match.state.game
        if prompt.startswith("Play "):
            return ""
        if g.phase == "turn" and "turn" not in asked:
            asked.append("turn")
            return "hint"
        if g.phase == "moving" and g.turn == 0:
            if "moving" not in asked:
                asked.append("moving")
                return "hint"
            raise Quit
        assert g.dice is not None or g.phase != "moving"
        return "" if g.phase != "moving" else str(g.position.legal_moves(g.dice)[0])

    game, out = _game(TableOptions(variant="plakoto", match_length=1, cube=False), read)
    holder.append(game)
    with pytest.raises(Quit):
        game.run()
    text = out.getvalue()
    assert "moving" in asked
    assert text.count(" equity ") >= 1 and "Traceback" not in text
    if "turn" in asked:
        assert "roll (no cube in this game)" in text
