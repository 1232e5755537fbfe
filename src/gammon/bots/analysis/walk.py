"""Replaying a match record into what an analysis judges: rolls, checker plays, cube moments.

:func:`walk_record` replays the record once and lists, in order, each game's
start, variant and result (:class:`GameInfo`), every roll to value for luck
(:class:`Turn`), every move played (:class:`Checker`) and every cube decision or
answer (:class:`Cube`), each with the position and the deciding player's
:class:`~gammon.bots.equity.ScoreContext`.  It is the one walk of every analyser:
bgsage's on the backgammon board (:mod:`~gammon.bots.analysis.analyzer`) and the
nets' of the other variants (:mod:`~gammon.bots.analysis.variants`), which find no
cube moment in their cubeless games.

>>> from gammon.dice import Dice
>>> from gammon.match import Match, Play, Roll, TableOptions
>>> m = Match(TableOptions(match_length=3))
>>> for action in (Roll(0, Dice(3, 1)), Play(0, "8/5 6/5"), Roll(1, Dice(5, 5))):
...     _ = m.push(action)
>>> w = walk_record(m.record())
>>> [(t.player, str(t.dice), t.opening) for t in w.turns]
[(0, '31', True), (1, '55', False)]
>>> [(c.player, c.text) for c in w.checkers], [(c.player, c.played) for c in w.cubes]
([(0, '8/5 6/5')], [(1, 'no double')])
>>> len(rolls_for(opening=True)), len(rolls_for(opening=False))
(15, 21)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from gammon.bots.analysis.model import DecisionKind
from gammon.bots.equity import ScoreContext
from gammon.bots.seat import score_context
from gammon.dice import ALL_ROLLS, Dice
from gammon.match.actions import Beaver, Double, Drop, Play, Roll, Take
from gammon.match.engine import allowed_actions
from gammon.match.ids import xgid
from gammon.match.record import MatchRecord, replay
from gammon.match.state import MatchState
from gammon.move import Move
from gammon.position import Position

__all__ = [
    "OPENING_ROLLS",
    "Checker",
    "Cube",
    "GameInfo",
    "Turn",
    "Walk",
    "rolls_for",
    "walk_record",
]

#: The rolls a game's opening can give (no doubles).
OPENING_ROLLS: Final = tuple(r for r in ALL_ROLLS if not r.is_double)


def rolls_for(*, opening: bool) -> tuple[Dice, ...]:
    """The rolls a turn could have had: the 21, or the 15 non-doubles at a game's opening."""
    return OPENING_ROLLS if opening else ALL_ROLLS


@dataclass(slots=True)
class Turn:
    """A roll to value for luck (and, for the roll actually played, its decision)."""

    game: int
    action_index: int
    ply: int
    player: int
    position: Position
    ctx: ScoreContext
    dice: Dice
    opening: bool


@dataclass(slots=True)
class Checker:
    """A move played (a decision when there were at least two legal moves)."""

    game: int
    action_index: int
    ply: int
    player: int
    position: Position
    ctx: ScoreContext
    dice: Dice
    played: Position  # the position after the move played (opponent on roll)
    text: str
    xgid: str  # "" off the backgammon board
    move: Move


@dataclass(slots=True)
class Cube:
    """A cube decision (double or not) or an answer to a double."""

    game: int
    action_index: int
    ply: int
    player: int  # who decides
    doubler: int
    position: Position  # the doubler on roll
    ctx: ScoreContext  # the doubler's, cube before the double
    kind: DecisionKind
    played: str  # "double", "no double", "take", "drop", "beaver"
    beaver_allowed: bool
    xgid: str


@dataclass(slots=True)
class GameInfo:
    """A game's number, score and Crawford flag at its start, its variant (a tavli match
    changes it from game to game), and its result."""

    number: int
    score: tuple[int, int]
    crawford: bool
    winner: int | None = None
    points: int = 0
    variant: str = "standard"


@dataclass(slots=True)
class Walk:
    """Everything a record asks to judge, in order."""

    games: list[GameInfo] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    checkers: list[Checker] = field(default_factory=list)
    cubes: list[Cube] = field(default_factory=list)
    #: The state before the first action, and the one after the last finished game.
    first: MatchState | None = None
    settled: MatchState | None = None

    def only(self, games: frozenset[int]) -> Walk:
        """The same walk restricted to the games numbered in ``games``."""
        return Walk(
            [g for g in self.games if g.number in games],
            [t for t in self.turns if t.game in games],
            [c for c in self.checkers if c.game in games],
            [c for c in self.cubes if c.game in games],
            self.first,
            self.settled,
        )


def walk_record(record: MatchRecord) -> Walk:
    """Replay the record and collect what is to be judged (see the module notes)."""
    states = replay(record)
    walk = Walk(first=states[0], settled=states[0])
    for index, action in enumerate(record.actions):
        s, t = states[index], states[index + 1]
        g = s.game
        if not walk.games or walk.games[-1].number != g.number:
            walk.games.append(
                GameInfo(g.number, s.score, g.crawford, variant=g.position.variant.name)
            )
        if len(t.games) > len(s.games):
            outcome = t.games[-1]
            walk.games[-1].winner = outcome.winner
            walk.games[-1].points = outcome.points
            walk.settled = t
        if g.last_roll:
            continue  # the draw option's final roll: no cube, and the game ends
        if isinstance(action, Roll):
            _walk_roll(walk, s, t, index, action)
        elif isinstance(action, Play):
            assert g.dice is not None and g.turn is not None
            move = g.position.parse_move(action.move, g.dice)
            walk.checkers.append(
                Checker(
                    g.number,
                    index,
                    g.plies,
                    g.turn,
                    g.position,
                    score_context(s, g.turn),
                    g.dice,
                    move.position_after(),
                    str(move),
                    _xgid(s),
                    move,
                )
            )
        elif isinstance(action, Double):
            walk.cubes.append(_cube(s, index, action.player, "cube", "double"))
        elif isinstance(action, Take | Drop | Beaver) and g.phase == "doubled":
            played = {Take: "take", Drop: "drop", Beaver: "beaver"}[type(action)]
            walk.cubes.append(_cube(s, index, action.player, "response", played))
    return walk


def _cube(s: MatchState, index: int, player: int, kind: DecisionKind, played: str) -> Cube:
    g = s.game
    doubler = player if kind == "cube" else 1 - player
    return Cube(
        g.number,
        index,
        g.plies,
        player,
        doubler,
        g.position,
        score_context(s, doubler),
        kind,
        played,
        "beaver" in allowed_actions(s).get(player, ()) if kind == "response" else False,
        _xgid(s),
    )


def _xgid(s: MatchState) -> str:
    """The XGID of the moment; "" off the backgammon board (XG knows no other)."""
    return xgid(s) if s.game.position.variant.standard_geometry else ""


def _walk_roll(walk: Walk, s: MatchState, t: MatchState, index: int, action: Roll) -> None:
    g = s.game
    dice = action.dice
    if g.phase == "opening":
        if dice.d1 == dice.d2 or t.game.phase != "moving" or t.game.turn is None:
            return  # a tie, or a roll-off whose winner rolls again (tavli): not played
        starter = t.game.turn  # the higher die on the backgammon board
        walk.turns.append(
            Turn(
                g.number,
                index,
                0,
                starter,
                g.position,
                score_context(s, starter),
                dice.normalized(),
                True,
            )
        )
        return
    if g.phase != "turn" or g.turn is None:
        return
    seat = g.turn
    ctx = score_context(s, seat)
    if "double" in allowed_actions(s).get(seat, ()):
        walk.cubes.append(_cube(s, index, seat, "cube", "no double"))
    walk.turns.append(
        Turn(g.number, index, g.plies, seat, g.position, ctx, dice.normalized(), False)
    )
