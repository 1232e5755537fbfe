"""The actions of a match: what a player (or the server for a player) does.

Every action names the seat (0 or 1) that acts.  Actions are frozen values and
turn into JSON-ready dicts for the action log.

>>> action_from_dict({"type": "roll", "player": 0, "dice": "31"})
Roll(player=0, dice=Dice(3, 1))
>>> action_to_dict(Resign(1, 2))
{'type': 'resign', 'player': 1, 'level': 2}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from gammon.dice import Dice
from gammon.errors import InvalidNotationError

__all__ = [
    "Abandon",
    "AcceptResign",
    "Action",
    "Beaver",
    "Double",
    "Drop",
    "Play",
    "Raccoon",
    "RejectResign",
    "Resign",
    "Roll",
    "Take",
    "Timeout",
    "action_from_dict",
    "action_to_dict",
]


@dataclass(frozen=True, slots=True)
class _Base:
    player: int

    def __post_init__(self) -> None:
        if self.player not in (0, 1) or type(self.player) is not int:
            raise InvalidNotationError(f"player must be seat 0 or 1, got {self.player!r}")


@dataclass(frozen=True, slots=True)
class Roll(_Base):
    """Roll the dice.  In the opening roll-off ``dice.d1`` is player 0's die and ``d2`` player 1's."""

    dice: Dice


@dataclass(frozen=True, slots=True)
class Play(_Base):
    """Play a move, written in any notation :meth:`gammon.Position.parse_move` reads (``pass`` when none)."""

    move: str


@dataclass(frozen=True, slots=True)
class Double(_Base):
    """Offer a double (before rolling)."""


@dataclass(frozen=True, slots=True)
class Take(_Base):
    """Accept the cube offered (or the beaver, or the raccoon)."""


@dataclass(frozen=True, slots=True)
class Drop(_Base):
    """Refuse the cube: the game ends at the value before the offer."""


@dataclass(frozen=True, slots=True)
class Beaver(_Base):
    """Money play: redouble at once when doubled, keeping the cube."""


@dataclass(frozen=True, slots=True)
class Raccoon(_Base):
    """Money play: after a beaver, the doubler redoubles again at once."""


@dataclass(frozen=True, slots=True)
class Resign(_Base):
    """Offer to resign a single (1), gammon (2) or backgammon (3); the opponent accepts or not."""

    level: int

    def __post_init__(self) -> None:
        _Base.__post_init__(self)
        if self.level not in (1, 2, 3) or type(self.level) is not int:
            raise InvalidNotationError(f"resignation level must be 1, 2 or 3, got {self.level!r}")


@dataclass(frozen=True, slots=True)
class AcceptResign(_Base):
    """Accept the resignation offered."""


@dataclass(frozen=True, slots=True)
class RejectResign(_Base):
    """Reject the resignation offered: play goes on."""


@dataclass(frozen=True, slots=True)
class Abandon(_Base):
    """ "Abandonner": end the game now, scored from the board under the end setting."""


@dataclass(frozen=True, slots=True)
class Timeout(_Base):
    """The player's clock ran out: scored like an abandon."""


Action = (
    Roll
    | Play
    | Double
    | Take
    | Drop
    | Beaver
    | Raccoon
    | Resign
    | AcceptResign
    | RejectResign
    | Abandon
    | Timeout
)

_NAMES: Final[dict[type, str]] = {
    Roll: "roll",
    Play: "move",
    Double: "double",
    Take: "take",
    Drop: "drop",
    Beaver: "beaver",
    Raccoon: "raccoon",
    Resign: "resign",
    AcceptResign: "accept_resign",
    RejectResign: "reject_resign",
    Abandon: "abandon",
    Timeout: "timeout",
}
_TYPES: Final[dict[str, type]] = {name: cls for cls, name in _NAMES.items()}


def action_name(action: Action) -> str:
    """The action's type name in logs and the protocol (``roll``, ``move``, ``double``, ...)."""
    return _NAMES[type(action)]


def action_to_dict(action: Action) -> dict[str, Any]:
    """A JSON-ready dict of an action."""
    data: dict[str, Any] = {"type": _NAMES[type(action)], "player": action.player}
    if isinstance(action, Roll):
        data["dice"] = f"{action.dice.d1}{action.dice.d2}"
    elif isinstance(action, Play):
        data["move"] = action.move
    elif isinstance(action, Resign):
        data["level"] = action.level
    return data


def action_from_dict(data: Any) -> Action:
    """Read an action from a dict such as :func:`action_to_dict` writes.

    Raises :class:`InvalidNotationError` for anything else.

    >>> action_from_dict({"type": "fly", "player": 0})
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidNotationError: unknown action type 'fly'
    """
    if not isinstance(data, dict):
        raise InvalidNotationError(f"an action is an object, got {data!r}"[:200])
    kind = data.get("type")
    cls = _TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InvalidNotationError(f"unknown action type {kind!r}"[:200])
    player = data.get("player")
    expected = {"type", "player"} | (
        {"dice"}
        if cls is Roll
        else {"move"}
        if cls is Play
        else {"level"}
        if cls is Resign
        else set()
    )
    extra = set(data) - expected
    if extra:
        raise InvalidNotationError(
            f"unexpected fields for {kind}: {', '.join(sorted(map(str, extra)))}"[:200]
        )
    if cls is Roll:
        dice = data.get("dice")
        if not isinstance(dice, str):
            raise InvalidNotationError(f"roll needs dice like '31', got {dice!r}"[:200])
        return Roll(player, Dice.parse(dice))  # type: ignore[arg-type]
    if cls is Play:
        move = data.get("move")
        if not isinstance(move, str):
            raise InvalidNotationError(f"move needs text, got {move!r}"[:200])
        return Play(player, move)  # type: ignore[arg-type]
    if cls is Resign:
        return Resign(player, data.get("level"))  # type: ignore[arg-type]
    result: Action = cls(player)
    return result
