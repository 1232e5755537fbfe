"""Match analysis: every checker play and cube decision judged, error rates and luck.

:func:`analyse_match` (or an :class:`Analyzer`, which keeps its evaluators for
several matches) replays a :class:`~gammon.match.MatchRecord`, from an action
log or a ``.mat`` file, and judges each decision from the deciding player's
side with that moment's :class:`~gammon.bots.equity.ScoreContext` (score, cube,
Crawford, table options).  The result is a frozen :class:`MatchAnalysis`.

>>> from gammon.dice import Dice
>>> from gammon.match import Match, Play, Roll, TableOptions
>>> from gammon.bots.bot import Bot
>>> from gammon.bots.evaluator import PipCountEvaluator
>>> m = Match(TableOptions(match_length=3))
>>> for action in (Roll(0, Dice(3, 1)), Play(0, "24/23 24/21"), Roll(1, Dice(5, 5))):
...     _ = m.push(action)
>>> result = Analyzer(bot=Bot(PipCountEvaluator())).analyse(m.record())   # a test evaluator
>>> [(d.player, d.kind, d.played) for d in result.decisions]
[(0, 'checker', '24/23 24/21')]
>>> [(r.player, r.dice) for r in result.games[0].luck]
[(0, '31'), (1, '55')]

What is judged
--------------

* **Checker plays** with at least two legal moves (distinct resulting
  positions).  Forced moves and rolls that cannot be played are no decision.
  Every move is ranked by the mover's normalised cubeful equity after it (the
  opponent's cube action included), as :meth:`Bot.rank_moves` ranks them.  At
  ``world-class`` (or any ``plies`` > 1) the best :data:`FILTER_MOVES` moves
  within :data:`FILTER_THRESHOLD` at 1-ply, and always the move played, are
  evaluated again at the deep level; the error is the best deep equity minus
  the played move's deep equity.
* **Doubles and no-doubles**: at every turn start where the rules allowed the
  player to double.  The value of doubling is the doubler's equity after the
  opponent's *right* answer (take, pass, or beaver where allowed); the error is
  ``max(no double, double) - played``.
* **Answers to a double**: take, drop or beaver, from the responder's side
  (the responder's normalised equity is minus the doubler's).

Not judged: answers to a beaver or raccoon, resignations and their answers,
abandons, and the draw option's last roll (the game ends with it).

Which decisions count (PR and mEMG)
-----------------------------------

A decision is listed in :attr:`GameAnalysis.decisions` and counted in the error
rates when it is

* a checker play with at least two legal moves;
* an actual double, or any answer to a double;
* a no-double (the player rolled) that was wrong, or *close*: doubling, with
  the opponent's right answer, was worth at least the no-double equity minus
  :data:`CLOSE_CUBE` (0.16).  Clear no-doubles (say, doubling when far behind)
  are not decisions, as in gnubg and XG.

Both rates are means over this same set: ``pr`` (XG's performance rating) is
``500 * total error / decisions``, ``error_rate`` (gnubg's mEMG per decision)
is ``1000 * total error / decisions``, so ``error_rate == 2 * pr`` by
construction; :class:`PlayerStats` also gives the checker and cube parts.
Errors are normalised equity: money points per cube unit, EMG in a match.

Marks (the loss of normalised equity): ``doubtful`` from :data:`DOUBTFUL`
(0.04), ``error`` from :data:`ERROR` (0.08), ``blunder`` from :data:`BLUNDER`
(0.16); ``none`` below.

Luck
----

The luck of a roll is, for the player who rolled, the equity after the best
play of that roll minus the average of the same over the 36 rolls (over the 30
non-doubles for a game's opening roll, which cannot be a double).  It is
computed at **1-ply whatever the analysis level** (the best move of each of the
21 rolls at every turn), with the cubeful equity of the best of the
:data:`LUCK_CANDIDATES` moves with the highest cubeless equity.  A roll that
cannot be played is valued as the position after passing.  Each player's
result over the finished games, less their net luck, is their
:class:`LuckAdjusted` result (points in money play, match winning chance in a
match).

Speed
-----

All 1-ply move evaluations of a match (luck and decisions) go through bgsage's
C++ batch checker play (``batch_checker_play``, threads, no GIL), which routes
each candidate through the networks of the position before the move exactly as
:meth:`BgsageEvaluator.evaluate_after_move` does; the moves of gammon's own
generator are then matched to bgsage's boards (a move bgsage does not list is
evaluated on its own).  The deep evaluations and the cube positions of the whole
match are evaluated in a few batches (``batch_evaluate_post_move``).  A 7-point
match takes a few seconds at 1-ply and 2-ply and 10-40 s at 3-ply on 2 cores
(``docs/analysis.md``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Final, Literal

from gammon.bots.bot import LEVELS, Bot, Level
from gammon.bots.equity import CubeDecision, EquityModel, ScoreContext
from gammon.bots.evaluator import (
    BgsageEvaluator,
    Evaluator,
    MoveEvaluator,
    Probabilities,
    impossible_results_removed,
    terminal_probabilities,
)
from gammon.bots.met import MatchEquityTable
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
    "BLUNDER",
    "CLOSE_CUBE",
    "DOUBTFUL",
    "ERROR",
    "FILTER_MOVES",
    "FILTER_THRESHOLD",
    "LUCK_CANDIDATES",
    "SCHEMA_VERSION",
    "Analyzer",
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
    "analyse_match",
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
_SHOWN: Final = 5
#: 1-ply move jobs per batch call (a progress step).
_CHUNK: Final = 256
#: Deep evaluations per batch call (a progress step).
_DEEP_CHUNK: Final = 64

#: How bad a decision was: see :data:`DOUBTFUL`, :data:`ERROR`, :data:`BLUNDER`.
Mark = Literal["none", "doubtful", "error", "blunder"]
#: ``checker``: a checker play; ``cube``: double or not; ``response``: take, drop or beaver.
DecisionKind = Literal["checker", "cube", "response"]
#: Progress callback: ``(stage, done, total)``; stages are ``cube``, ``moves``, ``deep``.
Progress = Callable[[str, int, int], None]

_OPENING_ROLLS: Final = tuple(r for r in ALL_ROLLS if not r.is_double)
_EPS: Final = 1e-9


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
    equity_played >= 0``.  Checker plays list the best :data:`_SHOWN`
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


@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    """The analysis of a match (or money session): per game and in total.

    ``level`` and ``plies`` say how deep decisions were judged; luck is always
    at ``luck_plies`` = 1.  The thresholds used are in :data:`DOUBTFUL` & co.
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
            "games": [
                {
                    "number": g.number,
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


# ---------------------------------------------------------------------- move scorers


def _mover_board(after: Position) -> tuple[int, ...]:
    """The board after a move seen from the mover (``after.flipped().board``, cheaper)."""
    mover, opp = after.opponent, after.player
    b = [0] * 26
    for p in range(1, 25):
        b[p] = mover[p] - opp[25 - p]
    b[25] = mover[25]
    b[0] = opp[25]
    return tuple(b)


def _moves_of(position: Position, dice: Dice) -> list[Move]:
    """The legal moves of a roll, or the pass move when it cannot be played."""
    moves = position.legal_moves(dice)
    return list(moves) if moves else [position.pass_move(dice)]


def _after_probs(
    evaluator: Evaluator, origin: Position, positions: Sequence[Position]
) -> list[Probabilities]:
    """Probabilities of positions reached from ``origin`` by one move (as the bot gets them)."""
    if isinstance(evaluator, MoveEvaluator):
        return evaluator.evaluate_after_move(origin, positions)
    return evaluator.evaluate(positions)


class _EvaluatorScorer:
    """1-ply probabilities of every move of many rolls, through any evaluator."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator

    def score(self, jobs: Sequence[tuple[Position, Dice]]) -> list[list[Probabilities]]:
        """For each ``(position, dice)``, the probabilities after each of ``_moves_of``."""
        return [
            _after_probs(self.evaluator, p, [m.position_after() for m in _moves_of(p, d)])
            for p, d in jobs
        ]


class _SageScorer:
    """1-ply probabilities of every move of many rolls in one bgsage C++ batch call.

    ``batch_checker_play`` generates and evaluates the moves of each roll in C++
    threads, routing every candidate through the networks of the position
    before the move, like :meth:`BgsageEvaluator.evaluate_after_move` (built
    here from the same weights and bear-off database; a test checks they
    agree).  gammon's own legal moves are matched to bgsage's boards; a move
    bgsage does not list is evaluated by ``fallback``.
    """

    def __init__(self, fallback: Evaluator, threads: int) -> None:
        import bgbot_cpp
        from bgsage.weights import bearoff_db_path, default_weights

        self._cpp: Any = bgbot_cpp
        self.fallback = fallback
        self.threads = threads
        weights = default_weights()
        base: Any = bgbot_cpp.create_strategy(
            weights.strategy_type, weights.weight_paths_list, weights.hidden_sizes_list
        )
        database: Any = bgbot_cpp.BearoffDB()
        if database.load(str(bearoff_db_path())):
            base = bgbot_cpp.BearoffStrategy(base, database)
        else:  # pragma: no cover - the wheel ships the file
            database = None
        # keep the database alive: the strategy holds a raw pointer to it
        self._database: Any = database
        self._strategy: Any = base
        self._centered: Any = bgbot_cpp.CubeOwner.CENTERED

    def score(self, jobs: Sequence[tuple[Position, Dice]]) -> list[list[Probabilities]]:
        """For each ``(position, dice)``, the probabilities after each of ``_moves_of``."""
        inputs = [
            {
                "board": list(p.board),
                "die1": d.high,
                "die2": d.low,
                "cube_value": 1,
                "cube_owner": self._centered,
            }
            for p, d in jobs
        ]
        raw = self._cpp.batch_checker_play(inputs, self._strategy, 5, 0.08, self.threads)
        out: list[list[Probabilities]] = []
        for (position, dice), result in zip(jobs, raw, strict=True):
            table = {tuple(m["board"]): m["probs"] for m in result["moves"]}
            afters = [m.position_after() for m in _moves_of(position, dice)]
            probs: list[Probabilities | None] = []
            missing: list[int] = []
            for i, after in enumerate(afters):
                done = terminal_probabilities(after)
                if done is None:
                    found = table.get(_mover_board(after))
                    if found is None:
                        missing.append(i)
                    else:
                        seen = Probabilities.from_sequence(found).flipped()
                        done = impossible_results_removed(after, seen)
                probs.append(done)
            if missing:
                again = _after_probs(self.fallback, position, [afters[i] for i in missing])
                for i, p in zip(missing, again, strict=True):
                    probs[i] = p
            out.append([p for p in probs if p is not None])
        return out


# ---------------------------------------------------------------------- the walk


@dataclass(slots=True)
class _Turn:
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
class _Checker:
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
    xgid: str


@dataclass(slots=True)
class _Cube:
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
class _GameInfo:
    """A game's number, score and Crawford flag at its start, and its result."""

    number: int
    score: tuple[int, int]
    crawford: bool
    winner: int | None = None
    points: int = 0


@dataclass(slots=True)
class _Walk:
    """Everything a record asks to judge, in order."""

    games: list[_GameInfo] = field(default_factory=list)
    turns: list[_Turn] = field(default_factory=list)
    checkers: list[_Checker] = field(default_factory=list)
    cubes: list[_Cube] = field(default_factory=list)
    #: The state before the first action, and the one after the last finished game.
    first: MatchState | None = None
    settled: MatchState | None = None


def _walk(record: MatchRecord) -> _Walk:
    """Replay the record and collect what is to be judged."""
    states = replay(record)
    walk = _Walk(first=states[0], settled=states[0])
    for index, action in enumerate(record.actions):
        s, t = states[index], states[index + 1]
        g = s.game
        if not walk.games or walk.games[-1].number != g.number:
            walk.games.append(_GameInfo(g.number, s.score, g.crawford))
        if len(t.games) > len(s.games):
            outcome = t.games[-1]
            walk.games[-1].winner = outcome.winner
            walk.games[-1].points = outcome.points
            walk.settled = t
        if g.last_roll:
            continue  # the draw option's final roll: no cube, and the game ends
        if isinstance(action, Roll):
            _walk_roll(walk, s, index, action)
        elif isinstance(action, Play):
            assert g.dice is not None and g.turn is not None
            move = g.position.parse_move(action.move, g.dice)
            walk.checkers.append(
                _Checker(
                    g.number,
                    index,
                    g.plies,
                    g.turn,
                    g.position,
                    score_context(s, g.turn),
                    g.dice,
                    move.position_after(),
                    str(move),
                    xgid(s),
                )
            )
        elif isinstance(action, Double):
            walk.cubes.append(_cube(s, index, action.player, "cube", "double"))
        elif isinstance(action, Take | Drop | Beaver) and g.phase == "doubled":
            played = {Take: "take", Drop: "drop", Beaver: "beaver"}[type(action)]
            walk.cubes.append(_cube(s, index, action.player, "response", played))
    return walk


def _cube(s: MatchState, index: int, player: int, kind: DecisionKind, played: str) -> _Cube:
    g = s.game
    doubler = player if kind == "cube" else 1 - player
    return _Cube(
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
        xgid(s),
    )


def _walk_roll(walk: _Walk, s: MatchState, index: int, action: Roll) -> None:
    g = s.game
    dice = action.dice
    if g.phase == "opening":
        if dice.d1 == dice.d2:
            return  # a tie: roll again
        starter = 0 if dice.d1 > dice.d2 else 1
        walk.turns.append(
            _Turn(
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
        _Turn(g.number, index, g.plies, seat, g.position, ctx, dice.normalized(), False)
    )


# ---------------------------------------------------------------------- the analyzer


@dataclass(slots=True)
class _Ranked:
    """The moves of one checker play with their equities (final level where deep)."""

    moves: list[Move]
    probs: list[Probabilities]
    equity: list[float]
    cubeless: list[float]
    plies: list[int]
    deep: set[int]


class Analyzer:
    """Analyses matches at one level; keeps its evaluators between matches.

    ``level`` judges as the bot of that level (:meth:`Bot.with_bgsage`) would:
    ``beginner``, ``intermediate`` and ``expert`` at 1-ply (the raw bgsage
    networks; analysis never adds the weaker levels' noise), ``world-class``
    with a 1-ply filter and then the world-class bot's depth (3-ply with the
    current bot).  ``plies`` overrides the depth (1..4; ``plies=2`` is XG's
    "2-ply").  ``threads`` is the number of C++ threads of the batch calls (0 =
    every core).

    ``bot`` analyses with that bot's evaluators instead (its filter evaluator,
    or its evaluator, for the 1-ply pass and luck; its evaluator for the deep
    pass and cube decisions), match equity table and cube life; its noise is
    ignored.  Without bgsage this is how to analyse with another evaluator.
    """

    def __init__(
        self,
        level: Level = "expert",
        *,
        plies: int | None = None,
        threads: int = 0,
        bot: Bot | None = None,
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
        if bot is None:
            bot = Bot.with_bgsage(level, threads=threads)
            if plies is not None and plies != _plies(bot.evaluator):
                if plies not in (1, 2, 3, 4):
                    raise ValueError(f"plies must be 1, 2, 3 or 4, not {plies!r}")
                one = bot.filter_evaluator or BgsageEvaluator(1, threads=threads)
                deep = BgsageEvaluator(plies, threads=threads) if plies > 1 else None
                bot = Bot(deep or one, level, filter_evaluator=one if deep else None)
        #: The level named in the results (the bot's).
        self.level: str = bot.level
        #: The depth of decisions (the bot's evaluator's ``plies``).
        self.plies: int = _plies(bot.evaluator)
        #: Ranks every move (1-ply) and values the rolls for luck.
        self.first: Evaluator = bot.filter_evaluator or bot.evaluator
        #: Re-evaluates the best moves and the cube positions, when deeper than ``first``.
        self.deep: Evaluator | None = bot.evaluator if bot.filter_evaluator is not None else None
        self.met: MatchEquityTable = bot.met
        self.cube_life: float = bot.cube_life
        self.threads = threads
        self._scorer: _EvaluatorScorer | _SageScorer
        if type(self.first) is BgsageEvaluator and self.first.plies == 1:
            self._scorer = _SageScorer(self.first, threads)
        else:
            self._scorer = _EvaluatorScorer(self.first)
        self._models: dict[ScoreContext, EquityModel] = {}

    def __repr__(self) -> str:
        return f"Analyzer(level={self.level!r}, plies={self.plies})"

    # ------------------------------------------------------------------ helpers

    def _model(self, ctx: ScoreContext) -> EquityModel:
        model = self._models.get(ctx)
        if model is None:
            model = EquityModel(ctx, self.met, cube_life=self.cube_life)
            self._models[ctx] = model
        return model

    @property
    def _cube_evaluator(self) -> Evaluator:
        return self.deep if self.deep is not None else self.first

    def _best_equity(self, ctx: ScoreContext, probs: Sequence[Probabilities]) -> float:
        """The mover's cubeful equity after the best of these moves (luck's method)."""
        model = self._model(ctx)
        if len(probs) > LUCK_CANDIDATES:
            cubeless = model.after_move_cubeless(probs)
            top = sorted(range(len(probs)), key=lambda i: -cubeless[i])[:LUCK_CANDIDATES]
            probs = [probs[i] for i in top]
        return max(model.after_move(probs))

    def roll_equities(
        self, position: Position, ctx: ScoreContext, *, opening: bool = False
    ) -> dict[Dice, float]:
        """The 1-ply equity after the best play of each roll (larger die first), as luck uses it.

        ``ctx`` is the roller's context; ``opening`` leaves out the doubles.  The
        luck of a roll is its value here minus the weighted mean (doubles count
        once, the others twice).
        """
        rolls = _OPENING_ROLLS if opening else ALL_ROLLS
        scored = self._scorer.score([(position, r) for r in rolls])
        return {r: self._best_equity(ctx, p) for r, p in zip(rolls, scored, strict=True)}

    # ------------------------------------------------------------------ the work

    def analyse(self, record: MatchRecord, progress: Progress | None = None) -> MatchAnalysis:
        """Analyse a match record (see the module notes for what is judged and how)."""
        report: Progress = progress if progress is not None else _quiet
        walk = _walk(record)
        cube_probs = self._cube_pass(walk, report)
        one_ply = self._move_pass(walk, report)
        ranked, dance_probs = self._rank(walk, one_ply, report)
        return self._assemble(record, walk, cube_probs, one_ply, ranked, dance_probs)

    def _cube_pass(self, walk: _Walk, report: Progress) -> dict[Position, Probabilities]:
        """Pre-roll probabilities of every position with a cube decision (analysis level)."""
        positions = list(dict.fromkeys(c.position for c in walk.cubes))
        out: dict[Position, Probabilities] = {}
        report("cube", 0, len(positions))
        for start in range(0, len(positions), _DEEP_CHUNK):
            chunk = positions[start : start + _DEEP_CHUNK]
            out.update(zip(chunk, self._cube_evaluator.evaluate(chunk), strict=True))
            report("cube", len(out), len(positions))
        return out

    def _move_pass(
        self, walk: _Walk, report: Progress
    ) -> dict[tuple[Position, Dice], list[Probabilities]]:
        """1-ply probabilities of every move of every roll of every turn (luck, decisions)."""
        jobs: dict[tuple[Position, Dice], None] = {}
        for turn in walk.turns:
            for roll in _OPENING_ROLLS if turn.opening else ALL_ROLLS:
                jobs[turn.position, roll] = None
        for c in walk.checkers:  # a record may lack the Roll (it never does from the engine)
            jobs[c.position, c.dice.normalized()] = None
        keys = list(jobs)
        out: dict[tuple[Position, Dice], list[Probabilities]] = {}
        report("moves", 0, len(keys))
        for start in range(0, len(keys), _CHUNK):
            chunk = keys[start : start + _CHUNK]
            out.update(zip(chunk, self._scorer.score(chunk), strict=True))
            report("moves", len(out), len(keys))
        return out

    def _rank(
        self,
        walk: _Walk,
        one_ply: dict[tuple[Position, Dice], list[Probabilities]],
        report: Progress,
    ) -> tuple[list[_Ranked], dict[Position, Probabilities]]:
        """Every move played, ranked; with a deep level, re-evaluated as the module says.

        Also returns the deep probabilities of the positions after the rolls
        that could not be played (for the graph); empty at 1-ply.
        """
        ranked: list[_Ranked] = []
        wanted: dict[Position, list[tuple[int, int]]] = {}  # after -> [(checker, move index)]
        origins: dict[Position, Position] = {}
        for n, c in enumerate(walk.checkers):
            dice = c.dice.normalized()
            moves = _moves_of(c.position, dice)
            probs = list(one_ply[c.position, dice])
            model = self._model(c.ctx)
            equity = model.after_move(probs)
            cubeless = model.after_move_cubeless(probs)
            r = _Ranked(moves, probs, equity, cubeless, [1] * len(moves), set())
            ranked.append(r)
            if self.deep is None:
                continue
            keep = {_index_of(moves, c.played)}  # the move played, even a forced one
            if len(moves) > 1:
                order = sorted(range(len(moves)), key=lambda i: (-equity[i], -cubeless[i]))
                best = equity[order[0]]
                keep.update(i for i in order[:FILTER_MOVES] if best - equity[i] <= FILTER_THRESHOLD)
            for i in sorted(keep):
                after = moves[i].position_after()
                wanted.setdefault(after, []).append((n, i))
                origins.setdefault(after, c.position)
        if self.deep is None:
            return ranked, {}
        dances: list[Position] = []
        for turn in walk.turns:
            if not turn.opening and not turn.position.legal_moves(turn.dice):
                after = turn.position.apply(turn.position.pass_move(turn.dice))
                origins.setdefault(after, turn.position)
                dances.append(after)
        todo = list(dict.fromkeys([*wanted, *dances]))
        deep_probs = self._deep_pass(self.deep, todo, origins, report)
        for after, cases in wanted.items():
            deep = deep_probs[after]
            for n, i in cases:
                r, ctx = ranked[n], walk.checkers[n].ctx
                model = self._model(ctx)
                r.probs[i] = deep
                r.equity[i] = model.after_move([deep])[0]
                r.cubeless[i] = model.after_move_cubeless([deep])[0]
                r.plies[i] = self.plies
                r.deep.add(i)
        return ranked, {after: deep_probs[after] for after in dances}

    def _deep_pass(
        self,
        evaluator: Evaluator,
        afters: list[Position],
        origins: dict[Position, Position],
        report: Progress,
    ) -> dict[Position, Probabilities]:
        out: dict[Position, Probabilities] = {}
        report("deep", 0, len(afters))
        if type(evaluator) is BgsageEvaluator:
            # N-ply evaluations do not depend on the board before the move (checked in
            # the tests), so they go through the batch path in chunks
            for start in range(0, len(afters), _DEEP_CHUNK):
                chunk = afters[start : start + _DEEP_CHUNK]
                out.update(zip(chunk, evaluator.evaluate(chunk), strict=True))
                report("deep", len(out), len(afters))
            return out
        by_origin: dict[Position, list[Position]] = {}
        for after in afters:
            by_origin.setdefault(origins[after], []).append(after)
        for origin, group in by_origin.items():
            out.update(zip(group, _after_probs(evaluator, origin, group), strict=True))
            report("deep", len(out), len(afters))
        return out

    # ------------------------------------------------------------------ results

    def _assemble(
        self,
        record: MatchRecord,
        walk: _Walk,
        cube_probs: dict[Position, Probabilities],
        one_ply: dict[tuple[Position, Dice], list[Probabilities]],
        ranked: list[_Ranked],
        dance_probs: dict[Position, Probabilities],
    ) -> MatchAnalysis:
        decisions: dict[int, list[Decision]] = {g.number: [] for g in walk.games}
        luck: dict[int, list[RollLuck]] = {g.number: [] for g in walk.games}
        graph: dict[int, list[GraphPoint]] = {g.number: [] for g in walk.games}
        checkers = {c.action_index: (c, r) for c, r in zip(walk.checkers, ranked, strict=True)}
        for turn in walk.turns:
            luck[turn.game].append(self._luck(turn, one_ply))
            if not turn.opening and not turn.position.legal_moves(turn.dice):
                graph[turn.game].append(self._dance_point(turn, one_ply, dance_probs))
        for c, r in checkers.values():
            decision, point = self._checker(c, r)
            if decision is not None:
                decisions[c.game].append(decision)
            graph[c.game].append(point)
        for cube in walk.cubes:
            decision = self._cube(cube, cube_probs[cube.position])
            if decision is not None:
                decisions[cube.game].append(decision)
        names = record.players
        games: list[GameAnalysis] = []
        for info in walk.games:
            ds = tuple(sorted(decisions[info.number], key=lambda d: (d.action_index, d.kind)))
            ls = tuple(sorted(luck[info.number], key=lambda r: r.action_index))
            gs = tuple(sorted(graph[info.number], key=lambda p: p.action_index))
            stats = (
                PlayerStats.collect(0, names[0], ds, ls),
                PlayerStats.collect(1, names[1], ds, ls),
            )
            games.append(
                GameAnalysis(
                    info.number,
                    info.score,
                    info.crawford,
                    info.winner,
                    info.points,
                    ds,
                    ls,
                    gs,
                    stats,
                )
            )
        all_d = [d for g in games for d in g.decisions]
        all_l = [r for g in games for r in g.luck]
        return MatchAnalysis(
            players=names,
            match_length=record.options.match_length,
            variant=record.options.variant,
            level=self.level,
            plies=self.plies,
            luck_plies=1,
            games=tuple(games),
            totals=(
                PlayerStats.collect(0, names[0], all_d, all_l),
                PlayerStats.collect(1, names[1], all_d, all_l),
            ),
            luck_adjusted=self._luck_adjusted(walk, all_l),
        )

    def _luck(
        self, turn: _Turn, one_ply: dict[tuple[Position, Dice], list[Probabilities]]
    ) -> RollLuck:
        rolls = _OPENING_ROLLS if turn.opening else ALL_ROLLS
        values = {r: self._best_equity(turn.ctx, one_ply[turn.position, r]) for r in rolls}
        total_weight = sum(r.weight for r in rolls)
        average = math.fsum(values[r] * r.weight for r in rolls) / total_weight
        equity = values[turn.dice]
        model = self._model(turn.ctx)
        cube = turn.ctx.cube_value
        scale = (model.value(cube) - model.value(-cube)) / 2.0  # normalised -> result units
        return RollLuck(
            turn.game,
            turn.action_index,
            turn.ply,
            turn.player,
            str(turn.dice),
            turn.opening,
            equity,
            average,
            equity - average,
            (equity - average) * scale,
        )

    def _luck_adjusted(
        self, walk: _Walk, luck: Sequence[RollLuck]
    ) -> tuple[LuckAdjusted, LuckAdjusted]:
        """Both players' results over the finished games, as played and less the luck."""
        assert walk.first is not None and walk.settled is not None
        first, settled = walk.first, walk.settled
        finished = {o.number for o in settled.games}
        out = []
        for p in (0, 1):
            if first.options.is_match:
                result = self._match_chance(settled, p) - self._match_chance(first, p)
            else:
                result = float(
                    sum(
                        o.points if o.winner == p else -o.points
                        for o in settled.games
                        if o.winner is not None
                    )
                )
            net = math.fsum(
                r.points if r.player == p else -r.points for r in luck if r.game in finished
            )
            out.append(LuckAdjusted(p, len(finished), result, net, result - net))
        return out[0], out[1]

    def _match_chance(self, state: MatchState, player: int) -> float:
        """``player``'s chance to win the match at the start of ``state``'s game."""
        if state.over:
            return 1.0 if state.winner == player else 0.0
        n = state.options.match_length
        mine, theirs = n - state.score[player], n - state.score[1 - player]
        # a 1-away score outside the Crawford game is valued as post-Crawford: the only
        # such score with no Crawford game behind it is a 1-point match's start
        one_away = not state.game.crawford and 1 in (mine, theirs)
        return self.met.match_winning_chance(
            mine,
            theirs,
            crawford_game=state.game.crawford,
            post_crawford=state.post_crawford or one_away,
            crawford_rule=state.options.crawford,
        )

    def _point(
        self, game: int, ply: int, index: int, mover: int, ctx: ScoreContext, probs: Probabilities
    ) -> GraphPoint:
        equity = self._model(ctx).after_move([probs])[0]
        win = 1.0 - probs.win
        if mover == 1:
            win, equity = 1.0 - win, -equity
        return GraphPoint(game, ply, index, mover, win, equity)

    def _dance_point(
        self,
        turn: _Turn,
        one_ply: dict[tuple[Position, Dice], list[Probabilities]],
        dance_probs: dict[Position, Probabilities],
    ) -> GraphPoint:
        after = turn.position.apply(turn.position.pass_move(turn.dice))
        probs = dance_probs.get(after, one_ply[turn.position, turn.dice][0])
        return self._point(turn.game, turn.ply + 1, turn.action_index, turn.player, turn.ctx, probs)

    def _checker(self, c: _Checker, r: _Ranked) -> tuple[Decision | None, GraphPoint]:
        played = _index_of(r.moves, c.played)
        point = self._point(c.game, c.ply + 1, c.action_index, c.player, c.ctx, r.probs[played])
        if len(r.moves) < 2:
            return None, point
        final = r.deep if r.deep else set(range(len(r.moves)))
        order = sorted(
            range(len(r.moves)), key=lambda i: (i not in final, -r.equity[i], -r.cubeless[i])
        )
        best = order[0]
        shown = order[:_SHOWN]
        if played not in shown:
            shown.append(played)
        candidates = tuple(
            Candidate(str(r.moves[i]), r.equity[i], r.cubeless[i], 1.0 - r.probs[i].win, r.plies[i])
            for i in shown
        )
        error = max(0.0, r.equity[best] - r.equity[played])
        decision = Decision(
            game=c.game,
            action_index=c.action_index,
            ply=c.ply,
            player=c.player,
            kind="checker",
            position_id=c.position.position_id(),
            xgid=c.xgid,
            dice=str(c.dice),
            played=c.text,
            best=str(r.moves[best]) if error > _EPS else c.text,
            equity_played=r.equity[played],
            equity_best=max(r.equity[best], r.equity[played]),
            error=error,
            mark=mark_for(error),
            candidates=candidates,
        )
        return decision, point

    def _cube(self, cube: _Cube, probs: Probabilities) -> Decision | None:
        d: CubeDecision = self._model(cube.ctx).decision(probs)
        double_value = _double_value(d)
        nd = d.no_double
        if cube.kind == "cube":
            doubled = cube.played == "double"
            best_value = max(nd, double_value)
            played_value = double_value if doubled else nd
            error = max(0.0, best_value - played_value)
            if not doubled and error <= _EPS and nd - double_value >= CLOSE_CUBE:
                return None  # a clear no-double is no decision
            best = "double" if double_value > nd + _EPS else "no double"
            equity_played, equity_best = played_value, best_value
        else:
            answers = {"take": d.double_take, "drop": d.double_pass}
            if cube.beaver_allowed and d.double_beaver is not None:
                answers["beaver"] = d.double_beaver
            played_value = answers.get(cube.played, d.double_take)
            best = min(answers, key=lambda k: (answers[k], k != cube.played))
            # the responder's equity is minus the doubler's
            equity_played, equity_best = -played_value, -answers[best]
            error = max(0.0, equity_best - equity_played)
        if error <= _EPS:
            best = cube.played
        return Decision(
            game=cube.game,
            action_index=cube.action_index,
            ply=cube.ply,
            player=cube.player,
            kind=cube.kind,
            position_id=cube.position.position_id(),
            xgid=cube.xgid,
            dice=None,
            played=cube.played,
            best=best,
            equity_played=equity_played,
            equity_best=equity_best,
            error=error,
            mark=mark_for(error),
            cube=CubeEquities(
                d.no_double,
                d.double_take,
                d.double_pass,
                d.double_beaver,
                d.action,
                probs.win,
                self.plies,
            ),
        )


def _plies(evaluator: Evaluator) -> int:
    """The search depth an evaluator reports (its ``plies``), 1 if it does not say."""
    plies = getattr(evaluator, "plies", 1)
    return plies if isinstance(plies, int) else 1


def _index_of(moves: Sequence[Move], after: Position) -> int:
    """The index of the move that reaches ``after``."""
    return next(i for i, m in enumerate(moves) if m.position_after() == after)


def _double_value(d: CubeDecision) -> float:
    """The doubler's equity after doubling, with the opponent's right answer."""
    if d.response == "beaver" and d.double_beaver is not None:
        return d.double_beaver
    return d.double_pass if d.response == "pass" else d.double_take


def _quiet(stage: str, done: int, total: int) -> None:
    """A progress callback that reports nothing."""


def analyse_match(
    record: MatchRecord,
    level: Level = "expert",
    *,
    plies: int | None = None,
    threads: int = 0,
    progress: Progress | None = None,
) -> MatchAnalysis:
    """Analyse a match at ``level`` (see :class:`Analyzer`; it builds the evaluators each call).

    Raises :class:`~gammon.errors.GammonError` subclasses for a record that does
    not replay.
    """
    return Analyzer(level, plies=plies, threads=threads).analyse(record, progress)
