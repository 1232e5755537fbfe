"""The bot seated in the match engine: every decision is allowed, and matches end."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gammon import Dice, Position
from gammon.match import CubeState, Match, MatchState, TableOptions, apply, new_match
from gammon.match.actions import Double, action_name
from gammon.match.fairdice import FixedDice, VerifiableDice

pytest.importorskip("bgsage", reason="the bot needs bgsage (installed by the dev and bot extras)")

from gammon.bots.seat import choose_action, score_context


def _turn_state(
    options: TableOptions, position: Position, cube: CubeState | None = None
) -> MatchState:
    state = new_match(options)
    game = replace(
        state.game, phase="turn", position=position, turn=0, starter=0, cube=cube or CubeState()
    )
    return replace(state, game=game)


@pytest.mark.parametrize(
    "options",
    [
        TableOptions(match_length=3),
        TableOptions(beaver=True, raccoon=True, jacoby=True),
        TableOptions(variant="caucasian", cube_limit=4, end_setting="mars", draw_last_roll=True),
    ],
    ids=["3-point match", "money beaver raccoon jacoby", "caucasian limit mars draw"],
)
def test_bot_vs_bot_plays_to_the_end(options: TableOptions) -> None:
    match = Match(options)
    dice = VerifiableDice(bytes(32), "seat-test")  # fixed seed: the same games every run
    for _ in range(3000):
        state = match.state
        if state.over or (not options.is_match and len(state.games) >= 2):
            break
        seat = match.to_act()[0]
        action = choose_action(state, seat, "expert", dice=dice)
        assert action_name(action) in match.allowed_actions()[seat]
        match.push(action)
    assert match.state.over or len(match.state.games) >= 2


def test_rolls_come_from_the_given_dice() -> None:
    action = choose_action(new_match(), 1, "expert", dice=FixedDice(["52"]))
    assert action.player == 1 and getattr(action, "dice", None) == Dice(5, 2)


def test_clear_cube_decisions() -> None:
    # a race the player on roll wins nearly always: after a double the opponent drops
    race = Position.from_points({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {13: 5, 8: 5, 6: 5})
    doubled = apply(_turn_state(TableOptions(), race), Double(0)).state
    assert action_name(choose_action(doubled, 1, "expert")) == "drop"
    # the start position: no double
    start = _turn_state(TableOptions(), Position.initial())
    assert action_name(choose_action(start, 0, "expert")) == "roll"
    # the Crawford game: never a double (the engine would refuse it anyway)
    crawford = replace(start, options=TableOptions(match_length=5), score=(4, 0))
    crawford = replace(crawford, game=replace(crawford.game, crawford=True), crawford_reached=True)
    assert action_name(choose_action(crawford, 0, "expert")) == "roll"


def test_last_roll_draws_when_it_can() -> None:
    # the opponent (who started) has finished; we have two checkers on the 6-point
    position = Position.from_points({6: 2}, {})
    state = _turn_state(TableOptions(draw_last_roll=True), position)
    state = replace(
        state, game=replace(state.game, last_roll=True, phase="moving", dice=Dice(3, 3))
    )
    action = choose_action(state, 0, "expert")
    assert action_name(action) == "move" and getattr(action, "move", "") == "6/off(2)"


def test_score_context_of_a_match_state() -> None:
    state = replace(new_match(TableOptions(match_length=7, cube_limit=8)), score=(2, 5))
    ctx = score_context(state, 0)
    assert (ctx.away_me, ctx.away_opp, ctx.cube_limit, ctx.max_result) == (5, 2, 8, 3)
    assert score_context(state, 1).away_me == 2
    money = score_context(new_match(TableOptions(jacoby=True, end_setting="oin")), 1)
    assert money.is_money and money.jacoby and money.max_result == 1
