"""Move notation: the canonical text of a move, and parsing what people write.

Canonical text follows gnubg's habits: one group per checker path, stopovers
shown only where they hit, repeated paths counted, highest points first:

>>> format_move((13, 8, 5, 1, 8, 4, 4, 0))
'13/8*/4'
>>> format_move((24, 21, 3, 0, 21, 20, 1, 0))
'24/20'
>>> format_move((8, 4, 4, 0, 8, 4, 4, 0, 6, 2, 4, 0, 6, 2, 4, 0))
'8/4(2) 6/2(2)'
>>> format_move((25, 22, 3, 0, 6, 0, 6, 0))
'bar/22 6/off'

:func:`parse_move_text` reads the notations in common use into paths, before
they are matched against the legal moves of a position:

>>> parse_move_text("bar/20* 6/0, 8/5(2)")
[Path(points=(25, 20), hits=(False, True)), Path(points=(6, 0), hits=(False, False)), Path(points=(8, 5), hits=(False, False)), Path(points=(8, 5), hits=(False, False))]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Final

from gammon.errors import InvalidNotationError

__all__ = ["PASS_WORDS", "Path", "format_move", "parse_move_text"]

#: Texts accepted for "no legal move": the roll is forfeited.
PASS_WORDS: Final = frozenset({"", "pass", "dance", "no move", "none", "-", "cannot move"})

_NAMES: Final = {"bar": 25, "b": 25, "off": 0, "o": 0}
_TOKEN: Final = re.compile(r"^(?P<body>[^()]+?)(?:\((?P<count>\d+)\))?$")


@dataclass(frozen=True, slots=True)
class Path:
    """One checker's route as written: the points it lands on, and where ``*`` was written."""

    points: tuple[int, ...]
    hits: tuple[bool, ...]


#: Each point's name in move text, by number: 0 is off, 25 the bar.
_TEXTS: Final = ("off", *(str(n) for n in range(1, 25)), "bar")


def format_move(raw: tuple[int, ...], blots: frozenset[int] = frozenset()) -> str:
    """Canonical text of a play given as flat ``(from, to, die, hit)`` quadruples.

    ``blots`` are the points (mover's numbering) holding a single opposing
    checker before the move.  A stopover that does not hit is left out, unless
    the other order of the dice would have stopped on a blot: then ``18/16/15``
    (no hit) must be told apart from ``18/17*/15``.

    >>> format_move((18, 16, 2, 0, 16, 15, 1, 0), blots=frozenset({17}))
    '18/16/15'
    >>> format_move((13, 8, 5, 0, 13, 10, 3, 0)), format_move((6, 5, 1, 0, 8, 5, 3, 0))
    ('13/10 13/8', '8/5 6/5')
    """
    names = _TEXTS
    if len(raw) == 8:  # the common case, two dice played, takes the short way
        s1, t1, d1, h1, s2, t2, d2, h2 = raw
        if s2 == t1 and t1:  # one checker moved by both dice
            if h1:
                stop = "/" + names[t1] + "*"
            elif d1 != d2 and s1 - d2 in blots:  # the other order stops on a blot
                stop = "/" + names[t1]
            else:
                stop = ""
            return names[s1] + stop + "/" + names[t2] + ("*" if h2 else "")
        a = names[s1] + "/" + names[t1] + ("*" if h1 else "")
        b = names[s2] + "/" + names[t2] + ("*" if h2 else "")
        if a == b:
            return a + "(2)"
        return a + " " + b if (s1, t1, b) > (s2, t2, a) else b + " " + a
    if not raw:
        return "pass"
    # Chain the steps into checker paths: a step leaving a point where an
    # earlier path stopped continues that path.  A path: [start, end, dice, stops...]
    # where a stop is (point, hit).
    paths: list[list[Any]] = []
    for i in range(0, len(raw), 4):
        s, t, die, hit = raw[i], raw[i + 1], raw[i + 2], raw[i + 3]
        for path in paths:
            if path[1] == s and s:
                path[1] = t
                path[2].append(die)
                path.append((t, hit))
                break
        else:
            paths.append([s, t, [die], (t, hit)])
    texts = []
    for path in paths:
        start, end, used = path[0], path[1], path[2]
        # with two different dice the other order stops elsewhere: show our stop if that one is a blot
        explicit = len(used) == 2 and used[0] != used[1] and (start - used[1]) in blots
        parts = [names[start]]
        last = len(path) - 1
        for k in range(3, len(path)):
            point, hit = path[k]
            if hit or k == last or explicit:
                parts.append(names[point] + "*" if hit else names[point])
        texts.append((-start, -end, "/".join(parts)))
    texts.sort()
    out: list[str] = []
    i = 0
    while i < len(texts):
        j = i + 1
        while j < len(texts) and texts[j][2] == texts[i][2]:
            j += 1
        out.append(texts[i][2] + (f"({j - i})" if j - i > 1 else ""))
        i = j
    return " ".join(out)


def _point(word: str, text: str) -> int:
    word = word.strip().lower()
    if word in _NAMES:
        return _NAMES[word]
    if word.isdigit() and 0 <= int(word) <= 25:
        return int(word)
    raise InvalidNotationError(f"invalid point {word!r} in move {text!r}")


def parse_move_text(text: str, max_paths: int = 4) -> list[Path]:
    """Split move text into checker paths; ``(n)`` repeats a path ``n`` times.

    ``max_paths`` is 6 for acey-deucey, whose 1-2 roll plays two dice and a double.

    Raises :class:`InvalidNotationError` for text that is not move notation.

    >>> parse_move_text("13/8*/4")
    [Path(points=(13, 8, 4), hits=(False, True, False))]
    >>> parse_move_text("13-8")
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidNotationError: invalid move '13-8': write steps like 13/8 or bar/22*
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"invalid move {text!r}: expected text")
    if len(text) > 200:
        raise InvalidNotationError(f"invalid move {text[:40]!r}...: too long")
    cleaned = re.sub(r"\s+\(", "(", text.strip().replace(",", " "))
    paths: list[Path] = []
    for token in cleaned.split():
        match = _TOKEN.match(token)
        if match is None or "/" not in match["body"]:
            raise InvalidNotationError(f"invalid move {text!r}: write steps like 13/8 or bar/22*")
        count = int(match["count"]) if match["count"] else 1
        if not 1 <= count <= max_paths:
            raise InvalidNotationError(
                f"invalid move {text!r}: a path repeats 1 to {max_paths} times"
            )
        words = match["body"].split("/")
        points = []
        hits = []
        for word in words:
            star = word.endswith("*")
            points.append(_point(word.rstrip("*"), text))
            hits.append(star)
        if hits[0]:
            raise InvalidNotationError(f"invalid move {text!r}: '*' marks a hit on a landing point")
        for a, b in pairwise(points):
            if b >= a or a == 0:
                raise InvalidNotationError(
                    f"invalid move {text!r}: checkers move from higher to lower points"
                )
        paths.extend([Path(tuple(points), tuple(hits))] * count)
    if len(paths) > max_paths:
        many = {4: "four", 6: "six"}.get(max_paths, str(max_paths))
        raise InvalidNotationError(f"invalid move {text!r}: more than {many} checker moves")
    return paths
