"""The variant nets: encoding, forward pass, weights files, TD(λ) training, NetBot, seat."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the nets need numpy (the bot extra)")

import numpy as np

from gammon import Dice, Position
from gammon.bots.nets import NetBot, has_net
from gammon.bots.nets.bonus import bonus_plays, bonus_ranking
from gammon.bots.nets.bot import load_net
from gammon.bots.nets.features import FAMILIES, encode, input_size
from gammon.bots.nets.net import Net, equity
from gammon.bots.nets.td import TrainConfig, Trainer
from gammon.bots.seat import SEATED_NETS, choose_action, variant_bot
from gammon.bots.variant_bot import VariantBot
from gammon.match import Play, TableOptions, apply, new_match, to_act

NET_VARIANTS = list(FAMILIES)


def _positions(variant: str, seed: int, count: int) -> list[Position]:
    """Positions met in one random game (at most ``count``, the start first)."""
    rng = random.Random(seed)
    position = Position.initial(variant)
    seen = [position]
    while len(seen) < count:
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        legal = position.legal_moves(dice)
        move = rng.choice(legal) if legal else position.pass_move(dice)
        again = position.earns_bonus_roll(move)
        after = position.apply(move)
        if after.result() is not None or after.is_drawn():
            break
        position = after.flipped() if again else after
        seen.append(position)
    return seen


@pytest.mark.parametrize("variant", NET_VARIANTS)
def test_features_have_the_family_size_and_swap_halves_when_flipped(variant: str) -> None:
    positions = _positions(variant, 5, 60 if variant != "acey-deucey" else 25)
    x = encode(positions)
    assert x.shape == (len(positions), input_size(variant))
    flipped = encode([p.flipped() for p in positions])
    half = x.shape[1] // 2
    assert (flipped[:, :half] == x[:, half:]).all()
    assert (flipped[:, half:] == x[:, :half]).all()
    assert np.isfinite(x).all() and (x >= 0).all() and x.max() <= 4
    # different positions, different encodings
    assert len({row.tobytes() for row in x}) == len({p.position_id() for p in positions})


def test_plakoto_pins_and_acey_deucey_waiting_checkers_are_encoded() -> None:
    pinned = [p for g in range(6) for p in _positions("plakoto", g, 80) if any(p.pinned)]
    assert pinned
    x = encode(pinned)
    half = x.shape[1] // 2
    for row, position in zip(x, pinned, strict=True):
        for side, mask in enumerate(position.pinned):
            units = row[side * half + 101 : side * half + 125]  # after 96 point units and 5
            assert [int(u) for u in units] == [mask >> p & 1 for p in range(1, 25)]
    start = encode([Position.initial("acey-deucey")])[0]
    # 15 waiting each: the waiting unit (after 96 point units, off and bar) is 1 for both sides
    half = len(start) // 2
    assert start[96 + 2] == start[half + 96 + 2] == 1.0


def test_forward_pass_of_a_batch_matches_one_row_at_a_time() -> None:
    net = Net.initial(input_size("fevga"), 8, seed=2)
    x = encode(_positions("fevga", 1, 20))
    batch = net.forward(x)
    rows = np.concatenate([net.forward(row[None, :]) for row in x])
    assert batch.shape == (len(x), 3)
    assert np.allclose(batch, rows)
    assert ((batch > 0) & (batch < 1)).all()
    assert equity(batch).shape == (len(x),)


def test_weights_round_trip_through_a_file(tmp_path: Path) -> None:
    net = Net.initial(10, 4, seed=3)
    net.save(tmp_path / "a.npz", variant="jacquet")
    again, meta = Net.load(tmp_path / "a.npz")
    assert meta == {"variant": "jacquet"}
    for name, array in net.arrays().items():
        assert np.array_equal(again.arrays()[name], array), name
    net.save(tmp_path / "b.npz", dtype=np.float32)
    small, _ = Net.load(tmp_path / "b.npz")
    assert np.allclose(small.w1, net.w1, atol=1e-7) and not np.array_equal(small.w1, net.w1)


def _weights(trainer: Trainer) -> list[np.ndarray]:
    return [a.copy() for a in trainer.net.arrays().values()]


@pytest.mark.parametrize("variant", ["plakoto", "jacquet"])
def test_training_is_reproducible_and_resumes_exactly(variant: str, tmp_path: Path) -> None:
    config = TrainConfig(variant, hidden=6, seed=11)
    straight = Trainer.new(config)
    start = _weights(straight)
    for _ in range(4):
        straight.play_game()
    assert all((a != b).any() for a, b in zip(start, _weights(straight), strict=True))
    parted = Trainer.new(config)
    for _ in range(2):
        parted.play_game()
    parted.save(tmp_path / "ckpt.npz")
    del parted
    resumed = Trainer.resume(tmp_path / "ckpt.npz")
    assert resumed.games == 2 and resumed.config == config
    for _ in range(2):
        resumed.play_game()
    assert resumed.games == straight.games == 4
    for a, b in zip(_weights(straight), _weights(resumed), strict=True):
        assert np.array_equal(a, b)
    other = Trainer.new(TrainConfig(variant, hidden=6, seed=12))
    other.play_game()
    other.play_game()
    assert not np.array_equal(other.net.w1, resumed.net.w1)


def test_exported_weights_load_as_the_net(tmp_path: Path) -> None:
    trainer = Trainer.new(TrainConfig("fevga", hidden=5, seed=1))
    trainer.play_game()
    trainer.export(tmp_path / "fevga.npz")
    net, meta = Net.load(tmp_path / "fevga.npz")
    assert meta["variant"] == "fevga" and meta["games"] == "1"
    x = encode([Position.initial("fevga")])
    assert np.allclose(net.forward(x), trainer.net.forward(x), atol=1e-5)


def _bot_for(variant: str, plies: int = 1) -> NetBot:
    """The shipped net where there is one, else a small random one (legality only)."""
    if has_net(variant):
        return NetBot(plies=plies)
    return NetBot(plies=plies, nets={variant: Net.initial(input_size(variant), 5, seed=1)})


@pytest.mark.parametrize("variant", NET_VARIANTS)
def test_netbot_plays_only_legal_moves(variant: str) -> None:
    bot = _bot_for(variant)
    rng = random.Random(3)
    position = Position.initial(variant)
    for _ in range(300 if variant != "acey-deucey" else 20):
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        move = bot.choose_move(position, dice)
        ranked = bot.rank(position, dice)
        if bonus_plays(position, dice) is not None:  # a 1-2's searched plays (test_nets_bonus)
            assert position.parse_move(str(move), dice) == move == ranked[0][1]
        else:
            legal = position.legal_moves(dice)
            assert move in legal if legal else move == position.pass_move(dice)
            assert [m for _, m in ranked] == [move, *[m for _, m in ranked[1:]]] or not legal
            assert sorted(m.position_after().position_id() for _, m in ranked) == sorted(
                m.position_after().position_id() for m in legal
            )
        again = position.earns_bonus_roll(move)
        after = position.apply(move)
        if after.result() is not None or after.is_drawn():
            position = Position.initial(variant)
        else:
            position = after.flipped() if again else after


@pytest.mark.parametrize("variant", ["plakoto", "fevga"])
def test_two_ply_picks_one_of_the_best_one_ply_moves(variant: str) -> None:
    position = _positions(variant, 2, 12)[-1]
    bot = _bot_for(variant, plies=2)
    dice = Dice(4, 2)
    move = bot.choose_move(position, dice)
    top = [m for _, m in NetBot(nets=bot.nets).rank(position, dice)[: bot.width]]
    assert move in top


def test_shipped_nets_are_small_and_match_their_encoding() -> None:
    shipped = [v for v in NET_VARIANTS if has_net(v)]
    assert {"plakoto", "fevga", "long-nardy", "jacquet", "acey-deucey"} <= set(shipped)
    data = Path(__file__).resolve().parents[2] / "src/gammon/bots/nets/data"
    for variant in shipped:
        assert (data / f"{variant}.npz").stat().st_size < 200_000
        assert load_net(variant).inputs == input_size(variant)


def test_seated_nets_play_the_top_levels_and_the_hand_made_bot_the_lower_ones() -> None:
    assert {"acey-deucey", "fevga", "jacquet", "long-nardy", "plakoto"} == SEATED_NETS
    assert all(has_net(v) for v in SEATED_NETS)
    for variant in SEATED_NETS:
        assert variant_bot("world-class", variant) == NetBot()
        assert variant_bot("grandmaster", variant) == NetBot(plies=2)
        for level in ("beginner", "intermediate", "expert"):
            assert variant_bot(level, variant) == VariantBot(plies=1)
    # a variant without a seated net keeps the hand-made bot at the top levels too
    assert variant_bot("world-class", "tavla") == VariantBot(plies=2)
    assert variant_bot("grandmaster", "tavla") == VariantBot(plies=2)
    assert variant_bot("expert", "plakoto") == VariantBot(plies=1)


def test_world_class_plays_the_net_in_a_match() -> None:
    state = new_match(TableOptions(variant="fevga", cube=False, match_length=1))
    rng = random.Random(4)

    class SeededDice:
        def roll(self) -> Dice:
            return Dice(rng.randint(1, 6), rng.randint(1, 6))

    plays = 0
    while not state.over and plays < 40:
        seat = to_act(state)[0]
        action = choose_action(state, seat, "world-class", dice=SeededDice())
        if isinstance(action, Play):
            g = state.game
            assert g.dice is not None
            assert action.move == str(NetBot().choose_move(g.position, g.dice))
            plays += 1
        state = apply(state, action).state
    assert plays > 0


def test_grandmaster_falls_back_to_the_one_ply_net_on_a_short_clock() -> None:
    state = new_match(TableOptions(variant="long-nardy", cube=False, match_length=1))
    rolls = iter([Dice(6, 1), Dice(5, 3)])

    class Fixed:
        def roll(self) -> Dice:
            return next(rolls)

    while state.game.phase != "moving":
        state = apply(state, choose_action(state, to_act(state)[0], dice=Fixed())).state
    seat = to_act(state)[0]
    g = state.game
    assert g.dice is not None
    short = choose_action(state, seat, "grandmaster", time_left=3.0)
    assert isinstance(short, Play)
    assert short.move == str(NetBot().choose_move(g.position, g.dice))
    full = choose_action(state, seat, "grandmaster")
    assert isinstance(full, Play)
    assert full.move == str(NetBot(plies=2).choose_move(g.position, g.dice))


def _reply_equity_one_roll_at_a_time(bot: NetBot, position: Position) -> float:
    """The 2-ply reply average as the first NetBot computed it: one batch per roll."""
    from gammon.bots.nets.bot import mover_outputs, outcome
    from gammon.bots.variant_bot import ROLLS

    net = bot.net(position)
    total = 0.0
    for dice, weight in ROLLS:
        ranked = bonus_ranking(net, position, dice)  # acey-deucey's 1-2: the searched best
        moves = position.legal_moves(dice) if ranked is None else ()
        if ranked is not None:
            best = float(ranked.equities[0])
        elif moves:
            best = float(equity(mover_outputs(net, position, moves)[3]).max())
        else:
            after = position.apply(position.pass_move(dice))
            final = outcome(after)
            out = final if final is not None else net.forward(encode([after]))[0]
            best = -float(equity(out[None, :])[0])
        total += weight * best
    return total / 36.0


@pytest.mark.parametrize("variant", ["plakoto", "fevga", "acey-deucey"])
def test_the_batched_reply_average_is_the_per_roll_one(variant: str) -> None:
    bot = _bot_for(variant, plies=2)
    for position in _positions(variant, 7, 40 if variant != "acey-deucey" else 6)[1::5]:
        batched = bot._reply_equity(position)
        assert batched == pytest.approx(_reply_equity_one_roll_at_a_time(bot, position), abs=1e-9)


def test_two_ply_searches_only_the_moves_within_its_margin() -> None:
    position = _positions("fevga", 3, 30)[-1]
    dice = Dice(5, 2)
    ranked = NetBot().rank(position, dice)
    assert len(ranked) > 3
    searched: list[str] = []

    class Counting(NetBot):
        __slots__ = ()

        def _searched(self, position: Position, move: object) -> float:
            searched.append(str(move))
            return NetBot._searched(self, position, move)  # type: ignore[arg-type]

    gap = ranked[0][0] - ranked[1][0]
    # no move within the margin but the best: no search, the 1-ply choice
    assert Counting(plies=2, margin=gap / 2).choose_move(position, dice) == ranked[0][1]
    assert searched == []
    Counting(plies=2, margin=10.0, width=3).choose_move(position, dice)
    assert searched == [str(m) for _, m in ranked[:3]]


def test_the_net_bots_are_deterministic() -> None:
    for variant in ("plakoto", "long-nardy"):
        position = _positions(variant, 9, 25)[-1]
        first = [str(NetBot(plies=p).choose_move(position, Dice(3, 1))) for p in (1, 2)]
        again = [str(NetBot(plies=p).choose_move(position, Dice(3, 1))) for p in (1, 2)]
        assert first == again


def test_a_run_starts_from_given_weights(tmp_path: Path) -> None:
    base = Trainer.new(TrainConfig("jacquet", hidden=5, seed=2))
    base.play_game()
    base.export(tmp_path / "j.npz")
    net, _ = Net.load(tmp_path / "j.npz")
    run = Trainer.new(TrainConfig("jacquet", hidden=5, seed=4)).from_weights(net, 100)
    assert run.games == 100 and np.array_equal(run.net.w1, net.w1)
    assert run.net.w1 is not net.w1
    # a wider run starts from the same function: the new units have no say yet
    wide = Trainer.new(TrainConfig("jacquet", hidden=8, seed=4)).from_weights(net)
    assert wide.net.w1.shape == (8, net.w1.shape[1])
    x = np.random.default_rng(1).random((5, net.w1.shape[1]))
    assert np.allclose(wide.net.forward(x), net.forward(x))
    with pytest.raises(ValueError, match="shape"):  # never narrower
        Trainer.new(TrainConfig("jacquet", hidden=4, seed=4)).from_weights(net)
    with pytest.raises(ValueError, match="shape"):  # another variant's inputs
        Trainer.new(TrainConfig("plakoto", hidden=5, seed=4)).from_weights(net)
