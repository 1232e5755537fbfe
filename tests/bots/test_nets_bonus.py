"""The nets' acey-deucey 1-2 (gammon.bots.nets.bonus): a staged search, never every play.

Its plays are legal (the text of each parses back to the same move), its bonus flags are
the moves', it finds every play when nothing is left out, it picks the net's best play
when the search keeps everything, and NetBot, the trainer and the 2-ply replies use it.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy", reason="the nets need numpy (the bot extra)")

import numpy as np

from gammon import Dice, Position
from gammon.bots.nets import NetBot
from gammon.bots.nets.bonus import bonus_plays, bonus_ranking, ranked_moves
from gammon.bots.nets.bot import BONUS_RANKED, mover_outputs
from gammon.bots.nets.features import input_size
from gammon.bots.nets.net import Net, equity
from gammon.bots.nets.td import TrainConfig, Trainer

ROLL = Dice(1, 2)
#: The 1-2 with the most legal plays known (224,158).
WORST = "AADqdR1AFVRLAg:w3.1"
NET = Net.initial(input_size("acey-deucey"), 6, seed=4)


def _sample(count: int, seed: int) -> list[Position]:
    """Distinct positions of random games whose 1-2 is lazy (its 1 and 2 both play)."""
    rng = random.Random(seed)
    found: dict[str, Position] = {}
    while len(found) < count:
        position = Position.initial("acey-deucey")
        for _ in range(400):
            if bonus_plays(position, ROLL) is not None and rng.random() < 0.3:
                found.setdefault(position.position_id(), position)
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            if {dice.d1, dice.d2} == {1, 2}:
                move = position.first_legal_move(dice) or position.pass_move(dice)
            else:
                legal = position.legal_moves(dice)
                move = rng.choice(legal) if legal else position.pass_move(dice)
            again = position.earns_bonus_roll(move)
            after = position.apply(move)
            if after.result() is not None:
                break
            position = after.flipped() if again else after
    return list(found.values())[:count]


def _count(position: Position) -> int:
    lazy = bonus_plays(position, ROLL)
    assert lazy is not None
    return lazy.count(3000)


SAMPLE = _sample(24, 8)
#: Positions whose plays are few enough to list (the search keeping everything).
SMALL = [p for p in _sample(80, 9) if _count(p) <= 2000][::3][:8]


def test_the_sample_is_varied() -> None:
    assert len(SMALL) == 8 and max(map(_count, SMALL)) > 300
    assert any(p.waiting[0] for p in SAMPLE) and any(not p.waiting[0] for p in SAMPLE)
    assert max(map(_count, SAMPLE)) > 3000


@pytest.mark.parametrize("position", SAMPLE, ids=[p.position_id() for p in SAMPLE])
def test_every_play_found_is_legal_and_flags_its_bonus_roll(position: Position) -> None:
    ranked = bonus_ranking(NET, position, ROLL)
    assert ranked is not None and ranked.keys
    assert len(set(ranked.keys)) == len(ranked.keys)
    lazy = bonus_plays(position, ROLL)
    assert lazy is not None and all(key in lazy for key in ranked.keys)
    eq = ranked.equities
    assert (np.diff(eq) <= 1e-12).all()  # best first
    for i, key in enumerate(ranked.keys[:6]):
        move = position.move_to(ROLL, key)
        assert position.parse_move(str(move), ROLL) == move
        assert position.earns_bonus_roll(move) == ranked.again[i]
        mine = mover_outputs(NET, position, [move])[3]
        assert np.allclose(mine[0], ranked.outputs[i])


@pytest.mark.parametrize("position", SMALL, ids=[p.position_id() for p in SMALL])
def test_a_search_that_keeps_everything_finds_every_play_and_the_best(position: Position) -> None:
    moves = position.legal_moves(ROLL)
    ranked = bonus_ranking(NET, position, ROLL, mids=1000, width=10**6)
    assert ranked is not None
    assert set(ranked.keys) == {m.key for m in moves}
    values = equity(mover_outputs(NET, position, moves)[3])
    assert ranked.equities[0] == pytest.approx(values.max(), abs=1e-9)
    by_key = dict(zip((m.key for m in moves), values, strict=True))
    assert np.allclose([by_key[k] for k in ranked.keys], ranked.equities)


def test_the_default_search_finds_few_plays_of_the_worst_position() -> None:
    position = Position.from_position_id(WORST, "acey-deucey")
    lazy = bonus_plays(position, ROLL)
    assert lazy is not None and lazy.count(1000) > 1000
    ranked = bonus_ranking(NET, position, ROLL)
    assert ranked is not None and 0 < len(ranked.keys) < 2000
    move = position.move_to(ROLL, ranked.keys[0])
    assert position.parse_move(str(move), ROLL) == move


def test_other_rolls_are_not_searched() -> None:
    start = Position.initial("acey-deucey")
    assert bonus_ranking(NET, start, Dice(6, 5)) is None
    assert ranked_moves(NET, start, Dice(3, 3), 4) is None
    assert bonus_ranking(NET, Position.initial("plakoto"), ROLL) is None
    assert bonus_ranking(NET, Position.initial("standard"), ROLL) is None


def test_netbot_plays_and_ranks_the_searched_plays() -> None:
    bot = NetBot(nets={"acey-deucey": NET})
    for position in SAMPLE[:6]:
        ranked = bot.rank(position, ROLL)
        assert 0 < len(ranked) <= BONUS_RANKED
        best = bonus_ranking(NET, position, ROLL)
        assert best is not None
        assert [m.key for _, m in ranked] == list(best.keys[:BONUS_RANKED])
        move = bot.choose_move(position, ROLL)
        assert move == ranked[0][1]
        assert position.parse_move(str(move), ROLL) == move
        two = NetBot(plies=2, nets=bot.nets, margin=10.0).choose_move(position, ROLL)
        assert two in [m for _, m in ranked[:3]]


def test_training_plays_a_1_2_by_the_search_and_learns() -> None:
    trainer = Trainer.new(TrainConfig("acey-deucey", hidden=5, seed=3))
    before = trainer.net.w1.copy()
    position = SAMPLE[2]
    nxt, again, final, x = trainer._choose(position, ROLL)
    ranked = bonus_ranking(trainer.net, position, ROLL)
    assert ranked is not None
    move = position.move_to(ROLL, ranked.keys[0])
    after = move.position_after()
    assert again == position.earns_bonus_roll(move)
    assert nxt == (after.flipped() if again else after)
    assert final is None and x is not None and x.shape == (trainer.net.inputs,)
    assert trainer.play_game() > 0
    assert (trainer.net.w1 != before).any()
