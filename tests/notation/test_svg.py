"""The SVG picture of a position: well formed, every checker where it belongs, no script."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given

from gammon import Position
from gammon.notation.svg import board
from strategies import positions

NS = "{http://www.w3.org/2000/svg}"


def _checkers(svg: str, side: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [c for c in root.iter(f"{NS}circle") if c.get("class") == f"checker {side}"]


def _expected(sides: tuple[int, ...]) -> int:
    """Checkers drawn: at most five a point, at most three on the bar."""
    return sum(min(n, 5) for n in sides[1:25]) + min(sides[25], 3)


@given(positions())
def test_every_position_is_drawn_with_its_checkers(position: Position) -> None:
    svg = position.svg()
    root = ET.fromstring(svg)  # well formed
    assert root.tag == f"{NS}svg"
    assert len(_checkers(svg, "player")) == _expected(position.player)
    assert len(_checkers(svg, "opponent")) == _expected(position.opponent)
    off = [r for r in root.iter(f"{NS}rect") if (r.get("class") or "").startswith("off ")]
    assert sum(r.get("class") == "off player" for r in off) == position.player[0]
    assert sum(r.get("class") == "off opponent" for r in off) == position.opponent[0]
    assert position.position_id() in (root.get("aria-label") or "")
    # presentation attributes only: embeddable under a strict Content-Security-Policy
    assert not any(
        e.tag in (f"{NS}style", f"{NS}script") or "style" in e.attrib for e in root.iter()
    )


def test_the_player_on_roll_plays_from_the_bottom_right() -> None:
    p = Position.from_points({1: 2}, {1: 3})  # ours on our 1, theirs on their 1 (our 24)
    svg = board(p, numbers=False)
    ours, theirs = _checkers(svg, "player"), _checkers(svg, "opponent")
    height = float(ET.fromstring(svg).get("viewBox", "0 0 0 0").split()[3])
    assert all(float(c.get("cy", 0)) > height / 2 for c in ours)  # bottom
    assert all(float(c.get("cy", 0)) < height / 2 for c in theirs)  # top
    # both on the right-hand side, in the same column
    assert {c.get("cx") for c in ours} == {c.get("cx") for c in theirs}


def test_tall_stacks_show_their_count_and_the_extras() -> None:
    p = Position.from_points({6: 9}, {6: 2}, player_bar=4)
    svg = board(p, dice=(6, 6), cube=8, cube_owner="opponent")
    texts = [t.text for t in ET.fromstring(svg).iter(f"{NS}text")]
    assert "9" in texts and "4" in texts and "8" in texts  # stack, bar, cube
    assert svg.count('class="die"') == 2


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"dice": (0, 3)}, "dice must be two numbers"),
        ({"dice": (1, 2, 3)}, "dice must be two numbers"),
        ({"cube": 2, "cube_owner": "me"}, "cube_owner must be"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        board(Position.initial(), **options)  # type: ignore[arg-type]


def test_jupyter_shows_the_picture() -> None:
    assert Position.initial()._repr_svg_() == board(Position.initial())
