"""Game and match engine: cube, scoring, table options, fair dice, action log.

Standard library only.  The engine is a pure function,
``apply(state, action) -> Transition``; :class:`Match` records a match and
:class:`Game` records the checker play of one game.

>>> from gammon.match import Match, TableOptions, Roll, Play, Double, Take
>>> from gammon import Dice
>>> m = Match(TableOptions(match_length=5))
>>> _ = m.push(Roll(0, Dice(4, 2)))
>>> _ = m.push(Play(0, "8/4 6/4"))
>>> _ = m.push(Double(1))
>>> _ = m.push(Take(0))
>>> m.state.game.cube
CubeState(value=2, owner=0)
"""

from gammon.match.actions import (
    Abandon,
    AcceptResign,
    Action,
    Beaver,
    Double,
    Drop,
    Play,
    Raccoon,
    RejectResign,
    Resign,
    Roll,
    Take,
    Timeout,
    action_from_dict,
    action_to_dict,
)
from gammon.match.engine import abandon_result, allowed_actions, apply, new_match, to_act
from gammon.match.guards import dead_cube, guard
from gammon.match.options import ClockSettings, TableOptions
from gammon.match.record import DiceRecord, Game, Match, MatchRecord, read_log, replay, write_log
from gammon.match.state import (
    CubeState,
    Event,
    GameOutcome,
    GameState,
    LedgerEntry,
    MatchState,
    Transition,
)

__all__ = [
    "Abandon",
    "AcceptResign",
    "Action",
    "Beaver",
    "ClockSettings",
    "CubeState",
    "DiceRecord",
    "Double",
    "Drop",
    "Event",
    "Game",
    "GameOutcome",
    "GameState",
    "LedgerEntry",
    "Match",
    "MatchRecord",
    "MatchState",
    "Play",
    "Raccoon",
    "RejectResign",
    "Resign",
    "Roll",
    "TableOptions",
    "Take",
    "Timeout",
    "Transition",
    "abandon_result",
    "action_from_dict",
    "action_to_dict",
    "allowed_actions",
    "apply",
    "dead_cube",
    "guard",
    "new_match",
    "read_log",
    "replay",
    "to_act",
    "write_log",
]
