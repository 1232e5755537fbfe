"""Equity under table scoring and cube decisions (engine-independent)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon.bots.equity import (
    EquityModel,
    ScoreContext,
    cube_decision,
    cubeful_equity,
    cubeless_equity,
    equity_after_move,
    match_winning_chance,
    money_equity,
)
from gammon.bots.evaluator import Probabilities
from gammon.bots.met import MatchEquityTable

MET = MatchEquityTable.default()
ACTIONS = {
    "no double",
    "no double, beaver",
    "double, take",
    "double, pass",
    "double, beaver",
    "too good, take",
    "too good, pass",
}


@st.composite
def probabilities(draw: st.DrawFn) -> Probabilities:
    win = draw(st.floats(0.0, 1.0))
    wg = draw(st.floats(0.0, 1.0)) * win
    wb = draw(st.floats(0.0, 1.0)) * wg
    lg = draw(st.floats(0.0, 1.0)) * (1.0 - win)
    lb = draw(st.floats(0.0, 1.0)) * lg
    return Probabilities.from_sequence((win, wg, wb, lg, lb))


@st.composite
def contexts(draw: st.DrawFn) -> ScoreContext:
    cube = draw(st.sampled_from([1, 2, 4, 8]))
    owner = draw(st.sampled_from(["me", "opponent", "centered"]))
    limit = draw(st.sampled_from([None, 8, 16, 64]))
    if draw(st.booleans()):
        return ScoreContext(
            cube_value=cube,
            cube_owner=owner,
            jacoby=draw(st.booleans()),
            beaver=draw(st.booleans()),
            cube_limit=limit,
            max_result=draw(st.sampled_from([1, 2, 3])),
        )
    length = draw(st.integers(1, 15))
    away_me = draw(st.integers(1, length))
    away_opp = draw(st.integers(1, length))
    one_away = 1 in (away_me, away_opp)
    crawford = one_away and draw(st.booleans())
    return ScoreContext(
        cube_value=1 if crawford else cube,
        cube_owner="centered" if crawford else owner,
        match_length=length,
        away_me=away_me,
        away_opp=away_opp,
        crawford_game=crawford,
        post_crawford=one_away and not crawford,
        cube_limit=limit,
    )


# ---------------------------------------------------------------------- cubeless


def test_money_equity_caps_and_jacoby() -> None:
    p = Probabilities(0.6, 0.3, 0.1, 0.2, 0.05)
    assert money_equity(p) == pytest.approx(p.equity)
    assert money_equity(p) == pytest.approx(0.2 + 0.3 + 0.1 - 0.2 - 0.05)
    assert money_equity(p, max_result=2) == pytest.approx(0.2 + 0.3 - 0.2)  # Mars: bg = gammon
    assert money_equity(p, max_result=1) == pytest.approx(0.2)  # Oin: all singles
    assert money_equity(p, jacoby=True) == pytest.approx(0.2)
    # Jacoby applies only while the cube is centred (rules.md D6, S08)
    owned = ScoreContext(cube_value=2, cube_owner="me", jacoby=True)
    assert cubeless_equity(p, owned) == pytest.approx(p.equity)
    assert cubeless_equity(p, ScoreContext(jacoby=True)) == pytest.approx(0.2)
    # ... and never in a match (S10)
    match = ScoreContext(match_length=0 + 7, away_me=7, away_opp=7, jacoby=True)
    assert not match.jacoby_active


@given(probabilities(), contexts())
def test_cubeless_is_zero_sum(p: Probabilities, ctx: ScoreContext) -> None:
    mine = EquityModel(ctx, MET).cubeless(p)
    theirs = EquityModel(ctx.flipped(), MET).cubeless(p.flipped())
    if ctx.is_money:
        assert mine == pytest.approx(-theirs, abs=1e-9)
    else:
        assert mine == pytest.approx(1.0 - theirs, abs=1e-9)


def test_match_winning_chance_uses_the_table() -> None:
    # 2-away 2-away at cube 1: a win leads to 1-away 2-away, Crawford game next
    ctx = ScoreContext.for_match(5, 3, 3)
    assert match_winning_chance(Probabilities(1.0), ctx) == pytest.approx(0.67736)
    assert match_winning_chance(Probabilities(0.0), ctx) == pytest.approx(0.32264)
    assert match_winning_chance(Probabilities(1.0, 1.0), ctx) == 1.0
    # EMG: winning the cube is +1, losing it -1, a gammon here is worth more
    assert cubeless_equity(Probabilities(1.0), ctx) == pytest.approx(1.0)
    assert cubeless_equity(Probabilities(0.0), ctx) == pytest.approx(-1.0)
    assert cubeless_equity(Probabilities(1.0, 1.0), ctx) > 1.0
    # the opponent 1-away post-Crawford: our gammons are worth double, theirs nothing extra
    post = ScoreContext.for_match(7, 3, 6, post_crawford=True)
    assert match_winning_chance(Probabilities(0.0, 0.0, 0.0, 1.0, 1.0), post) == 0.0
    with pytest.raises(ValueError, match="match context"):
        match_winning_chance(Probabilities(0.5), ScoreContext())


# ---------------------------------------------------------------------- Janowski


@pytest.mark.parametrize("x", [0.0, 0.5, 0.68, 1.0])
def test_money_take_points_are_janowskis(x: float) -> None:
    plain = Probabilities(0.5)
    assert EquityModel(ScoreContext(), cube_life=x).take_point(plain) == pytest.approx(
        0.5 / (2.0 + 0.5 * x), abs=1e-6
    )
    gammons = Probabilities(0.6, 0.2, 0.0, 0.1, 0.0)
    w, big_l = 1 + 0.1 / 0.4, 1 + 0.2 / 0.6  # the taker's average win and loss
    assert EquityModel(ScoreContext(), cube_life=x).take_point(gammons) == pytest.approx(
        (big_l - 0.5) / (w + big_l + 0.5 * x), abs=1e-5
    )


def test_capped_cube_loses_its_redouble_value() -> None:
    plain = Probabilities(0.5)
    live = EquityModel(ScoreContext(), cube_life=1.0)
    assert live.take_point(plain) == pytest.approx(0.2, abs=1e-4)
    # limit 2: after the take the cube is dead, so the take point is the dead 25%
    assert EquityModel(ScoreContext(cube_limit=2), cube_life=1.0).take_point(plain) == 0.25
    # limit 4: the taker may redouble to 4, after which the cube is dead, so the
    # redouble is worth more than a live one (the doubler cannot answer it):
    # cash at 75%, take point 0.5 / (2 / 0.75) = 3/16
    four = EquityModel(ScoreContext(cube_limit=4), cube_life=1.0).take_point(plain)
    assert four == pytest.approx(0.1875)
    # higher limits alternate around the unlimited 20%
    eight = EquityModel(ScoreContext(cube_limit=8), cube_life=1.0).take_point(plain)
    assert eight == pytest.approx(0.203125)


def test_dead_cube_take_point_in_a_match() -> None:
    # 2-away 2-away: after 1 -> 2 the cube is dead; take point = (drop - lose) / (win - lose)
    ctx = ScoreContext.for_match(5, 3, 3)
    assert EquityModel(ctx).take_point(Probabilities(0.5)) == pytest.approx(0.32264)


# ---------------------------------------------------------------------- decisions


def test_clear_money_decisions() -> None:
    ctx = ScoreContext()
    assert cube_decision(Probabilities(0.5, 0.15, 0.01, 0.15, 0.01), ctx).action == "no double"
    assert cube_decision(Probabilities(0.75), ctx).action == "double, take"
    assert cube_decision(Probabilities(0.95), ctx).action == "double, pass"
    gammonish = Probabilities(0.85, 0.7, 0.05, 0.02, 0.0)
    assert cube_decision(gammonish, ctx).action == "too good, pass"
    # under Jacoby, gammons only count after a double: cash is not too good any more
    assert cube_decision(gammonish, ScoreContext(jacoby=True)).action == "double, pass"


def test_beaver() -> None:
    weak = Probabilities(0.45, 0.12, 0.005, 0.13, 0.006)
    d = cube_decision(weak, ScoreContext(beaver=True))
    assert d.response == "beaver" and not d.should_double
    assert d.action == "no double, beaver"
    assert d.double_beaver is not None and d.double_beaver < d.double_take
    # never in a match, never past the cube limit
    assert cube_decision(weak, ScoreContext(beaver=True, cube_limit=2)).response == "take"
    assert cube_decision(weak, ScoreContext.for_match(7, 0, 0)).response == "take"


def test_no_double_when_the_rules_or_the_score_forbid_it() -> None:
    huge = Probabilities(0.9)
    crawford = ScoreContext.for_match(5, 4, 2, crawford_game=True)
    assert cube_decision(huge, crawford).action == "no double"
    assert not cube_decision(huge, crawford).should_double
    at_limit = ScoreContext(cube_value=8, cube_owner="me", cube_limit=8)
    assert not cube_decision(huge, at_limit).can_double
    theirs = ScoreContext(cube_value=2, cube_owner="opponent")
    assert not cube_decision(huge, theirs).can_double
    off = ScoreContext(cube_enabled=False)
    assert not cube_decision(huge, off).can_double
    # dead cube: owning 2 at 2-away, the cube already wins the match
    dead = ScoreContext.for_match(5, 3, 3, cube_value=2, cube_owner="me")
    assert not cube_decision(Probabilities(0.7), dead).can_double
    # post-Crawford: the leader's double is dead, the trailer doubles at once
    post = ScoreContext.for_match(7, 3, 6, post_crawford=True)
    even = Probabilities(0.5, 0.13, 0.01, 0.13, 0.01)
    assert cube_decision(even, post).should_double
    assert not cube_decision(even.flipped(), post.flipped()).can_double


@given(probabilities(), contexts())
def test_decisions_are_consistent(p: Probabilities, ctx: ScoreContext) -> None:
    d = cube_decision(p, ctx, MET)
    assert d.action in ACTIONS
    assert d.double_pass == pytest.approx(1.0)
    assert d.should_double <= d.can_double
    assert d.can_double <= ctx.may_double()
    if d.should_double:
        assert d.equity > d.no_double
    else:
        assert d.equity == d.no_double
    if not ctx.beaver_allowed:
        assert d.response != "beaver" and d.double_beaver is None
    assert d.response == ("pass" if d.double_take >= 1.0 - 1e-9 else d.response)
    assert cubeful_equity(p, ctx, MET) == pytest.approx(d.equity, abs=1e-9)


@given(probabilities(), contexts())
def test_after_move_is_the_opponents_cubeful_equity_turned_round(
    p: Probabilities, ctx: ScoreContext
) -> None:
    mine = equity_after_move(p, ctx, MET)
    theirs = cubeful_equity(p, ctx.flipped(), MET)
    if ctx.is_money:
        assert mine == pytest.approx(-theirs, abs=1e-9)
    else:  # match winning chances add up to 1
        their_mwc = EquityModel(ctx.flipped(), MET).on_roll(p)
        assert mine == pytest.approx(EquityModel(ctx, MET).normalise(1.0 - their_mwc), abs=1e-9)


def test_after_move_values_finished_games_exactly() -> None:
    lost_gammon = Probabilities.certain(won=False, points=2)  # the opponent, on roll, has lost
    assert equity_after_move(lost_gammon, ScoreContext()) == pytest.approx(2.0)
    assert equity_after_move(lost_gammon, ScoreContext(jacoby=True)) == pytest.approx(1.0)
    owned = ScoreContext(cube_value=2, cube_owner="opponent", jacoby=True)
    assert equity_after_move(lost_gammon, owned) == pytest.approx(2.0)
    lost_bg = Probabilities.certain(won=False, points=3)
    assert equity_after_move(lost_bg, ScoreContext(max_result=2)) == pytest.approx(2.0)
    assert equity_after_move(lost_bg, ScoreContext(max_result=1)) == pytest.approx(1.0)


def test_score_context_validation() -> None:
    with pytest.raises(ValueError, match="power of two"):
        ScoreContext(cube_value=6)
    with pytest.raises(ValueError, match="limit"):
        ScoreContext(cube_limit=3)
    with pytest.raises(ValueError, match="above the limit"):
        ScoreContext(cube_value=16, cube_limit=8)
    with pytest.raises(ValueError, match="money play"):
        ScoreContext(away_me=3)
    with pytest.raises(ValueError, match="away count"):
        ScoreContext(match_length=5, away_me=6, away_opp=2)
    with pytest.raises(ValueError, match="1-away"):
        ScoreContext(match_length=5, away_me=2, away_opp=3, crawford_game=True)
    with pytest.raises(ValueError, match="max_result"):
        ScoreContext(max_result=4)
    ctx = ScoreContext.for_match(9, 8, 5, post_crawford=True, cube_value=2, cube_owner="me")
    assert ctx.flipped().flipped() == ctx
    assert ctx.flipped().cube_owner == "opponent"
    assert ctx.after_double() == ScoreContext.for_match(
        9, 8, 5, post_crawford=True, cube_value=4, cube_owner="opponent"
    )
