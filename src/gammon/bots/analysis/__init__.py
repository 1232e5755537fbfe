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

Variants: the games played on the backgammon board (:data:`ANALYSED_VARIANTS`:
standard, nackgammon, hypergammon, caucasian, tavla, portes); another variant
raises :class:`NotAnalysableError`.

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

Modules
-------

``model`` (the result dataclasses, marks, thresholds), ``walk`` (replaying a
record into what is judged), ``scorer`` (1-ply probabilities of every move of
many rolls), ``judge`` (the equity of each decision, its error and mark),
``analyzer`` (the driver), ``cli`` (``gammon analyse``); each imports only
those before it.
"""

from gammon.bots.analysis.analyzer import (
    ANALYSED_VARIANTS,
    Analyzer,
    NotAnalysableError,
    analyse_match,
    can_analyse,
)
from gammon.bots.analysis.model import (
    BLUNDER,
    CLOSE_CUBE,
    DOUBTFUL,
    ERROR,
    FILTER_MOVES,
    FILTER_THRESHOLD,
    LUCK_CANDIDATES,
    SCHEMA_VERSION,
    Candidate,
    CubeEquities,
    Decision,
    DecisionKind,
    GameAnalysis,
    GraphPoint,
    LuckAdjusted,
    Mark,
    MatchAnalysis,
    PlayerStats,
    Progress,
    RollLuck,
    mark_for,
)

__all__ = [
    "ANALYSED_VARIANTS",
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
    "NotAnalysableError",
    "PlayerStats",
    "Progress",
    "RollLuck",
    "analyse_match",
    "can_analyse",
    "mark_for",
]
