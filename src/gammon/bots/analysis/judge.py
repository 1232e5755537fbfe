"""Judging decisions: the equity of each choice, the error and mark of the one played.

Given the probabilities an analysis computed, :func:`judge_checker` ranks the
moves of a checker play and :func:`judge_cube` values a double, a no-double or
an answer, each from the deciding player's side with its
:class:`~gammon.bots.equity.EquityModel`; :func:`graph_point` is the equity
graph's point after a move.

>>> from gammon.bots.equity import EquityModel, ScoreContext
>>> from gammon.bots.evaluator import Probabilities
>>> from gammon.bots.met import MatchEquityTable
>>> model = EquityModel(ScoreContext(), MatchEquityTable.default())
>>> point = graph_point(model, 1, 1, 0, 0, Probabilities(0.4, 0.1, 0.0, 0.1, 0.0))
>>> round(point.win, 2), point.equity > 0
(0.6, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from gammon.bots.analysis.model import (
    CLOSE_CUBE,
    SHOWN,
    Candidate,
    CubeEquities,
    Decision,
    GraphPoint,
    mark_for,
)
from gammon.bots.analysis.walk import Checker, Cube
from gammon.bots.equity import CubeDecision, EquityModel
from gammon.bots.evaluator import Probabilities
from gammon.move import Move
from gammon.position import Position

__all__ = ["Ranked", "checker_decision", "graph_point", "index_of", "judge_checker", "judge_cube"]

_EPS: Final = 1e-9


@dataclass(slots=True)
class Ranked:
    """The moves of one checker play with their equities (final level where deep)."""

    moves: list[Move]
    probs: list[Probabilities]
    equity: list[float]
    cubeless: list[float]
    plies: list[int]
    deep: set[int]


def graph_point(
    model: EquityModel, game: int, ply: int, index: int, mover: int, probs: Probabilities
) -> GraphPoint:
    """The graph's point for player 0 after ``mover``'s move left ``probs`` (the opponent on roll)."""
    equity = model.after_move([probs])[0]
    win = 1.0 - probs.win
    if mover == 1:
        win, equity = 1.0 - win, -equity
    return GraphPoint(game, ply, index, mover, win, equity)


def judge_checker(c: Checker, r: Ranked, model: EquityModel) -> tuple[Decision | None, GraphPoint]:
    """The decision of a checker play (None when the move was forced) and the graph point after it."""
    played = index_of(r.moves, c.played)
    point = graph_point(model, c.game, c.ply + 1, c.action_index, c.player, r.probs[played])
    if len(r.moves) < 2:
        return None, point
    final = r.deep if r.deep else set(range(len(r.moves)))
    order = sorted(
        range(len(r.moves)), key=lambda i: (i not in final, -r.equity[i], -r.cubeless[i])
    )
    texts = [c.text if i == played else str(m) for i, m in enumerate(r.moves)]
    candidates = [
        Candidate(texts[i], r.equity[i], r.cubeless[i], 1.0 - r.probs[i].win, r.plies[i])
        for i in range(len(r.moves))
    ]
    return checker_decision(c, c.xgid, str(c.dice), candidates, order, played), point


def checker_decision(
    play: Checker,
    xgid: str,
    dice: str,
    candidates: Sequence[Candidate],
    order: Sequence[int],
    played: int,
) -> Decision:
    """The decision of a checker play from its ranked moves: ``candidates[i]`` is move
    ``i`` (the one ``played`` carrying the text as played), ``order`` the moves best
    first; the best few and the one played are shown, the error is the equity lost.

    Every analyser (gammon's networks in every variant) judges a checker play here.
    """
    best = order[0]
    shown = list(order[:SHOWN])
    if played not in shown:
        shown.append(played)
    error = max(0.0, candidates[best].equity - candidates[played].equity)
    if error <= _EPS:
        error = 0.0
    return Decision(
        game=play.game,
        action_index=play.action_index,
        ply=play.ply,
        player=play.player,
        kind="checker",
        position_id=play.position.position_id(),
        xgid=xgid,
        dice=dice,
        played=candidates[played].move,
        best=candidates[played].move if error == 0.0 else candidates[best].move,
        equity_played=candidates[played].equity,
        equity_best=max(candidates[best].equity, candidates[played].equity),
        error=error,
        mark=mark_for(error),
        candidates=tuple(candidates[i] for i in shown),
    )


def judge_cube(
    cube: Cube,
    probs: Probabilities,
    model: EquityModel,
    plies: int,
    exact: CubeDecision | None = None,
) -> Decision | None:
    """The decision of a double, a no-double or an answer (None for a clear no-double).

    ``exact``: the decision worked out exactly (a short bear-off), judged instead of
    ``model``'s on ``probs``.
    """
    d: CubeDecision = exact if exact is not None else model.decision(probs)
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
            plies,
        ),
    )


def index_of(moves: Sequence[Move], after: Position) -> int:
    """The index of the move that reaches ``after``."""
    return next(i for i, m in enumerate(moves) if m.position_after() == after)


def _double_value(d: CubeDecision) -> float:
    """The doubler's equity after doubling, with the opponent's right answer."""
    if d.response == "beaver" and d.double_beaver is not None:
        return d.double_beaver
    return d.double_pass if d.response == "pass" else d.double_take
