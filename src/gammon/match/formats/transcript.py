"""The games of a record as the text formats see them: entries and transcripts.

Shared by the writers (:mod:`gammon.match.formats.matwrite`,
:mod:`gammon.match.formats.sgf`): :func:`transcripts` replays a record and lists
each game's score, Crawford flag, entries (a roll and its move, or a cube action)
and outcome, leaving out what the formats cannot hold.

>>> from gammon.dice import Dice
>>> from gammon.match import Match, Play, Roll, Double, Drop, TableOptions
>>> m = Match(TableOptions(match_length=3))
>>> for action in (Roll(0, Dice(3, 1)), Play(0, "8/5 6/5"), Double(1), Drop(0)):
...     _ = m.push(action)
>>> [game] = transcripts(m.record())
>>> [(e.player, e.kind, e.cube) for e in game.entries]
[(0, 'move', 0), (1, 'double', 2), (0, 'drop', 0)]
>>> game.outcome.winner, game.outcome.points, plural(game.outcome.points)
(1, 1, 'point')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gammon.dice import Dice
from gammon.errors import GammonError
from gammon.match.actions import Beaver, Double, Drop, Play, Raccoon, Roll, Take, action_to_dict
from gammon.match.engine import apply
from gammon.match.record import MatchRecord
from gammon.match.state import GameOutcome
from gammon.move import Step

__all__ = ["Entry", "EntryKind", "Transcript", "plural", "transcripts"]

EntryKind = Literal["move", "double", "take", "drop", "beaver", "raccoon"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of a game as the text formats write it: a roll and its move, or a cube action.

    ``steps`` is empty for a roll that could not be played (a dance); ``cube`` is
    the value offered by a double, beaver or raccoon.
    """

    player: int
    kind: EntryKind
    dice: Dice | None = None
    steps: tuple[Step, ...] = ()
    cube: int = 0


@dataclass(frozen=True, slots=True)
class Transcript:
    """One game of a record: the score and Crawford flag at its start, its entries, its end."""

    number: int
    score: tuple[int, int]
    crawford: bool
    entries: tuple[Entry, ...]
    outcome: GameOutcome | None = None
    match_over: bool = False


def transcripts(record: MatchRecord) -> list[Transcript]:
    """Replay a record and list its games as the text formats see them.

    What the formats cannot hold is left out: the roll-off ties, a roll made just
    before a resignation or an abandon, and resignations that were rejected.  A
    game in progress at the end of the record is listed without an outcome (and
    left out when nothing has been played in it yet).
    """
    state = record.initial_state()
    games: list[Transcript] = []
    entries: list[Entry] = []
    start = state
    for index, action in enumerate(record.actions, start=1):
        before = state
        try:
            transition = apply(before, action)
        except GammonError as exc:
            raise type(exc)(f"action {index} ({action_to_dict(action)}): {exc}") from None
        state = transition.state
        g = before.game
        kinds = {event.kind: event for event in transition.events}
        if isinstance(action, Roll):
            dance = kinds.get("no_move")
            if dance is not None and dance.player is not None:
                d1, d2 = dance.data["dice"]
                entries.append(Entry(dance.player, "move", Dice(d1, d2)))
        elif isinstance(action, Play):
            assert g.dice is not None
            move = g.position.parse_move(action.move, g.dice)
            entries.append(Entry(action.player, "move", g.dice, move.steps))
        elif isinstance(action, Double):
            entries.append(Entry(action.player, "double", cube=g.cube.value * 2))
        elif isinstance(action, Beaver | Raccoon):
            kind: EntryKind = "beaver" if isinstance(action, Beaver) else "raccoon"
            entries.append(Entry(action.player, kind, cube=state.game.cube.value))
        elif isinstance(action, Take):
            entries.append(Entry(action.player, "take"))
        elif isinstance(action, Drop):
            entries.append(Entry(action.player, "drop"))
        if "game_over" in kinds:
            games.append(
                Transcript(
                    g.number,
                    start.score,
                    start.game.crawford,
                    tuple(entries),
                    state.games[-1],
                    "match_over" in kinds,
                )
            )
            entries = []
            start = state
    if entries and not state.over:
        games.append(
            Transcript(state.game.number, start.score, start.game.crawford, tuple(entries))
        )
    return games


def plural(points: int) -> str:
    """``point`` or ``points``, as the result lines write them."""
    return "point" if points == 1 else "points"
