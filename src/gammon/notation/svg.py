"""An SVG picture of a position, from the side of the player on roll (standard library only).

The player on roll plays from the bottom: points 1-6 bottom right, 7-12 bottom
left, 13-18 top left, 19-24 top right, the bar in the middle and the borne-off
trays on the right.  The picture is one self-contained ``<svg>`` element with
presentation attributes only (no ``<style>``, no script), so it can be
embedded in a page with a strict Content-Security-Policy, saved as a file, or
shown by Jupyter (:meth:`gammon.Position._repr_svg_`).

>>> from gammon import Position
>>> picture = board(Position.initial(), dice=(3, 1), size=280)
>>> picture.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and picture.count('class="checker') == 30
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from gammon.rules.base import PositionLike

__all__ = ["board"]

#: The layout in board units: 6 points, the bar, 6 points, the trays.
_POINT: Final = 1.0
_BAR: Final = 1.0
_TRAY: Final = 1.2
_WIDTH: Final = 12 * _POINT + _BAR + _TRAY + 0.4
_HEIGHT: Final = 11.0
_FRAME: Final = 0.2
_RADIUS: Final = 0.46
_STACK: Final = 5  # checkers drawn on a point; more get a count

_COLOURS: Final = {
    "frame": "#5b3a1e",
    "felt": "#2f6b4f",
    "light_point": "#e8d9b5",
    "dark_point": "#a8432f",
    "player": "#f4f1ea",
    "opponent": "#2a2623",
    "player_text": "#2a2623",
    "opponent_text": "#f4f1ea",
    "edge": "#111111",
    "label": "#f4f1ea",
}


def _fmt(x: float) -> str:
    return f"{x:.3f}".rstrip("0").rstrip(".")


def _point_x(point: int) -> float:
    """The left edge of a point's column (the player's numbering, 1..24)."""
    if 1 <= point <= 6:
        return _FRAME + 6 * _POINT + _BAR + (6 - point) * _POINT
    if 7 <= point <= 12:
        return _FRAME + (12 - point) * _POINT
    if 13 <= point <= 18:
        return _FRAME + (point - 13) * _POINT
    return _FRAME + 6 * _POINT + _BAR + (point - 19) * _POINT


def _checker(cx: float, cy: float, side: str, label: str = "") -> list[str]:
    out = [
        f'<circle class="checker {side}" cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{_RADIUS}" '
        f'fill="{_COLOURS[side]}" stroke="{_COLOURS["edge"]}" stroke-width="0.04"/>'
    ]
    if label:
        out.append(
            f'<text x="{_fmt(cx)}" y="{_fmt(cy + 0.17)}" font-size="0.5" text-anchor="middle" '
            f'font-family="sans-serif" fill="{_COLOURS[side + "_text"]}">{label}</text>'
        )
    return out


def _stack(x: float, bottom: bool, count: int, side: str, start: int = 0) -> list[str]:
    """``count`` checkers on a column whose left edge is ``x``, from its edge inwards.

    ``start`` leaves that many places free at the edge (a pinned checker sits there).
    """
    out: list[str] = []
    cx = x + _POINT / 2
    for i in range(start, min(count + start, _STACK)):
        offset = _FRAME + _RADIUS + 0.02 + i * 2 * _RADIUS
        cy = _HEIGHT - offset if bottom else offset
        label = str(count) if count + start > _STACK and i == _STACK - 1 else ""
        out += _checker(cx, cy, side, label)
    return out


def _die(x: float, y: float, value: int) -> list[str]:
    size = 0.8
    out = [
        f'<rect class="die" x="{_fmt(x)}" y="{_fmt(y)}" width="{size}" height="{size}" rx="0.12" '
        f'fill="{_COLOURS["player"]}" stroke="{_COLOURS["edge"]}" stroke-width="0.04"/>'
    ]
    spots = {
        1: [(0.5, 0.5)],
        2: [(0.25, 0.25), (0.75, 0.75)],
        3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
        4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
        5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
        6: [(0.25, 0.2), (0.75, 0.2), (0.25, 0.5), (0.75, 0.5), (0.25, 0.8), (0.75, 0.8)],
    }[value]
    for sx, sy in spots:
        out.append(
            f'<circle cx="{_fmt(x + sx * size)}" cy="{_fmt(y + sy * size)}" r="0.075" '
            f'fill="{_COLOURS["edge"]}"/>'
        )
    return out


def board(
    position: PositionLike,
    *,
    dice: Sequence[int] | None = None,
    cube: int | None = None,
    cube_owner: str | None = None,
    size: int = 400,
    numbers: bool = True,
) -> str:
    """The position as an SVG element ``size`` pixels wide, the player on roll at the bottom.

    ``dice`` (two values) are drawn on the player's side of the board;
    ``cube`` (its value) on the bar's side, at the top when ``cube_owner`` is
    ``"opponent"``, at the bottom for ``"player"`` and in the middle otherwise.
    Points carry the player's numbers unless ``numbers`` is false.  More than
    five checkers on a point show their count on the last one drawn.

    >>> from gammon import Position
    >>> svg = board(Position.from_points({1: 7}, {6: 2}, opponent_bar=1), cube=2, cube_owner="player")
    >>> svg.count('class="checker player"'), svg.count('class="checker opponent"'), '>7<' in svg
    (5, 3, True)
    """
    if dice is not None and (len(dice) != 2 or any(d not in range(1, 7) for d in dice)):
        raise ValueError(f"dice must be two numbers from 1 to 6, not {dice!r}")
    if cube_owner not in (None, "player", "opponent", "centered"):
        raise ValueError(
            f"cube_owner must be 'player', 'opponent' or 'centered', not {cube_owner!r}"
        )
    player, opponent = position.player, position.opponent
    height = round(size * _HEIGHT / _WIDTH)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_fmt(_WIDTH)} {_fmt(_HEIGHT)}" '
        f'width="{size}" height="{height}" role="img" '
        f'aria-label="backgammon position {position.position_id()}">',
        f'<rect x="0" y="0" width="{_fmt(_WIDTH)}" height="{_fmt(_HEIGHT)}" fill="{_COLOURS["frame"]}"/>',
    ]
    for left in (_FRAME, _FRAME + 6 * _POINT + _BAR):
        parts.append(
            f'<rect x="{_fmt(left)}" y="{_FRAME}" width="{_fmt(6 * _POINT)}" '
            f'height="{_fmt(_HEIGHT - 2 * _FRAME)}" fill="{_COLOURS["felt"]}"/>'
        )
    tray_x = _FRAME + 12 * _POINT + _BAR + 0.1
    for top in (_FRAME, _HEIGHT / 2 + 0.1):
        parts.append(
            f'<rect x="{_fmt(tray_x)}" y="{_fmt(top)}" width="{_fmt(_TRAY - 0.1)}" '
            f'height="{_fmt(_HEIGHT / 2 - _FRAME - 0.1)}" fill="{_COLOURS["felt"]}"/>'
        )
    tip = 4.6
    for point in range(1, 25):
        x = _point_x(point)
        bottom = point <= 12
        colour = _COLOURS["dark_point" if point % 2 else "light_point"]
        base = _HEIGHT - _FRAME if bottom else _FRAME
        apex = base - tip if bottom else base + tip
        parts.append(
            f'<polygon class="point" points="{_fmt(x)},{_fmt(base)} {_fmt(x + _POINT)},{_fmt(base)} '
            f'{_fmt(x + _POINT / 2)},{_fmt(apex)}" fill="{colour}"/>'
        )
        if numbers:
            y = _HEIGHT - 0.04 if bottom else 0.17
            parts.append(
                f'<text x="{_fmt(x + _POINT / 2)}" y="{_fmt(y)}" font-size="0.2" '
                f'text-anchor="middle" font-family="sans-serif" fill="{_COLOURS["label"]}">'
                f"{point}</text>"
            )
    # the other side's number for each point comes from the variant's point mapping; a
    # pinned checker (plakoto) is drawn at the edge, under its pinner
    other = position.variant.point_map
    pinned = position.pinned
    for point in range(1, 25):
        q = other[point]
        mine, theirs = player[point], opponent[q]
        under_mine = bool(pinned[0] >> point & 1)
        under_theirs = bool(pinned[1] >> q & 1)
        x, bottom = _point_x(point), point <= 12
        if mine:
            parts += _stack(x, bottom, mine, "player", theirs if under_theirs else 0)
        if theirs:
            parts += _stack(x, bottom, theirs, "opponent", mine if under_mine else 0)
    bar_x = _FRAME + 6 * _POINT
    # on the bar, each side's checkers wait in the half they enter from
    for count, side, top in ((player[25], "player", True), (opponent[25], "opponent", False)):
        for i in range(min(count, 3)):
            cy = _HEIGHT / 2 - 1.2 - 2 * _RADIUS * i if top else _HEIGHT / 2 + 1.2 + 2 * _RADIUS * i
            label = str(count) if count > 3 and i == 2 else ""
            parts += _checker(bar_x + _BAR / 2, cy, side, label)
    for count, side, bottom in ((player[0], "player", True), (opponent[0], "opponent", False)):
        for i in range(count):
            h = 0.26
            y = _HEIGHT - _FRAME - 0.05 - (i + 1) * h if bottom else _FRAME + 0.05 + i * h
            parts.append(
                f'<rect class="off {side}" x="{_fmt(tray_x + 0.1)}" y="{_fmt(y)}" '
                f'width="{_fmt(_TRAY - 0.3)}" height="{_fmt(h - 0.04)}" fill="{_COLOURS[side]}" '
                f'stroke="{_COLOURS["edge"]}" stroke-width="0.02"/>'
            )
    if dice is not None:
        x0 = _FRAME + 6 * _POINT + _BAR + 1.4
        for i, value in enumerate(dice):
            parts += _die(x0 + i * 1.1, _HEIGHT / 2 - 0.4, value)
    if cube is not None:
        y = {"opponent": _FRAME + 0.1, "player": _HEIGHT - _FRAME - 0.9}.get(
            cube_owner or "", _HEIGHT / 2 - 0.4
        )
        parts.append(
            f'<rect class="cube" x="{_fmt(bar_x + 0.1)}" y="{_fmt(y)}" width="0.8" height="0.8" '
            f'rx="0.1" fill="{_COLOURS["player"]}" stroke="{_COLOURS["edge"]}" stroke-width="0.04"/>'
        )
        parts.append(
            f'<text x="{_fmt(bar_x + 0.5)}" y="{_fmt(y + 0.58)}" font-size="0.45" '
            f'text-anchor="middle" font-family="sans-serif" fill="{_COLOURS["edge"]}">{cube}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
