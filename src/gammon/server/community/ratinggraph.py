"""A player's rating over their rated matches, as inline SVG drawn on the server.

No script and no external library: a polyline in a 600 x 160 box with the highest
and lowest ratings marked, and a ``<title>`` and ``<desc>`` for screen readers
(the SVG is ``role="img"``).  Every piece of text is escaped.

>>> svg = rating_graph([(0, 1500.0), (1, 1522.4), (2, 1510.0)], "Rating", "3 points", "g1")
>>> svg.startswith('<svg class="rating-graph" role="img" aria-labelledby="g1-t g1-d"')
True
>>> "<title id=\\"g1-t\\">Rating</title>" in svg, "1522" in svg
(True, True)
>>> rating_graph([], "t", "d", "g2")
''
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Final

__all__ = ["rating_graph"]

_W: Final = 600
_H: Final = 160
_PAD_X: Final = 44
_PAD_Y: Final = 14


def rating_graph(points: Sequence[tuple[int, float]], title: str, desc: str, ident: str) -> str:
    """The SVG of ``(time, rating)`` points in order (empty without points).

    The x axis is the match number (rated matches at even steps), the y axis the
    rating, from a little under the lowest to a little over the highest.
    """
    if not points:
        return ""
    ratings = [r for _, r in points]
    low, high = min(ratings), max(ratings)
    span = max(high - low, 20.0)
    mid = (high + low) / 2
    bottom, top = mid - span * 0.55, mid + span * 0.55
    steps = max(1, len(points) - 1)

    def x(i: int) -> float:
        return _PAD_X + (_W - 2 * _PAD_X) * i / steps

    def y(r: float) -> float:
        return _PAD_Y + (_H - 2 * _PAD_Y) * (top - r) / (top - bottom)

    path = " ".join(f"{x(i):.1f},{y(r):.1f}" for i, r in enumerate(ratings))
    last = len(ratings) - 1
    ident = escape(ident, quote=True)
    parts = [
        f'<svg class="rating-graph" role="img" aria-labelledby="{ident}-t {ident}-d" '
        f'viewBox="0 0 {_W} {_H}" width="100%" '
        f'xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{ident}-t">{escape(title)}</title>',
        f'<desc id="{ident}-d">{escape(desc)}</desc>',
        f'<rect x="0" y="0" width="{_W}" height="{_H}" fill="#fff" stroke="#d6dbe2"/>',
    ]
    for value in (high, low):
        parts.append(
            f'<line x1="{_PAD_X}" x2="{_W - _PAD_X}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
            'stroke="#d6dbe2" stroke-dasharray="4 4"/>'
            f'<text x="4" y="{y(value) + 4:.1f}" font-size="14" fill="#5b6675">{value:.0f}</text>'
        )
    parts.append(
        f'<polyline points="{path}" fill="none" stroke="#8a3b12" stroke-width="2" '
        'vector-effect="non-scaling-stroke"/>'
    )
    parts.append(f'<circle cx="{x(last):.1f}" cy="{y(ratings[last]):.1f}" r="4" fill="#8a3b12"/>')
    parts.append("</svg>")
    return "".join(parts)
