"""gammon.playset: one interface for a roll's legal moves, two implementations.

Position's move methods answer through ``Position.plays`` with no acey-deucey branch of
their own (only ``play_set`` picks lazy or listed); both sets answer alike, and a
position's set is kept, so a turn's moves are listed once.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from gammon import Move, Position
from gammon.dice import Dice
from gammon.errors import IllegalMoveError
from gammon.playset import EagerPlaySet, LazyPlaySet, PlaySet
from gammon.position import Step, forget_plays

SRC = Path(__file__).resolve().parents[1] / "src" / "gammon"
ONE_TWO = Dice(1, 2)


def _names(path: Path) -> set[str]:
    """Every attribute and name a module reads."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    return found | {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def test_position_has_no_lazy_branch() -> None:
    """The twin paths (a lazy 1-2 branch in each Position method) do not come back:
    position.py never asks the rules for lazy plays, and play_set is the one place
    outside the rules that does (the server's move list goes through Position.plays)."""
    assert not _names(SRC / "position.py") & {"lazy_plays", "LazyPlays", "BonusPlays"}
    for name in ("server/table/views.py", "server/table/steps.py", "match/engine.py"):
        assert "lazy_plays" not in _names(SRC / name), name
    assert "lazy_plays" in _names(SRC / "playset.py")


def test_one_set_per_position_and_roll() -> None:
    forget_plays()
    pos = Position.from_points({13: 3, 6: 4}, {13: 2, 8: 3, 1: 1})
    plays = pos.plays("43")
    assert isinstance(plays, EagerPlaySet)
    assert pos.plays((4, 3)) is plays and pos.plays(Dice(4, 3)) is plays
    assert pos.can_move("43") and pos.first_legal_move("43") is plays.first()
    assert pos.move_texts("43") == plays.texts() and pos.move_texts("43") is not plays.texts()
    # an equal position gets the same moves, naming it as their origin
    twin = Position.from_position_id(pos.position_id())
    again = twin.plays("43")
    assert again is not plays and [m.key for m in again] == [m.key for m in plays]
    assert (
        all(m.origin is twin for m in again)
        and twin.parse_move(str(plays.first()), "43").origin is twin
    )
    assert list(again.texts()) == list(plays.texts())


def test_the_container() -> None:
    start = Position.initial()
    plays = start.plays("65")
    moves = start.legal_moves("65")
    assert list(plays) == list(moves) == list(plays.moves()) and len(plays) == len(moves)
    first = moves[0]
    assert first in plays and first.key in plays and str(first) in plays
    assert "13/24" not in plays and 99 not in plays and start.plays("66").first() not in plays
    assert plays.find(first.key) == first and plays.find(str(first)) == first
    assert plays.count(3) == 4 and plays.count() == len(moves)
    with pytest.raises(IllegalMoveError):
        plays.pass_move()
    opts = plays.step_options([Step(24, 18, 6)])
    assert opts == start.step_options("65", [Step(24, 18, 6)])
    blocked = Position.from_points({6: 14}, dict.fromkeys(range(1, 7), 2), player_bar=1)
    none = blocked.plays("66")
    assert not none and len(none) == 0 and none.first() is None
    assert none.pass_move().is_pass() and blocked.parse_move("pass", "66").is_pass()
    assert none.step_options().complete


def test_the_lazy_set_answers_as_the_listed_one() -> None:
    """Acey-deucey's 1-2 at the start: the lazy set against a listed set of the same
    moves (EagerPlaySet built straight from the rules' full list)."""
    start = Position.initial("acey-deucey")
    lazy = start.plays(ONE_TWO)
    assert isinstance(lazy, LazyPlaySet) and lazy
    full: PlaySet[Move] = EagerPlaySet(start, ONE_TWO, Move)
    assert len(lazy) == len(full) == 177 and lazy.count(10) == 11
    assert lazy.first() == full.first() and list(lazy) == list(full)
    move = list(full)[100]
    assert lazy.find(move.key) == move and lazy.find(str(move)) == move and str(move) in lazy
    assert lazy.parse(str(move)) == move and lazy.texts() == full.texts()
    assert lazy.step_options() == full.step_options()
    assert lazy.rebased(Position.initial("acey-deucey")).first() == lazy.first()
