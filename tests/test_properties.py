"""Hypothesis properties of positions, moves and the notations."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gammon import Dice, Position
from gammon.movegen import generic_plays, play_keys
from gammon.notation.xgid_record import parse_xgid
from strategies import dice, games, positions


def _checkers(p: Position) -> tuple[int, int]:
    return sum(p.player), sum(p.opponent)


@given(positions(), dice)
def test_moves_keep_15_checkers_and_give_valid_distinct_positions(p: Position, roll: Dice) -> None:
    moves = p.legal_moves(roll)
    afters = [m.position_after() for m in moves]
    for after in afters:
        assert _checkers(after) == (15, 15)
        if after.player[0] == 15 and after.opponent[0] == 15:
            continue  # the drawn last roll: the one state the constructor refuses
        # a trusted construction is checked again through the validating constructor
        assert Position(after.player, after.opponent, after.variant) == after
    assert len(set(afters)) == len(afters)
    # every move uses the same number of dice, at most 4 and never more than the roll allows
    assert len({len(m) for m in moves}) <= 1
    for m in moves:
        assert len(m) <= (4 if roll.is_double else 2)
        # the pips a move saves are those its steps travel (a bear-off travels to 0)
        travelled = sum(s.from_point - s.to_point for s in m)
        assert p.pip_count()[0] - p.apply(m).pip_count()[1] == travelled


@given(positions(), dice)
def test_every_legal_move_parses_back_from_its_text(p: Position, roll: Dice) -> None:
    for move in p.legal_moves(roll):
        assert p.parse_move(str(move), roll) == move
        # the steps, replayed as click-to-move steps, give the same move
        assert p.step_options(roll, move.steps).move == move


@given(positions(), dice)
def test_move_texts_are_the_moves_texts_and_the_parser_agrees(p: Position, roll: Dice) -> None:
    texts = p.move_texts(roll)
    assert list(texts.values()) == list(p.legal_moves(roll))
    assert list(texts) == [str(m) for m in p.legal_moves(roll)]
    for text, move in texts.items():
        parsed = p.parse_move(text, roll)  # a kept text: a lookup
        assert parsed == move and parsed.origin is p and move.origin is p
        assert parsed.steps == move.steps
        # the paths the other way round are not a kept text: the full parser reads them
        assert p.parse_move(" ".join(reversed(text.split())), roll) == move


@given(positions(), dice)
def test_fast_paths_equal_the_reference_generator(p: Position, roll: Dice) -> None:
    m, o = list(p.player), list(p.opponent[::-1])
    keys = play_keys(list(m), list(o), roll.d1, roll.d2, p.variant.hitter_rule)
    assert len(keys) == len(set(keys))
    assert set(keys) == set(generic_plays(m, o, roll.d1, roll.d2, p.variant.hitter_rule))


@given(positions())
def test_position_id_round_trip(p: Position) -> None:
    assert Position.from_position_id(p.position_id(), p.variant) == p
    assert Position.from_board(p.board, p.variant) == p


@given(positions(), st.sampled_from([1, -1]))
def test_xgid_round_trip(p: Position, turn: int) -> None:
    from gammon.notation.xgid import format_xgid

    text = format_xgid(p, turn=turn)
    rec = parse_xgid(text, p.variant)
    assert rec.position == p and rec.turn == turn
    assert rec.to_xgid() == text


@given(games())
def test_random_games_keep_the_rules(turns: list[tuple[Position, Dice]]) -> None:
    for position, roll in turns:
        assert _checkers(position) == (15, 15)
        assert not position.is_game_over()
        for move in position.legal_moves(roll):
            assert move.position_after().opponent[0] >= position.player[0]
