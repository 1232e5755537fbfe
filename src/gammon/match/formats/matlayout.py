"""The ``.mat`` layout: its columns, eXtreme Gammon's variation tags, and a parser.

:func:`parse_mat` reads the text of a ``.mat`` file into its header, tags and
games (rows of cells, and the ``Wins`` lines) without replaying anything;
:mod:`gammon.match.formats.matread` replays what it finds, and
:mod:`gammon.match.formats.matwrite` writes the same layout.

>>> parsed = parse_mat(" 3 point match\\n\\n Game 1\\n A : 0    B : 0\\n  1) 31: 8/5 6/5   Doubles => 2\\n")
>>> parsed.length, parsed.games[0].names, parsed.games[0].score
(3, ('A', 'B'), (0, 0))
>>> [(c.dice, c.text, c.word, c.value) for c in parsed.games[0].rows[0].cells if c]
[(Dice(3, 1), '8/5 6/5', None, None), (None, '', 'double', 2)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from gammon.dice import Dice
from gammon.errors import InvalidNotationError
from gammon.match.formats.limits import ReadLimitError, ReadTimeError, check_time, small_number

__all__ = [
    "CELL",
    "FROM_TAG",
    "RIGHT",
    "VARIANT_TAGS",
    "MatCell",
    "MatFile",
    "MatGame",
    "MatRow",
    "MatWins",
    "parse_mat",
]
#: Where the right-hand column starts (as in gnubg's files and ``tiny.mat``).
RIGHT: Final = 38
#: Width of a left-hand move cell: ``"%3d) "`` takes 5 characters, the cell the rest.
CELL: Final = RIGHT - 5

# The patterns never backtrack over a run of spaces twice (possessive ``*+``, ``++``): a
# long line of a hostile file is read in linear time, not cubic.
_HEADER: Final = re.compile(r"^\s*+(\d++)\s*+(?:-\s*+)?points?\s++match\b", re.IGNORECASE)
_MONEY: Final = re.compile(r"^\s*(money|unlimited|cash)\b", re.IGNORECASE)
_GAME: Final = re.compile(r"^\s*game\s+(\d+)\b", re.IGNORECASE)
_TAG: Final = re.compile(r'^\s*+;\s*+\[\s*+([^"\]]*+)"(.*)"\s*+\]\s*+$')
_ROW: Final = re.compile(r"^\s*(\d+)\)(.*)$")
_WINS: Final = re.compile(
    r"^\s*+wins\s++(\d++)\s++points?(\s++and\s++the\s++match)?\s*+\.?\s*+$", re.IGNORECASE
)
#: The end of a score line (``Bob : 2``), and what follows each earlier colon (`` 3   Ann``).
_SCORE_END: Final = re.compile(r":\s*+(\d++)\s*+$")
_SCORE_MID: Final = re.compile(r"\s*+(\d++)\s++")
#: Backgammon Galaxy writes the loser's ``Losses N point(s)`` beside the winner's ``Wins``.
_LOSSES: Final = re.compile(r"(?<![\w/])losses\s+(\d+)\s+points?\b\.?", re.IGNORECASE)
_ANCHOR: Final = re.compile(
    r"(?<![\w/*])(?P<dice>[1-6][1-6])\s*:"
    r"|(?<![\w/])(?P<word>doubles|redoubles|beavers|raccoons|takes|accepts|drops|passes|refuses)\b"
    r"|(?<![\w/])(?P<wins>wins)\b",
    re.IGNORECASE,
)
_CUBE_VALUE: Final = re.compile(r"^(?:=>|=|->|to)?\s*+(\d++)?\s*+$", re.IGNORECASE)
_WORDS: Final = {
    "doubles": "double",
    "redoubles": "double",
    "beavers": "beaver",
    "raccoons": "raccoon",
    "takes": "take",
    "accepts": "take",
    "drops": "drop",
    "passes": "drop",
    "refuses": "drop",
}
_COUNTRY: Final = re.compile(r"\((?P<code>[A-Z]{2,3})\)$")
#: eXtreme Gammon's ``; [Variation "..."]`` tag of each variant a ``.mat`` file can hold ...
VARIANT_TAGS: Final = {
    "standard": "Backgammon",
    "nackgammon": "NackGammon",
    "hypergammon": "HyperGammon",
    "caucasian": "Caucasian",
}
#: ... and the variant of each tag, in lower case.
FROM_TAG: Final = {tag.lower(): name for name, tag in VARIANT_TAGS.items()}


@dataclass(frozen=True, slots=True)
class MatCell:
    """One entry of a move row: ``dice`` and the move ``text``, or a cube ``word`` and ``value``."""

    line: int
    column: int
    raw: str
    dice: Dice | None = None
    text: str = ""
    word: str | None = None
    value: int | None = None


@dataclass(frozen=True, slots=True)
class MatRow:
    """A numbered move row: its left (player 0) and right (player 1) cells."""

    line: int
    number: int
    cells: tuple[MatCell | None, MatCell | None]


@dataclass(frozen=True, slots=True)
class MatWins:
    """A ``Wins N point(s) [and the match]`` result, and the column (seat) it stands in."""

    line: int
    points: int
    and_match: bool
    column: int
    raw: str = ""


@dataclass(slots=True)
class MatGame:
    """One ``Game N`` section: names and score line, where its right column starts, rows, result."""

    line: int
    number: int
    score: tuple[int, int] | None = None
    names: tuple[str, str] | None = None
    right: int = RIGHT
    rows: list[MatRow] = field(default_factory=list)
    wins: MatWins | None = None
    #: Backgammon Galaxy's ``Losses N point(s)``: the points and the loser's column.
    losses: tuple[int, int] | None = None


@dataclass(slots=True)
class MatFile:
    """A parsed file: match length (0 money, None unsaid), XG tags, games, country codes by seat."""

    length: int | None = None
    tags: dict[str, str] = field(default_factory=dict)
    games: list[MatGame] = field(default_factory=list)
    countries: dict[int, str] = field(default_factory=dict)


def _bad(line: int, text: str, why: str) -> InvalidNotationError:
    return InvalidNotationError(f"line {line}: {text.strip()[:80]!r}: {why}")


def _split_name(name: str, seat: int, parsed: MatFile) -> str:
    match = _COUNTRY.search(name)
    if match and name[: match.start()].rstrip():
        parsed.countries.setdefault(seat, match["code"])
        return name[: match.start()].rstrip()
    return name


def _score(line: str) -> tuple[str, int, str, int, int] | None:
    """A score line ``Ann : 3   Bob : 2``: each name (which may hold a colon) and score,
    and the column where the second name starts.

    The second score follows the last colon; the first, the first colon that is followed
    by digits and a space.  In linear time, however long the line.

    >>> _score(" Ann (FRA) : 3                     Bob: x : 12 ")
    ('Ann (FRA)', 3, 'Bob: x', 12, 35)
    >>> _score("Ann : 3") is None
    True
    """
    end = _SCORE_END.search(line)
    if end is None:
        return None
    left = line[: end.start()]
    colon = left.find(":")
    while colon >= 0:
        mid = _SCORE_MID.match(left, colon + 1)
        if mid is not None:
            name0, name1 = left[:colon].strip(), left[mid.end() :].strip()
            return name0, small_number(mid[1]), name1, small_number(end[1]), mid.end()
        colon = left.find(":", colon + 1)
    return None


_WINS_TAIL: Final = re.compile(
    r"^(\d++)\s++points?(\s++and\s++the\s++match)?\s*+\.?\s*+$", re.IGNORECASE
)


def _cells(
    line: int, body: str, offset: int, split: int
) -> tuple[tuple[MatCell | None, MatCell | None], MatWins | None]:
    """The left and right entries of a move row (``body`` starts at column ``offset``),
    and a ``Wins N points`` written on the same row after them (gnubg writes it so after
    a drop; online servers after a move)."""
    anchors = list(_ANCHOR.finditer(body))
    if body[: anchors[0].start() if anchors else len(body)].strip():
        raise _bad(line, body, "expected dice such as '31:' or a cube action")
    wins: MatWins | None = None
    for i, anchor in enumerate(anchors):
        if anchor["wins"]:
            tail = _WINS_TAIL.match(body[anchor.end() :].strip())
            if tail is None or i + 1 < len(anchors):
                raise _bad(line, body, "expected 'Wins N point(s)' at the end of the row")
            column = 0 if offset + anchor.start() < split else 1
            raw = body[anchor.start() :].strip()
            wins = MatWins(line, small_number(tail[1]), bool(tail[2]), column, raw)
            anchors = anchors[:i]
            body = body[: anchor.start()]
            break
    if len(anchors) > 2:
        raise _bad(line, body, "more than two entries on one line")
    cells: list[MatCell] = []
    for i, anchor in enumerate(anchors):
        end = anchors[i + 1].start() if i + 1 < len(anchors) else len(body)
        raw = body[anchor.start() : end].strip()
        rest = body[anchor.end() : end].strip()
        column = offset + anchor.start()
        if anchor["dice"]:
            dice = Dice(int(anchor["dice"][0]), int(anchor["dice"][1]))
            cells.append(MatCell(line, column, raw, dice=dice, text=rest))
        else:
            value = _CUBE_VALUE.match(rest)
            if value is None:
                raise _bad(line, raw, "unreadable cube action")
            word = _WORDS[anchor["word"].lower()]
            number = small_number(value[1]) if value[1] else None
            cells.append(MatCell(line, column, raw, word=word, value=number))
    if len(cells) == 2:
        return (cells[0], cells[1]), wins
    if not cells:
        return (None, None), wins
    return ((cells[0], None) if cells[0].column < split else (None, cells[0])), wins


def parse_mat(text: str) -> MatFile:
    """The layout of a ``.mat`` file; raises :class:`InvalidNotationError` naming a line it cannot read."""
    parsed = MatFile()
    game: MatGame | None = None
    lines = text.removeprefix("\ufeff").splitlines()
    number, raw = 0, ""
    try:
        for number, raw in enumerate(lines, start=1):
            check_time()
            line = raw.expandtabs(8).rstrip()
            if not line.strip():
                continue
            if line.lstrip().startswith(";"):
                tag = _TAG.match(line)
                if tag:
                    parsed.tags[tag[1].rstrip()] = tag[2]
                continue
            if game is None and not parsed.games:
                header = _HEADER.match(line)
                if header and parsed.length is None:
                    parsed.length = small_number(header[1])
                    continue
                if _MONEY.match(line) and parsed.length is None:
                    parsed.length = 0
                    continue
            start = _GAME.match(line)
            if start:
                game = MatGame(number, small_number(start[1]))
                parsed.games.append(game)
                continue
            if game is None:
                raise _bad(number, line, "expected the 'N point match' header or 'Game 1'")
            split = (game.right + 5) // 2
            for lost in _LOSSES.finditer(line):
                game.losses = (small_number(lost[1]), 0 if lost.start() < split else 1)
            line = _LOSSES.sub(lambda m: " " * len(m[0]), line).rstrip()
            row = _ROW.match(line)
            if row and not row[2].strip() and (game.wins is not None or game.losses is not None):
                continue  # Backgammon Studio's empty row after the result, Galaxy's Losses row
            if not line.strip():
                continue
            if row:
                if game.wins is not None:
                    raise _bad(number, line, f"a move after the result of game {game.number}")
                cells, wins_here = _cells(number, row[2], row.start(2), split)
                game.rows.append(MatRow(number, small_number(row[1]), cells))
                game.wins = wins_here
                continue
            wins = _WINS.match(line)
            if wins:
                if game.wins is not None:
                    raise _bad(number, line, f"a second result for game {game.number}")
                column = 0 if len(line) - len(line.lstrip()) < split else 1
                game.wins = MatWins(
                    number, small_number(wins[1]), bool(wins[2]), column, line.strip()
                )
                continue
            score = _score(line)
            if score and game.score is None and not game.rows:
                seat0 = _split_name(score[0] or "Player 0", 0, parsed)
                seat1 = _split_name(score[2] or "Player 1", 1, parsed)
                game.names = (seat0, seat1)
                game.score = (score[1], score[3])
                game.right = score[4]
                continue
            raise _bad(number, line, "not a line of a .mat file")
    except ReadTimeError:
        raise
    except ReadLimitError as exc:  # a number too large
        raise _bad(number, raw, str(exc)) from None
    return parsed
