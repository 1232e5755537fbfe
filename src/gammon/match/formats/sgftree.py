"""The SGF syntax (FF[4]) for backgammon files (``GM[6]``): game trees and their main lines.

:func:`sgf_games` reads the trees of a file into their root properties and the
``W``/``B`` values of their main lines; :mod:`gammon.match.formats.sgf` gives
those values their meaning (gnubg's dialect) and replays them.

>>> [game] = sgf_games("(;GM[6]PW[Alice]MI[length:3];W[31hefe];B[double]C[a comment])")
>>> game.properties["PW"], game.moves
(('Alice',), (('W', '31hefe'), ('B', 'double')))
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Final

from gammon.errors import InvalidNotationError
from gammon.match.formats.limits import ReadLimitError, check_time, current_limits

__all__ = ["SgfGame", "sgf_games"]


@dataclass(frozen=True, slots=True)
class SgfGame:
    """One game tree: the root node's properties and the ``W``/``B`` values of the main line."""

    properties: dict[str, tuple[str, ...]] = field(hash=False)
    moves: tuple[tuple[str, str], ...]
    #: The line of each move node, for error messages.
    lines: tuple[int, ...] = field(default=(), compare=False, repr=False)


_IDENT: Final = re.compile(r"[A-Za-z]+")
_SPACE: Final = re.compile(r"\s*+")
#: A property value: ``[`` up to the first ``]`` not escaped by a backslash (in linear time).
_VALUE: Final = re.compile(r"\[([^\\\]]*+(?:\\.[^\\\]]*+)*+)\]", re.DOTALL)
_ESCAPED: Final = re.compile(r"\\(.)", re.DOTALL)
#: What is read of the nodes after a game's root: its moves, and setup (which is refused).
_MOVE_PROPERTIES: Final = frozenset({"W", "B", "AE", "AW", "AB"})


class _Reader:
    """Reads SGF text from left to right, without recursion: game trees nested any
    deeper than the reading's :attr:`~gammon.match.formats.limits.ReadLimits.depth`
    are refused, and every step is linear in the text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.depth = current_limits().depth
        self._counted = 0  # the newlines before this position are counted in _lines
        self._lines = 1

    def line(self) -> int:
        # counted from the last call on: the position only moves forward
        self._lines += self.text.count("\n", self._counted, self.pos)
        self._counted = max(self._counted, self.pos)
        return self._lines

    def fail(self, why: str) -> InvalidNotationError:
        near = self.text[self.pos : self.pos + 20]
        return InvalidNotationError(f"SGF line {self.line()}: {why} near {near!r}")

    def peek(self) -> str:
        self.pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def tree(self) -> list[tuple[int, dict[str, tuple[str, ...]]]]:
        """A game tree's main line: its nodes, each with its line number.

        The main line is the tree's own nodes, then its first variation's main line.
        One frame per open ``(``: ``[on the main line, a variation was seen]``.
        """
        if self.peek() != "(":
            raise self.fail("expected '('")
        self.pos += 1
        nodes: list[tuple[int, dict[str, tuple[str, ...]]]] = []
        frames = [[True, False]]
        while frames:
            frame = frames[-1]
            c = self.peek()
            if c == ";" and not frame[1]:
                self.pos += 1
                line = self.line()
                if not frame[0]:
                    self.node(())  # a variation: read, not kept
                elif not nodes:
                    nodes.append((line, self.node(None)))  # the root: all of it
                else:
                    props = self.node(_MOVE_PROPERTIES)
                    if props:
                        nodes.append((line, props))
            elif c == "(":
                if len(frames) >= self.depth:
                    raise ReadLimitError(
                        f"SGF line {self.line()}: game trees nested more than {self.depth} "
                        "deep: refused"
                    )
                self.pos += 1
                frames.append([frame[0] and not frame[1], False])
                frame[1] = True
            elif c == ")":
                self.pos += 1
                frames.pop()
            else:
                raise self.fail("expected ';', '(' or ')'")
            check_time()
        return nodes

    def node(self, keep: Collection[str] | None) -> dict[str, tuple[str, ...]]:
        """A node's properties: those in ``keep`` only (all with ``None``)."""
        props: dict[str, list[str]] = {}
        while True:
            self.peek()
            match = _IDENT.match(self.text, self.pos)
            if match is None:
                return {key: tuple(values) for key, values in props.items()}
            self.pos = match.end()
            values = []
            while self.peek() == "[":
                values.append(self.value())
            if not values:
                raise self.fail(f"property {match[0]} has no value")
            if keep is None or match[0] in keep:
                props.setdefault(match[0], []).extend(values)

    def value(self) -> str:
        found = _VALUE.match(self.text, self.pos)
        if found is None:
            self.pos = len(self.text)
            raise self.fail("unterminated property value")
        self.pos = found.end()
        return _ESCAPED.sub(r"\1", found[1])


def sgf_games(text: str) -> list[SgfGame]:
    """The game trees of an SGF file (main lines only; variations are skipped).

    >>> sgf_games("(;GM[6]PW[A\\\\]B];W[31hefe];B[double]) (;GM[6])")[0].properties["PW"]
    ('A]B',)
    """
    reader = _Reader(text.removeprefix("\ufeff"))
    games = []
    while reader.peek():
        nodes = reader.tree()
        if not nodes:
            raise reader.fail("empty game tree")
        root = nodes[0][1]
        if root.get("GM", ("6",)) != ("6",):
            raise reader.fail(f"GM[{root['GM'][0]}] is not backgammon (GM[6])")
        moves = []
        lines = []
        for line, props in nodes[1:]:
            for colour in ("W", "B"):
                for value in props.get(colour, ()):
                    moves.append((colour, value))
                    lines.append(line)
            if {"AE", "AW", "AB"} & set(props):
                raise InvalidNotationError(f"SGF line {line}: edited positions are not supported")
        games.append(SgfGame(root, tuple(moves), tuple(lines)))
    return games
