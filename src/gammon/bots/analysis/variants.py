"""The analysis of the variants off the backgammon board, judged by their trained nets.

:class:`NetAnalyzer` replays a match of a variant with a net (:func:`net_variants`:
plakoto, fevga, long nardy, jacquet and acey-deucey today; any variant for which
:func:`gammon.bots.nets.has_net` becomes true later) and judges it with the net as
:class:`~gammon.bots.analysis.Analyzer` judges the backgammon board with bgsage, into
the same :class:`~gammon.bots.analysis.model.MatchAnalysis` (docs/analysis.md):

* every **checker play** with at least two legal moves (distinct resulting positions):
  all legal moves ranked at 1 ply by the net (the mover's expected points after the
  move, gammons counting 2: :func:`gammon.bots.nets.net.equity`); the error is the best
  move's equity minus the played one's, marked with the backgammon analysis'
  thresholds (:func:`~gammon.bots.analysis.model.mark_for`); acey-deucey's 1-2, whose
  plays are too many to list, is judged among the best :data:`SHOWN` plays of the nets'
  staged search (:mod:`gammon.bots.nets.bonus`) and the play made;
* the **luck** of every roll played: the equity after the best play of that roll minus
  the average over the 36 rolls (30 at a game's opening roll);
* the **graph**: player 0's chance to win the game and equity after every move.

There is no cube in these variants, hence no cube decision; equities are points per
game (``engine`` ``"net"``, ``luck_unit`` ``"points"``).  The error rate and the
"PR" (500 × the mean error) are the backgammon formulas applied to the net's
equities: comparable between players of the same variant, not with backgammon PRs.

:func:`analyse_by_game` judges a tavli match (portes, plakoto, fevga in turn) game by
game: the games of a variant with a net by its net, those on the backgammon board by
bgsage when it is installed; a game no engine can judge is listed with ``engine``
None (not analysed) instead of failing the match.

>>> from gammon.match import Match, Play, Roll, TableOptions
>>> from gammon.dice import Dice
>>> m = Match(TableOptions(variant="plakoto", match_length=1, cube=False))
>>> for action in (Roll(0, Dice(2, 5)), Roll(1, Dice(6, 5)), Play(1, "24/18 24/19")):
...     _ = m.push(action)
>>> result = NetAnalyzer().analyse(m.record())
>>> result.engine, result.games[0].engine, [(r.player, r.dice) for r in result.luck]
('net', 'net', [(1, '65')])
>>> [(d.player, d.played, d.mark) for d in result.decisions]
[(1, '24/19 24/18', 'none')]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

import numpy as np

from gammon.bots.analysis.assembly import game_analyses, match_analysis, quiet, roll_luck
from gammon.bots.analysis.judge import checker_decision
from gammon.bots.analysis.model import (
    SHOWN,
    Candidate,
    Decision,
    GameAnalysis,
    GraphPoint,
    LuckAdjusted,
    MatchAnalysis,
    Progress,
    RollLuck,
)
from gammon.bots.analysis.walk import Checker, Turn, rolls_for, walk_record
from gammon.bots.nets.bonus import ranked_moves
from gammon.bots.nets.bot import has_net, load_net, mover_outputs
from gammon.bots.nets.net import Net, equity
from gammon.dice import Dice
from gammon.errors import GammonError
from gammon.match.record import MatchRecord
from gammon.move import Move
from gammon.position import Position
from gammon.variants import ROTATIONS, VARIANTS

__all__ = [
    "NET_LEVEL",
    "NetAnalyzer",
    "NotJudgedError",
    "analyse_by_game",
    "analyse_with_nets",
    "can_analyse_with_net",
    "net_variants",
    "refusal",
]

#: The ``level`` an analysis by the nets reports (1-ply, whatever level was asked).
NET_LEVEL: Final = "net"
_EPS: Final = 1e-9


def net_variants() -> tuple[str, ...]:
    """The variants a net judges: every variant for which a trained net ships.

    >>> "plakoto" in net_variants(), "standard" in net_variants()
    (True, False)
    """
    return tuple(name for name in VARIANTS if has_net(name))


def can_analyse_with_net(variant: str) -> bool:
    """Whether a match of ``variant`` is judged by the nets: a variant with a net, or a
    rotation (tavli) one of whose games has one.

    >>> can_analyse_with_net("fevga"), can_analyse_with_net("tavli"), can_analyse_with_net("tavla")
    (True, True, False)
    """
    games = ROTATIONS.get(variant, (variant,))
    return any(has_net(name) for name in games)


def refusal(variant: str) -> str:
    """Why a match of ``variant`` cannot be analysed, in words (``gammon analyse``).

    >>> print(refusal("jacquet"))  # doctest: +ELLIPSIS
    jacquet matches cannot be analysed yet: ... on the backgammon board (standard, ...) and, with their trained nets, plakoto, fevga, long-nardy...
    """
    board = ", ".join(name for name, v in VARIANTS.items() if v.standard_geometry)
    nets = [*net_variants(), *(r for r in ROTATIONS if can_analyse_with_net(r))]
    return (
        f"{variant} matches cannot be analysed yet: the analysis judges the games played "
        f"on the backgammon board ({board}) and, with their trained nets, {', '.join(nets)}"
    )


class NotJudgedError(GammonError):
    """A match none of whose games an engine here can judge."""

    code = "not_analysable"


# ---------------------------------------------------------------------- the analyzer


@dataclass(frozen=True, slots=True)
class _Ranking:
    """The legal moves of a roll, with the mover's outputs (win, win gammon, lose gammon)
    and equity after each; for a roll that cannot be played, the pass alone."""

    moves: tuple[Move, ...]
    outputs: np.ndarray
    equities: np.ndarray

    @property
    def best(self) -> float:
        return float(self.equities.max())


class NetAnalyzer:
    """Analyses the matches of the variants with a net, at 1 ply (see the module notes).

    ``nets`` replaces the shipped nets by variant name (tests, a net in training).
    """

    def __init__(self, nets: Mapping[str, Net] | None = None) -> None:
        self.nets: dict[str, Net] = dict(nets or {})
        self._rankings: dict[tuple[Position, Dice], _Ranking] = {}

    def __repr__(self) -> str:
        return "NetAnalyzer()"

    def judges(self, variant: str) -> bool:
        """Whether this analyzer has a net for the games of ``variant``."""
        return variant in self.nets or has_net(variant)

    def _net(self, position: Position) -> Net:
        name = position.variant.name
        return self.nets[name] if name in self.nets else load_net(name)

    def ranking(self, position: Position, dice: Dice) -> _Ranking:
        """Every legal move of ``dice`` with the mover's 1-ply outputs and equity after it."""
        return self._rank_rolls(position, (dice,))[0]

    def _rank_rolls(self, position: Position, rolls: Sequence[Dice]) -> list[_Ranking]:
        """:meth:`ranking` of several rolls, the net run once for all their moves."""
        missing = [r for r in rolls if (position, r) not in self._rankings]
        if missing:
            if len(self._rankings) > 20_000:
                self._rankings.clear()
            per_roll = [self._moves(position, r) for r in missing]
            every = [m for moves in per_roll for m in moves]
            outputs = mover_outputs(self._net(position), position, every)[3]
            values = equity(outputs)
            start = 0
            for r, moves in zip(missing, per_roll, strict=True):
                end = start + len(moves)
                self._rankings[position, r] = _Ranking(
                    tuple(moves), outputs[start:end], values[start:end]
                )
                start = end
        return [self._rankings[position, r] for r in rolls]

    def _moves(self, position: Position, dice: Dice) -> tuple[Move, ...]:
        """The moves a ranking holds: the legal ones (the pass alone when there is none),
        or a 1-2's best :data:`SHOWN` by the staged search."""
        searched = ranked_moves(self._net(position), position, dice, SHOWN)
        if searched is not None:
            return tuple(move for _, move in searched)
        return position.legal_moves(dice) or (position.pass_move(dice),)

    def _with(self, position: Position, r: _Ranking, move: Move) -> _Ranking:
        """``r`` with ``move`` added last (a 1-2 play the search left out)."""
        outputs = mover_outputs(self._net(position), position, [move])[3]
        return _Ranking(
            (*r.moves, move),
            np.concatenate([r.outputs, outputs]),
            np.concatenate([r.equities, equity(outputs)]),
        )

    def roll_equities(self, position: Position, *, opening: bool = False) -> dict[Dice, float]:
        """The mover's equity after the best play of each roll (larger die first).

        >>> values = NetAnalyzer().roll_equities(Position.initial("plakoto"), opening=True)
        >>> len(values), all(-2 <= v <= 2 for v in values.values())
        (15, True)
        """
        rolls = rolls_for(opening=opening)
        return {r: k.best for r, k in zip(rolls, self._rank_rolls(position, rolls), strict=True)}

    def analyse(
        self,
        record: MatchRecord,
        progress: Progress | None = None,
        *,
        games: Collection[int] | None = None,
    ) -> MatchAnalysis:
        """Analyse a match record (every game, or the games numbered in ``games``).

        Raises :class:`NotJudgedError` when a game to judge is of a variant without a net.
        """
        walk = walk_record(record)
        variants = {g.number: g.variant for g in walk.games}
        wanted = frozenset(games) if games is not None else frozenset(variants)
        walk = walk.only(wanted)
        for info in walk.games:
            if not self.judges(info.variant):
                raise NotJudgedError(
                    f"{info.variant} has no trained net: its games cannot be analysed"
                )
        report: Progress = progress if progress is not None else quiet
        turns, plays = walk.turns, walk.checkers
        total = len(turns) + len(plays)
        report("moves", 0, total)
        luck: dict[int, list[RollLuck]] = {n: [] for n in wanted}
        decisions: dict[int, list[Decision]] = {n: [] for n in wanted}
        graph: dict[int, list[GraphPoint]] = {n: [] for n in wanted}
        done = 0
        for turn in turns:
            luck[turn.game].append(self._luck(turn))
            if self.ranking(turn.position, turn.dice).moves[0].is_pass():  # cannot be played
                graph[turn.game].append(self._dance_point(turn))
            done += 1
            if done % 16 == 0:
                report("moves", done, total)
        for play in plays:
            decision, point = self._judge(play)
            if decision is not None:
                decisions[play.game].append(decision)
            graph[play.game].append(point)
            done += 1
            if done % 16 == 0:
                report("moves", done, total)
        report("moves", total, total)
        out = game_analyses(walk.games, record.players, decisions, luck, graph, engine="net")
        return match_analysis(
            record,
            out,
            level=NET_LEVEL,
            plies=1,
            luck_adjusted=_luck_adjusted(out),
            engine="net",
            luck_unit="points",
        )

    # ------------------------------------------------------------------ the parts

    def _luck(self, turn: Turn) -> RollLuck:
        values = self.roll_equities(turn.position, opening=turn.opening)
        return roll_luck(turn, values)  # in points: no cube in these variants

    def _dance_point(self, turn: Turn) -> GraphPoint:
        r = self.ranking(turn.position, turn.dice)
        return _point(turn.game, turn.ply + 1, turn.action_index, turn.player, r, 0)

    def _judge(self, play: Checker) -> tuple[Decision | None, GraphPoint]:
        dice = play.dice.normalized()
        r = self.ranking(play.position, dice)
        after = play.move.position_after()
        index = next((i for i, m in enumerate(r.moves) if m.position_after() == after), -1)
        if index < 0:  # a 1-2 play the staged search did not keep
            r = self._with(play.position, r, play.move)
            index = len(r.moves) - 1
        point = _point(play.game, play.ply + 1, play.action_index, play.player, r, index)
        if len(r.moves) < 2:
            return None, point
        order = sorted(range(len(r.moves)), key=lambda i: (-r.equities[i], i))
        played_text = str(play.move)
        candidates = [
            Candidate(
                played_text if i == index else str(m),
                float(r.equities[i]),
                float(r.equities[i]),
                float(r.outputs[i][0]),
                1,
            )
            for i, m in enumerate(r.moves)
        ]
        return checker_decision(play, "", str(dice), candidates, order, index), point


def _point(game: int, ply: int, action_index: int, mover: int, r: _Ranking, i: int) -> GraphPoint:
    """Player 0's winning chance and equity after move ``i`` of ``r`` (played by ``mover``)."""
    win, value = float(r.outputs[i][0]), float(r.equities[i])
    if mover == 1:
        win, value = 1.0 - win, -value
    return GraphPoint(game, ply, action_index, mover, win, value)


def _luck_adjusted(games: Sequence[GameAnalysis]) -> tuple[LuckAdjusted, LuckAdjusted]:
    """Points won over the finished games, with and without the luck (in points)."""
    finished = [g for g in games if g.winner is not None]
    out = []
    for p in (0, 1):
        result = float(sum(g.points if g.winner == p else -g.points for g in finished))
        net = math.fsum(r.points if r.player == p else -r.points for g in finished for r in g.luck)
        out.append(LuckAdjusted(p, len(finished), result, net, result - net))
    return out[0], out[1]


# ---------------------------------------------------------------------- game by game

#: ``judge(record, games, progress)``: an engine's analysis of some games of a record.
GameJudge = Callable[[MatchRecord, frozenset[int], Progress], MatchAnalysis]


def analyse_by_game(
    record: MatchRecord,
    judges: Mapping[str, tuple[Callable[[str], bool], GameJudge]],
    progress: Progress | None = None,
) -> MatchAnalysis:
    """A match whose games change variant (tavli), each game judged by the first engine of
    ``judges`` (name -> (judges this variant?, judge)) that takes its variant.

    A game no engine takes is kept with ``engine`` None and nothing judged.  The totals
    add every judged game; the luck-adjusted result is left out (engines measure luck in
    different units).  ``level`` and ``plies`` are those of the first engine other than
    the nets (bgsage's), else the nets'.
    """
    report: Progress = progress if progress is not None else quiet
    walk = walk_record(record)
    variants = {g.number: g.variant for g in walk.games}
    chosen: dict[int, str | None] = {}
    for number, variant in variants.items():
        chosen[number] = next((name for name, (takes, _) in judges.items() if takes(variant)), None)
    parts: dict[int, GameAnalysis] = {}
    engines = [name for name in judges if name in chosen.values()]
    levels: list[tuple[str, int]] = []
    for name in engines:
        numbers = frozenset(n for n, e in chosen.items() if e == name)
        part = judges[name][1](record, numbers, report)
        levels.append((part.level, part.plies))
        for g in part.games:
            parts[g.number] = replace(g, variant=variants[g.number], engine=name)
    names = record.players
    out: list[GameAnalysis] = []
    for info in walk.games:
        found = parts.get(info.number)
        if found is None:  # no engine takes its variant: listed, nothing judged
            (found,) = game_analyses([info], names, {}, {}, {}, engine=None)
        out.append(found)
    deep = next((p for p in levels if p[0] != NET_LEVEL), (NET_LEVEL, 1))
    return match_analysis(
        record, out, level=deep[0], plies=deep[1], engine="mixed", luck_unit="points"
    )


def analyse_with_nets(
    record: MatchRecord,
    level: str = "expert",
    *,
    plies: int | None = None,
    threads: int = 0,
    progress: Progress | None = None,
) -> MatchAnalysis:
    """A match of a variant with a net (:class:`NetAnalyzer`), or of a rotation (tavli) game
    by game (:func:`analyse_by_game`: the nets, and bgsage at ``level``/``plies`` on the
    backgammon board when it is installed).  ``level`` does not change the nets' analysis.
    """
    nets = NetAnalyzer()
    if record.options.variant not in ROTATIONS:
        return nets.analyse(record, progress)

    def board(variant: str) -> bool:
        if not VARIANTS[variant].standard_geometry:
            return False
        try:
            import bgsage  # noqa: F401
        except ImportError:
            return False
        return True

    def bgsage_games(rec: MatchRecord, games: frozenset[int], report: Progress) -> MatchAnalysis:
        from gammon.bots.analysis.analyzer import Analyzer

        analyzer = Analyzer(level, plies=plies, threads=threads)  # type: ignore[arg-type]
        return analyzer.analyse(rec, report, games=games)

    def net_games(rec: MatchRecord, games: frozenset[int], report: Progress) -> MatchAnalysis:
        return nets.analyse(rec, report, games=games)

    judges = {"net": (nets.judges, net_games), "bgsage": (board, bgsage_games)}
    return analyse_by_game(record, judges, progress)
