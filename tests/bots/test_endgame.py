"""The exact bear-off cube (gammon.bots.endgame) against an independent enumeration.

The oracle here shares no code with the solver: it plays the rolls with the rules
engine's own move generator (``Position.legal_moves``, itself checked against gnubg),
detects the end with ``Position.result`` and scores it straight from the match
equity table (``MatchEquityTable.after_game``) or in points, with the cube actions
written out as the rules state them.  Every cube decision of the solver must match
it, at money and match scores, in every short bear-off of one or two checkers a
side (and a sample of three), and the position reported in issue 31 must be a
redouble/take.
"""

from __future__ import annotations

import itertools
import math
from functools import cache
from typing import Literal

import pytest

from gammon.bots.endgame import (
    BearoffSolver,
    exact_after_moves,
    exact_decision,
    home_side,
)
from gammon.bots.equity import EquityModel, ScoreContext
from gammon.bots.met import MatchEquityTable
from gammon.position import Position

MET = MatchEquityTable.default()
#: The 21 rolls with their number of ways out of 36.
ROLLS = [((a, b), 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7)]

Owner = Literal["me", "opponent", "centered"]


class Oracle:
    """Plain enumeration of a bear-off with the cube, for one score (``ctx`` of side 0)."""

    def __init__(self, ctx: ScoreContext) -> None:
        self.ctx = ctx

    def payoff(self, side: int, points: int) -> float:
        """Side ``side``'s utility when it wins ``points`` (negative: loses)."""
        c = self.ctx
        if c.is_money:
            return float(points)
        away = (c.away_me, c.away_opp) if side == 0 else (c.away_opp, c.away_me)
        return MET.after_game(
            *away,
            points,
            crawford_game=c.crawford_game,
            post_crawford=c.post_crawford,
            crawford_rule=c.crawford_rule,
        )

    def other(self, utility: float) -> float:
        return -utility if self.ctx.is_money else 1.0 - utility

    def may_double(self, side: int, cube: int, owner: int | None) -> bool:
        c = self.ctx
        if not c.cube_enabled or c.crawford_game or owner == 1 - side:
            return False
        if c.cube_limit is not None and 2 * cube > c.cube_limit:
            return False
        if c.is_money:
            return True
        return cube < (c.away_me if side == 0 else c.away_opp)

    @cache  # noqa: B019 - one oracle per score, kept for the test's life
    def turn(self, pos: Position, side: int, cube: int, owner: int | None) -> float:
        """The utility of ``side`` (on roll in ``pos``) before its cube action."""
        stay = self.rolls(pos, side, cube, owner)
        if not self.may_double(side, cube, owner):
            return stay
        answers = [self.payoff(side, cube), self.rolls(pos, side, 2 * cube, 1 - side)]
        if self.ctx.beaver_allowed and (
            self.ctx.cube_limit is None or 4 * cube <= self.ctx.cube_limit
        ):
            answers.append(
                max(self.rolls(pos, side, 4 * cube, 1 - side), self.payoff(side, -2 * cube))
            )
        return max(stay, min(answers))

    @cache  # noqa: B019
    def rolls(self, pos: Position, side: int, cube: int, owner: int | None) -> float:
        """The utility of ``side`` on roll in ``pos`` when the cube does not move now."""
        total = 0.0
        for dice, ways in ROLLS:
            best = None
            for move in pos.legal_moves(dice):
                after = pos.apply(move)
                result = after.result()
                if result is not None:  # the mover bore off the last checker
                    assert result.points == 1, "no gammon in these bear-offs"
                    u = self.payoff(side, cube)
                else:
                    u = self.other(self.turn(after, 1 - side, cube, owner))
                best = u if best is None else max(best, u)
            assert best is not None
            total += ways * best
        return total / 36.0

    def decision(self, pos: Position) -> tuple[float, float, float]:
        """No double, double/take, double/pass for side 0, in side 0's utility."""
        c = self.ctx
        owner = {"centered": None, "me": 0, "opponent": 1}[c.cube_owner]
        v = c.cube_value
        return (
            self.rolls(pos, 0, v, owner),
            self.rolls(pos, 0, 2 * v, 1),
            self.payoff(0, v),
        )


#: The scores of the sweep (side 0 on roll): money, and matches where the cube is
#: live, dead for one side, after Crawford, owned by either side.
SCORES: dict[str, ScoreContext] = {
    "money centred": ScoreContext(),
    "money owned": ScoreContext(cube_value=2, cube_owner="me"),
    "money limit 2": ScoreContext(cube_limit=2),
    "7pt 3-0 owned 2": ScoreContext.for_match(7, 3, 0, cube_value=2, cube_owner="me"),
    "7pt 0-3 centred": ScoreContext.for_match(7, 0, 3),
    "5pt 3-3 centred": ScoreContext.for_match(5, 3, 3),
    "7pt 4-6 post-Crawford": ScoreContext.for_match(7, 4, 6, post_crawford=True),
    "9pt 5-1 opp owns 2": ScoreContext.for_match(9, 5, 1, cube_value=2, cube_owner="opponent"),
}


def _small_sides(most: int) -> list[dict[int, int]]:
    """Every home board of 1..``most`` checkers as ``{point: count}``."""
    out = []
    for n in range(1, most + 1):
        for points in itertools.combinations_with_replacement(range(1, 7), n):
            side: dict[int, int] = {}
            for p in points:
                side[p] = side.get(p, 0) + 1
            out.append(side)
    return out


#: How far the shipped database's 16-bit money equities may be from the exact ones
#: (1.6e-5 each; a double/take is twice one), where the solver reads them.
DB_EQUITY = 1e-4


def _agree(pos: Position, ctx: ScoreContext, oracle: Oracle) -> None:
    got = exact_decision(pos, ctx, MET)
    assert got is not None, pos
    nd, dt, dp = oracle.decision(pos)
    model = EquityModel(ctx, MET)
    n = model.normalise
    money_db = ctx.is_money and ctx.cube_limit is None and not ctx.beaver_allowed
    tol = DB_EQUITY if money_db else 1e-9
    assert got.no_double == pytest.approx(n(nd), abs=tol), pos
    assert got.double_take == pytest.approx(n(dt), abs=tol), pos
    assert got.double_pass == pytest.approx(n(dp), abs=1e-9), pos
    may = ctx.may_double() and oracle.may_double(
        0, ctx.cube_value, 0 if ctx.cube_owner == "me" else None
    )
    # within the tolerance of a tie either answer is right
    if abs(n(min(dt, dp)) - n(nd)) > 2 * tol:
        want_double = may and min(dt, dp) > nd + 1e-12
        assert got.should_double == want_double, (pos, got)
    if abs(n(dt) - n(dp)) > 2 * tol:
        assert got.response == ("take" if dt < dp - 1e-12 else "pass"), (pos, got)


#: Every one of the 729 pairs at these scores; every seventh pair at the others.
FULL = ("money centred", "7pt 3-0 owned 2")


@pytest.mark.parametrize("score", list(SCORES))
def test_bearoffs_of_two_checkers_a_side_match_the_enumeration(score: str) -> None:
    ctx = SCORES[score]
    oracle = Oracle(ctx)
    sides = _small_sides(2)
    pairs = list(itertools.product(sides, sides))
    for mine, theirs in pairs if score in FULL else pairs[::7]:
        _agree(Position.from_points(mine, theirs), ctx, oracle)


def test_three_checker_bearoffs_within_the_budget_match_the_enumeration() -> None:
    """At a match score with a live cube (money play within the database's range is the
    database's: tests/bots/test_bearoff.py and the sweep above check it)."""
    ctx = SCORES["7pt 3-0 owned 2"]
    oracle = Oracle(ctx)
    solver = BearoffSolver(ctx, MET)
    threes = [s for s in _small_sides(3) if sum(s.values()) == 3]
    inside, outside = [], []
    for mine, theirs in itertools.product(threes, threes):
        pos = Position.from_points(mine, theirs)
        me, them = home_side(pos.player), home_side(pos.opponent)
        assert me is not None and them is not None
        (inside if solver.fits(me, them) else outside).append(pos)
    assert len(inside) >= 1000  # of 3,136
    # the enumeration's time grows fast with the tree: its sample keeps to small trees
    small = [p for p in inside if _tree(p) <= 2500]
    for pos in small[:: len(small) // 18]:
        _agree(pos, ctx, oracle)
    for pos in outside[::100]:
        assert exact_decision(pos, ctx, MET) is None


def test_the_reported_last_roll_is_a_redouble_and_a_take() -> None:
    """Issue 31: two checkers on the 2-point against two on the 1-point, 7-point match,
    3-0 for the side on roll, which owns the cube at 2.  The cube-life model said no
    redouble (0.628 against 0.381); the answer is redouble/take, by 0.548 EMG."""
    pos = Position.from_xgid("XGID=--B---------------------b-:0:0:1:00:0:0:0:0:10")
    ctx = SCORES["7pt 3-0 owned 2"]
    got = exact_decision(pos, ctx, MET)
    assert got is not None
    assert got.action == "double, take"
    assert got.double_take - got.no_double == pytest.approx(0.548, abs=0.001)
    nd, dt, _dp = Oracle(ctx).decision(pos)
    assert nd == pytest.approx(
        26 / 36 * MET.after_game(4, 7, 2) + 10 / 36 * MET.after_game(4, 7, -2)
    )
    assert dt - nd == pytest.approx(0.073, abs=0.001)  # in match winning chances


def test_plays_are_valued_exactly() -> None:
    """Every play of a roll gets the enumeration's equity; the best is the right one."""
    pos = Position.from_points({1: 1, 2: 1, 6: 1}, {2: 1, 3: 1})
    ctx = SCORES["5pt 3-3 centred"]
    oracle = Oracle(ctx)
    model = EquityModel(ctx, MET)
    moves = pos.legal_moves((5, 1))
    afters = [m.position_after() for m in moves]
    got = exact_after_moves(afters, ctx, MET)
    assert got is not None
    cubeful, _cubeless, _their_win = got
    for after, value in zip(afters, cubeful, strict=True):
        want = model.normalise(oracle.other(oracle.turn(after, 1, 1, None)))
        assert value == pytest.approx(want, abs=1e-9)


def _tree(pos: Position) -> int:
    """How many pairs of sides there are with no more checkers, none higher."""
    out = 1
    for side in (home_side(pos.player), home_side(pos.opponent)):
        assert side is not None
        top = max(i + 1 for i in range(6) if side[i])
        out *= math.comb(top + sum(side), top)
    return out


def test_outside_short_bearoffs_there_is_no_exact_answer() -> None:
    contact = Position.initial()
    no_checker_off = Position.from_points({1: 5, 2: 5, 3: 5}, {1: 2})
    big = Position.from_points({4: 3, 5: 3, 6: 3}, {4: 3, 5: 3, 6: 3})
    for pos in (contact, no_checker_off, big):
        assert exact_decision(pos, ScoreContext(), MET) is None
    assert home_side(no_checker_off.player) is None


def test_a_large_bearoff_is_refused_quickly() -> None:
    import time

    big = Position.from_points({4: 3, 5: 3, 6: 3}, {4: 3, 5: 3, 6: 3})
    start = time.perf_counter()
    assert exact_decision(big, ScoreContext(), MET) is None
    assert time.perf_counter() - start < 0.5


def test_the_solver_gives_up_past_its_budget() -> None:
    solver = BearoffSolver(ScoreContext.for_match(5, 3, 3), MET, budget=100)
    mine = (0, 0, 2, 2, 0, 0)
    assert not solver.fits(mine, mine)


def test_the_bot_doubles_and_plays_short_bearoffs_exactly() -> None:
    """The bot's cube action in the reported position is the exact one (the cube-life
    model on the same probabilities says no redouble), and its bear-off plays are the
    enumeration's best."""
    from gammon.bots.bot import Bot
    from gammon.bots.evaluator import PipCountEvaluator, Probabilities

    pos = Position.from_xgid("XGID=--B---------------------b-:0:0:1:00:0:0:0:0:10")
    ctx = SCORES["7pt 3-0 owned 2"]
    assert EquityModel(ctx, MET).decision(Probabilities(26 / 36)).action == "no double"
    bot = Bot(PipCountEvaluator(), "expert")
    assert bot.cube_decision(pos, ctx).action == "double, take"
    assert bot.should_double(pos, ctx)
    assert bot.respond_to_double(pos, ctx.flipped()) == "take"
    race = Position.from_points({1: 1, 2: 1, 6: 1}, {2: 1, 3: 1})
    ranked = bot.rank_moves(race, (5, 1), SCORES["5pt 3-3 centred"])
    oracle = Oracle(SCORES["5pt 3-3 centred"])
    model = EquityModel(SCORES["5pt 3-3 centred"], MET)
    best = max(
        model.normalise(oracle.other(oracle.turn(m.position_after(), 1, 1, None)))
        for m in race.legal_moves((5, 1))
    )
    assert ranked[0].equity == pytest.approx(best, abs=1e-9)
    # a noisy level keeps its errors: it does not use the solver
    assert Bot(PipCountEvaluator(), "beginner").cube_decision(pos, ctx).action == "no double"


#: Last-roll and short bear-off positions, the side on roll first ({point: checkers}).
TABLE = [
    ({2: 2}, {1: 2}),  # issue 31's: 26 of 36 rolls win
    ({6: 1}, {1: 1}),  # 27 of 36
    ({5: 1}, {2: 1}),
    ({4: 1, 1: 1}, {1: 1}),
    ({3: 1, 2: 1}, {1: 2}),
    ({6: 1, 1: 1}, {2: 1}),
    ({5: 1, 4: 1}, {4: 1}),
    ({1: 3}, {1: 1, 2: 1}),
    ({2: 1, 1: 2}, {3: 1}),
    ({6: 2}, {3: 1, 1: 1}),
    ({4: 1, 3: 1}, {6: 1, 1: 1}),
    ({3: 1, 2: 1, 1: 1}, {2: 2, 1: 1}),
]
#: The scores of the table: money, and matches where the cube is live, dead for one
#: side, after Crawford, owned by either side (side on roll's context).
TABLE_SCORES = {
    **SCORES,
    "3pt 0-1 centred": ScoreContext.for_match(3, 0, 1),
    "7pt 5-5 owned 2": ScoreContext.for_match(7, 5, 5, cube_value=2, cube_owner="me"),
}


@cache
def oracle_race(pos: Position) -> float:
    """The chance that the side on roll bears off first, by plain enumeration."""
    total = 0.0
    for dice, ways in ROLLS:
        best = 0.0
        for move in pos.legal_moves(dice):
            after = move.position_after()
            best = max(best, 1.0 if after.result() is not None else 1.0 - oracle_race(after))
        total += ways * best
    return total / 36.0


def test_the_endgame_cube_table_has_no_wrong_decision() -> None:
    """Issue 31's table: 12 last-roll and short bear-offs at 10 scores (120 decisions
    each way), the right double and the right answer worked out by the enumeration
    (the oracle above: rolls, plays and cube actions with the match equity table).  The
    bot at every level that plays without noise (expert to grandmaster) doubles and
    answers as it says, and the analysis marks the right action 0 and a wrong one
    above 0 wherever the two differ."""
    from gammon.bots.analysis.analyzer import Analyzer
    from gammon.bots.analysis.judge import judge_cube
    from gammon.bots.analysis.walk import Cube
    from gammon.bots.bot import Bot
    from gammon.bots.evaluator import PipCountEvaluator, Probabilities

    pip = PipCountEvaluator()
    bots = [
        Bot(pip, "expert", met=MET),
        Bot(pip, "world-class", filter_evaluator=pip, met=MET),
        Bot(pip, "grandmaster", filter_evaluator=pip, final_evaluator=pip, met=MET),
    ]
    analyzer = Analyzer(bot=bots[-1])
    wrong: list[tuple[str, str, str]] = []
    checked = model_wrong = 0
    for name, ctx in TABLE_SCORES.items():
        oracle = Oracle(ctx)
        model = EquityModel(ctx, MET)
        for mine, theirs in TABLE:
            pos = Position.from_points(mine, theirs)
            nd, dt, dp = (model.normalise(u) for u in oracle.decision(pos))
            may = ctx.may_double() and oracle.may_double(
                0, ctx.cube_value, 0 if ctx.cube_owner == "me" else None
            )
            double = may and min(dt, dp) > nd + 1e-9
            take = dt < dp - 1e-9
            close_double = may and abs(min(dt, dp) - nd) < 2 * DB_EQUITY
            close_take = abs(dt - dp) < 2 * DB_EQUITY
            for bot in bots:
                if not close_double and bot.should_double(pos, ctx) != double:
                    wrong.append((name, str(pos.position_id()), f"{bot.level} double"))
                answer = bot.respond_to_double(pos, ctx.flipped())
                if not close_take and (answer == "take") != take:
                    wrong.append((name, str(pos.position_id()), f"{bot.level} {answer}"))
            life = model.decision(Probabilities(oracle_race(pos)))  # Janowski x = 0.68
            if not close_double and life.should_double != double:
                model_wrong += 1
            decision = analyzer.cube_decision(pos, ctx, pip.evaluate([pos])[0])
            for kind, right, other, close in (
                (
                    "cube",
                    "double" if double else "no double",
                    "no double" if double else "double",
                    close_double,
                ),
                ("response", "take" if take else "drop", "drop" if take else "take", close_take),
            ):
                if kind == "cube" and not may:
                    continue
                errors = {}
                for played in (right, other):
                    cube = Cube(0, 0, 0, 0, 0, pos, ctx, kind, played, False, "")  # type: ignore[arg-type]
                    judged = judge_cube(cube, pip.evaluate([pos])[0], model, 1, decision)
                    errors[played] = 0.0 if judged is None else judged.error
                checked += 1
                # within the database's precision of a tie, either answer is right
                limit = 2 * DB_EQUITY if close else 1e-9
                if errors[right] > limit or (not close and errors[other] <= 1e-9):
                    wrong.append((name, str(pos.position_id()), f"analysis {kind} {errors}"))
    assert checked >= 200
    assert wrong == []
    # the table tells right from wrong: the cube-life model alone, on the exact race,
    # doubles wrongly in some of these positions
    assert model_wrong >= 5, model_wrong


def test_beyond_the_walk_the_bot_and_the_analysis_use_the_databases_race() -> None:
    """Six checkers a side at a match score with a live cube is too large a tree to
    walk; the position is in the bear-off database, so the bot and the analysis value
    it with the exact race (not their evaluator's guess) in the cube model."""
    from gammon.bots.analysis.analyzer import Analyzer
    from gammon.bots.bearoff import BearoffDatabase
    from gammon.bots.bot import Bot
    from gammon.bots.evaluator import PipCountEvaluator, Probabilities

    db = BearoffDatabase.default()
    pos = Position.from_points({1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1}, {2: 2, 4: 2, 6: 2})
    ctx = SCORES["7pt 3-0 owned 2"]
    assert exact_decision(pos, ctx, MET) is None
    me, them = home_side(pos.player), home_side(pos.opponent)
    assert me is not None and them is not None
    model = EquityModel(ctx, MET)
    race = Probabilities(db.win_chance(me, them))
    want = model.decision(race)
    pip = PipCountEvaluator()
    assert model.decision(pip.evaluate([pos])[0]).no_double != pytest.approx(want.no_double)
    bot = Bot(pip, "grandmaster", filter_evaluator=pip, final_evaluator=pip, met=MET)
    analyzer = Analyzer(bot=bot)
    for got in (
        bot.cube_decision(pos, ctx),
        analyzer.cube_decision(pos, ctx, pip.evaluate([pos])[0]),
    ):
        assert got == want
    moves = pos.legal_moves((6, 5))
    theirs = [
        db.win_chance(them, home_side(m.position_after().opponent) or (0,) * 6) for m in moves
    ]
    values = model.after_move([Probabilities(p) for p in theirs])
    ranked = bot.rank_moves(pos, (6, 5), ctx)
    assert sorted(r.equity for r in ranked) == pytest.approx(sorted(values), abs=1e-12)
    ranking = analyzer.bearoff_ranking(moves, ctx)
    assert ranking is not None
    assert ranking.equity == pytest.approx(values, abs=1e-12)
