"""Every public query of Position, asked of every variant (issue #15).

Each answer is derived by hand from the rules (docs/rules.md): start positions,
a race, a contact position, finished games and plakoto's mothers.  A query that a
variant has no answer for (the bgsage board and XGID off the backgammon board)
must raise a clear error naming the Position ID.
"""

from __future__ import annotations

import re

import pytest

from gammon import (
    VARIANTS,
    GameResult,
    IllegalMoveError,
    InvalidPositionError,
    Position,
    Step,
    get_variant,
)
from gammon.notation.position_id import decode_position_key

ALL = sorted(VARIANTS)
BOARD = ["caucasian", "hypergammon", "nackgammon", "portes", "standard", "tavla"]
TRACK = ["acey-deucey", "fevga", "jacquet", "long-nardy", "plakoto"]
SAME_DIRECTION = {"fevga", "jacquet", "long-nardy"}

#: Pips of one side at the start: 2x24 + 5x13 + 3x8 + 5x6 = 167; nackgammon
#: 2x24 + 2x23 + 4x13 + 3x8 + 4x6 = 194; hypergammon 24 + 23 + 22 = 69; fifteen on the
#: 24-point 360; acey-deucey's fifteen waiting to enter count 25 each: 375.
START_PIPS = {
    "standard": 167,
    "caucasian": 167,
    "tavla": 167,
    "portes": 167,
    "nackgammon": 194,
    "hypergammon": 69,
    "plakoto": 360,
    "fevga": 360,
    "long-nardy": 360,
    "jacquet": 360,
    "acey-deucey": 375,
}
#: Checkers the SVG draws at the start: at most five per point (more get a count);
#: acey-deucey's waiting checkers are not drawn.
START_SVG_CHECKERS = {
    **dict.fromkeys(["standard", "caucasian", "tavla", "portes", "nackgammon"], 30),
    "hypergammon": 6,
    **dict.fromkeys(["plakoto", "fevga", "long-nardy", "jacquet"], 10),
    "acey-deucey": 0,
}
#: Distinct moves of a 2-1 from the start (fevga, long nardy, jacquet: one checker may
#: leave the 24-point; plakoto: one or two of them).
START_21_MOVES = {
    "standard": 15,
    "caucasian": 15,
    "tavla": 15,
    "portes": 15,
    "nackgammon": 23,
    "hypergammon": 6,
    "plakoto": 2,
    "fevga": 1,
    "long-nardy": 1,
    "jacquet": 1,
}
#: A gammoned loser with a checker on its 20-point (the winner's home board): a
#: backgammon (3) with opposite movement, capped by max_result; 2 with the same movement.
BACKGAMMON_POINTS = {
    "standard": 3,
    "nackgammon": 3,
    "hypergammon": 3,
    "caucasian": 3,
    "acey-deucey": 3,
    "tavla": 2,
    "portes": 2,
    "plakoto": 2,
    "fevga": 2,
    "long-nardy": 2,
    "jacquet": 2,
}


def n_of(variant: str) -> int:
    return get_variant(variant).checkers


def race(variant: str) -> Position:
    """Everything on each side's own 6-point: no contact in any geometry."""
    n = n_of(variant)
    return Position.from_points({6: n}, {6: n}, variant=variant)


def contact(variant: str) -> Position:
    """One player checker still on its 24-point, the rest on each side's 6-point."""
    n = n_of(variant)
    return Position.from_points({24: 1, 6: n - 1}, {6: n}, variant=variant)


def finished(variant: str, opponent: dict[int, int]) -> Position:
    """The player has borne everything off."""
    return Position.from_points({}, opponent, variant=variant)


# ---------------------------------------------------------------------- start position


@pytest.mark.parametrize("variant", ALL)
def test_start_position_facts(variant: str) -> None:
    p = Position.initial(variant)
    pips = START_PIPS[variant]
    assert p.variant is get_variant(variant)
    assert p.pip_count() == (pips, pips)
    assert not p.can_bear_off() and not p.opponent_can_bear_off()
    assert not p.is_race() and p.is_contact()
    assert not p.is_game_over() and p.result() is None and not p.is_drawn()
    assert p.pinned == (0, 0)
    assert p.waiting == ((15, 15) if variant == "acey-deucey" else (0, 0))
    assert p.flipped() == p and p.flipped().flipped() == p


@pytest.mark.parametrize("variant", ALL)
def test_start_position_text_forms(variant: str) -> None:
    p = Position.initial(variant)
    pid = p.position_id()
    assert Position.from_position_id(pid, variant) == p
    assert eval(repr(p), {"Position": Position}) == p
    assert f"pips {START_PIPS[variant]}, off 0" in str(p)
    assert p.svg().count('class="checker') == START_SVG_CHECKERS[variant]
    if variant == "acey-deucey":
        assert pid.endswith(":w15.15") and "to enter: X 15, O 15" in str(p)


@pytest.mark.parametrize("variant", BOARD)
def test_backgammon_board_forms(variant: str) -> None:
    p = Position.initial(variant)
    assert Position.from_board(p.board, variant) == p
    assert Position.from_xgid(p.to_xgid(), variant) == p
    key = p.position_key()
    assert re.fullmatch(r"[A-P]{20}", key)
    assert decode_position_key(key, n_of(variant)) == (p.player, p.opponent)


def test_standard_board_and_xgid_by_hand() -> None:
    p = Position.initial()
    board = [0] * 26
    board[6], board[8], board[13], board[24] = 5, 3, 5, 2  # the player's checkers
    board[1], board[12], board[17], board[19] = -2, -5, -3, -5  # the opponent's 24, 13, 8, 6
    assert p.board == tuple(board)
    assert p.to_xgid() == "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


@pytest.mark.parametrize("variant", TRACK)
def test_track_positions_refuse_backgammon_only_forms(variant: str) -> None:
    p = Position.initial(variant)
    pid = re.escape(p.position_id())
    with pytest.raises(InvalidPositionError, match=f"no backgammon board layout.*{pid}"):
        _ = p.board
    with pytest.raises(InvalidPositionError, match=f"XGID cannot describe {variant}.*{pid}"):
        p.to_xgid()
    with pytest.raises(InvalidPositionError, match="only the backgammon"):
        Position.from_board(Position.initial().board, variant)
    with pytest.raises(InvalidPositionError, match=f"only the backgammon board, not {variant}"):
        Position.from_xgid(Position.initial().to_xgid(), variant)
    # gnubg's 20-letter key has no room for this geometry: the Position ID stands in
    assert p.position_key() == p.position_id()


# ---------------------------------------------------------------------- mid-game


@pytest.mark.parametrize("variant", ALL)
def test_race_position(variant: str) -> None:
    p = race(variant)
    n = n_of(variant)
    assert p.is_race() and not p.is_contact()
    assert p.can_bear_off() and p.opponent_can_bear_off()
    assert p.pip_count() == (6 * n, 6 * n)
    assert p.result() is None and not p.is_game_over()


@pytest.mark.parametrize("variant", ALL)
def test_contact_position(variant: str) -> None:
    p = contact(variant)
    n = n_of(variant)
    assert not p.is_race() and p.is_contact()
    assert not p.can_bear_off() and p.opponent_can_bear_off()
    flipped = p.flipped()
    assert flipped.can_bear_off() and not flipped.opponent_can_bear_off()
    assert p.pip_count() == (24 + 6 * (n - 1), 6 * n)
    assert flipped.pip_count() == (6 * n, 24 + 6 * (n - 1))


def test_same_direction_contact_lasts_while_a_checker_is_on_its_first_half() -> None:
    # fevga: the player's 13 is the opponent's 1, where the opponent's checkers on its
    # 6-point still have to go: contact; once both sides are on their own 1..12, none.
    assert not Position.from_points({13: 1, 6: 14}, {6: 15}, variant="fevga").is_race()
    assert Position.from_points({12: 1, 6: 14}, {12: 1, 6: 14}, variant="fevga").is_race()
    # the opposite direction counts the back checkers: 14 + 12 > 25, they still meet
    assert not Position.from_points({14: 1, 6: 14}, {12: 1, 6: 14}, variant="plakoto").is_race()
    assert Position.from_points({12: 1, 6: 14}, {12: 1, 6: 14}, variant="plakoto").is_race()


def test_acey_deucey_waiting_checkers_are_behind_everything() -> None:
    p = Position.from_position_id(race("acey-deucey").position_id(), "acey-deucey")
    assert p.is_race()
    waiting = Position((0, 0, 0, 0, 0, 0, 14, *[0] * 19), p.opponent, "acey-deucey", waiting=(1, 0))
    assert not waiting.is_race() and not waiting.can_bear_off()
    assert waiting.pip_count() == (6 * 14 + 25, 90)


# ---------------------------------------------------------------------- finished games


@pytest.mark.parametrize("variant", ALL)
def test_results(variant: str) -> None:
    n = n_of(variant)
    single = finished(variant, {6: n - 1})
    assert single.is_game_over() and single.result() == GameResult("player", 1)
    gammon = finished(variant, {6: n})
    assert gammon.result() == GameResult("player", 2)
    assert gammon.result().kind == "gammon"  # type: ignore[union-attr]
    backgammon = finished(variant, {20: 1, 6: n - 1})
    assert backgammon.result() == GameResult("player", BACKGAMMON_POINTS[variant])
    assert backgammon.flipped().result() == GameResult("opponent", BACKGAMMON_POINTS[variant])
    assert not gammon.is_drawn()


def test_plakoto_mother_pinned_wins_two() -> None:
    # the opponent's mother (its 24 = our 1) lies pinned under our checker: we win 2
    player = [0] * 26
    player[1], player[6] = 1, 14
    opponent = [0] * 26
    opponent[24], opponent[7] = 1, 14
    won = Position(tuple(player), tuple(opponent), "plakoto", pinned=(0, 1 << 24))
    assert won.position_id().endswith(":p0.1000000")
    assert Position.from_position_id(won.position_id(), "plakoto") == won
    assert won.result() == GameResult("player", 2) and not won.is_drawn()
    assert won.is_game_over()
    assert won.flipped().result() == GameResult("opponent", 2)
    # our checkers are home; the opponent's pinned mother is not
    assert won.can_bear_off() and not won.opponent_can_bear_off()
    assert not won.is_race()
    assert won.flipped().pinned == (1 << 24, 0)


def test_plakoto_draw() -> None:
    player = [0] * 26
    player[24], player[1], player[6] = 1, 1, 13
    opponent = [0] * 26
    opponent[24], opponent[1], opponent[7] = 1, 1, 13
    p = Position(tuple(player), tuple(opponent), "plakoto", pinned=(1 << 24, 1 << 24))
    assert p.is_drawn() and p.result() is None and p.is_game_over()
    assert p.flipped().is_drawn()
    with pytest.raises(InvalidPositionError, match="marked pinned"):
        Position(tuple(player), tuple(opponent), "plakoto", pinned=(1 << 24 | 1 << 6, 1 << 24))


# ---------------------------------------------------------------------- moves


@pytest.mark.parametrize("variant", ALL)
def test_moves_of_a_two_one(variant: str) -> None:
    p = Position.initial(variant)
    moves = p.legal_moves("21")
    if variant in START_21_MOVES:
        assert len(moves) == START_21_MOVES[variant]
    assert len({m.position_after() for m in moves}) == len(moves)
    for move in moves:
        assert p.parse_move(str(move), "21") == move
        assert p.apply(move) == move.position_after()
        assert p.earns_bonus_roll(move) == (variant == "acey-deucey" and len(move) == 6)
    with pytest.raises(IllegalMoveError, match="can be played"):
        p.pass_move("21")
    with pytest.raises(IllegalMoveError, match=re.escape(p.position_id())):
        p.parse_move("pass", "21")
    opts = p.step_options("21")
    assert not opts.complete and opts.dice_left == (2, 1)
    first = opts.steps[0]
    assert first.die == 2  # the larger die is offered first
    after = p.step_options("21", [first])
    assert after.steps and not after.complete and after.dice_left == (1,)


@pytest.mark.parametrize("variant", sorted(SAME_DIRECTION))
def test_same_direction_start_steps(variant: str) -> None:
    p = Position.initial(variant)
    opts = p.step_options("21")
    assert {str(s) for s in opts.steps} == {"24/22", "24/23"}
    done = p.step_options("21", [Step(24, 22, 2), Step(22, 21, 1)])
    assert done.complete and str(done.move) == "24/21" and done.steps == ()


def test_acey_deucey_bonus_roll() -> None:
    p = Position.initial("acey-deucey")
    move = p.parse_move("bar/24 bar/23 bar/19(4)", "21")
    assert len(move) == 6 and p.earns_bonus_roll(move)
    assert move.position_after().waiting == (15, 9)
    assert not p.earns_bonus_roll(p.legal_moves("65")[0])


def test_step_options_keep_to_the_dice_that_must_be_played() -> None:
    # one checker on the 3-point, 5-1: it must go 3/2/off (both dice), not 3/off with
    # the 5 alone, though both end with the checker off
    p = Position.from_position_id("AQAAEAAAAAAAAA", "hypergammon")
    assert [str(m) for m in p.legal_moves("51")] == ["3/off"]
    assert [str(s) for s in p.step_options("51").steps] == ["3/2"]
    with pytest.raises(IllegalMoveError, match="cannot be completed"):
        p.step_options("51", [Step(3, 0, 5)])
    done = p.step_options("51", [Step(3, 2, 1), Step(2, 0, 5)])
    assert done.complete and str(done.move) == "3/off"
