"""The results of a match analysis: frozen dataclasses, marks and thresholds.

:class:`MatchAnalysis` holds per game (:class:`GameAnalysis`) the judged
:class:`Decision` s, the :class:`RollLuck` of every roll, the
:class:`GraphPoint` s of the equity graph and the :class:`PlayerStats`; the
thresholds below say how they were judged (see :mod:`gammon.bots.analysis`).

>>> stats = PlayerStats(0, "Ann", checker_decisions=3, checker_error=0.06,
...                     cube_decisions=1, cube_error=0.02, doubtful=1, errors=0,
...                     blunders=0, rolls=4, luck=0.2)
>>> stats.decisions, round(stats.pr, 3), round(stats.error_rate, 3), round(stats.luck_rate, 3)
(4, 10.0, 20.0, 50.0)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any, Final, Literal

__all__ = [
    "BLUNDER",
    "CLOSE_CUBE",
    "DOUBTFUL",
    "ERROR",
    "FILTER_MOVES",
    "FILTER_THRESHOLD",
    "LUCK_CANDIDATES",
    "SCHEMA_VERSION",
    "SHOWN",
    "Candidate",
    "CubeEquities",
    "Decision",
    "DecisionKind",
    "GameAnalysis",
    "GraphPoint",
    "LuckAdjusted",
    "Mark",
    "MatchAnalysis",
    "PlayerStats",
    "Progress",
    "RollLuck",
    "mark_for",
]

#: Equity loss (normalised) from which a decision is marked doubtful.
DOUBTFUL: Final = 0.04
#: ... marked an error.
ERROR: Final = 0.08
#: ... marked a blunder.
BLUNDER: Final = 0.16
#: A no-double counts as a decision when doubling was worth at least no double minus this.
CLOSE_CUBE: Final = 0.16
#: Deep analysis: moves kept after the 1-ply pass (as the world-class bot) ...
FILTER_MOVES: Final = 5
#: ... within this much 1-ply equity of the best.
FILTER_THRESHOLD: Final = 0.08
#: Luck: the cubeless-best moves of each roll whose cubeful equity is computed.
LUCK_CANDIDATES: Final = 4
#: Version of :meth:`MatchAnalysis.to_dict`'s layout (docs/analysis.md).
SCHEMA_VERSION: Final = 1
#: Checker decisions list this many of the best candidates (and the move played).
SHOWN: Final = 5
#: How bad a decision was: see :data:`DOUBTFUL`, :data:`ERROR`, :data:`BLUNDER`.
Mark = Literal["none", "doubtful", "error", "blunder"]
#: ``checker``: a checker play; ``cube``: double or not; ``response``: take, drop or beaver.
DecisionKind = Literal["checker", "cube", "response"]
#: Progress callback: ``(stage, done, total)``; stages are ``cube``, ``moves``, ``deep``.
Progress = Callable[[str, int, int], None]


def mark_for(error: float) -> Mark:
    """The mark of a decision that lost ``error`` (normalised equity).

    >>> mark_for(0.03), mark_for(0.04), mark_for(0.1), mark_for(0.5)
    ('none', 'doubtful', 'error', 'blunder')
    """
    if error >= BLUNDER:
        return "blunder"
    if error >= ERROR:
        return "error"
    if error >= DOUBTFUL:
        return "doubtful"
    return "none"


# ---------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class Candidate:
    """A candidate move: the mover's normalised cubeful and cubeless equity after it.

    ``win`` is the mover's cubeless chance to win the game after the move;
    ``plies`` the depth it was evaluated at.
    """

    move: str
    equity: float
    cubeless: float
    win: float
    plies: int


@dataclass(frozen=True, slots=True)
class CubeEquities:
    """A cube analysis, always from the **doubler's** side (the player on roll).

    ``no_double``, ``double_take``, ``double_pass`` (1.0) and ``double_beaver``
    (None unless a beaver is allowed) are normalised equities; ``action`` is the
    right action (``"double, take"``, ``"no double"``, ``"too good, pass"`` ...);
    ``win`` the doubler's cubeless chance to win the game; ``plies`` the depth.
    """

    no_double: float
    double_take: float
    double_pass: float
    double_beaver: float | None
    action: str
    win: float
    plies: int


@dataclass(frozen=True, slots=True)
class Decision:
    """One judged decision.

    ``action_index`` is the index in the record's actions of the action that
    made it (the ``Play``, ``Double``, ``Roll`` for a no-double, or the answer);
    ``ply`` the number of moves played in the game before it.  ``xgid`` is the
    full XGID of the moment (dice, cube, score); ``position_id`` the gnubg
    Position ID of the board as it stands, seen from the player on roll (the
    doubler for an answer).  ``equity_played`` and ``equity_best`` are the
    deciding player's normalised equities; ``error = equity_best -
    equity_played >= 0``.  Checker plays list the best :data:`SHOWN`
    ``candidates`` (and the move played if it is not among them); cube decisions
    and answers carry the ``cube`` analysis.
    """

    game: int
    action_index: int
    ply: int
    player: int
    kind: DecisionKind
    position_id: str
    xgid: str
    dice: str | None
    played: str
    best: str
    equity_played: float
    equity_best: float
    error: float
    mark: Mark
    candidates: tuple[Candidate, ...] = ()
    cube: CubeEquities | None = None


@dataclass(frozen=True, slots=True)
class RollLuck:
    """The luck of one roll for the player who rolled it.

    ``equity`` is the roller's normalised equity after the best play of this
    roll, ``average`` the same averaged over every roll (30 at a game's opening),
    ``luck = equity - average``.  All at 1-ply.  ``points`` is the same luck in
    the unit of results: points (the cube included) in money play, match
    winning chance in a match.
    """

    game: int
    action_index: int
    ply: int
    player: int
    dice: str
    opening: bool
    equity: float
    average: float
    luck: float
    points: float


@dataclass(frozen=True, slots=True)
class GraphPoint:
    """The game after a move (a roll that could not be played included), for player 0.

    ``ply`` counts the moves played in the game so far; ``win`` is player 0's
    cubeless chance to win the game, ``equity`` player 0's normalised cubeful
    equity (at the analysis level).
    """

    game: int
    ply: int
    action_index: int
    player: int
    win: float
    equity: float


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's figures over a game or the match.

    ``checker_decisions`` and ``cube_decisions`` count the decisions described
    in the module notes; ``*_error`` are their total equity losses.  ``pr`` is
    ``500 * error / decisions`` (XG's PR), ``error_rate`` ``1000 * error /
    decisions`` (gnubg's mEMG per decision), ``checker_rate`` and ``cube_rate``
    the same per category in mEMG.  ``luck`` is the total luck of the player's
    ``rolls``, ``luck_rate`` ``1000 * luck / rolls`` (mEMG per roll).
    """

    player: int
    name: str
    checker_decisions: int
    checker_error: float
    cube_decisions: int
    cube_error: float
    doubtful: int
    errors: int
    blunders: int
    rolls: int
    luck: float
    decisions: int = field(init=False)
    total_error: float = field(init=False)
    pr: float = field(init=False)
    error_rate: float = field(init=False)
    checker_rate: float = field(init=False)
    cube_rate: float = field(init=False)
    luck_rate: float = field(init=False)

    def __post_init__(self) -> None:
        decisions = self.checker_decisions + self.cube_decisions
        total = self.checker_error + self.cube_error
        setter = object.__setattr__
        setter(self, "decisions", decisions)
        setter(self, "total_error", total)
        setter(self, "pr", 500.0 * total / decisions if decisions else 0.0)
        setter(self, "error_rate", 1000.0 * total / decisions if decisions else 0.0)
        setter(
            self,
            "checker_rate",
            1000.0 * self.checker_error / self.checker_decisions if self.checker_decisions else 0.0,
        )
        setter(
            self,
            "cube_rate",
            1000.0 * self.cube_error / self.cube_decisions if self.cube_decisions else 0.0,
        )
        setter(self, "luck_rate", 1000.0 * self.luck / self.rolls if self.rolls else 0.0)

    @classmethod
    def collect(
        cls, player: int, name: str, decisions: Iterable[Decision], luck: Iterable[RollLuck]
    ) -> PlayerStats:
        """The figures of ``player`` from decisions and rolls (others' are skipped)."""
        mine = [d for d in decisions if d.player == player]
        checker = [d for d in mine if d.kind == "checker"]
        cube = [d for d in mine if d.kind != "checker"]
        rolls = [r for r in luck if r.player == player]
        marks = [d.mark for d in mine]
        return cls(
            player,
            name,
            len(checker),
            math.fsum(d.error for d in checker),
            len(cube),
            math.fsum(d.error for d in cube),
            marks.count("doubtful"),
            marks.count("error"),
            marks.count("blunder"),
            len(rolls),
            math.fsum(r.luck for r in rolls),
        )


@dataclass(frozen=True, slots=True)
class LuckAdjusted:
    """A player's result over the finished games, as played and without the luck of the dice.

    The unit is points (the cube included) in money play, and in a match the
    match winning chance: ``result`` is then its change from the start of the
    record to after the last finished game (1 or 0 once the match is over).
    ``luck`` is the player's luck less the opponent's over the rolls of those
    games (:attr:`RollLuck.points`), and ``adjusted = result - luck``: what the
    play was worth had the dice been average, as gnubg's and XG's
    "luck-adjusted result".  ``games`` counts the finished games.
    """

    player: int
    games: int
    result: float
    luck: float
    adjusted: float


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """One game: its score at the start, result, decisions, luck, graph and figures.

    ``winner`` and ``points`` are None and 0 for a game the record leaves unfinished.
    ``variant`` is the game's variant (a tavli match changes it from game to game) and
    ``engine`` what judged it: ``"bgsage"``, ``"net"`` (the variant's trained net,
    :mod:`gammon.bots.analysis.variants`) or None for a game no analyser could judge
    (then it has no decisions, luck nor graph).
    """

    number: int
    score: tuple[int, int]
    crawford: bool
    winner: int | None
    points: int
    decisions: tuple[Decision, ...]
    luck: tuple[RollLuck, ...]
    graph: tuple[GraphPoint, ...]
    players: tuple[PlayerStats, PlayerStats]
    variant: str = "standard"
    engine: str | None = "bgsage"


@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    """The analysis of a match (or money session): per game and in total.

    ``level`` and ``plies`` say how deep decisions were judged; luck is always
    at ``luck_plies`` = 1.  The thresholds used are in :data:`DOUBTFUL` & co.
    ``engine`` is ``"bgsage"``, ``"net"`` or ``"mixed"`` (a tavli match judged game by
    game); ``luck_unit`` the unit of :attr:`RollLuck.points` and of the luck-adjusted
    result: ``"match"`` (match winning chance), ``"points"`` (points won).
    """

    players: tuple[str, str]
    match_length: int
    variant: str
    level: str
    plies: int
    luck_plies: int
    games: tuple[GameAnalysis, ...]
    totals: tuple[PlayerStats, PlayerStats]
    #: Each player's result with and without the luck of the dice.
    luck_adjusted: tuple[LuckAdjusted, LuckAdjusted] | tuple[()] = ()
    engine: str = "bgsage"
    luck_unit: Literal["match", "points"] = "match"

    @property
    def decisions(self) -> tuple[Decision, ...]:
        """Every judged decision of the match, in order."""
        return tuple(d for g in self.games for d in g.decisions)

    @property
    def luck(self) -> tuple[RollLuck, ...]:
        """The luck of every roll of the match, in order."""
        return tuple(r for g in self.games for r in g.luck)

    def worst(self, count: int = 10, player: int | None = None) -> list[Decision]:
        """The ``count`` decisions that lost the most equity (of one player, or both)."""
        pool = [d for d in self.decisions if d.error > 0 and player in (None, d.player)]
        return sorted(pool, key=lambda d: -d.error)[:count]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the schema is documented in ``docs/analysis.md``)."""
        return {
            "schema": SCHEMA_VERSION,
            "players": list(self.players),
            "match_length": self.match_length,
            "variant": self.variant,
            "engine": self.engine,
            "level": self.level,
            "plies": self.plies,
            "luck_plies": self.luck_plies,
            "thresholds": {
                "doubtful": DOUBTFUL,
                "error": ERROR,
                "blunder": BLUNDER,
                "close_cube": CLOSE_CUBE,
            },
            "totals": [asdict(p) for p in self.totals],
            "luck_adjusted": [asdict(a) for a in self.luck_adjusted],
            "luck_unit": self.luck_unit if self.match_length else "points",
            "games": [
                {
                    "number": g.number,
                    "variant": g.variant,
                    "engine": g.engine,
                    "score": list(g.score),
                    "crawford": g.crawford,
                    "winner": g.winner,
                    "points": g.points,
                    "players": [asdict(p) for p in g.players],
                    "decisions": [asdict(d) for d in g.decisions],
                    "luck": [asdict(r) for r in g.luck],
                    "graph": [asdict(p) for p in g.graph],
                }
                for g in self.games
            ],
        }
