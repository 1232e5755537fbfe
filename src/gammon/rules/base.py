"""What every rules family shares: the protocol a rules object follows, the result of
a game, and the click-to-move search.

A rules object (:func:`gammon.rules.rules_for`) answers for one variant what differs
between the families: which plays a roll allows, the position after one, how move
text matches them, which single steps a click-to-move client may take.  It reads a
position through :class:`PositionLike` and returns plain data (integer keys, raw steps,
side counts); :class:`gammon.Position` wraps that data into moves and positions.

A raw step is ``(from, to, die, hit)`` in the mover's numbering; a play is the flat
tuple of its raw steps, and its *key* is a non-zero integer that identifies the
position it reaches among the plays of one position (0 is the pass).

>>> from gammon import Position
>>> Position.from_points({}, {6: 14}, opponent_bar=1).result()
GameResult(winner='player', points=3)
"""

from __future__ import annotations

from collections.abc import Callable, Container, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal, Protocol, TypeVar

from gammon.dice import Dice
from gammon.errors import IllegalMoveError, InvalidPositionError
from gammon.notation.movetext import Path
from gammon.variants import Variant

__all__ = [
    "COUNTED",
    "GameResult",
    "LazyPlays",
    "PositionLike",
    "RawPlay",
    "RawStep",
    "Rules",
    "Sides",
    "StepLike",
    "StepSearch",
    "StepWalk",
    "VariantRules",
    "check_counts",
    "game_result",
    "how_many",
    "is_drawn",
    "path_ends",
    "search_steps",
    "side_from_points",
]

#: One checker moved by one die: ``(from, to, die, hit)`` (hit: 1 for a hit or a pin).
RawStep = tuple[int, int, int, int]
#: A play as flat raw steps: ``(from, to, die, hit, from, to, die, hit, ...)``.
RawPlay = tuple[int, ...]
#: The fields of a position: player, opponent, pinned, waiting (see :class:`PositionLike`).
Sides = tuple[tuple[int, ...], tuple[int, ...], tuple[int, int], tuple[int, int]]


class PositionLike(Protocol):
    """What the rules, the drawings and the text formats read from a position.

    :class:`gammon.Position` is one; lower modules take this protocol instead of
    importing it.  ``player`` and ``opponent`` are 26 counts in each side's own
    numbering (0 off, 1..24, 25 bar); ``pinned`` bit masks of each side's pinned
    checkers (plakoto), ``waiting`` each side's checkers still to enter (acey-deucey).
    """

    @property
    def player(self) -> tuple[int, ...]: ...
    @property
    def opponent(self) -> tuple[int, ...]: ...
    @property
    def variant(self) -> Variant: ...
    @property
    def pinned(self) -> tuple[int, int]: ...
    @property
    def waiting(self) -> tuple[int, int]: ...
    def position_id(self) -> str: ...
    def pip_count(self) -> tuple[int, int]: ...


class StepLike(Protocol):
    """A step played by a click-to-move client (:class:`gammon.Step`)."""

    @property
    def from_point(self) -> int: ...
    @property
    def to_point(self) -> int: ...
    @property
    def die(self) -> int: ...


#: Who won a game, from the side of the player on roll.
Winner = Literal["player", "opponent"]


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a finished game was won: ``points`` is 1 (single), 2 (gammon) or 3 (backgammon)."""

    #: ``"player"`` if the player on roll has borne everything off, else ``"opponent"``.
    winner: Winner
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


#: How far a refusal counts the legal moves it names (an acey-deucey 1-2 has up to 110,000:
#: counting them all would cost a fifth of a second).
COUNTED: Final = 1000


def how_many(n: int) -> str:
    """``n`` legal moves, as a refusal names them (counted up to :data:`COUNTED`).

    >>> how_many(21), how_many(1001)
    ('21', 'over 1000')
    """
    return f"over {COUNTED}" if n > COUNTED else str(n)


def path_ends(paths: list[Path]) -> tuple[list[int], set[int]]:
    """What written paths say of a play, stopovers aside: each point's change in the
    mover's checkers (index 0 borne off, 25 the bar) and the points marked ``*``.

    >>> from gammon.notation.movetext import parse_move_text
    >>> delta, stars = path_ends(parse_move_text("13/8*/4 6/4"))
    >>> delta[13], delta[6], delta[4], stars
    (-1, -1, 2, {8})
    """
    delta = [0] * 26
    stars: set[int] = set()
    for path in paths:
        delta[path.points[0]] -= 1
        delta[path.points[-1]] += 1
        stars |= {pt for pt, hit in zip(path.points, path.hits, strict=True) if hit}
    return delta, stars


def side_from_points(
    name: str, points: Mapping[int, int], bar: int, checkers: int
) -> tuple[int, ...]:
    """One side's 26 counts from a ``{point: count}`` map in its own numbering and its
    bar; the checkers on neither are borne off.  Raises :class:`InvalidPositionError`.

    >>> side_from_points("player", {6: 2, 8: 1}, 1, 15)[:9], side_from_points("p", {}, 0, 15)[25]
    ((11, 0, 0, 0, 0, 0, 2, 0, 1), 0)
    """
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
    if on_board > checkers:
        raise InvalidPositionError(f"{name} has {on_board} checkers, at most {checkers}")
    counts[0] = checkers - on_board
    return tuple(counts)


def check_counts(
    variant: Variant,
    sides: Iterable[tuple[str, object, int]],
) -> None:
    """Each side is 26 non-negative counts that, with its ``waiting`` checkers, make the
    variant's number of checkers; raises :class:`InvalidPositionError` otherwise.

    ``sides`` are ``(name, counts, waiting)``.
    """
    n = variant.checkers
    for name, side, wait in sides:
        if not isinstance(side, tuple) or len(side) != 26:
            raise InvalidPositionError(f"{name} must be a tuple of 26 counts (off, 1..24, bar)")
        for c in side:
            if type(c) is not int or c < 0:
                raise InvalidPositionError(f"{name} has a bad count {c!r}")
        if sum(side) + wait != n:
            also = " and waiting" if variant.enter_from_off else ""
            raise InvalidPositionError(
                f"{name} has {sum(side) + wait} checkers (counting those off{also}), "
                f"{variant.name} needs {n}"
            )


def _mother_pinned(pins: int) -> bool:
    """Whether a side's checker on its own 24-point (its "mother") is pinned."""
    return bool(pins >> 24 & 1)


def is_drawn(pos: PositionLike) -> bool:
    """Plakoto: both mothers pinned (no other variant has a draw on the board)."""
    return (
        pos.variant.mother_rule and _mother_pinned(pos.pinned[0]) and _mother_pinned(pos.pinned[1])
    )


def game_result(pos: PositionLike) -> GameResult | None:
    """The result of a finished game (rules.md R12), for every variant.

    A gammon when the loser has borne nothing off, a backgammon (opposite movement
    only) when it also still has a checker on the bar, waiting to enter or in the
    winner's home board; capped by the variant's ``max_result``.  Plakoto's mother
    rule ends a game at 2 points.  None while the game goes on, and when both sides
    have finished (the draw option's last roll, rules.md D10).
    """
    v = pos.variant
    n = v.checkers
    player, opponent = pos.player, pos.opponent
    if player[0] == n and opponent[0] == n:
        return None
    sides: tuple[tuple[Winner, tuple[int, ...], tuple[int, ...], int], ...] = (
        ("player", player, opponent, pos.waiting[1]),
        ("opponent", opponent, player, pos.waiting[0]),
    )
    for winner, side, loser, wait in sides:
        if side[0] == n:
            if loser[0]:
                points = 1
            elif any(loser[19:26]) or wait:
                points = 3 if v.movement == "opposite" else 2
            else:
                points = 2
            return GameResult(winner, min(points, v.max_result))
    if v.mother_rule and not is_drawn(pos):
        # the side whose mother is pinned loses, unless the pinner's own mother is home
        for (winner, side, _, _), pins in zip(sides, pos.pinned[::-1], strict=True):
            if _mother_pinned(pins) and not side[24]:
                return GameResult(winner, min(2, v.max_result))
    return None


@dataclass(frozen=True, slots=True)
class StepSearch:
    """Where a click-to-move turn stands (:meth:`gammon.Position.step_options` wraps it)."""

    #: Raw steps that can still be completed into a legal play.
    steps: tuple[RawStep, ...]
    #: The key of the legal play the played steps make, if they make one.
    complete: int | None
    #: Dice still to play (empty when no step is left).
    dice_left: tuple[int, ...]


N = TypeVar("N", bound=Hashable)


class StepWalk(Protocol[N]):
    """A family's single-step moves on its own search nodes (a board and the dice left)."""

    def successors(self, node: N) -> list[tuple[RawStep, N]]:
        """Every single step from ``node``, with the node it leads to."""
        ...

    def key(self, node: N) -> int:
        """The play key of the board of ``node``."""
        ...

    def left(self, node: N) -> tuple[int, ...]:
        """The dice still to play at ``node``."""
        ...


def search_steps(
    walk: StepWalk[N],
    start: list[N],
    legal: Container[int],
    need: int,
    played: Sequence[StepLike],
    where: str,
    *,
    exact: bool,
    settled: Callable[[N, int], bool] | None = None,
) -> StepSearch:
    """The click-to-move search, shared by every family.

    Follows ``played`` from ``start`` (a step matches by its points, and by its die
    when some successor has that die too), then offers every step from which a legal
    play (a key in ``legal``) can still be reached.  Legal plays take at most ``need``
    steps; with ``exact`` every one takes exactly ``need`` (the backgammon board: a
    checker borne off with one die is not the same play as one taken off with two,
    even though both reach the same board).  ``where`` ends error messages
    (``"with 65 in position <ID>"``).  ``settled(node, depth)``, when given, says True
    of a node it knows to lead to a legal play, which is then not searched.  Raises :class:`IllegalMoveError` when a played
    step is impossible or cannot lead to a legal play.
    """
    nodes = start
    for count, step in enumerate(played):
        if count >= need:
            raise IllegalMoveError(
                f"illegal step {step} {where}: the move is complete after {need} steps"
            )
        route = (step.from_point, step.to_point)
        found = [(raw, n) for node in nodes for raw, n in walk.successors(node) if raw[:2] == route]
        same_die = [n for raw, n in found if raw[2] == step.die]
        nodes = list(dict.fromkeys(same_die or [n for _, n in found]))
        if not nodes:
            raise IllegalMoveError(f"illegal step {step} {where}")
    memo: dict[tuple[N, int], bool] = {}

    def ends(node: N, depth: int) -> bool:
        """Whether the board of ``node``, reached in ``depth`` steps, is a legal play."""
        return (depth == need or not exact) and walk.key(node) in legal

    def reaches(node: N, depth: int) -> bool:
        found = memo.get((node, depth))
        if found is None:
            found = (
                (settled is not None and settled(node, depth))
                or ends(node, depth)
                or (
                    depth < need
                    and any(
                        reaches(n, depth + 1)  # noqa: F821 (del below)
                        for _, n in walk.successors(node)
                    )
                )
            )
            memo[node, depth] = found
        return found

    steps: dict[tuple[int, int, int], RawStep] = {}
    complete: int | None = None
    left: tuple[int, ...] | None = None
    depth = len(played)
    for node in nodes:
        if played and complete is None and ends(node, depth):
            complete = walk.key(node)
        for raw, nxt in walk.successors(node):
            if reaches(nxt, depth + 1):
                steps.setdefault(raw[:3], raw)
                if left is None:
                    left = walk.left(node)
    del reaches  # a closure that refers to itself: free it now
    if played and complete is None and not steps:
        text = " ".join(map(str, played))
        raise IllegalMoveError(f"steps {text} cannot be completed into a legal move {where}")
    return StepSearch(tuple(steps.values()), complete, left or ())


class LazyPlays(Protocol):
    """A roll's legal plays, never all listed (:class:`gammon.rules.bonus.BonusPlays`);
    there is at least one.  Every answer is the one the full list gives."""

    def __contains__(self, key: object) -> bool:
        """Whether the board ``key`` is a legal play."""
        ...

    def raw(self, key: int) -> RawPlay:
        """The raw steps of the legal play ``key``."""
        ...

    def first(self) -> int:
        """The key of the first legal play."""
        ...

    def count(self, limit: int | None = None) -> int:
        """How many legal plays there are (``limit + 1`` when more than ``limit``)."""
        ...

    def need(self) -> int:
        """The most steps a legal play takes."""
        ...

    def match(self, paths: list[Path]) -> list[int]:
        """The legal plays ``paths`` can mean, in the order of the full list."""
        ...


class VariantRules:
    """What every rules class shares: the variant it plays, a repr and pickling."""

    __slots__ = ("_variant",)

    def __init__(self, variant: Variant) -> None:
        self._variant = variant

    @property
    def variant(self) -> Variant:
        """The variant these rules play."""
        return self._variant

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._variant!r})"

    def __reduce__(self) -> tuple[type[VariantRules], tuple[Variant]]:
        return (type(self), (self._variant,))


class Rules(Protocol):
    """One family's rules for one variant (scalachess's ``variant.validMoves``).

    Every method reads the position it is given and returns plain data; none keeps
    state between calls beyond caches of pure answers.
    """

    @property
    def variant(self) -> Variant:
        """The variant these rules play."""
        ...

    def validate(self, pos: PositionLike) -> None:
        """Raise :class:`gammon.InvalidPositionError` if ``pos`` cannot occur."""
        ...

    def plays(self, pos: PositionLike, dice: Dice) -> tuple[Iterable[int], dict[int, RawPlay]]:
        """The key of every legal play in a stable order, and a memo of their raw steps
        (possibly empty: :meth:`raw_plays` fills it on demand)."""
        ...

    def raw_plays(self, pos: PositionLike, dice: Dice) -> dict[int, RawPlay]:
        """Every legal play with its raw steps, by key."""
        ...

    def lazy_plays(self, pos: PositionLike, dice: Dice) -> LazyPlays | None:
        """The legal plays answered one at a time, where listing them all is slow
        (acey-deucey's 1-2); None where :meth:`plays` is the way."""
        ...

    def after(self, pos: PositionLike, key: int) -> Sides:
        """The fields of the position after the play ``key``, seen by the next player."""
        ...

    def hits(self, pos: PositionLike, key: int) -> int:
        """How many opposing checkers the play ``key`` hits (or pins)."""
        ...

    def blots(self, pos: PositionLike) -> frozenset[int]:
        """The mover's points holding a lone opposing checker it could hit (for move text)."""
        ...

    def is_race(self, pos: PositionLike) -> bool:
        """Whether no checker can meet an opposing one any more."""
        ...

    def max_paths(self) -> int:
        """The most checker paths a move may write (six for acey-deucey's 1-2)."""
        ...

    def match_paths(
        self, pos: PositionLike, paths: list[Path], dice: Dice, keys: Sequence[int]
    ) -> list[int]:
        """The keys (among ``keys``, the legal plays) that the written ``paths`` can mean."""
        ...

    def why_illegal(
        self, pos: PositionLike, paths: list[Path], dice: Dice, keys: Sequence[int]
    ) -> str:
        """Why no legal play (``keys``, not empty) matches ``paths``."""
        ...

    def step_search(
        self,
        pos: PositionLike,
        dice: Dice,
        legal: Container[int],
        need: int,
        played: Sequence[StepLike],
    ) -> StepSearch:
        """The click-to-move search (:func:`search_steps` on the family's own nodes)."""
        ...
