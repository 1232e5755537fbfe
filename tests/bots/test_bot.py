"""The bot's logic, with the engine-free pip-count test double (no bgsage needed)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon import Dice, IllegalActionError, Position
from gammon.bots import LEVELS, Bot, PipCountEvaluator, Probabilities, ScoreContext
from gammon.sampling import game_positions, random_bearoff, random_placement

PIPS = PipCountEvaluator()
MONEY = ScoreContext()


class Counting:
    """Counts what a wrapped evaluator is asked."""

    def __init__(self, plies: int = 1) -> None:
        self.plies = plies
        self.calls: list[int] = []

    def evaluate(self, positions: Sequence[Position]) -> list[Probabilities]:
        self.calls.append(len(positions))
        return PIPS.evaluate(positions)


@st.composite
def turns(draw: st.DrawFn) -> tuple[Position, Dice]:
    rng = random.Random(draw(st.integers(0, 2**32)))
    kind = draw(st.sampled_from(["game", "placement", "bearoff"]))
    dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
    if kind == "placement":
        return random_placement(rng), dice
    if kind == "bearoff":
        return random_bearoff(rng), dice
    variant = draw(st.sampled_from(["standard", "caucasian", "nackgammon"]))
    turn = list(game_positions(rng, variant=variant))
    return turn[draw(st.integers(0, len(turn) - 1))]


BOTS = [Bot(PIPS, level, seed=5, filter_evaluator=PIPS) for level in LEVELS]
CONTEXTS = [
    MONEY,
    ScoreContext(jacoby=True, beaver=True),
    ScoreContext.for_match(7, 4, 5),
    ScoreContext.for_match(5, 4, 1, post_crawford=True, cube_value=2, cube_owner="me"),
]


@given(turns(), st.sampled_from(BOTS), st.sampled_from(CONTEXTS))
def test_always_one_of_the_legal_moves(
    turn: tuple[Position, Dice], bot: Bot, ctx: ScoreContext
) -> None:
    position, dice = turn
    if position.is_game_over():
        with pytest.raises(IllegalActionError):
            bot.choose_move(position, dice, ctx)
        return
    move = bot.choose_move(position, dice, ctx)
    legal = position.legal_moves(dice)
    if legal:
        assert move in legal
        ranked = bot.rank_moves(position, dice, ctx)
        assert sorted(r.move.key for r in ranked) == sorted(m.key for m in legal)
    else:
        assert move.is_pass() and move == position.pass_move(dice)


def test_pass_move_when_closed_out() -> None:
    closed = Position.from_points({13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, player_bar=1)
    for bot in BOTS:
        move = bot.choose_move(closed, (6, 5), MONEY)
        assert move.is_pass()
        assert bot.rank_moves(closed, (6, 5), MONEY) == []


def test_caucasian_c07() -> None:
    c07 = Position.from_position_id("AABGBoMAAAAAAA", variant="caucasian")
    for bot in BOTS:
        assert str(bot.choose_move(c07, (4, 1), MONEY)) == "8/4*"


def test_bears_off_to_win() -> None:
    # both sides finish next turn: only bearing both checkers off wins
    p = Position.from_points({2: 1, 1: 1}, {1: 1})
    assert sorted(str(m) for m in p.legal_moves((2, 1))) == ["2/off", "2/off 1/off"]
    for bot in BOTS:
        assert str(bot.choose_move(p, (2, 1), MONEY)) == "2/off 1/off"


def test_beginner_noise_is_reproducible_and_seeded() -> None:
    rng = random.Random(3)
    sample = [t for t in game_positions(rng, games=3) if len(t[0].legal_moves(t[1])) > 4][:40]
    a = Bot(PIPS, "beginner", seed=1)
    b = Bot(PIPS, "beginner", seed=1)
    other = Bot(PIPS, "beginner", seed=2)
    expert = Bot(PIPS, "expert")
    picks_a = [a.choose_move(p, d, MONEY) for p, d in sample]
    # another bot with the same seed, asked in the reverse order, agrees
    picks_b = [b.choose_move(p, d, MONEY) for p, d in reversed(sample)][::-1]
    assert picks_a == picks_b
    assert picks_a != [other.choose_move(p, d, MONEY) for p, d in sample]
    assert picks_a != [expert.choose_move(p, d, MONEY) for p, d in sample]
    intermediate = Bot(PIPS, "intermediate", seed=1)
    assert [intermediate.choose_move(p, d, MONEY) for p, d in sample] != picks_a


def test_world_class_filters_then_reevaluates() -> None:
    deep, shallow = Counting(plies=3), Counting()
    bot = Bot(deep, "world-class", filter_evaluator=shallow)
    start = Position.initial()
    ranked = bot.rank_moves(start, (6, 2), MONEY)
    assert shallow.calls == [len(start.legal_moves((6, 2)))]
    assert len(deep.calls) == 1 and 1 <= deep.calls[0] <= 5
    plies = [r.plies for r in ranked]
    assert plies == sorted(plies, reverse=True) and plies[0] == 3
    # without a filter evaluator, the evaluator ranks every move
    alone = Counting()
    Bot(alone, "world-class").rank_moves(start, (6, 2), MONEY)
    assert alone.calls == [len(start.legal_moves((6, 2)))]


def test_cube_actions() -> None:
    bot = Bot(PIPS, "expert")
    race = Position.from_points({1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, {1: 3, 2: 3, 3: 3, 4: 3, 10: 3})
    assert bot.should_double(race, MONEY)
    assert bot.respond_to_double(race, MONEY.flipped()) == "drop"
    assert not bot.should_double(Position.initial(), MONEY)
    assert bot.respond_to_double(Position.initial(), MONEY) == "take"
    # the doubler (on roll) trails the race a little: take, and beaver where allowed
    trailing = Position.from_points({6: 5, 7: 5, 8: 5}, {5: 5, 6: 5, 7: 5})
    assert bot.respond_to_double(trailing, MONEY) == "take"
    assert bot.respond_to_double(trailing, ScoreContext(beaver=True)) == "beaver"
    assert bot.respond_to_double(trailing, ScoreContext(beaver=True, cube_limit=2)) == "take"
    assert bot.respond_to_double(trailing, ScoreContext.for_match(7, 0, 0)) == "take"
    never = [
        ScoreContext.for_match(5, 4, 2, crawford_game=True),
        ScoreContext(cube_value=64, cube_owner="me", cube_limit=64),
        ScoreContext(cube_value=2, cube_owner="opponent"),
        ScoreContext(cube_enabled=False),
        ScoreContext.for_match(5, 4, 2, post_crawford=True),  # the leader: dead cube
    ]
    for ctx in never:
        assert not bot.should_double(race, ctx), ctx
    with pytest.raises(IllegalActionError):
        bot.should_double(Position.from_points({6: 1}, {}), MONEY)


def test_resignations() -> None:
    bot = Bot(PIPS, "expert")
    # the opponent bears its last checker off next turn; we have nothing off and
    # nothing in its home board: a certain gammon
    gammoned = Position.from_points({6: 5, 8: 5, 13: 5}, {1: 1})
    assert bot.resignation_offer(gammoned, MONEY) == 2
    assert bot.resignation_offer(gammoned, ScoreContext(jacoby=True)) == 1
    assert bot.resignation_offer(gammoned, ScoreContext(max_result=1)) == 1
    assert bot.resignation_offer(Position.initial(), MONEY) is None
    # the same game from the winner's side: a single is not enough, a gammon is
    assert not bot.accept_resignation(gammoned, 1, MONEY)
    assert bot.accept_resignation(gammoned, 2, MONEY)
    assert bot.accept_resignation(gammoned, 3, MONEY)
    assert bot.accept_resignation(gammoned, 1, ScoreContext(jacoby=True))
    # bot on roll: the winner is the bot, the opponent resigns out of turn
    assert bot.accept_resignation(gammoned.flipped(), 2, MONEY, bot_on_roll=True)
    assert bot.accept_resignation(Position.initial(), 1, MONEY, bot_on_roll=True)
    with pytest.raises(ValueError, match="single"):
        bot.accept_resignation(gammoned, 4, MONEY)


def test_bad_level() -> None:
    with pytest.raises(ValueError, match="unknown level"):
        Bot(PIPS, "master")  # type: ignore[arg-type]
    assert "expert" in repr(Bot(PIPS))
