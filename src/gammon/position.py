"""Positions seen from the player on roll, and everything the rules say about them.

>>> start = Position.initial()
>>> start.position_id(), start.pip_count()
('4HPwATDgc/ABMA', (167, 167))
>>> moves = start.legal_moves((3, 1))
>>> len(moves), str(moves[0])
(16, '24/23 24/21')
>>> after = start.apply(start.parse_move("8/5 6/5", "31"))
>>> after.position_id(), after.opponent[5]
('sGfwATDgc/ABMA', 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Final, Literal

from gammon import movegen
from gammon.dice import Dice, DiceLike
from gammon.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidNotationError,
    InvalidPositionError,
)
from gammon.move import Move, Step
from gammon.notation.movetext import PASS_WORDS, Path, parse_move_text
from gammon.notation.position_id import (
    decode_position_id,
    encode_position_id,
    encode_position_key,
)
from gammon.variants import Variant, get_variant

__all__ = ["GameResult", "Position", "StepOptions"]

_W: Final = movegen.W
_H: Final = movegen.H
_new = object.__new__
_set = object.__setattr__
_make_move = tuple.__new__
_BOARD_MASK: Final = (1 << movegen.BOARD_BITS) - 1
_DICE: Final = {(a, b): Dice(a, b) for a in range(1, 7) for b in range(1, 7)}


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a finished game was won: ``points`` is 1 (single), 2 (gammon) or 3 (backgammon)."""

    #: ``"player"`` if the player on roll has borne everything off, else ``"opponent"``.
    winner: Literal["player", "opponent"]
    points: int

    @property
    def kind(self) -> Literal["single", "gammon", "backgammon"]:
        """The name of the result."""
        kinds: tuple[Literal["single", "gammon", "backgammon"], ...] = (
            "single",
            "gammon",
            "backgammon",
        )
        return kinds[self.points - 1]


@dataclass(frozen=True, slots=True)
class StepOptions:
    """For click-to-move clients: where the turn stands after some steps."""

    #: Single steps that can still be completed into a legal move.
    steps: tuple[Step, ...]
    #: Whether the steps played so far form a legal move.
    complete: bool
    #: That legal move, when ``complete``.
    move: Move | None
    #: Dice still to play (empty when the turn is complete).
    dice_left: tuple[int, ...] = field(default=())


def _validate(player: object, opponent: object, variant: Variant) -> None:
    n = variant.checkers
    for name, side in (("player", player), ("opponent", opponent)):
        if not isinstance(side, tuple) or len(side) != 26:
            raise InvalidPositionError(f"{name} must be a tuple of 26 counts (off, 1..24, bar)")
        for c in side:
            if type(c) is not int or c < 0:
                raise InvalidPositionError(f"{name} has a bad count {c!r}")
        if sum(side) != n:
            raise InvalidPositionError(
                f"{name} has {sum(side)} checkers (counting those off), {variant.name} needs {n}"
            )
    assert isinstance(player, tuple) and isinstance(opponent, tuple)
    for p in range(1, 25):
        if player[p] and opponent[25 - p]:
            raise InvalidPositionError(
                f"point {p} holds checkers of both sides ({player[p]} and {opponent[25 - p]})"
            )
    if player[0] == n and opponent[0] == n:
        raise InvalidPositionError("both sides have borne off every checker")


@dataclass(frozen=True, slots=True)
class Position:
    """A position with the player on roll to move.

    ``player`` and ``opponent`` are 26-tuples, each in that side's own numbering
    (it moves from 24 towards 1): index 0 is borne off, 1..24 the points, 25 the
    bar.  The opponent's point ``q`` is the player's point ``25 - q``.
    """

    player: tuple[int, ...]
    opponent: tuple[int, ...]
    variant: Variant = field(default_factory=lambda: get_variant("standard"))

    def __new__(cls, *args: object, **kwargs: object) -> Position:
        # A variant with its own geometry (fevga, plakoto, ...) gets a VariantPosition
        # (gammon.geometry); the backgammon fast path never comes through here.
        if cls is Position:
            v = args[2] if len(args) > 2 else kwargs.get("variant")
            if v is not None and v != "standard":
                standard = getattr(v, "standard_geometry", None)
                if standard is None:
                    standard = get_variant(v).standard_geometry  # type: ignore[arg-type]
                if not standard:
                    from gammon.geometry import VariantPosition

                    return object.__new__(VariantPosition)
        return object.__new__(cls)

    def __post_init__(self) -> None:
        if not isinstance(self.variant, Variant):
            _set(self, "variant", get_variant(self.variant))
        _validate(self.player, self.opponent, self.variant)

    @classmethod
    def _trusted(
        cls, player: tuple[int, ...], opponent: tuple[int, ...], variant: Variant
    ) -> Position:
        pos = _new(cls)
        _set(pos, "player", player)
        _set(pos, "opponent", opponent)
        _set(pos, "variant", variant)
        return pos

    # ------------------------------------------------------------------ constructors

    @classmethod
    def initial(cls, variant: str | Variant = "standard") -> Position:
        """The start position of a variant.

        >>> Position.initial("nackgammon").position_id()
        '4Dl4ADbgOXgANg'
        """
        v = get_variant(variant)
        if not v.standard_geometry and cls is Position:
            from gammon.geometry import VariantPosition

            return VariantPosition.initial(v)
        side = v.start_counts()
        return cls(side, side, v)

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
        sides = []
        for name, points, bar in (
            ("player", player, player_bar),
            ("opponent", opponent, opponent_bar),
        ):
            counts = [0] * 26
            for point, n in points.items():
                if type(point) is not int or not 1 <= point <= 24:
                    raise InvalidPositionError(f"{name}: point {point!r} is not 1..24")
                if type(n) is not int or n < 0:
                    raise InvalidPositionError(f"{name}: bad count {n!r} on point {point}")
                counts[point] += n
            if type(bar) is not int or bar < 0:
                raise InvalidPositionError(f"{name}: bad bar count {bar!r}")
            counts[25] = bar
            on_board = sum(counts)
            if on_board > v.checkers:
                raise InvalidPositionError(f"{name} has {on_board} checkers, at most {v.checkers}")
            counts[0] = v.checkers - on_board
            sides.append(tuple(counts))
        return cls(sides[0], sides[1], v)

    @classmethod
    def from_position_id(cls, text: str, variant: str | Variant = "standard") -> Position:
        """Decode a gnubg Position ID (the player on roll is the second block of bits).

        >>> Position.from_position_id("4HPwATDgc/ABMA") == Position.initial()
        True
        >>> Position.from_position_id("4HPwATDgc/ABM!")
        Traceback (most recent call last):
        ...
        gammon.errors.InvalidNotationError: invalid Position ID '4HPwATDgc/ABM!': expected 14 characters of A-Z a-z 0-9 + /
        """
        v = get_variant(variant)
        if not v.standard_geometry and cls is Position:
            from gammon.geometry import VariantPosition

            return VariantPosition.from_position_id(text, v)
        player, opponent = decode_position_id(text, v.checkers)
        try:
            return cls(player, opponent, v)
        except InvalidPositionError as exc:
            raise InvalidPositionError(f"invalid Position ID {text!r}: {exc}") from None

    @classmethod
    def from_xgid(cls, text: str, variant: str | Variant = "standard") -> Position:
        """The position of an XGID, seen from the player on roll (see :mod:`gammon.notation.xgid`).

        >>> Position.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10").position_id()
        '4HPwATDgc/ABMA'
        """
        from gammon.notation.xgid import parse_xgid

        return parse_xgid(text, variant).position

    @classmethod
    def from_board(cls, board: Sequence[int], variant: str | Variant = "standard") -> Position:
        """From a 26-int board seen from the player on roll (bgsage's layout).

        ``board[1..24]``: the player's points, positive for the player and negative for
        the opponent; ``board[25]``: the player's bar; ``board[0]``: the opponent's bar.

        >>> Position.from_board(Position.initial().board) == Position.initial()
        True
        """
        v = get_variant(variant)
        if not v.standard_geometry:
            raise InvalidPositionError(
                f"bgsage's board layout describes only the backgammon geometry, not {v.name}"
            )
        if len(board) != 26:
            raise InvalidPositionError(f"a board has 26 entries, got {len(board)}")
        player = [0] * 26
        opponent = [0] * 26
        for p in range(1, 25):
            c = board[p]
            if c > 0:
                player[p] = c
            elif c < 0:
                opponent[25 - p] = -c
        if board[25] < 0 or board[0] < 0:
            raise InvalidPositionError("bar counts must not be negative")
        player[25] = board[25]
        opponent[25] = board[0]
        for side in (player, opponent):
            side[0] = v.checkers - sum(side)
            if side[0] < 0:
                raise InvalidPositionError(f"more than {v.checkers} checkers for one side")
        return cls(tuple(player), tuple(opponent), v)

    # ------------------------------------------------------------------ text forms

    def position_id(self) -> str:
        """The gnubg Position ID."""
        return encode_position_id(self.player, self.opponent)

    def position_key(self) -> str:
        """The 20-letter gnubg position key."""
        return encode_position_key(self.player, self.opponent)

    def to_xgid(self) -> str:
        """An XGID of this position (player on roll at the bottom, money, cube centred, not rolled)."""
        from gammon.notation.xgid import format_xgid

        return format_xgid(self)

    @property
    def board(self) -> tuple[int, ...]:
        """The 26-int board seen from the player on roll (bgsage's layout, see :meth:`from_board`)."""
        b = [0] * 26
        player, opponent = self.player, self.opponent
        for p in range(1, 25):
            b[p] = player[p] - opponent[25 - p]
        b[25] = player[25]
        b[0] = opponent[25]
        return tuple(b)

    def _notation_blots(self) -> frozenset[int]:
        """The mover's points holding a lone opposing checker (for move text)."""
        theirs = self.opponent
        return frozenset(p for p in range(1, 25) if theirs[25 - p] == 1)

    def is_drawn(self) -> bool:
        """Whether the game has ended in a draw by the variant's rules (plakoto's two mothers)."""
        return False

    def earns_bonus_roll(self, move: Move) -> bool:
        """Whether ``move`` gives its player another roll (acey-deucey's 1-2)."""
        return False

    def flipped(self) -> Position:
        """The same checkers with the other side on roll."""
        return Position._trusted(self.opponent, self.player, self.variant)

    def __repr__(self) -> str:
        if self.variant.checkers > 15:  # pragma: no cover - no such variant yet
            return f"Position({self.player!r}, {self.opponent!r}, {self.variant!r})"
        extra = "" if self.variant.name == "standard" else f", variant={self.variant.name!r}"
        return f"Position.from_position_id({self.position_id()!r}{extra})"

    def __str__(self) -> str:
        from gammon.notation.drawing import draw

        return draw(self)

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
        from gammon.notation.svg import board

        return board(self, dice=dice, cube=cube, cube_owner=cube_owner, size=size, numbers=numbers)

    def _repr_svg_(self) -> str:
        """The picture Jupyter shows."""
        return self.svg()

    # ------------------------------------------------------------------ facts

    def pip_count(self) -> tuple[int, int]:
        """Pips still to travel: ``(player, opponent)``; a checker on the bar counts 25."""
        return (
            sum(p * c for p, c in enumerate(self.player)),
            sum(p * c for p, c in enumerate(self.opponent)),
        )

    def is_race(self) -> bool:
        """Whether the two armies have passed each other (no more contact is possible).

        >>> Position.initial().is_race()
        False
        """
        back = max((p for p in range(25, 0, -1) if self.player[p]), default=0)
        their_back = max((p for p in range(25, 0, -1) if self.opponent[p]), default=0)
        return back + their_back < 25

    def is_contact(self) -> bool:
        """The opposite of :meth:`is_race`."""
        return not self.is_race()

    def can_bear_off(self) -> bool:
        """Whether every checker of the player on roll is in its home board or off."""
        return not any(self.player[7:26])

    def opponent_can_bear_off(self) -> bool:
        """Whether every checker of the opponent is in its home board or off."""
        return not any(self.opponent[7:26])

    def is_game_over(self) -> bool:
        """Whether one side has borne off every checker."""
        n = self.variant.checkers
        return self.player[0] == n or self.opponent[0] == n

    def result(self) -> GameResult | None:
        """The result of a finished game (rules.md R12), or None while it goes on.

        None too when both sides have finished: only the draw option's last roll
        (rules.md D10) reaches such a position, through :meth:`apply`.

        >>> Position.from_points({}, {6: 14}, opponent_bar=1).result()
        GameResult(winner='player', points=3)
        """
        n = self.variant.checkers
        if self.player[0] == n and self.opponent[0] == n:
            return None  # the draw of the last-roll option (rules.md D10)
        if self.player[0] == n:
            winner: Literal["player", "opponent"] = "player"
            loser = self.opponent
        elif self.opponent[0] == n:
            winner = "opponent"
            loser = self.player
        else:
            return None
        if loser[0]:
            points = 1
        elif any(loser[19:26]):
            points = 3
        else:
            points = 2
        return GameResult(winner, min(points, self.variant.max_result))

    # ------------------------------------------------------------------ moves

    def _boards(self) -> tuple[list[int], list[int]]:
        return list(self.player), list(self.opponent[::-1])

    def legal_moves(self, dice: DiceLike) -> tuple[Move, ...]:
        """Every legal move for a roll, one per distinct resulting position.

        Empty when the roll cannot be played at all (the turn passes: see
        :meth:`pass_move`).  The rules do not stop at a finished game: the loser
        may still be given moves (the draw option's last roll needs them).  The order is stable: the same position and dice
        always give the same moves in the same order.

        >>> [str(m) for m in Position.from_points({13: 1}, {17: 1}).legal_moves("54")]
        ['13/8*/4', '13/9/4']
        """
        d = _DICE.get(dice) if type(dice) is tuple else None
        if d is None:
            d = Dice.coerce(dice)
        player = self.player
        keys = movegen.play_keys(
            list(player), list(self.opponent[::-1]), d.d1, d.d2, self.variant.hitter_rule
        )
        memo: dict[int, tuple[int, ...]] = {}
        # zip builds each move's content tuple in C: this is the hot path of every bot
        return tuple(
            map(_make_move, repeat(Move), zip(repeat(self), repeat(d), keys, repeat(memo)))
        )

    def _raw_plays(self, dice: Dice) -> dict[int, tuple[int, ...]]:
        """Every legal play with its steps (the reference generator), for notation."""
        return movegen.generic_plays(
            list(self.player), list(self.opponent[::-1]), dice.d1, dice.d2, self.variant.hitter_rule
        )

    def _hit_points(self, key: int) -> int:
        """A bit mask of the player's points where the move with this key hits."""
        return (int.from_bytes(bytes(self.player), "little") + key) >> movegen.BOARD_BITS

    def pass_move(self, dice: DiceLike) -> Move:
        """The empty move that passes the turn when a roll has no legal move.

        Raises :class:`IllegalMoveError` if the roll can be played.
        """
        d = Dice.coerce(dice)
        if self.legal_moves(d):
            raise IllegalMoveError(
                f"roll {d} can be played, so the turn cannot be passed; position {self.position_id()}"
            )
        return _make_move(Move, (self, d, 0, {0: ()}))

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
        key: int = tuple.__getitem__(move, 2)
        if not key:
            return Position._trusted(self.opponent, self.player, self.variant)
        value = int.from_bytes(bytes(self.player), "little") + key
        player = tuple((value & _BOARD_MASK).to_bytes(26, "little"))
        hits = value >> movegen.BOARD_BITS
        opponent = self.opponent
        if hits:
            theirs = list(opponent)
            while hits:
                low = hits & -hits
                theirs[25 - low.bit_length() + 1] -= 1
                theirs[25] += 1
                hits ^= low
            opponent = tuple(theirs)
        return Position._trusted(opponent, player, self.variant)

    def parse_move(self, text: str, dice: DiceLike) -> Move:
        """The legal move that ``text`` describes, in any common notation.

        Accepts paths in any order (``13/11 24/18``), combined moves (``24/13``),
        repeats (``8/5(2)``), ``bar``/``25`` and ``off``/``0``, optional ``*`` for
        hits, and ``pass`` (or empty text) when no move is possible.

        >>> start = Position.initial()
        >>> str(start.parse_move("24/13", "65"))
        '24/13'
        >>> start.parse_move("24/18", "65")
        Traceback (most recent call last):
        ...
        gammon.errors.IllegalMoveError: illegal move '24/18' with 65 in position 4HPwATDgc/ABMA: it plays 1 of the 2 dice that must be played
        """
        d = Dice.coerce(dice)
        legal = self.legal_moves(d)
        pid = self.position_id()
        if not isinstance(text, str):
            raise InvalidNotationError(f"invalid move {text!r}: expected text; position {pid}")
        if text.strip().lower() in PASS_WORDS:
            if legal:
                raise IllegalMoveError(
                    f"illegal move {text!r} with {d} in position {pid}: "
                    f"{len(legal)} legal moves exist, such as {legal[0]}"
                )
            return _make_move(Move, (self, d, 0, {0: ()}))
        try:
            paths = parse_move_text(text)
        except InvalidNotationError as exc:
            raise InvalidNotationError(f"{exc}; position {pid}") from None
        keys, dice_counts, no_blot = _candidate_keys(paths, d, self.opponent)
        matches = [m for m in legal if m.key in keys]
        if len(matches) == 1:
            return matches[0]
        if matches:
            options = ", ".join(str(m) for m in matches)
            raise AmbiguousMoveError(
                f"ambiguous move {text!r} with {d} in position {pid}: it can mean {options}"
            )
        need = len(legal[0]) if legal else 0
        if not legal:
            reason = "no move is possible with this roll (write 'pass')"
        elif dice_counts and max(dice_counts) < need:
            reason = f"it plays {max(dice_counts)} of the {need} dice that must be played"
        elif not dice_counts and no_blot:
            reason = f"there is no blot to hit on {', '.join(map(str, sorted(no_blot)))}"
        elif not dice_counts:
            reason = "the distances do not match the dice"
        else:
            reason = "the rules do not allow it (see legal_moves)"
        raise IllegalMoveError(f"illegal move {text!r} with {d} in position {pid}: {reason}")

    def step_options(self, dice: DiceLike, played: Iterable[Step] = ()) -> StepOptions:
        """For click-to-move clients: which single steps can follow ``played``.

        ``played`` are the steps already made this turn, in order.  The result lists
        the steps that can still be completed into a legal move, and says whether
        ``played`` already is a legal move.  Raises :class:`IllegalMoveError` if a
        played step cannot lead to a legal move.

        >>> opts = Position.initial().step_options("65", [Step(24, 18, 6)])
        >>> [str(s) for s in opts.steps], opts.complete
        (['18/13', '13/8', '8/3'], False)
        """
        d = Dice.coerce(dice)
        legal = {m.key: m for m in self.legal_moves(d)}
        if not legal:
            if any(True for _ in played):
                raise IllegalMoveError(
                    f"no move is possible with {d} in position {self.position_id()}"
                )
            return StepOptions((), True, _make_move(Move, (self, d, 0, {0: ()})), ())
        need = len(next(iter(legal.values())))
        rule = self.variant.hitter_rule
        m, o = self._boards()
        left = (d.d1,) * 4 if d.is_double else (d.d1, d.d2)
        # every board the played steps may have led to (the Caucasian rule can leave a
        # choice of which checker on a point is the hitter)
        states: list[_StepState] = [(tuple(m), tuple(o), (0,) * 26, 0, left)]
        played = list(played)
        for count, step in enumerate(played):
            if count >= need:
                raise IllegalMoveError(
                    f"illegal step {step} with {d} in position {self.position_id()}: "
                    f"the move is complete after {need} steps"
                )
            exact = [n for st in states for s, n in _next_states(st, rule) if s == step]
            loose = [
                n
                for st in states
                for s, n in _next_states(st, rule)
                if (s.from_point, s.to_point) == (step.from_point, step.to_point)
            ]
            states = list(dict.fromkeys(exact or loose))
            if not states:
                raise IllegalMoveError(
                    f"illegal step {step} with {d} in position {self.position_id()}"
                )
        steps_text = " ".join(map(str, played))
        if len(played) == need:
            for st in states:
                if st[3] in legal:
                    return StepOptions((), True, legal[st[3]], ())
            raise IllegalMoveError(
                f"steps {steps_text} do not make a legal move with {d} in position {self.position_id()}"
            )
        result: dict[tuple[int, int, int], Step] = {}
        remaining = need - len(played) - 1
        memo: dict[tuple[_StepState, int], frozenset[int]] = {}
        for st in states:
            for step, nxt in _next_states(st, rule):
                if _completions(nxt, remaining, rule, memo) & legal.keys():
                    result.setdefault((step.from_point, step.to_point, step.die), step)
        if played and not result:
            raise IllegalMoveError(
                f"steps {steps_text} cannot be completed into a legal move "
                f"with {d} in position {self.position_id()}"
            )
        dice_left = min((st[4] for st in states), key=len)
        return StepOptions(tuple(result.values()), False, None, dice_left)


# ---------------------------------------------------------------------- helpers


# (mover counts, opponent counts on the mover's points, hitters, key, dice left)
_StepState = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]


def _next_states(state: _StepState, rule: str) -> list[tuple[Step, _StepState]]:
    """Every single step from ``state``, with the state it leads to.

    Under a hitter rule a point may hold hitters and plain checkers; moving either
    kind is a separate choice with its own resulting state.
    """
    m, o, hitters, key, left = state
    out: list[tuple[Step, _StepState]] = []
    for die in sorted(set(left), reverse=True):
        rest = list(left)
        rest.remove(die)
        for s, t in movegen.step_sources(list(m), list(o), die):
            hit = t > 0 and o[t] == 1
            kinds = [False]
            if rule != "none":
                kinds = [k for k, ok in ((False, m[s] > hitters[s]), (True, hitters[s] > 0)) if ok]
            for is_hitter in kinds:
                if is_hitter and (rule == "frozen_in_home" or (t > 0 and m[t] > 0)):
                    continue
                m2 = list(m)
                m2[s] -= 1
                m2[t] += 1
                o2 = list(o)
                if hit:
                    o2[t] = 0
                h2 = list(hitters)
                if is_hitter:
                    h2[s] -= 1
                if rule != "none" and t > 0 and (is_hitter or (hit and t <= 6)):
                    h2[t] += 1
                k = key + _W[t] - _W[s] + (_H[t] if hit else 0)
                out.append(
                    (Step(s, t, die, hit), (tuple(m2), tuple(o2), tuple(h2), k, tuple(rest)))
                )
    return out


def _completions(
    state: _StepState, need: int, rule: str, memo: dict[tuple[_StepState, int], frozenset[int]]
) -> frozenset[int]:
    """Keys reachable from ``state`` by playing exactly ``need`` more steps.

    ``memo`` holds the answers already found: the same board is reached by many
    orders of the same steps (a double from the opening has thousands of orders).
    """
    if need == 0:
        return frozenset((state[3],))
    found = memo.get((state, need))
    if found is None:
        out: set[int] = set()
        for _, nxt in _next_states(state, rule):
            out |= _completions(nxt, need - 1, rule, memo)
        found = memo[(state, need)] = frozenset(out)
    return found


def _candidate_keys(
    paths: list[Path], dice: Dice, opponent: tuple[int, ...]
) -> tuple[set[int], set[int], set[int]]:
    """Keys of every reading of ``paths`` with these dice, the dice counts they use, and
    the points where a ``*`` was written with no blot to hit.

    A path segment may take one die or several (each stop is a landing); a
    segment ending off may overshoot with its last die.  A landing on an opposing
    blot hits it; a ``*`` written where nothing can be hit makes the reading fail.
    """
    segments: list[tuple[int, int, bool]] = []
    for path in paths:
        for i in range(len(path.points) - 1):
            segments.append((path.points[i], path.points[i + 1], path.hits[i + 1]))
    o = opponent[::-1]
    dice_pool = [dice.d1] * 4 if dice.is_double else [dice.d1, dice.d2]
    keys: set[int] = set()
    counts: set[int] = set()
    no_blot: set[int] = set()

    def cover(i: int, pool: list[int], landings: list[int], used: int) -> None:
        if i == len(segments):
            key = sum(_W[t] - _W[s] for s, t, _ in segments)
            key += sum(_H[t] for t in set(landings) if t > 0 and o[t] == 1)
            keys.add(key)
            counts.add(used)
            return
        s, t, star = segments[i]
        if star and not (t > 0 and o[t] == 1):
            no_blot.add(t)
            return
        dist = s - t

        def take(pos: int, pool: list[int], stops: list[int], n: int) -> None:
            for j, die in enumerate(pool):
                if j and die in pool[:j]:
                    continue
                nxt = pos - die
                rest = pool[:j] + pool[j + 1 :]
                if nxt == t or (t == 0 and nxt < 0):
                    cover(i + 1, rest, landings + stops + [t], used + n + 1)
                elif nxt > t:
                    take(nxt, rest, [*stops, nxt], n + 1)

        if dist > 0:
            take(s, pool, [], 0)

    cover(0, dice_pool, [], 0)
    return keys, counts, no_blot
