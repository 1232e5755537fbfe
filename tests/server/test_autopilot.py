"""The autopilot's fallback action (``gammon.server.table.actor.autopilot.safe_action``)."""

from __future__ import annotations

import time
from dataclasses import replace

from gammon import Dice, Position
from gammon.match import Play, TableOptions
from gammon.server.table.actor.autopilot import safe_action
from gammon.server.table.state import TableState, initial_state, reduce


def _playing(variant: str) -> TableState:
    """A match in play between seats 0 and 1, seat 0 on roll after the opening."""
    options = TableOptions(match_length=3, variant=variant, cube=False)
    state = initial_state("T1", {"options": options.to_dict()}, 1_000)
    for kind, data in (
        ("sit", {"seat": 0, "name": "ann", "kind": "user", "user": 1}),
        ("sit", {"seat": 1, "name": "bob", "kind": "user", "user": 2}),
        ("start", {"match_id": "T1", "commitment": "0" * 64, "players": ["ann", "bob"]}),
    ):
        state, _ = reduce(state, kind, data, 2_000)
    return state


def _to_move(state: TableState, position: Position, dice: Dice) -> TableState:
    assert state.match is not None
    game = replace(state.match.game, position=position, dice=dice, phase="moving", turn=0)
    return replace(state, match=replace(state.match, game=game))


def test_a_bot_that_fails_at_a_1_2_gets_a_legal_move_at_once() -> None:
    """This 1-2 of acey-deucey has 224,158 plays (listing them takes seconds): the
    fallback, which runs on the event loop, takes the first without listing them."""
    position = Position.from_position_id("AADqdR1AFVRLAg:w3.1", "acey-deucey")
    state = _to_move(_playing("acey-deucey"), position, Dice(1, 2))
    start = time.thread_time()
    action = safe_action(state, 0, Dice(3, 3))
    took = time.thread_time() - start
    assert isinstance(action, Play) and action.player == 0
    assert str(position.parse_move(action.move, Dice(1, 2))) == action.move
    assert took < 0.25, f"{took:.3f} s of CPU"


def test_a_bot_that_fails_elsewhere_plays_the_first_legal_move() -> None:
    position = Position.initial()
    state = _to_move(_playing("standard"), position, Dice(6, 5))
    assert safe_action(state, 0, Dice(3, 3)) == Play(0, "24/18 13/8")
