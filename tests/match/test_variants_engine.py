"""The match engine with the variants of issue #12: options, opening, 1-2 bonus, mother rule."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gammon import Dice, Position
from gammon.errors import InvalidOptionsError
from gammon.match import Play, Roll, TableOptions, apply, new_match
from gammon.match.state import MatchState

NO_CUBE = ["tavla", "portes", "plakoto", "fevga", "long-nardy", "jacquet", "acey-deucey"]


@pytest.mark.parametrize("variant", NO_CUBE)
def test_variants_refuse_the_cube(variant: str) -> None:
    with pytest.raises(InvalidOptionsError, match="without a cube"):
        TableOptions(variant=variant)
    opts = TableOptions(variant=variant, cube=False, match_length=5)
    assert opts.end_coefficient == (3 if variant == "acey-deucey" else 2)
    assert TableOptions.from_dict(opts.to_dict()) == opts


def test_tavla_plays_the_opening_roll_and_portes_rolls_again() -> None:
    tavla = apply(new_match(TableOptions(variant="tavla", cube=False)), Roll(0, Dice(6, 5)))
    assert tavla.state.game.phase == "moving" and tavla.state.game.dice == Dice(6, 5)
    portes = apply(new_match(TableOptions(variant="portes", cube=False)), Roll(0, Dice(2, 5)))
    g = portes.state.game
    assert (g.phase, g.turn, g.starter, g.dice) == ("turn", 1, 1, None)


def _moving(variant: str, position: Position, dice: Dice) -> MatchState:
    state = new_match(TableOptions(variant=variant, cube=False, match_length=3))
    state = apply(state, Roll(0, Dice(6, 1))).state
    game = replace(state.game, phase="moving", turn=0, starter=0, position=position, dice=dice)
    return replace(state, game=game)


def test_acey_deucey_one_two_rolls_again() -> None:
    start = Position.initial("acey-deucey")
    state = _moving("acey-deucey", start, Dice(2, 1))
    done = apply(state, Play(0, "bar/24 bar/23 bar/19(4)"))
    g = done.state.game
    assert (g.phase, g.turn) == ("turn", 0)
    assert g.position.waiting == (9, 15)
    assert "roll_again" in [e.kind for e in done.events]
    # an ordinary roll passes the turn
    other = apply(_moving("acey-deucey", start, Dice(6, 5)), Play(0, "bar/20 bar/19"))
    assert (other.state.game.phase, other.state.game.turn) == ("turn", 1)


def test_plakoto_mother_pin_wins_two() -> None:
    position = Position.from_points({3: 1, 6: 14}, {24: 1, 7: 14}, variant="plakoto")
    done = apply(_moving("plakoto", position, Dice(2, 1)), Play(0, "3/1* 6/5"))
    last = done.state.games[-1]
    assert (last.winner, last.result, last.points, last.reason) == (0, 2, 2, "mother")


def test_plakoto_both_mothers_pinned_is_a_draw() -> None:
    # the player's mother (24) is pinned already; pinning the opponent's mother draws
    player = [0] * 26
    player[24], player[3], player[6] = 1, 1, 13
    opponent = [0] * 26
    opponent[1], opponent[24], opponent[7] = 1, 1, 13
    position = Position(tuple(player), tuple(opponent), "plakoto", pinned=(1 << 24, 0))
    done = apply(_moving("plakoto", position, Dice(2, 1)), Play(0, "3/1* 6/5"))
    last = done.state.games[-1]
    assert (last.winner, last.points, last.reason) == (None, 0, "draw")


@pytest.mark.parametrize("variant", NO_CUBE)
def test_gnubg_files_take_only_the_backgammon_board(variant: str) -> None:
    from gammon.match.formats import match_to_mat, match_to_sgf
    from gammon.match.record import MatchRecord

    record = MatchRecord(
        TableOptions(variant=variant, cube=False, match_length=1),
        (Roll(0, Dice(6, 5)),),
    )
    if variant in ("tavla", "portes"):
        assert "point match" in match_to_mat(record)
        assert isinstance(match_to_sgf(record), str)  # no game finished yet: empty
    else:
        with pytest.raises(InvalidOptionsError, match="cannot describe"):
            match_to_mat(record)
        with pytest.raises(InvalidOptionsError, match="cannot describe"):
            match_to_sgf(record)


def test_abandon_counts_checkers_still_to_enter_as_on_the_bar() -> None:
    from gammon.match.engine import abandon_result

    start = Position.initial("acey-deucey")
    assert abandon_result(start) == 3
    assert abandon_result(Position.initial("fevga")) == 3  # capped to 2 by the variant
    assert TableOptions(variant="fevga", cube=False).end_coefficient == 2
