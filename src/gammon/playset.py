"""A roll's legal moves behind one interface: :class:`PlaySet`.

:meth:`gammon.Position.plays` answers every question about the moves of one roll (is
there one, how many, which is first, which move a text or a board means, which
click-to-move steps may follow) through a play set, whatever the variant:

* :class:`EagerPlaySet`: every legal move listed at once, in the rules' stable order
  (every variant and roll but one);
* :class:`LazyPlaySet`: acey-deucey's 1-2 whose 1 and 2 can both be played, with up to
  100,000 moves, answered board by board (:class:`gammon.rules.bonus.BonusPlays`) and
  listed only when asked to list them.

:func:`play_set` picks between the two (the rules' ``lazy_plays`` says which): it is the
one place that knows there are two, so :class:`gammon.Position` has no per-method
branch.  Both give the same answers (``tests/rules/test_bonus.py`` compares them on
1-2 positions).  The module works on move tuples ``(origin, dice, key, steps memo)`` of
any class (:class:`gammon.Move`, which it never imports).

>>> from gammon import Position
>>> plays = Position.initial().plays("31")
>>> len(plays), bool(plays), str(plays.first()), str(plays.find("8/5 6/5"))
(16, True, '24/23 24/21', '8/5 6/5')
>>> "6/5 8/5" in plays, str(plays.parse("6/5 8/5"))
(False, '8/5 6/5')
>>> lazy = Position.initial("acey-deucey").plays("21")
>>> type(lazy).__name__, lazy.count(limit=100), str(lazy.first())
('LazyPlaySet', 101, 'bar/18')
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Container, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any, Generic, Protocol, TypeVar

from gammon.dice import Dice
from gammon.errors import AmbiguousMoveError, IllegalMoveError, InvalidNotationError
from gammon.notation.movetext import PASS_WORDS, Path, format_move, parse_move_text
from gammon.rules.base import (
    COUNTED,
    LazyPlays,
    PositionLike,
    RawPlay,
    Rules,
    StepLike,
    how_many,
)
from gammon.step import Step

__all__ = [
    "EagerPlaySet",
    "LazyPlaySet",
    "MoveLike",
    "PlaySet",
    "StepOptions",
    "listed",
    "play_set",
]

#: ``tuple.__new__``: a move is a tuple ``(origin, dice, key, steps memo)`` of its class.
_new: Any = tuple.__new__
_get: Any = tuple.__getitem__


class Origin(PositionLike, Protocol):
    """The position a play set is of: what the rules read, and its rules object."""

    @property
    def rules(self) -> Rules: ...


class MoveLike(Protocol):
    """What a play set reads of its moves (:class:`gammon.Move`)."""

    @property
    def key(self) -> int: ...
    def _raw(self) -> RawPlay: ...
    def __len__(self) -> int: ...


M = TypeVar("M", bound=MoveLike)


@dataclass(frozen=True, slots=True)
class StepOptions(Generic[M]):
    """For click-to-move clients: where the turn stands after some steps."""

    #: Single steps that can still be completed into a legal move.
    steps: tuple[Step, ...]
    #: Whether the steps played so far form a legal move.
    complete: bool
    #: That legal move, when ``complete``.
    move: M | None
    #: Dice still to play (empty when the turn is complete).
    dice_left: tuple[int, ...] = field(default=())


class PlaySet(ABC, Generic[M]):
    """The legal moves of one roll in one position (:meth:`gammon.Position.plays`).

    A container of moves: ``len`` counts them, ``bool`` says whether the roll can be
    played, iteration lists them in the rules' stable order, ``in`` takes a move, a
    board key (:attr:`gammon.Move.key`) or a canonical move text.  Answers are the same
    whichever implementation gives them; a set is shared (read it, never change it).

    >>> from gammon import Position
    >>> plays = Position.from_points({13: 1}, {17: 1}).plays("54")
    >>> [str(m) for m in plays], plays.texts() == {str(m): m for m in plays}
    (['13/8*/4', '13/9/4'], True)
    >>> plays.find(plays.first().key) == plays.first(), plays.count(limit=1)
    (True, 2)
    """

    __slots__ = ("_cls", "dice", "origin")

    def __init__(self, origin: Origin, dice: Dice, cls: type[M]) -> None:
        #: The position the moves are played from.
        self.origin = origin
        #: The roll.
        self.dice = dice
        self._cls = cls

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.dice} in {self.origin.position_id()}>"

    # ------------------------------------------------------------------ what each implements

    @abstractmethod
    def __iter__(self) -> Iterator[M]:
        """Every legal move, in the rules' order (a lazy set lists them all)."""

    @abstractmethod
    def count(self, limit: int | None = None) -> int:
        """How many legal moves there are; past ``limit``, ``limit + 1``."""

    @abstractmethod
    def first(self) -> M | None:
        """The first legal move (None: the roll cannot be played)."""

    @abstractmethod
    def _by_key(self, key: int) -> M | None:
        """The legal move that reaches the board ``key``."""

    @abstractmethod
    def _matches(self, paths: list[Path]) -> list[M]:
        """The legal moves written ``paths`` can mean, in order."""

    @abstractmethod
    def _search(self) -> tuple[Container[int], int]:
        """What the click-to-move search needs: the legal keys and the most steps a move takes."""

    def _listed(self, text: str) -> M | None:
        """The move whose canonical text is ``text`` when that is a lookup, else None."""
        return None

    # ------------------------------------------------------------------ built on them

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        return self.first() is not None

    def __contains__(self, item: object) -> bool:
        if isinstance(item, int | str):
            return self.find(item) is not None
        key = getattr(item, "key", None)
        origin = getattr(item, "origin", None)
        return (
            type(key) is int
            and (origin is self.origin or origin == self.origin)
            and getattr(item, "dice", None) == self.dice
            and self._by_key(key) is not None
        )

    def rebased(self, origin: Origin) -> PlaySet[M]:
        """The same set for ``origin``, a position equal to :attr:`origin`, whose moves
        then name ``origin`` (what it shares of this set's work is not done again).

        >>> from gammon import Position
        >>> plays, again = Position.initial().plays("21"), Position.initial()
        >>> plays.rebased(again).first().origin is again
        True
        """
        return type(self)(origin, self.dice, self._cls)

    def _move(self, key: int, memo: dict[int, RawPlay]) -> M:
        result: M = _new(self._cls, (self.origin, self.dice, key, memo))
        return result

    def moves(self) -> tuple[M, ...]:
        """Every legal move, in order (a lazy set lists them all, in tenths of a second)."""
        return tuple(self)

    def texts(self) -> dict[str, M]:
        """Every legal move by its canonical text, in order.

        >>> from gammon import Position
        >>> list(Position.initial().plays("21").texts())[:2]
        ['24/23 24/22', '24/22 8/7']
        """
        origin = self.origin
        blots = origin.rules.blots(origin)
        return {format_move(m._raw(), blots): m for m in self}

    def find(self, item: int | str) -> M | None:
        """The legal move that reaches the board ``item`` (an int, :attr:`gammon.Move.key`)
        or whose canonical text is ``item`` (a str); None when there is none.

        >>> from gammon import Position
        >>> plays = Position.initial().plays("65")
        >>> str(plays.find("24/13")), plays.find("13/24"), plays.find(12345)
        ('24/13', None, None)
        """
        if isinstance(item, int):
            return self._by_key(item)
        return self._by_text(item)

    def _by_text(self, text: str) -> M | None:
        """The move whose canonical text is ``text``, through the parser."""
        try:
            found = self.parse(text)
        except (IllegalMoveError, InvalidNotationError):
            return None
        origin = self.origin
        return found if format_move(found._raw(), origin.rules.blots(origin)) == text else None

    def pass_move(self) -> M:
        """The empty move that passes the turn; raises :class:`IllegalMoveError` when the
        roll can be played.

        >>> from gammon import Position
        >>> closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}
        >>> Position.from_points({6: 14}, closed, player_bar=1).plays("66").pass_move().is_pass()
        True
        """
        if self:
            raise IllegalMoveError(
                f"roll {self.dice} can be played, so the turn cannot be passed; "
                f"position {self.origin.position_id()}"
            )
        return self._move(0, {0: ()})

    def parse(self, text: str) -> M:
        """The legal move ``text`` describes, in any common notation (see
        :meth:`gammon.Position.parse_move`, which this answers)."""
        if type(text) is str and (listed := self._listed(text)) is not None:
            return listed
        origin, d = self.origin, self.dice
        pid = origin.position_id()
        if not isinstance(text, str):
            raise InvalidNotationError(f"invalid move {text!r}: expected text; position {pid}")
        if text.strip().lower() in PASS_WORDS:
            if (first := self.first()) is not None:
                many = how_many(self.count(COUNTED))
                raise IllegalMoveError(
                    f"illegal move {text!r} with {d} in position {pid}: "
                    f"{many} legal moves exist, such as {first}"
                )
            return self._move(0, {0: ()})
        rules = origin.rules
        try:
            paths = parse_move_text(text, rules.max_paths())
        except InvalidNotationError as exc:
            raise InvalidNotationError(f"{exc}; position {pid}") from None
        matches = self._matches(paths)
        if len(matches) == 1:
            return matches[0]
        if matches:
            options = ", ".join(str(m) for m in matches)
            raise AmbiguousMoveError(
                f"ambiguous move {text!r} with {d} in position {pid}: it can mean {options}"
            )
        if (first := self.first()) is None:
            reason = "no move is possible with this roll (write 'pass')"
        else:
            reason = rules.why_illegal(origin, paths, d, [first.key])
        raise IllegalMoveError(f"illegal move {text!r} with {d} in position {pid}: {reason}")

    def step_options(self, played: Iterable[StepLike] = ()) -> StepOptions[M]:
        """Which single steps can follow ``played`` (see :meth:`gammon.Position.step_options`).

        >>> from gammon import Position
        >>> opts = Position.initial().plays("65").step_options()
        >>> len(opts.steps), opts.complete, opts.dice_left
        (5, False, (6, 5))
        """
        done = list(played)
        origin, d = self.origin, self.dice
        if not self:
            if done:
                raise IllegalMoveError(
                    f"no move is possible with {d} in position {origin.position_id()}"
                )
            return StepOptions((), True, self._move(0, {0: ()}), ())
        legal, need = self._search()
        found = origin.rules.step_search(origin, d, legal, need, done)
        move = None if found.complete is None else self._by_key(found.complete)
        steps = tuple(Step(s, t, die, bool(hit)) for s, t, die, hit in found.steps)
        return StepOptions(steps, move is not None, move, found.dice_left)


class EagerPlaySet(PlaySet[M]):
    """Every legal move listed at once (the rules' ``plays``): every variant and roll but
    acey-deucey's full 1-2.  The texts and the moves by board are made on first use."""

    __slots__ = ("_keyed", "_moves", "_texts")

    def __init__(self, origin: Origin, dice: Dice, cls: type[M]) -> None:
        self.origin = origin
        self.dice = dice
        self._cls = cls
        self._moves: tuple[M, ...] = listed(origin, dice, cls)
        self._keyed: dict[int, M] | None = None
        self._texts: dict[str, M] | None = None

    def rebased(self, origin: Origin) -> EagerPlaySet[M]:
        """The same moves for ``origin`` (equal to :attr:`origin`): the keys, their steps
        and the texts are shared, not worked out again."""
        other: EagerPlaySet[M] = object.__new__(type(self))
        other.origin, other.dice, other._cls = origin, self.dice, self._cls
        keys = [m.key for m in self._moves]
        memo = _get(self._moves[0], 3) if self._moves else {}
        other._moves = tuple(
            map(_new, repeat(self._cls), zip(repeat(origin), repeat(self.dice), keys, repeat(memo)))
        )
        other._keyed = None
        other._texts = None
        if self._texts is not None:
            keyed = other._keyed = {m.key: m for m in other._moves}
            other._texts = {text: keyed[m.key] for text, m in self._texts.items()}
        return other

    def __iter__(self) -> Iterator[M]:
        return iter(self._moves)

    def __len__(self) -> int:
        return len(self._moves)

    def __bool__(self) -> bool:
        return bool(self._moves)

    def moves(self) -> tuple[M, ...]:
        """Every legal move, in order (the set's own tuple)."""
        return self._moves

    def count(self, limit: int | None = None) -> int:
        """How many legal moves there are; past ``limit``, ``limit + 1``."""
        n = len(self._moves)
        return n if limit is None else min(n, limit + 1)

    def first(self) -> M | None:
        """The first legal move (None: the roll cannot be played)."""
        return self._moves[0] if self._moves else None

    def texts(self) -> dict[str, M]:
        """Every legal move by its canonical text, in order (made once: shared)."""
        found = self._texts
        if found is None:
            found = self._texts = PlaySet.texts(self)
        return found

    def _listed(self, text: str) -> M | None:
        return self.texts().get(text)

    _by_text = _listed

    def _by_key(self, key: int) -> M | None:
        keyed = self._keyed
        if keyed is None:
            keyed = self._keyed = {m.key: m for m in self._moves}
        return keyed.get(key)

    def _matches(self, paths: list[Path]) -> list[M]:
        origin = self.origin
        keys = [m.key for m in self._moves]
        found = set(origin.rules.match_paths(origin, paths, self.dice, keys))
        return [m for m in self._moves if m.key in found]

    def _search(self) -> tuple[Container[int], int]:
        self._by_key(0)
        assert self._keyed is not None
        return self._keyed.keys(), max(len(m) for m in self._moves)


class LazyPlaySet(PlaySet[M]):
    """Acey-deucey's 1-2 whose 1 and 2 can both be played: answered board by board by
    the rules' :class:`~gammon.rules.base.LazyPlays` (asked again each time: the rules
    keep the few recent ones), listed in full only by iteration and :meth:`texts`."""

    __slots__ = ()

    def _lazy(self) -> LazyPlays:
        lazy = self.origin.rules.lazy_plays(self.origin, self.dice)
        assert lazy is not None, "a lazy play set of a roll the rules list in full"
        return lazy

    def __iter__(self) -> Iterator[M]:
        return iter(listed(self.origin, self.dice, self._cls))

    def __bool__(self) -> bool:
        return True  # the 1 and the 2 can be played

    def count(self, limit: int | None = None) -> int:
        """How many legal moves there are, counted up to ``limit`` (keys only)."""
        return self._lazy().count(limit)

    def first(self) -> M:
        """The first legal move, found without listing the others."""
        lazy = self._lazy()
        return self._by_lazy(lazy, lazy.first())

    def _by_lazy(self, lazy: LazyPlays, key: int) -> M:
        return self._move(key, {key: lazy.raw(key)})

    def _by_key(self, key: int) -> M | None:
        lazy = self._lazy()
        return self._by_lazy(lazy, key) if key in lazy else None

    def _matches(self, paths: list[Path]) -> list[M]:
        lazy = self._lazy()
        return [self._by_lazy(lazy, key) for key in lazy.match(paths)]

    def _search(self) -> tuple[Container[int], int]:
        lazy = self._lazy()
        return lazy, lazy.need()


def listed(origin: Origin, dice: Dice, cls: type[M]) -> tuple[M, ...]:
    """Every legal move of ``dice`` at ``origin`` (the rules' ``plays``), as moves of
    class ``cls``: how both play sets list (:meth:`PlaySet.moves`), and what
    :meth:`gammon.Position.legal_moves` returns without building a set (the bots' hot
    path).

    >>> from gammon import Move, Position
    >>> from gammon.dice import Dice
    >>> [str(m) for m in listed(Position.initial(), Dice(6, 5), Move)][:2]
    ['24/18 13/8', '24/18 8/3']
    """
    keys, memo = origin.rules.plays(origin, dice)
    # zip builds each move's content tuple in C
    moves: tuple[M, ...] = tuple(
        map(_new, repeat(cls), zip(repeat(origin), repeat(dice), keys, repeat(memo)))
    )
    return moves


def play_set(origin: Origin, dice: Dice, cls: type[M]) -> PlaySet[M]:
    """The play set of ``dice`` at ``origin``, its moves of class ``cls``: lazy where the
    rules answer the roll one board at a time (``Rules.lazy_plays``), else listed.

    >>> from gammon import Move, Position
    >>> from gammon.dice import Dice
    >>> type(play_set(Position.initial(), Dice(2, 1), Move)).__name__
    'EagerPlaySet'
    """
    if origin.rules.lazy_plays(origin, dice) is None:
        return EagerPlaySet(origin, dice, cls)
    return LazyPlaySet(origin, dice, cls)
