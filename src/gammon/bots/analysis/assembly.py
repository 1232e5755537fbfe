"""Putting an analysis together: the parts every analyser shares, whatever judged the moves.

Both analysers (bgsage's, :mod:`~gammon.bots.analysis.analyzer`, and the nets',
:mod:`~gammon.bots.analysis.variants`) walk the record with
:func:`~gammon.bots.analysis.walk.walk_record`, value each roll with
:func:`roll_luck` and gather the judged decisions, luck and graph of each game into
:class:`~gammon.bots.analysis.model.GameAnalysis` with :func:`game_analyses`;
:func:`player_stats` adds up both players' figures, :func:`match_analysis` the match's.  What differs between them is
how moves and cubes are valued (their evaluators, their move lists, a cube or none).

>>> from gammon.bots.analysis.walk import GameInfo, Turn
>>> from gammon.bots.equity import ScoreContext
>>> from gammon.dice import Dice
>>> from gammon.position import Position
>>> turn = Turn(1, 0, 0, 0, Position.initial(), ScoreContext(), Dice(3, 1), True)
>>> values = {r: 0.0 for r in rolls_for(opening=True)} | {Dice(3, 1): 0.3}
>>> luck = roll_luck(turn, values, scale=2.0)
>>> round(luck.average, 2), round(luck.luck, 2), round(luck.points, 2)
(0.02, 0.28, 0.56)
>>> [g.variant for g in game_analyses([GameInfo(1, (0, 0), False, variant="fevga")],
...     ("Ann", "Bob"), {}, {}, {}, engine="net")]
['fevga']
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Literal

from gammon.bots.analysis.model import (
    Decision,
    GameAnalysis,
    GraphPoint,
    LuckAdjusted,
    MatchAnalysis,
    PlayerStats,
    RollLuck,
)
from gammon.bots.analysis.walk import GameInfo, Turn, rolls_for
from gammon.dice import Dice
from gammon.match.record import MatchRecord

__all__ = ["game_analyses", "match_analysis", "player_stats", "quiet", "roll_luck"]


def quiet(stage: str, done: int, total: int) -> None:
    """A progress callback that reports nothing."""


def roll_luck(turn: Turn, values: Mapping[Dice, float], scale: float = 1.0) -> RollLuck:
    """The luck of ``turn``'s roll: its value in ``values`` (the roller's equity after the
    best play of each roll) less their weighted mean (doubles once, the others twice);
    ``scale`` turns it into the unit of results (:attr:`RollLuck.points`)."""
    rolls = rolls_for(opening=turn.opening)
    average = math.fsum(values[r] * r.weight for r in rolls) / sum(r.weight for r in rolls)
    value = values[turn.dice]
    return RollLuck(
        turn.game,
        turn.action_index,
        turn.ply,
        turn.player,
        str(turn.dice),
        turn.opening,
        value,
        average,
        value - average,
        (value - average) * scale,
    )


def player_stats(
    names: tuple[str, str], decisions: Sequence[Decision], luck: Sequence[RollLuck]
) -> tuple[PlayerStats, PlayerStats]:
    """Both players' figures over these decisions and rolls."""
    return (
        PlayerStats.collect(0, names[0], decisions, luck),
        PlayerStats.collect(1, names[1], decisions, luck),
    )


def game_analyses(
    games: Sequence[GameInfo],
    names: tuple[str, str],
    decisions: Mapping[int, Sequence[Decision]],
    luck: Mapping[int, Sequence[RollLuck]],
    graph: Mapping[int, Sequence[GraphPoint]],
    *,
    engine: str | None,
) -> tuple[GameAnalysis, ...]:
    """Each game of ``games`` with its judged decisions, luck and graph (by game number,
    each put in the order of the record), its figures, variant and ``engine``."""
    out: list[GameAnalysis] = []
    for info in games:
        n = info.number
        ds = tuple(sorted(decisions.get(n, ()), key=lambda d: (d.action_index, d.kind)))
        ls = tuple(sorted(luck.get(n, ()), key=lambda r: r.action_index))
        gs = tuple(sorted(graph.get(n, ()), key=lambda p: p.action_index))
        out.append(
            GameAnalysis(
                n,
                info.score,
                info.crawford,
                info.winner,
                info.points,
                ds,
                ls,
                gs,
                player_stats(names, ds, ls),
                info.variant,
                engine,
            )
        )
    return tuple(out)


def match_analysis(
    record: MatchRecord,
    games: Sequence[GameAnalysis],
    *,
    level: str,
    plies: int,
    luck_adjusted: tuple[LuckAdjusted, LuckAdjusted] | tuple[()] = (),
    engine: str = "bgsage",
    luck_unit: Literal["match", "points"] = "match",
) -> MatchAnalysis:
    """The analysis of ``record`` from its analysed ``games``, with both players' totals."""
    names = record.players
    return MatchAnalysis(
        players=names,
        match_length=record.options.match_length,
        variant=record.options.variant,
        level=level,
        plies=plies,
        luck_plies=1,
        games=tuple(games),
        totals=player_stats(
            names,
            [d for g in games for d in g.decisions],
            [r for g in games for r in g.luck],
        ),
        luck_adjusted=luck_adjusted,
        engine=engine,
        luck_unit=luck_unit,
    )
