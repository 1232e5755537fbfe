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
from dataclasses import dataclass, field
from typing import Final

from gammon.errors import InvalidNotationError

__all__ = ["SgfGame", "sgf_games"]


@dataclass(frozen=True, slots=True)
class SgfGame:
    """One game tree: the root node's properties and the ``W``/``B`` values of the main line."""

    properties: dict[str, tuple[str, ...]] = field(hash=False)
    moves: tuple[tuple[str, str], ...]
    #: The line of each move node, for error messages.
    lines: tuple[int, ...] = field(default=(), compare=False, repr=False)


_IDENT: Final = re.compile(r"[A-Za-z]+")


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def line(self) -> int:
        return self.text.count("\n", 0, self.pos) + 1

    def fail(self, why: str) -> InvalidNotationError:
        near = self.text[self.pos : self.pos + 20]
        return InvalidNotationError(f"SGF line {self.line()}: {why} near {near!r}")

    def peek(self) -> str:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def tree(self) -> list[tuple[int, dict[str, tuple[str, ...]]]]:
        """A game tree's main line: its nodes, each with its line number."""
        if self.peek() != "(":
            raise self.fail("expected '('")
        self.pos += 1
        nodes: list[tuple[int, dict[str, tuple[str, ...]]]] = []
        varied = False
        while True:
            c = self.peek()
            if c == ";" and not varied:
                self.pos += 1
                line = self.line()
                nodes.append((line, self.node()))
            elif c == "(":
                branch = self.tree()
                if not varied:
                    nodes += branch
                    varied = True
            elif c == ")":
                self.pos += 1
                return nodes
            else:
                raise self.fail("expected ';', '(' or ')'")

    def node(self) -> dict[str, tuple[str, ...]]:
        props: dict[str, tuple[str, ...]] = {}
        while True:
            self.peek()
            match = _IDENT.match(self.text, self.pos)
            if match is None:
                return props
            self.pos = match.end()
            values = []
            while self.peek() == "[":
                values.append(self.value())
            if not values:
                raise self.fail(f"property {match[0]} has no value")
            props[match[0]] = props.get(match[0], ()) + tuple(values)

    def value(self) -> str:
        self.pos += 1
        out = []
        while self.pos < len(self.text):
            c = self.text[self.pos]
            if c == "\\" and self.pos + 1 < len(self.text):
                out.append(self.text[self.pos + 1])
                self.pos += 2
                continue
            if c == "]":
                self.pos += 1
                return "".join(out)
            out.append(c)
            self.pos += 1
        raise self.fail("unterminated property value")


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
