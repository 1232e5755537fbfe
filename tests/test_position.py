from __future__ import annotations

import pickle

import pytest

import gammon
from gammon import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidNotationError,
    InvalidPositionError,
    Position,
    Step,
    get_variant,
)

START = "4HPwATDgc/ABMA"


def test_initial_position() -> None:
    p = Position.initial()
    assert p.position_id() == START
    assert p.player == p.opponent
    assert p.player[24] == 2 and p.player[13] == 5 and p.player[8] == 3 and p.player[6] == 5
    assert p.pip_count() == (167, 167)
    assert p.is_contact() and not p.is_race()
    assert not p.can_bear_off() and not p.is_game_over() and p.result() is None


def test_board_round_trip_and_layout() -> None:
    p = Position.initial()
    assert p.board == (
        0,
        -2,
        0,
        0,
        0,
        0,
        5,
        0,
        3,
        0,
        0,
        0,
        -5,
        5,
        0,
        0,
        0,
        -3,
        0,
        -5,
        0,
        0,
        0,
        0,
        2,
        0,
    )
    assert Position.from_board(p.board) == p


def test_repr_is_evaluable() -> None:
    p = Position.from_points({6: 2}, {22: 1, 3: 2}, opponent_bar=1, variant="caucasian")
    assert eval(repr(p), {"Position": Position}) == p
    assert repr(Position.initial()) == f"Position.from_position_id('{START}')"


def test_frozen_and_hashable() -> None:
    p = Position.initial()
    with pytest.raises(AttributeError):
        p.player = p.opponent  # type: ignore[misc]
    assert len({p, Position.initial(), p.flipped()}) == 1  # symmetric start
    assert pickle.loads(pickle.dumps(p)) == p


@pytest.mark.parametrize(
    ("player", "opponent", "message"),
    [
        ((0,) * 26, Position.initial().opponent, "has 0 checkers"),
        ((0,) * 25 + (16,), Position.initial().opponent, "16 checkers"),
        ((-1,) + (0,) * 24 + (16,), Position.initial().opponent, "bad count"),
        ((15,) + (0,) * 25, (15,) + (0,) * 25, "both sides"),
        ((14, 1) + (0,) * 24, (14,) + (0,) * 23 + (1, 0), "both sides"),
    ],
)
def test_invalid_positions(
    player: tuple[int, ...], opponent: tuple[int, ...], message: str
) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        Position(player, opponent)


def test_invalid_from_points() -> None:
    with pytest.raises(InvalidPositionError, match="point 0"):
        Position.from_points({0: 1}, {})
    with pytest.raises(InvalidPositionError, match="16 checkers"):
        Position.from_points({6: 16}, {})
    with pytest.raises(InvalidPositionError, match="both"):
        Position.from_points({6: 1}, {19: 1})


def test_variants() -> None:
    assert Position.initial("nackgammon").position_id() == "4Dl4ADbgOXgANg"
    hyper = Position.initial("hypergammon")
    assert hyper.position_id() == "AACgAgAAKgAAAA"
    assert hyper.player[0] == 0 and sum(hyper.player) == 3
    assert Position.from_position_id("AACgAgAAKgAAAA", "hypergammon") == hyper
    with pytest.raises(InvalidPositionError):
        Position.from_position_id(START, "hypergammon")
    with pytest.raises(InvalidNotationError, match="unknown variant"):
        Position.initial("chess")
    assert Position(hyper.player, hyper.opponent, "hypergammon").variant is get_variant(
        "hypergammon"
    )  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("loser", "loser_bar", "points", "kind"),
    [
        ({6: 10, 5: 4}, 0, 1, "single"),  # S01 (one off)
        ({13: 5, 8: 5, 6: 5}, 0, 2, "gammon"),  # S02
        ({6: 14}, 1, 3, "backgammon"),  # S03
        ({19: 1, 6: 14}, 0, 3, "backgammon"),  # S04
        ({18: 1, 6: 14}, 0, 2, "gammon"),  # S05
        ({24: 1, 6: 12}, 1, 1, "single"),  # S06
    ],
)
def test_game_results(loser: dict[int, int], loser_bar: int, points: int, kind: str) -> None:
    # the winner has just borne off the 15th checker; the loser is on roll
    p = Position.from_points(loser, {}, player_bar=loser_bar)
    result = p.result()
    assert result is not None
    assert (result.winner, result.points, result.kind) == ("opponent", points, kind)
    assert p.is_game_over()
    assert p.flipped().legal_moves("31") == ()  # the winner has nothing left to move
    assert p.flipped().result() == gammon.GameResult("player", points)


def test_race_and_bear_off() -> None:
    race = Position.from_points({6: 3, 1: 2}, {6: 4})
    assert race.is_race() and race.can_bear_off() and race.opponent_can_bear_off()
    contact = Position.from_points({20: 1, 1: 2}, {6: 4})
    assert contact.is_contact()
    assert Position.from_points({6: 1}, {3: 1}, player_bar=1).is_contact()


def test_apply_checks_origin_and_type() -> None:
    start = Position.initial()
    move = start.legal_moves("31")[0]
    other = start.apply(move)
    with pytest.raises(IllegalMoveError, match="was made for position"):
        other.apply(move)
    with pytest.raises(IllegalMoveError, match="expected a Move"):
        start.apply("8/5 6/5")  # type: ignore[arg-type]


def test_apply_hits_send_checkers_to_the_bar() -> None:
    p = Position.from_points({13: 1}, {17: 1, 1: 14})  # O's 17 is X's 8
    move = p.parse_move("13/8*/4", "54")
    after = p.apply(move)
    assert after.player[25] == 1 and after.player[17] == 0  # the hit checker is on its bar
    assert after.opponent[4] == 1 and after.opponent[13] == 0
    assert move.hits == 1 and [s.hit for s in move] == [True, False]


def test_pass_move() -> None:
    closed = Position.from_points({6: 1}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, player_bar=1)
    assert closed.legal_moves("66") == ()
    passed = closed.pass_move("66")
    assert passed.is_pass() and len(passed) == 0 and str(passed) == "pass"
    assert closed.apply(passed) == closed.flipped()
    assert closed.parse_move("", "66") == passed
    with pytest.raises(IllegalMoveError, match="cannot be passed"):
        Position.initial().pass_move("31")
    with pytest.raises(IllegalMoveError, match="legal moves exist"):
        Position.initial().parse_move("pass", "31")


def test_parse_move_notations() -> None:
    start = Position.initial()
    expected = start.parse_move("24/18 13/11", "62")
    for text in ["13/11 24/18", "24/18, 13/11", "24/18 13/11*", "25/18 13/11"][:2]:
        assert start.parse_move(text, (6, 2)) == expected
    assert str(start.parse_move("8/5(2) 6/3(2)", "33")) == "8/5(2) 6/3(2)"
    assert start.parse_move("8/2 6/3(2)", "33") == start.parse_move("8/5/2 6/3 6/3", "33")
    assert str(start.parse_move("24/21/20", "31")) == "24/20"
    assert start.parse_move("24/23/20", "31") == start.parse_move("24/20", "31")
    bear = Position.from_points({6: 1, 2: 1}, {22: 1})
    assert str(bear.parse_move("6/0 2/0", "62")) == "6/off 2/off"
    entering = Position.from_points({6: 14}, {3: 1}, player_bar=1)
    assert str(entering.parse_move("bar/22* 6/5", "31").steps[0]) == "bar/22*"
    assert entering.parse_move("25/22 6/5", "31") == entering.parse_move("bar/22* 6/5", "13")


def test_parse_move_errors_carry_text_and_position_id() -> None:
    start = Position.initial()
    with pytest.raises(InvalidNotationError, match=r"'13-8'.*4HPwATDgc/ABMA"):
        start.parse_move("13-8", "53")
    with pytest.raises(InvalidNotationError, match="higher to lower"):
        start.parse_move("8/13", "53")
    with pytest.raises(IllegalMoveError, match=r"'24/18'.*4HPwATDgc/ABMA.*1 of the 2 dice"):
        start.parse_move("24/18", "65")
    with pytest.raises(IllegalMoveError, match="distances do not match"):
        start.parse_move("24/17", "65")
    with pytest.raises(IllegalMoveError, match="'6/1"):
        start.parse_move("6/1 6/5", "51")  # 6/1 lands on O's 24-point anchor
    with pytest.raises(InvalidNotationError):
        start.parse_move("1/2/3/4/5/6", "11")


def test_parse_move_ambiguous_and_hit_markers() -> None:
    p = Position.from_points({13: 1}, {17: 1})  # blot on X's 8
    with pytest.raises(AmbiguousMoveError, match=r"13/8\*/4.*13/4|13/4.*13/8\*/4"):
        p.parse_move("13/4", "54")
    assert p.parse_move("13/8/4", "54").hits == 1  # landing on the blot hits it
    assert p.parse_move("13/9/4", "54").hits == 0
    with pytest.raises(IllegalMoveError, match="no blot to hit on 9"):
        p.parse_move("13/9*/4", "54")


def test_steps_and_move_sequence_api() -> None:
    p = Position.initial()
    move = p.parse_move("24/13", "65")
    assert len(move) == 2
    assert move.steps == (Step(24, 18, 6), Step(18, 13, 5))
    assert move[0] == Step(24, 18, 6) and list(move) == list(move.steps)
    assert Step(18, 13, 5) in move
    assert move.origin is p and move.dice == gammon.Dice(6, 5)
    assert pickle.loads(pickle.dumps(move)) == move
    assert eval(repr(move), {"Position": Position}) == move
    assert hash(move) == hash(p.parse_move("24/18/13", "65"))


def test_step_options_for_click_to_move() -> None:
    p = Position.initial()
    opts = p.step_options("31")
    assert not opts.complete and opts.dice_left == (3, 1)
    assert Step(8, 5, 3) in opts.steps and Step(6, 5, 1) in opts.steps
    opts = p.step_options("31", [Step(8, 5, 3)])
    assert opts.dice_left == (1,) and Step(6, 5, 1) in opts.steps
    done = p.step_options("31", [Step(8, 5, 3), Step(6, 5, 1)])
    assert done.complete and done.move == p.parse_move("8/5 6/5", "31") and done.steps == ()
    # the other order reaches the same move
    assert p.step_options("31", [Step(6, 5, 1), Step(8, 5, 3)]).move == done.move
    with pytest.raises(IllegalMoveError, match="illegal step"):
        p.step_options("31", [Step(24, 20, 4)])


def test_step_options_respect_must_play() -> None:
    # M07-like: only small die first lets both dice play: 8/6/off with 2-6... build one
    p = Position.from_points({24: 1, 13: 1}, {7: 2, 6: 2})  # M02: 13/7/2 only
    opts = p.step_options("65")
    assert {(s.from_point, s.to_point) for s in opts.steps} == {(13, 7), (13, 8)}
    closed = Position.from_points({6: 1}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, player_bar=1)
    assert closed.step_options("66").complete


def test_draw_text() -> None:
    text = str(Position.from_points({6: 7, 1: 1}, {22: 1}, player_bar=2, opponent_bar=3))
    assert "X on bar: 2" in text and "O on bar: 3" in text
    assert " 7 " in text  # a tall column shows its count
    assert "pips" in text
