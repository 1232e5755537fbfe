"""The core values: :class:`Position` (seen from the player on roll) and :class:`Move`.

They are defined together, in this module, because each refers to the other (a move
remembers the position it is played from; a position lists its moves).  Import them
from :mod:`gammon` or from here; :mod:`gammon.move` re-exports the move types.

One frozen :class:`Position` serves every variant.  What differs between variants
comes from the rules object of its family (:func:`gammon.rules.rules_for`): the
backgammon board through the fast :mod:`gammon.movegen`, the track games (plakoto,
fevga, long nardy, jacquet, acey-deucey) through :mod:`gammon.rules.track`.

>>> start = Position.initial()
>>> start.position_id(), start.pip_count()
('4HPwATDgc/ABMA', (167, 167))
>>> moves = start.legal_moves((3, 1))
>>> len(moves), str(moves[0])
(16, '24/23 24/21')
>>> after = start.apply(start.parse_move("8/5 6/5", "31"))
>>> after.position_id(), after.opponent[5]
('sGfwATDgc/ABMA', 2)
>>> fevga = Position.initial("fevga")
>>> fevga.can_bear_off(), fevga.is_race(), [str(m) for m in fevga.legal_moves("65")]
(False, False, ['24/13'])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final, overload

from gammon.dice import Dice, DiceLike
from gammon.errors import IllegalMoveError, InvalidPositionError
from gammon.notation import drawing, svg, xgid
from gammon.notation.movetext import format_move
from gammon.notation.position_id import decode_suffixed, encode_position_key, encode_suffixed
from gammon.playset import PlaySet, StepOptions, listed, play_set
from gammon.rules import rules_for
from gammon.rules.base import (
    GameResult,
    Rules,
    game_result,
    is_drawn,
    side_from_points,
)
from gammon.rules.board import board_layout, sides_from_layout
from gammon.step import BAR, OFF, Step, point_text
from gammon.variants import Variant, get_variant

__all__ = [
    "BAR",
    "OFF",
    "GameResult",
    "Move",
    "PlaySet",
    "Position",
    "Step",
    "StepOptions",
    "forget_plays",
    "point_text",
]

_new = object.__new__
_set = object.__setattr__
_get = tuple.__getitem__
_NONE: Final = (0, 0)
_DICE: Final = {(a, b): Dice(a, b) for a in range(1, 7) for b in range(1, 7)}


@dataclass(frozen=True, slots=True)
class Position:
    """A position with the player on roll to move, in any variant.

    ``player`` and ``opponent`` are 26-tuples, each in that side's own numbering
    (it moves from 24 towards 1): index 0 is borne off, 1..24 the points, 25 the
    bar.  The opponent's point ``q`` is the player's point ``variant.point_map[q]``
    (``25 - q`` on the backgammon board).  ``pinned`` are bit masks (bit ``p`` = own
    point ``p``) of the player's and the opponent's pinned checkers (plakoto);
    ``waiting`` the checkers each side still has to enter from off the board
    (acey-deucey), not counted in ``player``/``opponent``.  Both are ``(0, 0)`` in the
    other variants.  ``rules`` is the variant's rules object (not compared).
    """

    player: tuple[int, ...]
    opponent: tuple[int, ...]
    variant: Variant = field(default_factory=lambda: get_variant("standard"))
    pinned: tuple[int, int] = _NONE
    waiting: tuple[int, int] = _NONE
    rules: Rules = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.variant, Variant):
            _set(self, "variant", get_variant(self.variant))
        _set(self, "rules", rules_for(self.variant))
        self.rules.validate(self)

    def __reduce__(self) -> tuple[type[Position], tuple[object, ...]]:
        # pickled by value; the rules object is found again (shared) when it is rebuilt
        return (Position, (self.player, self.opponent, self.variant, self.pinned, self.waiting))

    def _error(self, cls: type[Exception], text: str) -> Exception:
        return cls(f"{text}; position {self.position_id()} ({self.variant.name})")

    # ------------------------------------------------------------------ constructors

    @classmethod
    def initial(cls, variant: str | Variant = "standard") -> Position:
        """The start position of a variant (acey-deucey's checkers all wait to enter).

        >>> Position.initial("nackgammon").position_id()
        '4Dl4ADbgOXgANg'
        >>> Position.initial("acey-deucey").waiting
        (15, 15)
        """
        v = get_variant(variant)
        side = v.start_counts()
        wait = v.checkers if v.enter_from_off else 0
        return cls(side, side, v, waiting=(wait, wait))

    @classmethod
    def from_points(
        cls,
        player: Mapping[int, int],
        opponent: Mapping[int, int],
        *,
        player_bar: int = 0,
        opponent_bar: int = 0,
        variant: str | Variant = "standard",
    ) -> Position:
        """Build a position from ``{point: count}`` maps, each in its owner's numbering.

        Checkers not on a point or the bar are borne off.

        >>> Position.from_points({6: 2}, {22: 1}).player[0]
        13
        """
        v = get_variant(variant)
        mine = side_from_points("player", player, player_bar, v.checkers)
        return cls(mine, side_from_points("opponent", opponent, opponent_bar, v.checkers), v)

    @classmethod
    def from_position_id(cls, text: str, variant: str | Variant = "standard") -> Position:
        """Decode a gnubg Position ID (the player on roll is the second block of bits).

        Plakoto adds ``:p<player pins>.<opponent pins>`` (hex bit masks) and acey-deucey
        ``:w<player waiting>.<opponent waiting>`` when they are not zero.

        >>> Position.from_position_id("4HPwATDgc/ABMA") == Position.initial()
        True
        >>> Position.from_position_id("4HPwATDgc/ABM!")
        Traceback (most recent call last):
        ...
        gammon.errors.InvalidNotationError: invalid Position ID '4HPwATDgc/ABM!': expected 14 characters of A-Z a-z 0-9 + /
        """
        v = get_variant(variant)
        player, opponent, pinned, waiting = decode_suffixed(text, v.checkers)
        try:
            return cls(player, opponent, v, pinned, waiting)
        except InvalidPositionError as exc:
            raise InvalidPositionError(f"invalid Position ID {text!r}: {exc}") from None

    @classmethod
    def from_xgid(cls, text: str, variant: str | Variant = "standard") -> Position:
        """The position of an XGID, seen from the player on roll (see :mod:`gammon.notation.xgid`).

        >>> Position.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10").position_id()
        '4HPwATDgc/ABMA'
        """
        fields = xgid.read_xgid(text, get_variant(variant))
        try:
            return cls(fields.player, fields.opponent, fields.variant)
        except InvalidPositionError as exc:
            raise InvalidPositionError(f"invalid XGID {text!r}: {exc}") from None

    @classmethod
    def from_board(cls, board: Sequence[int], variant: str | Variant = "standard") -> Position:
        """From a 26-int board seen from the player on roll (bgsage's layout).

        ``board[1..24]``: the player's points, positive for the player and negative for
        the opponent; ``board[25]``: the player's bar; ``board[0]``: the opponent's bar.

        >>> Position.from_board(Position.initial().board) == Position.initial()
        True
        """
        v = get_variant(variant)
        player, opponent = sides_from_layout(board, v)
        return cls(player, opponent, v)

    # ------------------------------------------------------------------ text forms

    def position_id(self) -> str:
        """The gnubg Position ID, with plakoto's pins or acey-deucey's waiting checkers
        in a suffix (see :meth:`from_position_id`).

        Same-direction games reuse gnubg's encoding of each side in its own numbering.
        """
        return encode_suffixed(self.player, self.opponent, self.pinned, self.waiting)

    def position_key(self) -> str:
        """The 20-letter gnubg position key; the Position ID off the backgammon board
        (gnubg's key has no room for pins, waiting checkers or another geometry)."""
        if not self.variant.standard_geometry:
            return self.position_id()
        return encode_position_key(self.player, self.opponent)

    def to_xgid(self) -> str:
        """An XGID of this position (player on roll at the bottom, money, cube centred, not rolled).

        Raises :class:`InvalidPositionError` off the backgammon board.
        """
        if not self.variant.standard_geometry:
            raise self._error(
                InvalidPositionError, f"XGID cannot describe {self.variant.name} positions"
            )
        return xgid.format_xgid(self)

    @property
    def board(self) -> tuple[int, ...]:
        """The 26-int board seen from the player on roll (bgsage's layout, see :meth:`from_board`).

        Raises :class:`InvalidPositionError` off the backgammon board.
        """
        if not self.variant.standard_geometry:
            raise self._error(
                InvalidPositionError,
                f"a {self.variant.name} position has no backgammon board layout; "
                "read player, opponent, pinned and waiting",
            )
        return board_layout(self)

    def flipped(self) -> Position:
        """The same checkers with the other side on roll."""
        (mp, op), (mw, ow) = self.pinned, self.waiting
        return _make(self.opponent, self.player, (op, mp), (ow, mw), self.variant, self.rules)

    def __repr__(self) -> str:
        extra = "" if self.variant.name == "standard" else f", variant={self.variant.name!r}"
        return f"Position.from_position_id({self.position_id()!r}{extra})"

    def __str__(self) -> str:
        return drawing.draw(self)

    def svg(
        self,
        *,
        dice: Sequence[int] | None = None,
        cube: int | None = None,
        cube_owner: str | None = None,
        size: int = 400,
        numbers: bool = True,
    ) -> str:
        """An SVG picture, the player on roll at the bottom (:func:`gammon.notation.svg.board`).

        >>> Position.initial().svg(size=200).count('class="checker')
        30
        """
        return svg.board(
            self, dice=dice, cube=cube, cube_owner=cube_owner, size=size, numbers=numbers
        )

    def _repr_svg_(self) -> str:
        """The picture Jupyter shows."""
        return self.svg()

    # ------------------------------------------------------------------ facts

    def pip_count(self) -> tuple[int, int]:
        """Pips to travel, ``(player, opponent)``; one on the bar or yet to enter counts 25."""
        mine, theirs = (sum(p * c for p, c in enumerate(s)) for s in (self.player, self.opponent))
        return mine + 25 * self.waiting[0], theirs + 25 * self.waiting[1]

    def is_race(self) -> bool:
        """Whether no more contact is possible (the armies have passed each other).

        >>> Position.initial().is_race(), Position.initial("acey-deucey").is_race()
        (False, False)
        """
        return self.rules.is_race(self)

    def is_contact(self) -> bool:
        """The opposite of :meth:`is_race`."""
        return not self.is_race()

    def can_bear_off(self) -> bool:
        """Whether all the mover's checkers are home (1..6) or off, none pinned or waiting."""
        return not any(self.player[7:26]) and not self.waiting[0] and not self.pinned[0]

    def opponent_can_bear_off(self) -> bool:
        """Whether every checker of the opponent is in its home board or off."""
        return not any(self.opponent[7:26]) and not self.waiting[1] and not self.pinned[1]

    def is_game_over(self) -> bool:
        """Whether the game has ended: one side has borne off every checker, or (plakoto)
        a mother is lost or both are pinned (:meth:`result`, :meth:`is_drawn`)."""
        n = self.variant.checkers
        if self.player[0] == n or self.opponent[0] == n:
            return True
        return self.variant.mother_rule and (self.is_drawn() or self.result() is not None)

    def result(self) -> GameResult | None:
        """The result of a finished game (rules.md R12), or None while it goes on.

        None too when both sides have finished: only the draw option's last roll
        (rules.md D10) reaches such a position, through :meth:`apply`.  Plakoto's
        mother rule ends a game at 2 points.

        >>> Position.from_points({}, {6: 14}, opponent_bar=1).result()
        GameResult(winner='player', points=3)
        """
        return game_result(self)

    def is_drawn(self) -> bool:
        """Whether the game has ended in a draw by the variant's rules (plakoto's two mothers)."""
        return is_drawn(self)

    def earns_bonus_roll(self, move: Move) -> bool:
        """Whether ``move`` gives its player another roll: acey-deucey's 1-2 whose chosen
        double was played in full."""
        return self.variant.bonus_roll and move.dice.d1 + move.dice.d2 == 3 and len(move) == 6

    # ------------------------------------------------------------------ moves

    def plays(self, dice: DiceLike) -> PlaySet[Move]:
        """The legal moves of a roll as one :class:`~gammon.playset.PlaySet`, the turn's
        one list: kept for the last :data:`PLAYS_KEPT` (position, roll) asked, so the
        engine's check after the roll, the mover's list, the click-to-move answers and the
        move played read the moves listed once.  Every move method below answers through
        it (acey-deucey's 1-2 is a lazy set that never lists its moves unasked).

        >>> pos = Position.from_points({13: 2, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
        >>> pos.plays("31") is pos.plays((3, 1)), len(pos.plays("31"))
        (True, 9)
        """
        d = _DICE.get(dice) if type(dice) is tuple else None
        found = _kept_plays(self, d if d is not None else Dice.coerce(dice))
        return found if found.origin is self else found.rebased(self)

    def legal_moves(self, dice: DiceLike) -> tuple[Move, ...]:
        """Every legal move for a roll, one per distinct resulting position.

        Empty when the roll cannot be played at all (the turn passes: see
        :meth:`pass_move`).  The rules do not stop at a finished game: the loser
        may still be given moves (the draw option's last roll needs them).  The order
        is stable: the same position and dice always give the same moves in the same
        order.  Acey-deucey's 1-2 gives moves of up to six steps: the 1 and the 2,
        then four steps of the double the player chooses (see :meth:`earns_bonus_roll`).
        Listed afresh as both play sets list (:func:`gammon.playset.listed`; the bots'
        hot path: not kept, see :meth:`plays`).

        >>> [str(m) for m in Position.from_points({13: 1}, {17: 1}).legal_moves("54")]
        ['13/8*/4', '13/9/4']
        """
        d = _DICE.get(dice) if type(dice) is tuple else None
        return listed(self, d if d is not None else Dice.coerce(dice), Move)

    def move_texts(self, dice: DiceLike) -> dict[str, Move]:
        """:meth:`legal_moves` by their texts, in order (:meth:`PlaySet.texts`; a copy).

        >>> list(Position.initial().move_texts("21"))[:3]
        ['24/23 24/22', '24/22 8/7', '24/22 6/5']
        """
        return dict(self.plays(dice).texts())

    def can_move(self, dice: DiceLike) -> bool:
        """Whether the roll has a legal move (acey-deucey's 1-2 asks only its 1 and 2).

        >>> Position.initial("acey-deucey").can_move("21"), Position.initial().can_move("66")
        (True, True)
        """
        return bool(self.plays(dice))

    def first_legal_move(self, dice: DiceLike) -> Move | None:
        """The first of :meth:`legal_moves` (None when the roll cannot be played), found
        without listing every move of acey-deucey's 1-2.

        >>> str(Position.initial().first_legal_move("65"))
        '24/18 13/8'
        >>> Position.initial("acey-deucey").first_legal_move("21") is not None
        True
        """
        return self.plays(dice).first()

    def move_to(self, dice: DiceLike, key: int) -> Move:
        """The legal move of ``dice`` whose resulting board is ``key`` (a :attr:`Move.key`),
        found without listing every move of acey-deucey's 1-2.

        Raises :class:`IllegalMoveError` when no legal move reaches that board.

        >>> start = Position.initial()
        >>> move = start.legal_moves("65")[0]
        >>> start.move_to("65", move.key) == move
        True
        """
        plays = self.plays(dice)
        move = plays.find(key)
        if move is None:
            raise IllegalMoveError(
                f"no legal move with {plays.dice} reaches board {key}; position {self.position_id()}"
            )
        return move

    def pass_move(self, dice: DiceLike) -> Move:
        """The empty move that passes the turn when a roll has no legal move.

        Raises :class:`IllegalMoveError` if the roll can be played.
        """
        return self.plays(dice).pass_move()

    def apply(self, move: Move) -> Position:
        """The position after ``move``, with the opponent on roll.

        ``move`` must be a move of this position (from :meth:`legal_moves`,
        :meth:`parse_move` or :meth:`pass_move`).
        """
        if not isinstance(move, Move):
            raise IllegalMoveError(f"expected a Move, got {move!r}; position {self.position_id()}")
        origin = move.origin
        if origin is not self and origin != self:
            raise IllegalMoveError(
                f"move {move} was made for position {origin.position_id()}, "
                f"not for {self.position_id()}"
            )
        rules = self.rules
        player, opponent, pinned, waiting = rules.after(self, _get(move, 2))
        return _make(player, opponent, pinned, waiting, self.variant, rules)

    def parse_move(self, text: str, dice: DiceLike) -> Move:
        """The legal move that ``text`` describes, in any common notation.

        Accepts paths in any order (``13/11 24/18``), combined moves (``24/13``),
        repeats (``8/5(2)``), ``bar``/``25`` and ``off``/``0``, optional ``*`` for
        hits, and ``pass`` (or empty text) when no move is possible.  Off the
        backgammon board paths are matched by where they start and end.

        >>> start = Position.initial()
        >>> str(start.parse_move("24/13", "65"))
        '24/13'
        >>> start.parse_move("24/18", "65")
        Traceback (most recent call last):
        ...
        gammon.errors.IllegalMoveError: illegal move '24/18' with 65 in position 4HPwATDgc/ABMA: it plays 1 of the 2 dice that must be played
        """
        return self.plays(dice).parse(text)

    def step_options(self, dice: DiceLike, played: Iterable[Step] = ()) -> StepOptions[Move]:
        """For click-to-move clients: which single steps can follow ``played``.

        ``played`` are the steps already made this turn, in order.  The result lists
        the steps that can still be completed into a legal move, and says whether
        ``played`` already is a legal move.  Raises :class:`IllegalMoveError` if a
        played step cannot lead to a legal move.

        >>> opts = Position.initial().step_options("65", [Step(24, 18, 6)])
        >>> [str(s) for s in opts.steps], opts.complete
        (['18/13', '13/8', '8/3'], False)
        """
        return self.plays(dice).step_options(played)


#: Play sets kept by :meth:`Position.plays` (the least recently asked go first).
PLAYS_KEPT: Final = 512


def _play_set(pos: Position, dice: Dice) -> PlaySet[Move]:
    return play_set(pos, dice, Move)


_kept_plays = lru_cache(maxsize=PLAYS_KEPT)(_play_set)  # shared answers: read only


def forget_plays() -> None:
    """Forget the play sets :meth:`Position.plays` keeps (for tests and benchmarks that
    switch the rules' lazy answers off and on)."""
    _kept_plays.cache_clear()


# each slot's own setter: a frozen dataclass refuses ``setattr``
_SET_PLAYER, _SET_OPPONENT, _SET_VARIANT, _SET_PINNED, _SET_WAITING, _SET_RULES = (
    getattr(Position, name).__set__
    for name in ("player", "opponent", "variant", "pinned", "waiting", "rules")
)


def _make(
    player: tuple[int, ...],
    opponent: tuple[int, ...],
    pinned: tuple[int, int],
    waiting: tuple[int, int],
    variant: Variant,
    rules: Rules,
) -> Position:
    """A position from fields the rules produced (already valid): the fast path of apply."""
    pos: Position = _new(Position)
    _SET_PLAYER(pos, player)
    _SET_OPPONENT(pos, opponent)
    _SET_VARIANT(pos, variant)
    _SET_PINNED(pos, pinned)
    _SET_WAITING(pos, waiting)
    _SET_RULES(pos, rules)
    return pos


class Move(tuple):  # type: ignore[type-arg]
    """A whole turn: the steps played with one roll, from a given position.

    Moves come from :meth:`Position.legal_moves` or :meth:`Position.parse_move`,
    so a Move is always legal in the position it was made for.  Two moves are
    equal when they start from the same position and reach the same position,
    whatever the order or notation of their steps.  A Move is a sequence of
    :class:`Step` (``len(move)``, ``move[0]``, ``for step in move``) and its ``str``
    is the canonical notation.

    >>> start = Position.initial()
    >>> move = start.parse_move("13/11 24/18", (6, 2))
    >>> str(move), [str(step) for step in move]
    ('24/18 13/11', ['24/18', '13/11'])
    >>> move.dice, len(move)
    (Dice(6, 2), 2)
    """

    __slots__ = ()

    # content: (origin Position, Dice, key, memo of steps shared by the moves of one roll)
    @property
    def origin(self) -> Position:
        """The position the move is played from."""
        result: Position = _get(self, 0)
        return result

    @property
    def dice(self) -> Dice:
        """The roll the move plays."""
        result: Dice = _get(self, 1)
        return result

    @property
    def steps(self) -> tuple[Step, ...]:
        """The single-die steps, in the order they are played (built on first use)."""
        raw = self._raw()
        return tuple(
            Step(raw[i], raw[i + 1], raw[i + 2], bool(raw[i + 3])) for i in range(0, len(raw), 4)
        )

    def step_rows(self) -> list[list[Any]]:
        """The steps as ``[from, to, die, hit]`` lists, in play order, without building
        :class:`Step` objects (what the server sends for each legal move).

        >>> Position.initial().parse_move("8/5 6/5", "31").step_rows()
        [[8, 5, 3, False], [6, 5, 1, False]]
        """
        raw = self._raw()
        return [[raw[i], raw[i + 1], raw[i + 2], bool(raw[i + 3])] for i in range(0, len(raw), 4)]

    def _raw(self) -> tuple[int, ...]:
        memo: dict[int, tuple[int, ...]] = _get(self, 3)
        key: int = _get(self, 2)
        raw = memo.get(key)
        if raw is None:
            origin: Position = _get(self, 0)
            memo.update(origin.rules.raw_plays(origin, _get(self, 1)))
            raw = memo[key]
        return raw

    @property
    def key(self) -> int:
        """An integer that identifies the resulting position among this position's moves."""
        result: int = _get(self, 2)
        return result

    @property
    def hits(self) -> int:
        """How many opposing checkers the move sends to the bar (or pins, in plakoto)."""
        key: int = _get(self, 2)
        origin = self.origin
        return origin.rules.hits(origin, key) if key else 0

    def is_pass(self) -> bool:
        """Whether the move plays no checker (no legal move existed)."""
        return not _get(self, 2)

    def position_after(self) -> Position:
        """The position after the move, with the opponent on roll (``origin.apply(self)``)."""
        return self.origin.apply(self)

    def __len__(self) -> int:
        return len(self._raw()) // 4

    @overload  # type: ignore[override]
    def __getitem__(self, index: int) -> Step: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Step, ...]: ...
    def __getitem__(self, index: int | slice) -> Step | tuple[Step, ...]:
        return self.steps[index]

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __contains__(self, item: object) -> bool:
        return item in self.steps

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return _get(self, 2) == _get(other, 2) and (
            _get(self, 0) is _get(other, 0) or _get(self, 0) == _get(other, 0)
        )

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        return hash((_get(self, 0), _get(self, 2)))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (tuple.__iter__(self),)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_move, (_get(self, 0), _get(self, 1), _get(self, 2)))

    def __str__(self) -> str:
        origin: Position = _get(self, 0)
        return format_move(self._raw(), origin.rules.blots(origin))

    def __repr__(self) -> str:
        return f"{_get(self, 0)!r}.parse_move({str(self)!r}, {str(_get(self, 1))!r})"


def _rebuild_move(origin: Position, dice: Dice, key: int) -> Move:
    return tuple.__new__(Move, (origin, dice, key, {} if key else {0: ()}))
