"""variants-catalogue.json as a data table: hand-checked cases of the variants of issue #12."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import load_json
from gammon import Position
from gammon.errors import IllegalMoveError
from gammon.move import Step
from gammon.variants import get_variant

CATALOGUE = load_json("variants-catalogue.json")["cases"]


def _side(
    points: dict[str, int], bar: int, off: int | None, waiting: int, n: int
) -> tuple[int, ...]:
    counts = [0] * 26
    for p, c in points.items():
        counts[int(p)] = c
    counts[25] = bar
    counts[0] = n - sum(counts) - waiting if off is None else off
    return tuple(counts)


def _mask(points: list[int]) -> int:
    return sum(1 << p for p in points)


def position_of(case: dict[str, Any]) -> Position:
    """The case's position, the player on roll first."""
    v = get_variant(case["variant"])
    waiting = case.get("waiting", [0, 0])
    player = _side(
        case["player"], case.get("player_bar", 0), case.get("player_off"), waiting[0], 15
    )
    opponent = _side(
        case["opponent"], case.get("opponent_bar", 0), case.get("opponent_off"), waiting[1], 15
    )
    if v.standard_geometry:
        return Position(player, opponent, v)
    pinned = case.get("pinned", [[], []])
    return Position(
        player, opponent, v, pinned=(_mask(pinned[0]), _mask(pinned[1])), waiting=tuple(waiting)
    )


def test_catalogue_covers_every_variant() -> None:
    assert {c["variant"] for c in CATALOGUE} >= {
        "tavla",
        "portes",
        "plakoto",
        "fevga",
        "long-nardy",
        "jacquet",
        "acey-deucey",
    }
    assert len({c["id"] for c in CATALOGUE}) == len(CATALOGUE)


@pytest.mark.parametrize("case", CATALOGUE, ids=[c["id"] for c in CATALOGUE])
def test_variant_case(case: dict[str, Any]) -> None:
    position = position_of(case)
    assert Position.from_position_id(position.position_id(), case["variant"]) == position
    dice = tuple(case.get("dice", (1, 2)))
    moves = position.legal_moves(dice) if "dice" in case else ()
    if "moves" in case:
        expected = [position.parse_move(text, dice) for text in case["moves"]]
        assert set(moves) == set(expected), sorted(map(str, moves))
        assert len(moves) == len(expected)
        if not expected:
            assert position.pass_move(dice).position_after() == position.flipped()
    if "count" in case:
        assert len(moves) == case["count"]
    for text in case.get("legal", []):
        assert position.parse_move(text, dice) in moves
    for text in case.get("illegal", []):
        with pytest.raises(IllegalMoveError):
            position.parse_move(text, dice)
    for move in moves:
        assert position.parse_move(str(move), dice) == move
    after = position
    if "apply" in case:
        after = position.apply(position.parse_move(case["apply"], dice))
    if "pinned_after" in case:
        # seen from the next player on roll: their pinned checkers first
        pinned = case["pinned_after"]
        assert after.pinned == (_mask(pinned[0]), _mask(pinned[1]))
    if "result" in case:
        result = after.result()
        if case["result"] is None:
            assert result is None
        else:
            assert result is not None
            assert (result.winner, result.points) == tuple(case["result"])
    if "no_bonus" in case:
        move = position.parse_move(case["no_bonus"], dice)
        assert not position.earns_bonus_roll(move)
    if "bonus" in case:
        move = position.parse_move(case["bonus"], dice)
        assert position.earns_bonus_roll(move)
        assert len(move) == 6


def test_acey_deucey_one_two_step_by_step() -> None:
    start = Position.initial("acey-deucey")
    move = start.parse_move("bar/24 bar/23 bar/19(4)", "21")
    played: list[Step] = []
    for step in move:
        options = start.step_options("21", played)
        assert (step.from_point, step.to_point) in {
            (s.from_point, s.to_point) for s in options.steps
        }
        played.append(step)
    final = start.step_options("21", played)
    assert final.complete and final.move == move and final.steps == ()
    # after the 1 and the 2, any double may follow: a 6 and a 1 are both offered
    middle = start.step_options("21", played[:2])
    assert {s.die for s in middle.steps} == {1, 2, 3, 4, 5, 6}


def test_variant_descriptions_tell_clients_the_geometry() -> None:
    for name in ("fevga", "long-nardy", "jacquet"):
        v = get_variant(name)
        assert v.describe()["geometry"] == v.geometry()
        assert v.geometry()["direction"] == "same"
        assert [v.other_point(p) for p in (24, 13, 12, 1)] == [12, 1, 24, 13]
    for name in ("tavla", "portes", "plakoto", "acey-deucey"):
        v = get_variant(name)
        assert v.geometry()["direction"] == "opposite"
        assert v.other_point(6) == 19
    assert get_variant("plakoto").geometry()["landing"] == "pin"


def test_variant_positions_refuse_backgammon_only_forms() -> None:
    from gammon.errors import InvalidPositionError

    fevga = Position.initial("fevga")
    with pytest.raises(InvalidPositionError, match="backgammon"):
        _ = fevga.board
    with pytest.raises(InvalidPositionError, match="XGID"):
        fevga.to_xgid()
    with pytest.raises(InvalidPositionError, match="geometry"):
        Position.from_board(Position.initial().board, "fevga")
    assert "15" in str(fevga) and str(fevga).count("O") >= 5
    assert eval(repr(fevga), {"Position": Position}) == fevga


def test_svg_draws_both_directions_and_pins() -> None:
    # fevga: the opponent's start (its 24) is our 12, bottom left, with a count of 15
    svg = Position.initial("fevga").svg()
    assert svg.count('class="checker opponent"') == 5 and ">15<" in svg
    player = [0] * 26
    player[13], player[0] = 1, 14
    opponent = [0] * 26
    opponent[12], opponent[0] = 2, 13
    pinned = Position(tuple(player), tuple(opponent), "plakoto", pinned=(1 << 13, 0))
    svg = pinned.svg()
    assert svg.count('class="checker player"') == 1
    assert svg.count('class="checker opponent"') == 2


def test_cli_shows_variant_positions(capsys: pytest.CaptureFixture[str]) -> None:
    from gammon.cli import main

    assert main(["show", "--variant", "plakoto", "AACA/z8AAID/Pw"]) == 0
    out = capsys.readouterr().out
    assert "Position ID: AACA/z8AAID/Pw" in out and "XGID" not in out
    assert main(["moves", "--variant", "acey-deucey", "AAAAAAAAAAAAAA:w15.15", "65"]) == 0
    assert "bar/20 bar/19" in capsys.readouterr().out
