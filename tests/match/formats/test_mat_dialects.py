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

from gammon import InvalidNotationError
from gammon.match import Play, replay
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
    "playable_no_move.mat": ({1}, [78]),
}


def test_every_dialect_file_has_its_expected_outcome() -> None:
    files = {p.name for p in BENCH.files_of(DIALECTS)}
    assert files == set(EXPECTED) and len(files) == 14
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
    if not lines or name == "abandon_vs_resign.mat":
        mat_to_record(text, strict=True)  # the layout alone is no reason to refuse
        return
    with pytest.raises(InvalidNotationError, match=rf"^line {lines[0]}: "):
        mat_to_record(text, strict=True)


def test_an_ambiguous_short_move_is_read_as_gnubg_reads_it() -> None:
    text = (DIALECTS / "studio_ambiguous.mat").read_text(encoding="utf-8")
    assert "61: 8/1" in text
    record = mat_to_record(text)
    assert "8/7/1" in [a.move for a in record.actions if isinstance(a, Play)]
