"""The real-style .mat corpus (tests/data/mat/corpus/) and the refused files (tests/data/mat/bad/).

Each corpus file imports to its expected games (winner and points, in order) and final
score; the files are what ``tests/data/mat/make_corpus.py`` writes.  Each bad file is
refused with an ``InvalidNotationError`` (a ``ValueError``) naming the line and the text,
and ``convert_file`` then writes nothing.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from gammon import GammonError, InvalidNotationError
from gammon.match import AcceptResign, Play, Resign, Roll, replay
from gammon.match.formats import convert_file, mat_to_record, match_to_mat
from gammon.match.formats.notes import import_warnings, unchecked_games

MAT = Path(__file__).resolve().parents[2] / "data" / "mat"

#: file -> (final score, [(winner, points) for each finished game])
CORPUS: dict[str, tuple[tuple[int, int], list[tuple[int, int]]]] = {
    "gnubg_107_layout.mat": ((5, 2), [(0, 1), (1, 1), (1, 1), (0, 4)]),
    "online_server_7pt.mat": (
        (5, 7),
        [(0, 1), (0, 1), (1, 2), (1, 1), (1, 3), (0, 3), (1, 3)],
    ),
    "xg_3pt_crlf.mat": ((1, 3), [(0, 1), (1, 3)]),
    "money_beaver.mat": ((3, 12), [(1, 12), (0, 1), (0, 2)]),
    "excerpt_trailing_roll.mat": ((2, 0), [(0, 2)]),
}

#: What each file shows, as a pattern its text must match.
SHOWS: dict[str, list[str]] = {
    "gnubg_107_layout.mat": [
        r"^; \[EventDate",
        r"\n  \d\)  Drops {16,}Wins 1 point\n",  # gnubg: Drops and Wins on one row
        r"\n {6}Wins 4 points and the match\n",
        r"\d\d: [\d/* ]+ \n",  # gnubg's space after a move
    ],
    "online_server_7pt.mat": [
        r"\n +\d+\) \d\d: [^\n]*\S {8,}Wins 2 points\n",  # Wins after a move on its row
        r"bar/\d+",
        r"/off",
        r"\(2\)",
        r"\*",
        r"\n +\d+\) \d\d: [^\n]+ {8,}\d\d:\n",  # a right-hand roll with no move
    ],
    "xg_3pt_crlf.mat": [r"^; \[Site \"eXtreme Gammon 2\"\]\r\n", r"\r\n +Wins 1 point\r\n"],
    "money_beaver.mat": [
        r"^; a money session",
        r"\n 0 point match\n",
        r"Beavers => 4",
        r"\n; game 2",
    ],
    "excerpt_trailing_roll.mat": [r"\n +\d+\) 43:\n$", r" 9 point match"],
}


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_corpus", MAT / "make_corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_corpus", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _text(name: str) -> str:
    return (MAT / "corpus" / name).read_bytes().decode("utf-8")


def test_the_corpus_is_what_the_generator_writes() -> None:
    made = _generator().corpus()
    assert set(made) == set(CORPUS) == {p.name for p in (MAT / "corpus").glob("*.mat")}
    module = _generator()
    for name, (record, style) in made.items():
        assert module.render(record, style).encode("utf-8") == (MAT / "corpus" / name).read_bytes()
        assert module.expected(record) == (CORPUS[name][0], CORPUS[name][1]), name


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_corpus_file_imports_to_its_outcome(name: str) -> None:
    text = _text(name)
    for pattern in SHOWS[name]:
        assert re.search(pattern, text), f"{name} does not show {pattern!r}"
    record = mat_to_record(text)
    final = replay(record)[-1]
    score, games = CORPUS[name]
    assert final.score == score
    assert [(o.winner, o.points) for o in final.games] == games
    # what we write of it reads back the same
    again = replay(mat_to_record(match_to_mat(record), options=record.options))[-1]
    assert again.games == final.games and again.score == final.score


def test_forced_moves_left_blank_are_played() -> None:
    for name in ("online_server_7pt.mat", "excerpt_trailing_roll.mat"):
        record = mat_to_record(_text(name))
        states = replay(record)
        forced = [
            action
            for before, action in zip(states, record.actions, strict=False)
            if isinstance(action, Play)
            and before.game.dice is not None
            and len(before.game.position.legal_moves(before.game.dice)) == 1
        ]
        assert forced, name


def test_a_trailing_roll_with_no_move_is_dropped() -> None:
    record = mat_to_record(_text("excerpt_trailing_roll.mat"))
    final = replay(record)[-1]
    assert isinstance(record.actions[-1], Play) and record.actions[-1].player == 1
    assert final.game.phase == "turn" and final.game.turn == 0 and final.game.dice is None


def test_a_resignation_after_the_losers_own_move() -> None:
    """Game 1 of the online file: marvin moves, then hardyx 'Wins 1 point' (gnubg: marvin
    resigned).  Our rules take a resignation on one's own turn: the roll is kept, the move
    written with it is left out."""
    record = mat_to_record(_text("online_server_7pt.mat"))
    index = next(i for i, a in enumerate(record.actions) if isinstance(a, Resign))
    assert record.actions[index - 1 : index + 2] == (
        Roll(1, record.actions[index - 1].dice),  # type: ignore[union-attr]
        Resign(1, 1),
        AcceptResign(0),
    )


#: file -> (line, pattern of the message)
BAD: dict[str, tuple[int, str]] = {
    "impossible_points.mat": (
        8,
        r"^line 8: game 1: 'Wins 100 points': player 1 wins 100 points, which neither a drop, "
        r"a resignation \(single, gammon or backgammon at cube 2\) nor an abandon by player 0 "
        r"gives here \(position sGfkQSDgc8kBMA\)$",
    ),
    "illegal_move.mat": (
        6,
        r"^line 6: game 1, move 2 \(Alice\): '62: 24/18 13/10': illegal move .* 4HPJATCwZ/ABMA",
    ),
    "blank_move_not_forced.mat": (
        6,
        r"^line 6: game 1, move 2 \(Alice\): '62:': the roll 62 can be played but no move is "
        r"written \(17 legal moves, position 4HPJATCwZ/ABMA\)$",
    ),
    "move_after_result.mat": (8, r"^line 8: '3\) 62: 24/18 13/11': a move after the result"),
}


def test_the_bad_files_are_all_listed() -> None:
    assert {p.name for p in (MAT / "bad").glob("*.mat")} == set(BAD)


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_file_is_refused_with_its_line(name: str, tmp_path: Path) -> None:
    line, pattern = BAD[name]
    path = MAT / "bad" / name
    with pytest.raises(InvalidNotationError) as caught:
        mat_to_record(path.read_text(encoding="utf-8"), strict=True)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, GammonError)
    assert re.search(pattern, str(caught.value)), str(caught.value)
    assert str(caught.value).startswith(f"line {line}: ")
    # convert_file writes nothing for a file that does not read
    target = tmp_path / "out.jsonl"
    with pytest.raises(InvalidNotationError):
        convert_file(path, target, strict=True)
    assert not target.exists()
    # the lenient reader (gnubg reads these files too) records them with a warning at that
    # line, except a move after the result, which no reader can place
    if name == "move_after_result.mat":
        with pytest.raises(InvalidNotationError, match=pattern):
            mat_to_record(path.read_text(encoding="utf-8"))
        return
    record = mat_to_record(path.read_text(encoding="utf-8"))
    assert [w.line for w in import_warnings(record)] == [line]
    assert unchecked_games(record) == {1}
    assert "1 warning" in convert_file(path, target)
