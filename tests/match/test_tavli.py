"""Greek tavli: portes, plakoto and fevga in turn, one per game, as a table's variant.

docs/rules.md ("Tavli"): no cube, each game 1 or 2 points (2 when the loser has nothing
off, no triple game, plakoto's mother rule 2); game 1 opens with a one-die roll-off whose
winner rolls both dice again; later games are started by the winner of the previous one
(``first_move="winner"``, the default of a tavli table), or as the table says.
"""

from __future__ import annotations

import random

import pytest

from gammon import Dice
from gammon.errors import InvalidOptionsError
from gammon.match import Abandon, Match, Play, Roll, TableOptions, apply, new_match
from gammon.match.formats.matwrite import match_to_mat
from gammon.match.formats.sgf import match_to_sgf
from gammon.match.state import MatchState
from gammon.variants import game_variant


def tavli(length: int = 5, **more: object) -> TableOptions:
    return TableOptions(variant="tavli", match_length=length, cube=False, **more)  # type: ignore[arg-type]


def test_options() -> None:
    opts = tavli()
    assert opts.first_move == "winner" and opts.end_coefficient == 2
    assert [opts.game_variant(n).name for n in range(1, 8)] == [
        "portes",
        "plakoto",
        "fevga",
        "portes",
        "plakoto",
        "fevga",
        "portes",
    ]
    assert TableOptions.from_dict(opts.to_dict()) == opts
    assert opts.to_dict()["first_move"] == "winner"
    assert tavli(first_move="rolloff").first_move == "rolloff"
    assert TableOptions().first_move == "rolloff"  # other variants: a roll-off, as before
    with pytest.raises(InvalidOptionsError, match="the tavli variant is played without a cube"):
        TableOptions(variant="tavli", match_length=5)
    with pytest.raises(InvalidOptionsError, match="unknown variant 'tavly'"):
        TableOptions(variant="tavly", cube=False)
    assert game_variant("fevga", 2).name == "fevga"


def _end_game(state: MatchState, loser: int) -> MatchState:
    """The loser abandons at once: Cox (nothing off, checkers in the winner's home board)."""
    return apply(state, Abandon(loser)).state


def test_rotation_scoring_and_who_starts() -> None:
    state = new_match(tavli(7))
    assert state.game.position.variant.name == "portes" and state.game.phase == "opening"
    # game 1: the roll-off winner rolls both dice again (portes)
    state = apply(state, Roll(0, Dice(2, 5))).state
    g = state.game
    assert (g.phase, g.turn, g.starter, g.dice) == ("turn", 1, 1, None)
    # a portes backgammon (Cox) scores 2: no triple game in tavli
    step = apply(state, Abandon(0))
    state = step.state
    assert state.score == (0, 2) and state.games[-1].result == 2
    started = next(e for e in step.events if e.kind == "game_started")
    assert started.data["variant"] == "plakoto" and started.player == 1
    # game 2 (plakoto): the winner of game 1 starts with an ordinary roll, no roll-off
    g = state.game
    assert (g.number, g.phase, g.turn, g.starter) == (2, "turn", 1, 1)
    assert g.position.variant.name == "plakoto" and g.position.player[24] == 15
    state = _end_game(state, 1)
    g = state.game
    assert state.score == (2, 2) and (g.number, g.turn) == (3, 0)
    assert g.position.variant.name == "fevga"
    state = _end_game(state, 1)
    assert state.game.position.variant.name == "portes" and state.game.number == 4
    # a table that prefers a roll-off every game
    other = new_match(tavli(7, first_move="rolloff"))
    other = apply(other, Roll(0, Dice(6, 1))).state
    other = _end_game(other, 1)
    assert other.game.phase == "opening" and other.game.position.variant.name == "plakoto"


def _random_action(m: Match, rng: random.Random) -> None:
    g = m.state.game
    seat = m.to_act()[0]
    if g.phase in ("opening", "turn"):
        m.push(Roll(seat, Dice(rng.randint(1, 6), rng.randint(1, 6))))
    else:
        moves = m.legal_moves()
        m.push(Play(seat, str(rng.choice(moves))))


def test_a_whole_match_is_recorded_and_replayed() -> None:
    rng = random.Random(19)
    m = Match(tavli(3), players=("Eleni", "Nikos"))
    while not m.state.over:
        _random_action(m, rng)
    state = m.state
    variants = [state.options.game_variant(o.number).name for o in state.games]
    assert variants[:3] == ["portes", "plakoto", "fevga"][: len(variants)]
    assert len(state.games) >= 2 and max(state.score) == 3
    assert all(o.points in (1, 2) and o.reason in ("bear_off", "mother") for o in state.games)
    # every game after the first is started by the previous game's winner
    for before, after in zip(state.games, state.games[1:], strict=False):
        assert after.starter == before.winner
    log = m.to_log()
    assert '"variant": "tavli"' in log
    again = Match.from_log(log)
    assert again.state == state
    assert [s.game.position.variant.name for s in again.states] == [
        s.game.position.variant.name for s in m.states
    ]
    for write, name in ((match_to_mat, ".mat"), (match_to_sgf, "SGF")):
        with pytest.raises(InvalidOptionsError, match=f"a {name} file cannot describe tavli"):
            write(m.record())
