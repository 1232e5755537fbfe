"""The bgsage backend: perspective, and the bot's play on clear positions."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("bgsage", reason="bgsage is the optional bot engine: pip install 'gammon[bot]'")

from gammon import Dice, Position
from gammon.bots import LEVELS, BgsageEvaluator, Bot, MoveEvaluator, ScoreContext
from gammon.sampling import game_positions

MONEY = ScoreContext()


@pytest.fixture(scope="module")
def shallow() -> BgsageEvaluator:
    return BgsageEvaluator(1, threads=2)


@pytest.fixture(scope="module")
def bots() -> dict[str, Bot]:
    return {level: Bot.with_bgsage(level, seed=4, threads=2) for level in LEVELS}


def sample(n: int, seed: int = 9) -> list[tuple[Position, Dice]]:
    rng = random.Random(seed)
    turns = [t for t in game_positions(rng, games=6) if len(t[0].legal_moves(t[1])) > 3]
    rng.shuffle(turns)
    return turns[:n]


# ---------------------------------------------------------------------- perspective

WINNING = Position.from_points({1: 2, 2: 2}, {6: 5, 8: 5, 13: 5})  # on roll, 11 off


@pytest.mark.parametrize("plies", [1, 2])
def test_clearly_won_and_lost(plies: int, shallow: BgsageEvaluator) -> None:
    ev = shallow if plies == 1 else BgsageEvaluator(f"{plies}ply", threads=2)
    assert ev.plies == plies
    won, lost = ev.evaluate([WINNING, WINNING.flipped()])
    assert won.win > 0.99 and won.win_gammon > 0.9
    assert lost.win < 0.01 and lost.lose_gammon > 0.9
    start = ev.evaluate([Position.initial()])[0]
    assert 0.5 < start.win < 0.58  # the player on roll is a small favourite
    assert isinstance(ev, MoveEvaluator)


def test_bad_depth() -> None:
    for bad in (0, 5, "5ply", True):
        with pytest.raises(ValueError, match="plies must be"):
            BgsageEvaluator(bad)  # type: ignore[arg-type]


def test_agrees_with_bgsages_own_pre_roll_api(shallow: BgsageEvaluator) -> None:
    """bgsage's batch_evaluate takes pre-roll boards from the mover's view."""
    from bgsage import batch_evaluate

    positions = [p for p, _ in sample(12)] + [Position.initial(), WINNING]
    ours = shallow.evaluate(positions)
    theirs = batch_evaluate(
        [{"board": list(p.board), "cube_value": 1, "cube_owner": "centered"} for p in positions],
        "1ply",
        n_threads=1,
    )
    for p, a, b in zip(positions, ours, theirs, strict=True):
        assert a.win == pytest.approx(b.probs.win, abs=1e-6), p
        # our rule-based pruning may only lower gammon chances
        assert a.win_gammon <= b.probs.gammon_win + 1e-6
        assert a.lose_gammon <= b.probs.gammon_loss + 1e-6


def test_moves_are_scored_for_the_right_side(shallow: BgsageEvaluator) -> None:
    # after the move the opponent is on roll: a move that leaves us far ahead
    # must give the opponent (the player on roll there) a low winning chance
    p = Position.from_points(
        {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 7: 2}, {13: 5, 8: 5}, opponent_bar=1
    )
    moves = p.legal_moves((6, 6))
    after = [m.position_after() for m in moves]
    for probs in shallow.evaluate_after_move(p, after) + shallow.evaluate(after):
        assert probs.win < 0.2


def test_finished_games_are_exact(shallow: BgsageEvaluator) -> None:
    done = Position.from_points({6: 5, 8: 5, 13: 5}, {})
    assert shallow.evaluate([done])[0].as_tuple() == (0.0, 0.0, 0.0, 1.0, 0.0)


# ---------------------------------------------------------------------- bot


def test_caucasian_c07(bots: dict[str, Bot]) -> None:
    c07 = Position.from_position_id("AABGBoMAAAAAAA", variant="caucasian")
    for bot in bots.values():
        assert str(bot.choose_move(c07, (4, 1), MONEY)) == "8/4*"


def test_picks_the_obvious_moves(bots: dict[str, Bot]) -> None:
    finish = Position.from_points({2: 1, 1: 1}, {1: 1})  # bear both off or lose
    # the opponent's last checker back is a blot on our 5-point: hit it
    hit = Position.from_points({8: 3, 6: 5, 13: 5, 11: 2}, {20: 1, 1: 3, 2: 3, 3: 2})
    for level in ("expert", "world-class"):
        bot = bots[level]
        assert str(bot.choose_move(finish, (2, 1), MONEY)) == "2/off 1/off"
        assert bot.choose_move(hit, (3, 1), MONEY).hits == 1
        assert str(bot.choose_move(Position.initial(), (3, 1), MONEY)) == "8/5 6/5"


def test_legal_moves_and_levels_differ(bots: dict[str, Bot]) -> None:
    turns = sample(24)
    picks = {}
    for level, bot in bots.items():
        chosen = [bot.choose_move(p, d, MONEY) for p, d in turns]
        for (p, d), move in zip(turns, chosen, strict=True):
            assert move in p.legal_moves(d)
        picks[level] = chosen
    assert picks["beginner"] != picks["expert"]
    assert picks["world-class"] != picks["expert"]
    again = Bot.with_bgsage("beginner", seed=4, threads=2)
    assert [again.choose_move(p, d, MONEY) for p, d in turns] == picks["beginner"]


def test_cube(bots: dict[str, Bot]) -> None:
    race = Position.from_points({1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, {1: 3, 2: 3, 3: 3, 4: 3, 10: 3})
    start = Position.initial()
    for level in ("expert", "world-class"):
        bot = bots[level]
        assert bot.cube_decision(race, MONEY).action == "double, pass"
        assert bot.should_double(race, MONEY)
        assert bot.respond_to_double(race, MONEY.flipped()) == "drop"
        assert not bot.should_double(start, MONEY)
        assert bot.respond_to_double(start, MONEY) == "take"
        assert not bot.should_double(race, ScoreContext.for_match(5, 4, 2, crawford_game=True))
        assert not bot.should_double(
            race, ScoreContext(cube_value=4, cube_owner="me", cube_limit=4)
        )
        # post-Crawford, the trailer doubles at once
        post = ScoreContext.for_match(5, 1, 4, post_crawford=True)
        assert bot.should_double(start, post)
        assert not bot.should_double(start, post.flipped())


def test_resigns_only_lost_games(bots: dict[str, Bot]) -> None:
    gammoned = Position.from_points({6: 5, 8: 5, 13: 5}, {1: 1})
    bot = bots["world-class"]
    assert bot.resignation_offer(gammoned, MONEY) == 2
    assert bot.resignation_offer(Position.initial(), MONEY) is None
    assert bot.accept_resignation(gammoned, 2, MONEY)
    assert not bot.accept_resignation(gammoned, 1, MONEY)
