"""Hypothesis properties of the variants of issue #12 (positions reached by random play)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gammon import Dice, Position
from gammon.match import Play, Roll, TableOptions, apply, new_match

GEOMETRY = ["plakoto", "fevga", "long-nardy", "jacquet", "acey-deucey"]
ALL = ["tavla", "portes", *GEOMETRY]


def walk(variant: str, seed: int, plies: int) -> Position:
    """The position after ``plies`` random legal moves from the start."""
    rng = random.Random(seed)
    position = Position.initial(variant)
    for _ in range(plies):
        if position.result() is not None or position.is_drawn():
            break
        d = Dice(rng.randint(1, 6), rng.randint(1, 6))
        if {d.d1, d.d2} == {1, 2}:
            d = Dice(3, 3)  # keep the walk fast; the 1-2 has its own tests
        moves = position.legal_moves(d)
        position = position.apply(rng.choice(moves)) if moves else position.flipped()
    return position


def checkers(position: Position) -> tuple[int, int]:
    waiting = position.waiting
    return sum(position.player) + waiting[0], sum(position.opponent) + waiting[1]


def rebuilt(position: Position) -> Position:
    """The same position through the validating constructor (raises if it is not valid)."""
    return Position(
        position.player,
        position.opponent,
        position.variant,
        pinned=position.pinned,
        waiting=position.waiting,
    )


def prime_ok(after: Position, *, strict: bool = False) -> bool:
    """No six blocked points in a row ahead of every checker of the player on roll
    (``strict``: no six in a row at all).

    ``after`` has the mover's opponent on roll: its ``opponent`` just moved.
    """
    f = after.variant.point_map
    blocked = {f[p] for p in range(1, 25) if after.opponent[p]}
    for low in range(1, 20):
        if all(q in blocked for q in range(low, low + 6)) and (
            strict or not any(after.player[1:low])
        ):
            return False
    return True


positions_st = st.builds(walk, st.sampled_from(ALL), st.integers(0, 2**32), st.integers(0, 80))
dice_st = st.builds(Dice, st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=60)
@given(positions_st, dice_st)
def test_legal_moves_are_sound(position: Position, dice: Dice) -> None:
    v = position.variant
    assert checkers(position) == (15, 15)
    assert rebuilt(position) == position
    assert Position.from_position_id(position.position_id(), v) == position
    if v.bonus_roll and {dice.d1, dice.d2} == {1, 2}:
        dice = Dice(4, 4)
    moves = position.legal_moves(dice)
    assert len({m.position_after() for m in moves}) == len(moves)
    assert len({len(m) for m in moves}) <= 1  # the maximal-usage rule: one length
    assert list(position.move_texts(dice).values()) == list(moves)
    for move in moves:
        assert position.parse_move(str(move), dice) == move
        # not a kept text (paths the other way round): read by the full parser
        assert position.parse_move(" ".join(reversed(str(move).split())), dice) == move
        after = position.apply(move)
        assert checkers(after) == (15, 15)
        assert rebuilt(after) == after
        if v.landing == "block":
            f = v.point_map
            assert not any(after.player[p] and after.opponent[f[p]] for p in range(1, 25))
        if v.prime_rule and not v.prime_needs_last_points:
            assert prime_ok(after), str(move)
        if v.prime_needs_last_points and not (after.opponent[1] and after.opponent[2]):
            assert prime_ok(after, strict=True), str(move)
        if v.start_quarter_rule:
            assert not all(after.opponent[19:25]), str(move)
        if v.head_rule and position.player[24] < 15:
            assert position.player[24] - after.opponent[24] <= 1
    if not moves:
        assert position.pass_move(dice).position_after() == position.flipped()


@settings(max_examples=25)
@given(positions_st, dice_st)
def test_step_options_walk_every_move(position: Position, dice: Dice) -> None:
    if position.variant.bonus_roll and {dice.d1, dice.d2} == {1, 2}:
        dice = Dice(5, 5)
    moves = position.legal_moves(dice)
    for move in moves[:5]:
        played = []
        for step in move:
            options = position.step_options(dice, played)
            assert (step.from_point, step.to_point) in {
                (s.from_point, s.to_point) for s in options.steps
            }
            played.append(step)
        final = position.step_options(dice, played)
        assert final.complete and final.move == move


@settings(max_examples=8)
@given(st.sampled_from(ALL), st.integers(0, 2**32))
def test_self_play_through_the_engine_ends_legally(variant: str, seed: int) -> None:
    rng = random.Random(seed)
    state = new_match(TableOptions(variant=variant, cube=False, match_length=1))
    for _ in range(3000):
        if state.over:
            break
        g = state.game
        if g.phase in ("opening", "turn"):
            seat = g.turn if g.turn is not None else 0
            d = Dice(rng.randint(1, 6), rng.randint(1, 6))
            slow = variant == "acey-deucey" and {d.d1, d.d2} == {1, 2}
            if slow and g.phase == "turn" and rng.random() < 0.7:
                d = Dice(6, 6)  # keep the test fast: fewer 1-2s
            state = apply(state, Roll(seat, d)).state
        else:
            assert g.phase == "moving" and g.dice is not None and g.turn is not None
            moves = g.position.legal_moves(g.dice)
            state = apply(state, Play(g.turn, str(rng.choice(moves)))).state
    assert state.over
    last = state.games[-1]
    v = Position.initial(variant).variant
    assert last.winner is not None or last.reason == "draw"
    assert 0 <= last.result <= v.max_result
    assert last.points == last.result


@settings(max_examples=10)
@given(st.integers(0, 2**32), st.integers(0, 40))
def test_acey_deucey_one_two_structure(seed: int, plies: int) -> None:
    position = walk("acey-deucey", seed, plies)
    if position.result() is not None:
        return
    moves = position.legal_moves((2, 1))
    lengths = {len(m) for m in moves}
    for move in moves[:: max(1, len(moves) // 40)]:
        dice = [s.die for s in move]
        if len(dice) >= 2:
            assert sorted(dice[:2]) == [1, 2]
        if len(dice) > 2:
            assert lengths <= set(range(2, 7))
            assert len(set(dice[2:])) == 1  # one double, chosen by the player
        assert position.earns_bonus_roll(move) == (len(dice) == 6)
        assert checkers(position.apply(move)) == (15, 15)
