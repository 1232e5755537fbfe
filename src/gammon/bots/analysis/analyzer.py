"""The analysis driver: :class:`Analyzer` and :func:`analyse_match`.

An analysis walks the record (:mod:`~gammon.bots.analysis.walk`), evaluates in
batches every cube position, every move of every roll at 1-ply
(:mod:`~gammon.bots.analysis.scorer`) and the best moves again at a deep level,
then judges each decision (:mod:`~gammon.bots.analysis.judge`) and values each
roll's luck into a :class:`~gammon.bots.analysis.model.MatchAnalysis`.  What is
judged and how is told in :mod:`gammon.bots.analysis`.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from typing import Final

from gammon.bots.analysis.assembly import game_analyses, match_analysis, quiet, roll_luck
from gammon.bots.analysis.judge import Ranked, graph_point, index_of, judge_checker, judge_cube
from gammon.bots.analysis.model import (
    FILTER_MOVES,
    FILTER_THRESHOLD,
    LUCK_CANDIDATES,
    Decision,
    GraphPoint,
    LuckAdjusted,
    MatchAnalysis,
    Progress,
    RollLuck,
)
from gammon.bots.analysis.scorer import EvaluatorScorer, SageScorer, after_probs, moves_of
from gammon.bots.analysis.walk import Turn, Walk, rolls_for, walk_record
from gammon.bots.bot import LEVELS, Bot, Level
from gammon.bots.endgame import bearoff_probabilities, exact_after_moves, exact_decision
from gammon.bots.equity import CubeDecision, EquityModel, ScoreContext
from gammon.bots.evaluator import BgsageEvaluator, Evaluator, Probabilities
from gammon.bots.met import MatchEquityTable
from gammon.dice import Dice
from gammon.errors import GammonError
from gammon.match.record import MatchRecord
from gammon.match.state import MatchState
from gammon.move import Move
from gammon.position import Position
from gammon.variants import VARIANTS

__all__ = ["ANALYSED_VARIANTS", "Analyzer", "NotAnalysableError", "analyse_match", "can_analyse"]

#: 1-ply move jobs per batch call (a progress step).
_CHUNK: Final = 256
#: Deep evaluations per batch call (a progress step).
_DEEP_CHUNK: Final = 64

#: The variants an analysis judges: those played on the backgammon board (bgsage's
#: networks, the match equity table and the Position and XG IDs know no other).
ANALYSED_VARIANTS: Final = tuple(name for name, v in VARIANTS.items() if v.standard_geometry)


def can_analyse(variant: str) -> bool:
    """Whether a match of ``variant`` can be analysed.

    >>> can_analyse("tavla"), can_analyse("plakoto")
    (True, False)
    """
    return variant in ANALYSED_VARIANTS


class NotAnalysableError(GammonError):
    """A match of a variant the analysis cannot judge (see :data:`ANALYSED_VARIANTS`).

    >>> print(NotAnalysableError("plakoto"))
    plakoto matches cannot be analysed yet: the analysis judges the games played on the backgammon board (standard, nackgammon, hypergammon, caucasian, tavla, portes)
    """

    code = "not_analysable"

    def __init__(self, variant: str) -> None:
        super().__init__(
            f"{variant} matches cannot be analysed yet: the analysis judges the games played "
            f"on the backgammon board ({', '.join(ANALYSED_VARIANTS)})"
        )
        self.variant = variant


class Analyzer:
    """Analyses matches at one level; keeps its evaluators between matches.

    ``level`` judges as the bot of that level (:meth:`Bot.with_bgsage`) would:
    ``beginner``, ``intermediate`` and ``expert`` at 1-ply (the raw bgsage
    networks; analysis never adds the weaker levels' noise), ``world-class``
    with a 1-ply filter and then the world-class bot's depth (3-ply with the
    current bot), ``grandmaster`` with the grandmaster bot's final depth (4-ply)
    for the deep pass and the cube decisions.  ``plies`` overrides the depth (1..4; ``plies=2`` is XG's
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
            if plies is not None and plies != _plies(bot.final_evaluator or bot.evaluator):
                if plies not in (1, 2, 3, 4):
                    raise ValueError(f"plies must be 1, 2, 3 or 4, not {plies!r}")
                one = bot.filter_evaluator or BgsageEvaluator(1, threads=threads)
                deep = BgsageEvaluator(plies, threads=threads) if plies > 1 else None
                bot = Bot(deep or one, level, filter_evaluator=one if deep else None)
        deepest = bot.final_evaluator or bot.evaluator
        #: The level named in the results (the bot's).
        self.level: str = bot.level
        #: The depth of decisions (the bot's deepest evaluator's ``plies``).
        self.plies: int = _plies(deepest)
        #: Ranks every move (1-ply) and values the rolls for luck.
        self.first: Evaluator = bot.filter_evaluator or bot.evaluator
        #: Re-evaluates the best moves and the cube positions, when deeper than ``first``.
        self.deep: Evaluator | None = deepest if bot.filter_evaluator is not None else None
        #: Deep evaluations per batch call: a progress step, and how soon Ctrl-C is seen.
        self.chunk: int = _DEEP_CHUNK if self.plies < 4 else 4
        self.met: MatchEquityTable = bot.met
        self.cube_life: float = bot.cube_life
        self.threads = threads
        self._scorer: EvaluatorScorer | SageScorer
        if type(self.first) is BgsageEvaluator and self.first.plies == 1:
            self._scorer = SageScorer(self.first, threads)
        else:
            self._scorer = EvaluatorScorer(self.first)
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
        rolls = rolls_for(opening=opening)
        scored = self._scorer.score([(position, r) for r in rolls])
        return {r: self._best_equity(ctx, p) for r, p in zip(rolls, scored, strict=True)}

    # ------------------------------------------------------------------ the work

    def analyse(
        self,
        record: MatchRecord,
        progress: Progress | None = None,
        *,
        games: Collection[int] | None = None,
    ) -> MatchAnalysis:
        """Analyse a match record (see the module notes for what is judged and how).

        ``games`` (numbers from 1) analyses only those games, each of which must be played
        on the backgammon board: the portes games of a tavli match
        (:mod:`gammon.bots.analysis.variants` judges the others).  Raises
        :class:`NotAnalysableError` for a variant off the backgammon board.
        """
        if games is None and not can_analyse(record.options.variant):
            raise NotAnalysableError(record.options.variant)
        report: Progress = progress if progress is not None else quiet
        walk = walk_record(record)
        if games is not None:
            walk = walk.only(frozenset(games))
        cube_probs = self._cube_pass(walk, report)
        one_ply = self._move_pass(walk, report)
        ranked, dance_probs = self._rank(walk, one_ply, report)
        return self._assemble(record, walk, cube_probs, one_ply, ranked, dance_probs)

    def bearoff_ranking(self, moves: list[Move], ctx: ScoreContext) -> Ranked | None:
        """The plays of a roll valued without the evaluator, or None outside bear-offs.

        In a short bear-off every play is valued exactly
        (:func:`~gammon.bots.endgame.exact_after_moves`); where the exact walk gives up
        but the bear-off database has every position after a play, the cube model
        values the exact race.  ``ctx`` is the mover's.
        """
        afters = [m.position_after() for m in moves]
        everyone = set(range(len(moves)))
        plies = [self.plies] * len(moves)
        exact = exact_after_moves(afters, ctx, self.met)
        if exact is not None:
            equity, cubeless, theirs = exact
            return Ranked(
                moves, [Probabilities(p) for p in theirs], equity, cubeless, plies, everyone
            )
        races = [bearoff_probabilities(a) for a in afters]
        probs = [p for p in races if p is not None]
        if not moves or len(probs) < len(moves):
            return None
        model = self._model(ctx)
        equity, cubeless = model.after_move(probs), model.after_move_cubeless(probs)
        return Ranked(moves, probs, equity, cubeless, plies, everyone)

    def cube_decision(
        self, position: Position, ctx: ScoreContext, probs: Probabilities
    ) -> CubeDecision:
        """The cube decision judged in ``position`` (the doubler on roll, ``ctx`` theirs).

        Exact in a short bear-off (:func:`~gammon.bots.endgame.exact_decision`), else the
        cube model on the exact race where the bear-off database has the position, else
        on ``probs`` (the analysis level's).
        """
        exact = exact_decision(position, ctx, self.met)
        if exact is not None:
            return exact
        race = bearoff_probabilities(position)
        return self._model(ctx).decision(race if race is not None else probs)

    def _cube_pass(self, walk: Walk, report: Progress) -> dict[Position, Probabilities]:
        """Pre-roll probabilities of every position with a cube decision (analysis level;
        the exact race from the bear-off database where it has the position)."""
        out: dict[Position, Probabilities] = {}
        positions = []
        for position in dict.fromkeys(c.position for c in walk.cubes):
            race = bearoff_probabilities(position)
            if race is None:
                positions.append(position)
            else:
                out[position] = race
        report("cube", 0, len(positions))
        for start in range(0, len(positions), self.chunk):
            chunk = positions[start : start + self.chunk]
            out.update(zip(chunk, self._cube_evaluator.evaluate(chunk), strict=True))
            report("cube", start + len(chunk), len(positions))
        return out

    def _move_pass(
        self, walk: Walk, report: Progress
    ) -> dict[tuple[Position, Dice], list[Probabilities]]:
        """1-ply probabilities of every move of every roll of every turn (luck, decisions)."""
        jobs: dict[tuple[Position, Dice], None] = {}
        for turn in walk.turns:
            for roll in rolls_for(opening=turn.opening):
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
        walk: Walk,
        one_ply: dict[tuple[Position, Dice], list[Probabilities]],
        report: Progress,
    ) -> tuple[list[Ranked], dict[Position, Probabilities]]:
        """Every move played, ranked; with a deep level, re-evaluated as the module says.

        Also returns the deep probabilities of the positions after the rolls
        that could not be played (for the graph); empty at 1-ply.
        """
        ranked: list[Ranked] = []
        wanted: dict[Position, list[tuple[int, int]]] = {}  # after -> [(checker, move index)]
        origins: dict[Position, Position] = {}
        for n, c in enumerate(walk.checkers):
            dice = c.dice.normalized()
            moves = moves_of(c.position, dice)
            probs = list(one_ply[c.position, dice])
            bearoff = self.bearoff_ranking(moves, c.ctx)
            if bearoff is not None:
                ranked.append(bearoff)
                continue
            model = self._model(c.ctx)
            equity = model.after_move(probs)
            cubeless = model.after_move_cubeless(probs)
            r = Ranked(moves, probs, equity, cubeless, [1] * len(moves), set())
            ranked.append(r)
            if self.deep is None:
                continue
            keep = {index_of(moves, c.played)}  # the move played, even a forced one
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
            for start in range(0, len(afters), self.chunk):
                chunk = afters[start : start + self.chunk]
                out.update(zip(chunk, evaluator.evaluate(chunk), strict=True))
                report("deep", len(out), len(afters))
            return out
        by_origin: dict[Position, list[Position]] = {}
        for after in afters:
            by_origin.setdefault(origins[after], []).append(after)
        for origin, group in by_origin.items():
            out.update(zip(group, after_probs(evaluator, origin, group), strict=True))
            report("deep", len(out), len(afters))
        return out

    # ------------------------------------------------------------------ results

    def _assemble(
        self,
        record: MatchRecord,
        walk: Walk,
        cube_probs: dict[Position, Probabilities],
        one_ply: dict[tuple[Position, Dice], list[Probabilities]],
        ranked: list[Ranked],
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
            decision, point = judge_checker(c, r, self._model(c.ctx))
            if decision is not None:
                decisions[c.game].append(decision)
            graph[c.game].append(point)
        for cube in walk.cubes:
            probs = cube_probs[cube.position]
            exact = self.cube_decision(cube.position, cube.ctx, probs)
            decision = judge_cube(cube, probs, self._model(cube.ctx), self.plies, exact)
            if decision is not None:
                decisions[cube.game].append(decision)
        games = game_analyses(walk.games, record.players, decisions, luck, graph, engine="bgsage")
        return match_analysis(
            record,
            games,
            level=self.level,
            plies=self.plies,
            luck_adjusted=self._luck_adjusted(walk, [r for g in games for r in g.luck]),
        )

    def _luck(
        self, turn: Turn, one_ply: dict[tuple[Position, Dice], list[Probabilities]]
    ) -> RollLuck:
        rolls = rolls_for(opening=turn.opening)
        values = {r: self._best_equity(turn.ctx, one_ply[turn.position, r]) for r in rolls}
        model = self._model(turn.ctx)
        cube = turn.ctx.cube_value
        scale = (model.value(cube) - model.value(-cube)) / 2.0  # normalised -> result units
        return roll_luck(turn, values, scale)

    def _luck_adjusted(
        self, walk: Walk, luck: Sequence[RollLuck]
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

    def _dance_point(
        self,
        turn: Turn,
        one_ply: dict[tuple[Position, Dice], list[Probabilities]],
        dance_probs: dict[Position, Probabilities],
    ) -> GraphPoint:
        after = turn.position.apply(turn.position.pass_move(turn.dice))
        probs = dance_probs.get(after, one_ply[turn.position, turn.dice][0])
        return graph_point(
            self._model(turn.ctx), turn.game, turn.ply + 1, turn.action_index, turn.player, probs
        )


def _plies(evaluator: Evaluator) -> int:
    """The search depth an evaluator reports (its ``plies``), 1 if it does not say."""
    plies = getattr(evaluator, "plies", 1)
    return plies if isinstance(plies, int) else 1


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
    not replay, :class:`NotAnalysableError` for a variant off the backgammon board.
    """
    return Analyzer(level, plies=plies, threads=threads).analyse(record, progress)
