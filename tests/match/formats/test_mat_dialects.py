"""The .mat dialects of issue #16 (tests/data/mat/dialects/): each file reads as GNU
Backgammon 1.07 reads it, from the outcomes stored in ``expected.json`` (the oracle test
tests/oracle/test_gnubg_dialects.py checks them against gnubg itself).

Same games, winners and points, and (in matches) the same score at the start of each
game; in each game replayed exactly, the same position before every move, which checks
that an ambiguous short move is read as gnubg reads it.  The games that the rules cannot
replay exactly carry warnings naming their line, and the strict reader refuses them.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from gammon import Dice, InvalidNotationError
from gammon.match import Play, Roll, replay
from gammon.match.formats import mat_to_record
from gammon.match.formats.notes import import_warnings, unchecked_games

ROOT = Path(__file__).resolve().parents[3]
DIALECTS = ROOT / "tests" / "data" / "mat" / "dialects"
EXPECTED: dict[str, Any] = json.loads((DIALECTS / "expected.json").read_text(encoding="utf-8"))


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


BENCH = _load("mat_corpus", ROOT / "benchmarks" / "mat_corpus.py")

#: file -> (the games not replayed exactly, the lines of their warnings)
UNCHECKED: dict[str, tuple[set[int], list[int]]] = {
    "abandon_vs_resign.mat": ({1}, [99]),  # the loser's last move is left out
    "hand_unknown.mat": ({1}, [11]),
    "impossible_points.mat": ({2}, [95, 97]),  # 97: a money score line, game 3 exact
    "money_zero_scores.mat": (set(), [100, 141]),
    "offturn_resign.mat": ({1, 2}, [11, 22]),
    # an illegal move, then a resignation gnubg takes off turn after a redouble
    "offturn_after_redouble.mat": ({1}, [10, 11]),
    "dance_then_resign.mat": ({1}, [7]),  # the loser's dance is left out
    "playable_no_move.mat": ({1}, [78]),
    "cube_before_first_roll.mat": (set(), [5]),  # the double moved to Alice's first turn
    "galaxy_capped_resign.mat": ({1}, [14]),  # the loser's last move is left out
    "double_first_game.mat": (set(), [5]),  # the table is inferred: opening "reroll"
}


def test_every_dialect_file_has_its_expected_outcome() -> None:
    files = {p.name for p in BENCH.files_of(DIALECTS)}
    assert files == set(EXPECTED) and len(files) == 21
    assert set(UNCHECKED) <= files


def test_the_files_are_what_the_generator_writes() -> None:
    module = _load("make_dialects", DIALECTS / "make_dialects.py")
    made = module.corpus()
    assert set(made) == set(EXPECTED)
    for name, text in made.items():
        assert text.encode("utf-8") == (DIALECTS / name).read_bytes(), name


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_read_like_gnubg(name: str) -> None:
    path = DIALECTS / name
    assert BENCH.compare(EXPECTED[name], BENCH.gammon_outcome(path)) is None
    record = mat_to_record(path.read_text(encoding="utf-8"))
    unchecked, lines = UNCHECKED.get(name, (set(), []))
    assert unchecked_games(record) == unchecked
    assert [w.line for w in import_warnings(record)] == lines
    # every game replayed exactly went through gnubg's positions, move by move
    boards: dict[int, list[str]] = {}
    for before, action in zip(replay(record), record.actions, strict=False):
        if isinstance(action, Play):
            boards.setdefault(before.game.number, []).append(before.game.position.position_id())
    for number, game in enumerate(EXPECTED[name]["games"], start=1):
        if number not in unchecked and game["winner"] is not None:
            assert boards.get(number, []) == game["boards"], f"{name}: game {number}"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_strict_reader_refuses_what_does_not_replay_exactly(name: str) -> None:
    text = (DIALECTS / name).read_text(encoding="utf-8")
    _, lines = UNCHECKED.get(name, (set(), []))
    # a resignation after the loser's last entry is read in both modes
    off_turn = ("abandon_vs_resign.mat", "dance_then_resign.mat", "galaxy_capped_resign.mat")
    # a table inferred from game 1's double replays every entry as written
    exact = ("double_first_game.mat",)
    if not lines or name in off_turn or name in exact:
        mat_to_record(text, strict=True)  # the layout alone is no reason to refuse
        return
    with pytest.raises(InvalidNotationError, match=rf"^line {lines[0]}: "):
        mat_to_record(text, strict=True)


def test_an_ambiguous_short_move_is_read_as_gnubg_reads_it() -> None:
    text = (DIALECTS / "studio_ambiguous.mat").read_text(encoding="utf-8")
    assert "61: 8/1" in text
    record = mat_to_record(text)
    assert "8/7/1" in [a.move for a in record.actions if isinstance(a, Play)]


def test_a_later_game_that_starts_with_a_double_keeps_its_moves() -> None:
    """Game 2 starts with 44 for the winner of game 1: the table whose games after the
    first start without a roll-off, the previous winner on roll, replays it exactly
    (gnubg keeps the moves; before, that game's moves were left out with a warning)."""
    record = mat_to_record((DIALECTS / "double_first_roll.mat").read_text(encoding="utf-8"))
    assert record.options.first_move == "winner"
    assert import_warnings(record) == () and unchecked_games(record) == frozenset()
    assert "24/20(2) 13/9(2)" in [a.move for a in record.actions if isinstance(a, Play)]
    assert replay(record)[-1].score == (1, 1)


def test_a_first_game_that_starts_with_a_double_keeps_its_moves() -> None:
    """Game 1 starts with 44 (issue #32): only a roll-off whose winner rolls both dice
    again gives that, so the table is read with ``opening`` ``reroll``, each game's
    roll-off (not in the file) won 2-1 by its first mover, and every move kept and
    checked, as gnubg keeps them (before, game 1's moves were left out with a warning).
    One exact warning says the table was inferred; the strict reader reads it too."""
    text = (DIALECTS / "double_first_game.mat").read_text(encoding="utf-8")
    for strict in (False, True):
        record = mat_to_record(text, strict=strict)
        assert record.options.opening == "reroll" and record.options.first_move == "rolloff"
        moves = [a.move for a in record.actions if isinstance(a, Play)]
        assert moves[:3] == ["24/20(2) 13/9(2)", "24/23 13/10", "20/14 13/11"]
        assert len(moves) == 7 and unchecked_games(record) == frozenset()
        (warning,) = import_warnings(record)
        assert warning.exact and (warning.line, warning.game) == (5, 1)
        assert "opening 'reroll'" in warning.message
        assert record.actions[:2] == (Roll(0, Dice(2, 1)), Roll(0, Dice(4, 4)))
        assert replay(record)[-1].score == (2, 1)


def test_a_game_whose_first_entry_is_a_double_keeps_its_moves() -> None:
    """Game 1 starts with "Doubles => 2" and "Takes" before any roll: gnubg keeps them
    and every move; our rules allow a double only at the start of a player's own turn,
    so the double and the take are recorded at the doubler's first turn (the cube is 2,
    the taker's, from there on, as in gnubg) and every move is kept (before, the whole
    game was left out: 0 moves).  The strict reader refuses the file at that line."""
    text = (DIALECTS / "cube_before_first_roll.mat").read_text(encoding="utf-8")
    record = mat_to_record(text)
    moves = [a.move for a in record.actions if isinstance(a, Play)]
    assert moves == ["8/5 6/5", "8/4 6/4", "24/18 13/9", "13/10 13/8", "18/10", "13/8 6/5"]
    (warning,) = import_warnings(record)
    assert warning.line == 5 and warning.exact and "player 0's first turn" in warning.message
    states = replay(record)
    assert [(o.winner, o.points, o.reason) for o in states[-1].games] == [
        (1, 2, "drop"),
        (0, 1, "drop"),
    ]
    with pytest.raises(InvalidNotationError, match="before the game's first roll"):
        mat_to_record(text, strict=True)


def test_the_points_needed_are_a_resignation_before_an_abandon() -> None:
    """``Wins 3 point and the match`` at cube 4 after the loser's move: no resignation
    gives exactly 3, so the points the winner needed are read; the smallest resignation
    that reaches them (a single game, 4) is recorded, as gnubg counts it, not the
    abandon that the board scores (a backgammon, 12; taken before)."""
    record = mat_to_record((DIALECTS / "galaxy_capped_resign.mat").read_text(encoding="utf-8"))
    (outcome,) = replay(record)[-1].games
    assert (outcome.winner, outcome.points, outcome.reason) == (0, 4, "resign")
    assert EXPECTED["galaxy_capped_resign.mat"]["games"][0]["points"] == 4


def test_a_resignation_after_a_redouble_gnubg_takes_off_turn_is_recorded() -> None:
    """The winner redoubles to 4, is taken, writes an illegal move and ``Wins 4 point``:
    gnubg records the loser resigning a single game at cube 4 during the winner's turn.
    Our rules take a resignation on the loser's turn only, so the entries back to the
    loser's last roll are left out, the double and the take too, with a warning (this
    file was refused before)."""
    text = (DIALECTS / "offturn_after_redouble.mat").read_text(encoding="utf-8")
    record = mat_to_record(text)
    outcome = replay(record)[-1].games[-1]
    assert (outcome.winner, outcome.points) == (0, 4)
    last = import_warnings(record)[-1].message
    assert "player 0's double, player 1's take, the roll 64 of player 0" in last
    with pytest.raises(InvalidNotationError, match=r"^line 10: .*illegal move"):
        mat_to_record(text, strict=True)


def test_a_resignation_after_a_dance_counts_what_gnubg_counts() -> None:
    """The loser dances, then ``Wins 1 point and the match``: a resignation on the
    winner's turn (1 point, as gnubg counts it), not an abandon scored from the board
    (a backgammon, 3 points, before): the dance is left out with a warning."""
    record = mat_to_record((DIALECTS / "dance_then_resign.mat").read_text(encoding="utf-8"))
    outcome = replay(record)[-1].games[-1]
    assert (outcome.winner, outcome.points, outcome.reason) == (0, 1, "resign")
    assert "after the roll 55, which could not be played" in import_warnings(record)[0].message


def test_the_wins_column_says_who_won_even_beside_a_losses_line() -> None:
    """Galaxy writes ``Losses`` in the winner's column too: gnubg takes the ``Wins`` line's
    column, and so do we (before, the ``Losses`` column gave the game to the other)."""
    text = (DIALECTS / "galaxy_losses_same_column.mat").read_text(encoding="utf-8")
    record = mat_to_record(text, strict=True)
    assert replay(record)[-1].score == (3, 1)
