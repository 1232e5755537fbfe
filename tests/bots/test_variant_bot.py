"""The variant bot plays legal moves through whole games of every variant of issue #12."""

from __future__ import annotations

import random

import pytest

from gammon import Dice, Position
from gammon.bots import VariantBot
from gammon.bots.seat import choose_action
from gammon.match import Play, TableOptions, apply, new_match, to_act

VARIANTS = ["tavla", "portes", "plakoto", "fevga", "long-nardy", "jacquet", "acey-deucey"]


class SeededDice:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def roll(self) -> Dice:
        return Dice(self.rng.randint(1, 6), self.rng.randint(1, 6))


@pytest.mark.parametrize("variant", VARIANTS)
def test_bot_plays_whole_games_legally(variant: str) -> None:
    dice = SeededDice(7)
    bot = VariantBot()
    state = new_match(TableOptions(variant=variant, cube=False, match_length=1))
    for _ in range(3000):
        if state.over:
            break
        seat = to_act(state)[0]
        action = choose_action(state, seat, dice=dice, bot=bot)
        if isinstance(action, Play):
            g = state.game
            assert g.dice is not None
            legal = {str(m) for m in g.position.legal_moves(g.dice)}
            assert action.move in legal or (not legal and action.move == "pass")
        state = apply(state, action).state
    assert state.over
    assert state.games[-1].reason in ("bear_off", "mother", "draw")


@pytest.mark.parametrize("variant", ["fevga", "plakoto"])
def test_two_ply_chooses_a_legal_move(variant: str) -> None:
    position = Position.initial(variant)
    rng = random.Random(3)
    for _ in range(6):
        d = Dice(rng.randint(1, 6), rng.randint(1, 6))
        move = VariantBot(plies=2).choose_move(position, d)
        assert move in position.legal_moves(d) or move.is_pass()
        position = position.apply(move)


def test_bot_prefers_pinning_the_mother() -> None:
    # plakoto: pinning the opponent's last checker on its start wins at once
    position = Position.from_points({3: 1, 6: 14}, {24: 1, 7: 14}, variant="plakoto")
    move = VariantBot().choose_move(position, (2, 1))
    result = move.position_after().result()
    assert result is not None and result.points == 2
